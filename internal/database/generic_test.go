package database

import (
	"context"
	"os"
	"testing"
)

// TestGenericPlansPool: a statement run under WithGenericPlans runs on the
// pages pool, whose connections plan it once for any arguments and run
// that plan from the first run on (PostgreSQL's default would plan the
// first five runs for their arguments, and every later one as well when
// the generic plan's estimate came out higher); any other statement, and
// every statement of a transaction (marked or not), runs on the service's
// pool, planned for its arguments.
func TestGenericPlansPool(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return
	}
	db, drv := openOnePageConn(t)
	ctx, marked := context.Background(), WithGenericPlans(context.Background())
	const mode = `SELECT current_setting('plan_cache_mode') || $1::text`
	var got string
	if err := scanOne(ctx, drv, mode, "", &got); err != nil || got != "force_custom_plan" {
		t.Fatalf("unmarked: plan_cache_mode %q (%v), want force_custom_plan", got, err)
	}
	if err := scanOne(marked, drv, mode, "", &got); err != nil || got != "force_generic_plan" {
		t.Fatalf("marked: plan_cache_mode %q (%v), want force_generic_plan", got, err)
	}
	dtx, err := drv.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = dtx.Rollback() }()
	if err := scanOne(marked, dtx.(preparedTx).Tx, mode, "", &got); err != nil || got != "force_custom_plan" {
		t.Fatalf("marked, in a transaction: plan_cache_mode %q (%v), want force_custom_plan", got, err)
	}
	for range 5 {
		if err := scanOne(marked, drv, mode, "", &got); err != nil {
			t.Fatal(err)
		}
	}
	var plans string
	const count = `SELECT generic_plans || ' generic, ' || custom_plans || ' custom' FROM pg_prepared_statements WHERE statement = $1`
	if err := scanOne(marked, drv, count, mode, &plans); err != nil || plans != "6 generic, 0 custom" {
		t.Fatalf("after six runs on the pages pool: %s plans (%v), want 6 generic, 0 custom", plans, err)
	}
	if st := db.Pages.Stats(); st.OpenConnections != 1 || db.SQL.Stats().OpenConnections == 0 {
		t.Fatalf("pages pool: %d connections, service pool %d; want 1 and some", st.OpenConnections, db.SQL.Stats().OpenConnections)
	}
}

// openOnePageConn opens a prepared pool whose pages pool has one
// connection, which the statements of a test then share.
func openOnePageConn(t *testing.T) (*DB, *preparedDriver) {
	t.Helper()
	db := openPrepared(t, DefaultPrepared)
	db.Pages.SetMaxOpenConns(1)
	return db, db.Driver.(*preparedDriver)
}
