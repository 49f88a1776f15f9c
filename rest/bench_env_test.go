package rest_test

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/database"
	"github.com/reten-io/reten/internal/ratelimit"
)

// statement is one SQL statement sent by the service.
type statement struct {
	query string
	args  []any
	dur   time.Duration // until the driver answered (rows may still stream)
	// generic: run on the pages pool (database.WithGenericPlans, outside a
	// transaction, with arguments: one without runs as a simple query).
	generic bool
}

// recorder is an ent driver that remembers the statements it runs while on.
type recorder struct {
	dialect.Driver
	mu   sync.Mutex
	on   bool
	seen []statement
}

func (r *recorder) note(query string, args any, start time.Time, generic bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.on {
		a, _ := args.([]any)
		if generic = generic && len(a) > 0; generic { // as the pages pool sends it
			query, a = database.SentOnPages(query, a)
		}
		r.seen = append(r.seen, statement{query, a, time.Since(start), generic})
	}
}

// record starts recording (clearing what was seen); stop returns it.
func (r *recorder) record() { r.mu.Lock(); r.on, r.seen = true, nil; r.mu.Unlock() }

func (r *recorder) stop() []statement {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on = false
	return r.seen
}

func (r *recorder) Exec(ctx context.Context, query string, args, v any) error {
	defer r.note(query, args, time.Now(), database.GenericPlans(ctx))
	return r.Driver.Exec(ctx, query, args, v)
}

func (r *recorder) Query(ctx context.Context, query string, args, v any) error {
	defer r.note(query, args, time.Now(), database.GenericPlans(ctx))
	return r.Driver.Query(ctx, query, args, v)
}

func (r *recorder) Tx(ctx context.Context) (dialect.Tx, error) {
	tx, err := r.Driver.Tx(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingTx{Tx: tx, r: r}, nil
}

type recordingTx struct {
	dialect.Tx
	r *recorder
}

func (t *recordingTx) Exec(ctx context.Context, query string, args, v any) error {
	defer t.r.note(query, args, time.Now(), false)
	return t.Tx.Exec(ctx, query, args, v)
}

func (t *recordingTx) Query(ctx context.Context, query string, args, v any) error {
	defer t.r.note(query, args, time.Now(), false)
	return t.Tx.Query(ctx, query, args, v)
}

// benchEnv starts the service on a fresh PostgreSQL schema (benchmarks
// measure the production store: TEST_DATABASE_URL must be set, as make bench
// does) with a statement recorder under ent.
func benchEnv(b testing.TB) (*apptest.Env, *recorder) {
	b.Helper()
	if os.Getenv("TEST_DATABASE_URL") == "" {
		b.Fatal("benchmarks run on PostgreSQL: set TEST_DATABASE_URL (make bench does)")
	}
	// Access lines would drown the figures; warnings and errors still show.
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	url := apptest.PostgresSchema(b)
	// BENCH_DB_PREPARED sets how many statements the pool keeps prepared
	// (0: none, to compare), as RETEN_DB_PREPARED does.
	set := database.Defaults
	if n, err := strconv.Atoi(os.Getenv("BENCH_DB_PREPARED")); err == nil && n >= 0 {
		set.Prepared = n
	}
	db, err := database.Open(url, set)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := db.Migrate(context.Background()); err != nil {
		b.Fatal(err)
	}
	rec := &recorder{Driver: db.Driver}
	db.Client = database.NewClient(rec)
	a, err := app.Wire(app.Config{DatabaseURL: url, JWTSecret: []byte(strings.Repeat("s", 32)), MaxBodyBytes: 16 << 20,
		SecretsKey: []byte(strings.Repeat("k", 32)),
		RateLimit:  ratelimit.Config{PerCredential: 1 << 30, LoginPerIP: 1 << 30, LoginPerIdentifier: 1 << 30}}, db)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = a.Close() })
	return &apptest.Env{T: b, App: a}, rec
}

// queryContexter is what ent's sql/execquery feature needs from a driver or tx.
type queryContexter interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func (r *recorder) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	defer r.note(query, args, time.Now(), database.GenericPlans(ctx))
	return r.Driver.(queryContexter).QueryContext(ctx, query, args...)
}

func (r *recorder) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	defer r.note(query, args, time.Now(), database.GenericPlans(ctx))
	return r.Driver.(queryContexter).ExecContext(ctx, query, args...)
}

func (t *recordingTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	defer t.r.note(query, args, time.Now(), false)
	return t.Tx.(queryContexter).QueryContext(ctx, query, args...)
}

func (t *recordingTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	defer t.r.note(query, args, time.Now(), false)
	return t.Tx.(queryContexter).ExecContext(ctx, query, args...)
}

// inline writes the arguments of query into it as literals ($10 before $1).
func inline(tb testing.TB, query string, args []any) string {
	tb.Helper()
	lits := literals(tb, query, args)
	for i := len(args); i >= 1; i-- {
		query = strings.ReplaceAll(query, "$"+strconv.Itoa(i), lits[i-1])
	}
	return query
}

// literals are the arguments of query as SQL literals.
func literals(tb testing.TB, query string, args []any) []string {
	tb.Helper()
	out := make([]string, len(args))
	for i, arg := range args {
		switch v := arg.(type) {
		case nil:
			out[i] = "NULL"
		case int, int64, int32, float64, bool:
			out[i] = fmt.Sprint(v)
		default:
			out[i] = "'" + strings.ReplaceAll(literalText(tb, query, i+1, v), "'", "''") + "'"
		}
	}
	return out
}

// literalText is the text of argument $i of query, as PostgreSQL reads it.
func literalText(tb testing.TB, query string, i int, arg any) string {
	tb.Helper()
	switch v := arg.(type) {
	case int, int64, int32, float64, bool, string:
		return fmt.Sprint(v)
	case uuid.UUID:
		return v.String()
	case time.Time:
		return v.UTC().Format(time.RFC3339Nano)
	}
	if rv := reflect.ValueOf(arg); rv.Kind() == reflect.String { // an ent enum
		return rv.String()
	}
	tb.Fatalf("argument $%d of %s: %T", i, query, arg)
	return ""
}
