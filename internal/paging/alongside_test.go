package paging

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/reten-io/reten/internal/database"
)

// TestAlongsideByPoolLoad: the count runs beside the page while the
// request's pool has fewer than QuietConnections connections in use, and
// after it otherwise (and without a pool). The pool is the pages pool for
// a list run under database.WithGenericPlans. The first read waits for the
// second: beside, it sees it; in turn, it cannot and says so.
func TestAlongsideByPoolLoad(t *testing.T) {
	open := func() *sql.DB {
		db, err := sql.Open("sqlite", "file::memory:")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		return db
	}
	db, pages := open(), open()
	errInTurn := errors.New("the second read had not started")
	run := func(ctx context.Context) error {
		started := make(chan struct{})
		return alongside(ctx, func() error {
			select {
			case <-started:
				return nil
			case <-time.After(500 * time.Millisecond):
				return errInTurn
			}
		}, func() error {
			close(started)
			return nil
		})
	}
	ctx := WithPool(context.Background(), db, pages)
	marked := database.WithGenericPlans(ctx)
	if err := run(ctx); err != nil {
		t.Fatalf("quiet pool: %v, want the reads side by side", err)
	}
	hold := func(db *sql.DB) []*sql.Conn {
		var held []*sql.Conn
		for range QuietConnections {
			c, err := db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			held = append(held, c)
			t.Cleanup(func() { _ = c.Close() })
		}
		return held
	}
	held := hold(db)
	if err := run(ctx); !errors.Is(err, errInTurn) {
		t.Fatalf("busy pool (%d in use): %v, want the reads in turn", db.Stats().InUse, err)
	}
	if err := run(marked); err != nil {
		t.Fatalf("busy pool, quiet pages pool, marked list: %v, want the reads side by side", err)
	}
	heldPages := hold(pages)
	if err := run(marked); !errors.Is(err, errInTurn) {
		t.Fatalf("busy pages pool, marked list: %v, want the reads in turn", err)
	}
	_ = heldPages[0].Close()
	if err := run(marked); err != nil {
		t.Fatalf("pages pool quiet again, marked list: %v, want the reads side by side", err)
	}
	_ = held[0].Close()
	if err := run(ctx); err != nil {
		t.Fatalf("pool quiet again: %v, want the reads side by side", err)
	}
	if err := run(context.Background()); !errors.Is(err, errInTurn) {
		t.Fatalf("no pool: %v, want the reads in turn", err)
	}
}
