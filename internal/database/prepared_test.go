package database

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/reten-io/reten/internal/testpg"
)

// These tests talk to the PostgreSQL of TEST_DATABASE_URL and run only when
// it is set, like the postgres half of apptest.Each.

// openPrepared opens a pool of a fresh schema whose driver keeps max
// statements prepared.
func openPrepared(t *testing.T, max int) *DB {
	t.Helper()
	_, dsn := testpg.Create(t, "prep_")
	db, err := Open(dsn, Settings{StatementTimeout: DefaultStatementTimeout, Prepared: max})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// preparedOnConn lists the statements prepared on the connection of tx.
func preparedOnConn(t *testing.T, tx *entsql.Tx) []string {
	t.Helper()
	rows, err := tx.QueryContext(context.Background(), `SELECT statement FROM pg_prepared_statements ORDER BY statement`)
	if err != nil {
		t.Fatal(err)
	}
	return readLines(t, rows)
}

// readLines reads rows of one text column and closes them.
func readLines(t *testing.T, rows *sql.Rows) []string {
	t.Helper()
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPreparedStatements: a statement with arguments runs prepared (in a
// transaction too), one without runs as a simple query (several
// statements in one text work), and a statement's result sets stay
// readable while it is evicted.
func TestPreparedStatements(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return
	}
	db := openPrepared(t, 2)
	drv := db.Driver.(*preparedDriver)
	ctx := context.Background()
	if _, err := drv.ExecContext(ctx, `CREATE TABLE p (n int); INSERT INTO p SELECT generate_series(1, 10)`); err != nil {
		t.Fatalf("simple query of two statements: %v", err)
	}
	const count = `SELECT count(*) FROM p WHERE n > $1`
	var n int
	if err := scanOne(ctx, drv, count, 3, &n); err != nil || n != 7 {
		t.Fatalf("count = %d, %v", n, err)
	}
	dtx, err := drv.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tx := dtx.(preparedTx).Tx
	if err := scanOne(ctx, tx, count, 8, &n); err != nil || n != 2 {
		t.Fatalf("count in a transaction = %d, %v", n, err)
	}
	if got := preparedOnConn(t, tx); !slices.Contains(got, count) {
		t.Fatalf("prepared on the transaction's connection: %q, want %q among them", got, count)
	}

	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}

	// A result set opened before its statement is evicted reads to its end.
	rows, err := drv.QueryContext(ctx, `SELECT n FROM p WHERE n <= $1 ORDER BY n`, 10)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 { // evicts the statements above, on other connections
		if err := scanOne(ctx, drv, fmt.Sprintf(`SELECT %d + count(*) FROM p WHERE n < $1`, i), 1, &n); err != nil || n != i {
			t.Fatalf("statement %d: %d, %v", i, n, err)
		}
	}
	var read []int
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		read = append(read, v)
	}
	if err := rows.Close(); err != nil || len(read) != 10 || read[9] != 10 {
		t.Fatalf("result set of an evicted statement: %v, %v", read, err)
	}
	if l := drv.stmts.lru.Len(); l != 2 || len(drv.stmts.byQuery) != 2 {
		t.Fatalf("%d statements kept (%d by text), want 2", l, len(drv.stmts.byQuery))
	}
}

// scanOne runs a one-value query through q.
func scanOne(ctx context.Context, q entsql.ExecQuerier, query string, arg, dst any) error {
	return scanRow(ctx, q, query, dst, arg)
}

// scanRow runs a one-value query with args through q.
func scanRow(ctx context.Context, q entsql.ExecQuerier, query string, dst any, args ...any) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		return fmt.Errorf("%s: no row (%v)", query, rows.Err())
	}
	return rows.Scan(dst)
}

// TestPreparedEviction: an evicted statement is closed once no call uses
// it, not before.
func TestPreparedEviction(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return
	}
	db := openPrepared(t, 1)
	c := db.Driver.(*preparedDriver).stmts
	ctx := context.Background()
	a, err := c.get(ctx, `SELECT $1::int`)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.get(ctx, `SELECT $1::int + 1`) // evicts a, in use
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := a.stmt.QueryRowContext(ctx, 4).Scan(&n); err != nil || n != 4 || !a.evicted {
		t.Fatalf("evicted statement in use: %d, %v (evicted %v)", n, err, a.evicted)
	}
	c.release(a)
	if err := a.stmt.QueryRowContext(ctx, 4).Scan(&n); err == nil {
		t.Fatal("the released evicted statement still runs")
	}
	c.release(b)
	if err := b.stmt.QueryRowContext(ctx, 4).Scan(&n); err != nil || n != 5 {
		t.Fatalf("kept statement: %d, %v", n, err)
	}
}

// TestPreparedConcurrent: calls of more texts than are kept, at once, all
// answer right.
func TestPreparedConcurrent(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return
	}
	db := openPrepared(t, 3)
	drv := db.Driver.(*preparedDriver)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				k := (w + i) % 7
				var n int
				if err := scanOne(context.Background(), drv, fmt.Sprintf(`SELECT %d + $1::int`, k), i, &n); err != nil || n != k+i {
					errs <- fmt.Errorf("worker %d call %d: %d, %v", w, i, n, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if l := drv.stmts.lru.Len(); l != 3 {
		t.Fatalf("%d statements kept, want 3", l)
	}
}

// TestPreparedNone: Prepared 0 opens the plain driver.
func TestPreparedNone(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return
	}
	db := openPrepared(t, 0)
	if _, ok := db.Driver.(*entsql.Driver); !ok {
		t.Fatalf("driver %T, want the plain *entsql.Driver", db.Driver)
	}
}

// TestPoolKeepsItsConnections: connections opened for a burst stay open for
// the next one (none is closed for the idle cap).
func TestPoolKeepsItsConnections(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return
	}
	db := openPrepared(t, DefaultPrepared)
	burst := func() {
		var wg sync.WaitGroup
		for range PoolSize {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := db.SQL.Exec(`SELECT pg_sleep(0.05)`); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	burst()
	opened := db.SQL.Stats().OpenConnections
	burst()
	if st := db.SQL.Stats(); st.MaxIdleClosed != 0 || st.OpenConnections != PoolSize || opened != PoolSize {
		t.Fatalf("after two bursts of %d: %d open after the first, %d after the second, %d closed for the idle cap",
			PoolSize, opened, st.OpenConnections, st.MaxIdleClosed)
	}
}
