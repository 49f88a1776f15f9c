package database

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/google/uuid"
)

func TestBindOnce(t *testing.T) {
	tid, pid, other := uuid.New(), uuid.New(), uuid.New()
	for _, c := range []struct {
		name, query string
		args        []any
		want        string // "" when the statement stays as it is
		kept        []any
	}{
		{"a list's page and count", `SELECT *, (SELECT COUNT(*) FROM "t" WHERE "t"."tenant_id" = $1 AND "t"."project_id" = $2 AND "t"."tenant_id" = $3) ` +
			`FROM "t" LEFT JOIN "c" ON "c"."tenant_id" = $4 AND "c"."name" <> $5 WHERE "t"."tenant_id" = $6 AND "t"."project_id" = $7 AND "t"."kind" = $8 LIMIT 25`,
			[]any{tid, pid, tid, tid, "a", tid, pid, "a"},
			`SELECT *, (SELECT COUNT(*) FROM "t" WHERE "t"."tenant_id" = $1 AND "t"."project_id" = $2 AND "t"."tenant_id" = $1) ` +
				`FROM "t" LEFT JOIN "c" ON "c"."tenant_id" = $1 AND "c"."name" <> $3 WHERE "t"."tenant_id" = $1 AND "t"."project_id" = $2 AND "t"."kind" = $4 LIMIT 25`,
			[]any{tid, pid, "a", "a"}},
		{"a repeat after a repeat", `SELECT $1, $2, $3, $4`, []any{tid, tid, pid, pid}, `SELECT $1, $1, $2, $2`, []any{tid, pid}},
		{"ten arguments and more", `SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11`,
			[]any{1, 2, 3, 4, 5, 6, 7, 8, 9, tid, tid}, `SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10`, []any{1, 2, 3, 4, 5, 6, 7, 8, 9, tid}},
		{"literals and quoted identifiers are text", `SELECT '$2', 'it''s $1', "a$1""b" FROM t WHERE a = $1 AND b = $2`,
			[]any{tid, tid}, `SELECT '$2', 'it''s $1', "a$1""b" FROM t WHERE a = $1 AND b = $1`, []any{tid}},
		{"no uuid repeats", `SELECT $1, $2, $3`, []any{tid, other, other.String()}, "", nil},
		{"equal values of other types stay apart", `SELECT $1, $2`, []any{"x", "x"}, "", nil},
		{"a dollar-quoted string", `SELECT $1, $$ $2 $$, $2`, []any{tid, tid}, "", nil},
		{"a line comment", "SELECT $1 -- $2\n, $2", []any{tid, tid}, "", nil},
		{"a block comment", `SELECT $1 /* $2 */, $2`, []any{tid, tid}, "", nil},
		{"an escape string", `SELECT $1, E'\' $2', $2`, []any{tid, tid}, "", nil},
		{"an unterminated literal", `SELECT $1, $2, '`, []any{tid, tid}, "", nil},
		{"SQLite's placeholders", `SELECT ?, ?`, []any{tid, tid}, "", nil},
		{"a placeholder past the arguments", `SELECT $1, $2, $3`, []any{tid, tid}, "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, kept, ok := bindOnce(c.query, c.args)
			if c.want == "" {
				if ok || got != c.query || !reflect.DeepEqual(kept, c.args) {
					t.Fatalf("rewritten: %v %q %v", ok, got, kept)
				}
				return
			}
			if !ok || got != c.want || !reflect.DeepEqual(kept, c.kept) {
				t.Fatalf("got %v\n%q %v\nwant\n%q %v", ok, got, kept, c.want, c.kept)
			}
		})
	}
}

