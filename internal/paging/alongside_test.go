package paging

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// TestAlongsideByPoolLoad: the count runs beside the page while the
// request's pool has fewer than QuietConnections connections in use, and
// after it otherwise (and without a pool). The first read waits for the
// second: beside, it sees it; in turn, it cannot and says so.
func TestAlongsideByPoolLoad(t *testing.T) {
	db, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
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
	ctx := WithPool(context.Background(), db)
	if err := run(ctx); err != nil {
		t.Fatalf("quiet pool: %v, want the reads side by side", err)
	}
	var held []*sql.Conn
	for range QuietConnections {
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
		t.Cleanup(func() { _ = c.Close() })
	}
	if err := run(ctx); !errors.Is(err, errInTurn) {
		t.Fatalf("busy pool (%d in use): %v, want the reads in turn", db.Stats().InUse, err)
	}
	_ = held[0].Close()
	if err := run(ctx); err != nil {
		t.Fatalf("pool quiet again: %v, want the reads side by side", err)
	}
	if err := run(context.Background()); !errors.Is(err, errInTurn) {
		t.Fatalf("no pool: %v, want the reads in turn", err)
	}
}
