package paging

import (
	"context"
	"database/sql"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/database"
)

// TestBesideByPoolLoad: a later page is counted beside it while the
// request's pool has fewer than QuietConnections connections in use, and
// in the page's statement otherwise (and without a pool, and in a
// transaction). The pool is the pages pool for a list run under
// database.WithGenericPlans.
func TestBesideByPoolLoad(t *testing.T) {
	open := func() *sql.DB {
		db, err := sql.Open("sqlite", "file::memory:")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		return db
	}
	db, pages := open(), open()
	ctx := WithPool(context.Background(), db, pages)
	marked := database.WithGenericPlans(ctx)
	expect := func(ctx context.Context, want bool, when string) {
		t.Helper()
		if got := beside(ctx); got != want {
			t.Fatalf("%s: counted beside the page %t, want %t", when, got, want)
		}
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
	expect(ctx, true, "quiet pool")
	expect(ent.NewTxContext(ctx, &ent.Tx{}), false, "in a transaction")
	held := hold(db)
	expect(ctx, false, "busy pool")
	expect(marked, true, "busy pool, quiet pages pool, marked list")
	heldPages := hold(pages)
	expect(marked, false, "busy pages pool, marked list")
	_ = heldPages[0].Close()
	expect(marked, true, "pages pool quiet again, marked list")
	_ = held[0].Close()
	expect(ctx, true, "pool quiet again")
	expect(context.Background(), false, "no pool")
}