// TestBindOnceOnThePagesPool: a statement run under WithGenericPlans binds
// equal uuids once, and its generic plan reads the tenant's rows without a
// per-run check of $1 = $3; a rewrite PostgreSQL cannot type runs as
// written (and is not tried again), while a call that fails otherwise
// fails; on the service's pool nothing is rewritten.
func TestBindOnceOnThePagesPool(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return
	}
	db, drv := openOnePageConn(t)
	ctx, marked := context.Background(), WithGenericPlans(context.Background())
	if _, err := db.SQL.Exec(`CREATE TABLE listed (tenant_id uuid, name text);
		INSERT INTO listed SELECT CASE WHEN g % 2 = 0 THEN '00000000-0000-0000-0000-000000000001'::uuid ELSE gen_random_uuid() END, 'n' || g
		FROM generate_series(1, 10) g`); err != nil {
		t.Fatal(err)
	}
	tid := uuid.MustParse("00000000-0000-0000-0000-000000000001")
	const count = `SELECT COUNT(*) FROM listed WHERE tenant_id = $1 AND tenant_id = $2`
	for _, c := range []context.Context{ctx, marked} {
		for range 6 { // the sixth run on a connection may take the generic plan
			var n int
			if err := scanRow(c, drv, count, &n, tid, tid); err != nil || n != 5 {
				t.Fatalf("count: %d (%v), want 5", n, err)
			}
		}
	}
	var text string
	if err := scanOne(marked, drv, `SELECT statement || ' ' || parameter_types::text FROM pg_prepared_statements WHERE statement LIKE $1`,
		"%FROM listed%", &text); err != nil {
		t.Fatal(err)
	}
	if want := `SELECT COUNT(*) FROM listed WHERE tenant_id = $1 AND tenant_id = $1 {uuid}`; text != want {
		t.Fatalf("pages pool prepared %q, want %q", text, want)
	}
	if _, ok := drv.pageStmts.byQuery[count]; ok {
		t.Fatal("pages pool prepared the text as written")
	}
	if _, ok := drv.stmts.byQuery[count]; !ok {
		t.Fatalf("service pool did not prepare the text as written: %v", drv.stmts.byQuery)
	}
	plan := explainGeneric(t, db, `SELECT COUNT(*) FROM listed WHERE tenant_id = $1 AND tenant_id = $1`, 1)
	if strings.Contains(plan, "One-Time Filter") || strings.Contains(plan, "Result") {
		t.Fatalf("the generic plan checks its arguments per run:\n%s", plan)
	}
	if plan := explainGeneric(t, db, count, 2); !strings.Contains(plan, "One-Time Filter: ($1 = $2)") {
		t.Fatalf("as written, the generic plan has no check of $1 = $2 (the test shows nothing):\n%s", plan)
	}

	// Merged, $1 would be a uuid and a text: the text as written runs.
	const typed = `SELECT COUNT(*) FROM listed WHERE tenant_id = $1 AND name <> $2`
	for range 2 {
		var n int
		if err := scanRow(marked, drv, typed, &n, tid, tid); err != nil || n != 5 {
			t.Fatalf("count: %d (%v), want 5", n, err)
		}
	}
	if !drv.pageStmts.refused[typed] || drv.pageStmts.byQuery[typed] == nil {
		t.Fatalf("a rewrite that cannot be typed: refused %v, prepared as written %v", drv.pageStmts.refused, drv.pageStmts.byQuery[typed] != nil)
	}
	// A failure of another kind is the call's, not the text's.
	canceled, cancel := context.WithCancel(marked)
	cancel()
	const other = `SELECT COUNT(*) FROM listed WHERE tenant_id = $1 AND tenant_id <> $2`
	var n int
	if err := scanRow(canceled, drv, other, &n, tid, tid); err == nil || drv.pageStmts.refused[other] {
		t.Fatalf("canceled: %v, refused %v; want an error and the rewrite kept", err, drv.pageStmts.refused[other])
	}
}

// explainGeneric is the generic plan of query with n uuid arguments.
func explainGeneric(t *testing.T, db *DB, query string, n int) string {
	t.Helper()
	tx, err := db.SQL.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.Exec(`SET LOCAL plan_cache_mode = force_generic_plan; PREPARE explained (` + strings.TrimSuffix(strings.Repeat("uuid,", n), ",") + `) AS ` + query); err != nil {
		t.Fatal(err)
	}
	args := strings.TrimSuffix(strings.Repeat("'00000000-0000-0000-0000-000000000001',", n), ",")
	rows, err := tx.Query(`EXPLAIN EXECUTE explained(` + args + `)`)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = tx.Exec(`DEALLOCATE explained`) }()
	return strings.Join(readLines(t, rows), "\n")
}
