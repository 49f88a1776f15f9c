package app

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/lib/pq"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/database"
	"github.com/reten-io/reten/internal/pgconn"
)

// These tests talk to the PostgreSQL of TEST_DATABASE_URL and run only when
// it is set, like the postgres half of apptest.Each (which this package
// cannot import).

// frozenPool opens a pool through a proxy and freezes the proxy once the
// pool holds one open connection (warm) or none.
func frozenPool(t *testing.T, lim pgconn.Limits, warm bool) (*sql.DB, *FreezeProxy) {
	t.Helper()
	dsn, proxy := ViaFreezeProxy(t, os.Getenv("TEST_DATABASE_URL"))
	db, err := pgconn.Open(dsn, lim)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	t.Cleanup(proxy.Close) // first: unblocks anything still stuck
	db.SetMaxIdleConns(1)
	if warm {
		if err := db.Ping(); err != nil {
			t.Fatalf("ping before the freeze: %v", err)
		}
	}
	proxy.Freeze()
	return db, proxy
}

func selectOne(ctx context.Context, db *sql.DB) error {
	var one int
	return db.QueryRowContext(ctx, "SELECT 1").Scan(&one)
}

// TestPGReadWithoutDeadlineIsBounded: a statement whose context has no
// deadline still returns once the server stays silent past the I/O bound,
// and the pool serves again when the server answers.
func TestPGReadWithoutDeadlineIsBounded(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return
	}
	db, proxy := frozenPool(t, pgconn.Limits{IO: 300 * time.Millisecond}, true)
	err := Within(t, "SELECT 1 while frozen", func() error { return selectOne(context.Background(), db) })
	if !errors.Is(err, apperr.ErrUnavailable) || apperr.Normalize(err).Status() != 503 {
		t.Fatalf("while frozen: %v, want an unavailable error", err)
	}
	proxy.Thaw()
	if err := selectOne(context.Background(), db); err != nil {
		t.Fatalf("after the freeze: %v", err)
	}
}

// TestPGConnectEndsWithItsContext: opening a connection to a silent server
// ends with the context (lib/pq's handshake alone ignores it).
func TestPGConnectEndsWithItsContext(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return
	}
	db, proxy := frozenPool(t, pgconn.Limits{}, false)
	err := Within(t, "ping of a new connection while frozen", func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		return db.PingContext(ctx)
	})
	if !errors.Is(err, apperr.ErrUnavailable) && !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("while frozen: %v, want an unavailable error", err)
	}
	proxy.Thaw()
	if err := db.Ping(); err != nil {
		t.Fatalf("after the freeze: %v", err)
	}
}

// TestPGTransactionContextBoundsItsStatements: a statement in a transaction
// ends when the transaction's context ends, even if its own has no deadline
// (and without an I/O bound to fall back on).
func TestPGTransactionContextBoundsItsStatements(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return
	}
	db, proxy := frozenPool(t, pgconn.Limits{}, true)
	proxy.Thaw()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	proxy.Freeze()
	err = Within(t, "statement in a transaction while frozen", func() error {
		_, err := tx.ExecContext(context.Background(), "SELECT 1")
		return err
	})
	if !errors.Is(err, apperr.ErrUnavailable) {
		t.Fatalf("while frozen: %v, want an unavailable error", err)
	}
}

// TestPGStatementTimeout: the service's pool sets statement_timeout and
// idle_in_transaction_session_timeout on the server, and a statement that
// runs into it answers 503.
func TestPGStatementTimeout(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return
	}
	show := func(db *DB, setting string) string {
		t.Helper()
		var v string
		if err := db.SQL.QueryRow("SHOW " + setting).Scan(&v); err != nil {
			t.Fatalf("SHOW %s: %v", setting, err)
		}
		return v
	}
	def, err := OpenDB(os.Getenv("TEST_DATABASE_URL"))
	if err != nil {
		t.Fatal(err)
	}
	defer def.Close()
	if got := show(def, "statement_timeout"); got != "30s" {
		t.Fatalf("default statement_timeout = %q, want 30s", got)
	}
	db, err := database.Open(os.Getenv("TEST_DATABASE_URL"), database.Settings{StatementTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{"statement_timeout", "idle_in_transaction_session_timeout"} {
		if got := show(db, s); got != "300ms" {
			t.Fatalf("%s = %q, want 300ms", s, got)
		}
	}
	if got := show(db, "plan_cache_mode"); got != "force_custom_plan" {
		t.Fatalf("plan_cache_mode = %q, want force_custom_plan", got)
	}
	_, err = db.SQL.Exec("SELECT pg_sleep(5)")
	var pqErr *pq.Error
	if !errors.As(err, &pqErr) || pqErr.Code != "57014" || apperr.Normalize(err).Status() != 503 {
		t.Fatalf("sleep past the statement timeout: %v, want 57014 answered 503", err)
	}
}
