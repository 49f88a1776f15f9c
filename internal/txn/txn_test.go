package txn_test

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/tenant"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

var errStop = errors.New("stop")

// newTenant writes a tenant called name through c.
func newTenant(ctx context.Context, c *ent.Client, name string) (*ent.Tenant, error) {
	return c.Tenant.Create().SetName(name).SetNameKey(name).Save(ctx)
}

// tenants counts the tenants called one of names.
func tenants(t *testing.T, db *dbtest.DB, names ...string) int {
	t.Helper()
	n, err := db.Client.Tenant.Query().Where(tenant.NameIn(names...)).Count(viewer.SystemContext(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestRunCommitsOrRollsBackAsAWhole(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		ctx := viewer.SystemContext(context.Background())
		write := func(names ...string) func(ctx context.Context, tx *ent.Client) error {
			return func(ctx context.Context, tx *ent.Client) error {
				for _, n := range names {
					if _, err := newTenant(ctx, tx, n); err != nil {
						return err
					}
				}
				return nil
			}
		}
		// An error after two writes: neither stays, and the error is fn's.
		err := txn.Run(ctx, db.Client, func(ctx context.Context, tx *ent.Client) error {
			if err := write("a", "b")(ctx, tx); err != nil {
				return err
			}
			return errStop
		})
		if !errors.Is(err, errStop) || tenants(t, db, "a", "b") != 0 {
			t.Fatalf("after an error: %v, %d tenants", err, tenants(t, db, "a", "b"))
		}
		// A panic rolls back too, and goes on.
		func() {
			defer func() {
				if p := recover(); p != errStop {
					t.Fatalf("panic = %v", p)
				}
			}()
			_ = txn.Run(ctx, db.Client, func(ctx context.Context, tx *ent.Client) error {
				_ = write("c")(ctx, tx)
				panic(errStop)
			})
		}()
		if n := tenants(t, db, "c"); n != 0 {
			t.Fatalf("after a panic: %d tenants", n)
		}
		if err := txn.Run(ctx, db.Client, write("d", "e")); err != nil || tenants(t, db, "d", "e") != 2 {
			t.Fatalf("commit: %v, %d tenants", err, tenants(t, db, "d", "e"))
		}
	})
}

func TestRunJoinsTheEnclosingRun(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		ctx := viewer.SystemContext(context.Background())
		err := txn.Run(ctx, db.Client, func(ctx context.Context, tx *ent.Client) error {
			if _, err := newTenant(ctx, tx, "outer"); err != nil {
				return err
			}
			inner := txn.Run(ctx, db.Client, func(ctx context.Context, itx *ent.Client) error {
				// The same transaction: the outer write is visible, through txn.Client too.
				n, err := txn.Client(ctx, db.Client).Tenant.Query().Where(tenant.Name("outer")).Count(ctx)
				if err != nil || n != 1 || itx != tx {
					t.Errorf("inner run: %d tenants (%v), same client %t", n, err, itx == tx)
				}
				_, err = newTenant(ctx, itx, "inner")
				return err
			})
			if inner != nil {
				return inner
			}
			return errStop // the enclosing run decides for both
		})
		if !errors.Is(err, errStop) || tenants(t, db, "outer", "inner") != 0 {
			t.Fatalf("%v, %d tenants", err, tenants(t, db, "outer", "inner"))
		}
		if c := txn.Client(ctx, db.Client); c != db.Client {
			t.Fatal("outside a run, Client is the fallback")
		}
	})
}

// TestEntitiesOutliveTheirTransaction: an entity written in a Run loads its
// edges once the Run has committed (a GraphQL selection does), and cannot
// write through the ended transaction.
func TestEntitiesOutliveTheirTransaction(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		ctx := viewer.SystemContext(context.Background())
		p, err := txn.Value(ctx, db.Client, func(ctx context.Context, tx *ent.Client) (*ent.Project, error) {
			tn, err := newTenant(ctx, tx, "acme")
			if err != nil {
				return nil, err
			}
			return tx.Project.Create().SetTenantID(tn.ID).SetName("Main").SetNameKey("main").Save(ctx)
		})
		if err != nil {
			t.Fatal(err)
		}
		if tn, err := p.QueryTenant().Only(ctx); err != nil || tn.Name != "acme" {
			t.Fatalf("edge after commit: %v, %v", tn, err)
		}
		if err := p.Update().SetName("Other").Exec(ctx); !errors.Is(err, sql.ErrTxDone) {
			t.Fatalf("write through the ended transaction: %v, want %v", err, sql.ErrTxDone)
		}

		// Without Driver, ent leaves the entity bound to the ended transaction.
		plain := ent.NewClient(ent.Driver(entsql.OpenDB(db.Dialect, db.SQL)))
		p, err = txn.Value(ctx, plain, func(ctx context.Context, tx *ent.Client) (*ent.Project, error) {
			return tx.Project.Query().First(ctx)
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.QueryTenant().Only(ctx); !errors.Is(err, sql.ErrTxDone) {
			t.Fatalf("edge after commit without Driver: %v, want %v", err, sql.ErrTxDone)
		}
	})
}
