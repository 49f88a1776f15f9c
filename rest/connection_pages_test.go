package rest_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/reten-io/reten/graph/generated"
)

// TestConnectionPagesReadInOrder: the first page of every root connection
// of the GraphQL schema, in its default order, can be read from an index in
// that order whose condition starts with the tenant or the project (the
// TenantMixin's (tenant_id, id), the ProjectMixin's (project_id, id), or a
// list index): no plan sorts the tenant's rows or reads every tenant's ids
// through the primary key to keep the tenant's. As in
// TestListCountsReadIndexesOnly, the demo-sized tables say nothing of the
// plan the planner picks unaided, so the primary key is switched off (in a
// transaction rolled back) and the plan must then read such an index,
// without a Sort, both the plan made for the page's arguments and the one
// made for any (which the pages pool, where the page runs, keeps:
// database.WithGenericPlans). BenchmarkGraphQLConnection checks the
// planner's own choice at scale. PostgreSQL only, as a superuser.
func TestConnectionPagesReadInOrder(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return
	}
	env, rec := benchEnv(t)
	seed := seedLists(t, env)
	connections := rootConnections(t)
	for _, name := range connections {
		doc := "{ " + name + "(first: 1) { edges { cursor } } }"
		rec.record()
		res := env.GraphQL(doc, nil, seed.inProject)
		seen := rec.stop()
		if res.Status != 200 || strings.Contains(string(res.Body), `"errors"`) {
			t.Fatalf("%s: %d %s", doc, res.Status, res.Body)
		}
		var pages []statement
		for _, st := range seen {
			if strings.HasSuffix(st.query, " LIMIT 2") {
				pages = append(pages, st)
			}
		}
		if len(pages) != 1 {
			t.Fatalf("%s: %d page statements (LIMIT 2), want 1:\n%s", doc, len(pages), kinds(seen))
		}
		if !pages[0].generic {
			t.Errorf("%s: the page did not run on the pages pool (database.WithGenericPlans)", doc)
		}
		for _, generic := range []bool{false, true} {
			if plan, ok := pageInOrder(t, env.App.DB.SQL, pages[0], generic); !ok {
				t.Errorf("%s: no index reads the page in order from the tenant or the project (generic plan: %t):\n%s\n%s",
					doc, generic, pages[0].query, plan)
			}
		}
	}
	if !t.Failed() {
		fmt.Printf("the first pages of %d GraphQL connections read in order from a tenant's or a project's index\n", len(connections))
	}
}

// rootConnections names the root connections of the GraphQL schema (at
// least 10).
func rootConnections(tb testing.TB) []string {
	tb.Helper()
	var names []string
	for _, f := range generated.NewExecutableSchema(generated.Config{}).Schema().Query.Fields {
		if strings.HasSuffix(f.Type.Name(), "Connection") {
			names = append(names, f.Name)
		}
	}
	if len(names) < 10 {
		tb.Fatalf("%d root connections in the GraphQL schema, want at least 10", len(names))
	}
	return names
}

// ownerCond is an index condition that starts with the tenant or the project.
var ownerCond = regexp.MustCompile(`Index Cond: \(+(tenant_id|project_id) = `)

// pageInOrder explains st, a page of a connection, with the primary keys of
// the tenant's tables it reads (those with a tenant_id column) and
// sequential scans, bitmap scans and sorts switched off (rolled back; the
// planner still sorts when no index gives the order): true when no node
// sorts or reads a table whole and every scan of a tenant's table has an
// index condition that starts with the tenant or the project. A shared
// table (users) is read by its key. With generic, the plan explained is the
// one made for any arguments, which the pages pool's connections keep
// (database.WithGenericPlans), else the one made for st's.
func pageInOrder(t *testing.T, db *sql.DB, st statement, generic bool) (string, bool) {
	t.Helper()
	tx, err := db.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	for _, q := range []string{"SET LOCAL enable_seqscan = off", "SET LOCAL enable_bitmapscan = off", "SET LOCAL enable_sort = off"} {
		if _, err := tx.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	owned := map[string]bool{}
	for _, m := range fromTable.FindAllStringSubmatch(st.query, -1) {
		var tenants bool
		if err := tx.QueryRow(`SELECT EXISTS (SELECT FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = 'tenant_id')`, m[1]).Scan(&tenants); err != nil {
			t.Fatal(err)
		}
		if owned[m[1]] = tenants; tenants {
			if _, err := tx.Exec(`UPDATE pg_index SET indisvalid = false WHERE indrelid = to_regclass($1) AND indisprimary`, m[1]); err != nil {
				t.Fatal(err)
			}
		}
	}
	lines := explainPlan(t, tx, st, "", generic)
	plan := strings.Join(lines, "\n")
	ok := !strings.Contains(plan, "Sort") && !strings.Contains(plan, "Seq Scan")
	for i, line := range lines {
		// An index scan's condition is the line under it.
		if m := scanOn.FindStringSubmatch(line); m != nil && owned[m[2]] {
			ok = ok && i+1 < len(lines) && ownerCond.MatchString(lines[i+1])
		}
	}
	return plan, ok
}

// explainPlan explains st in tx, with options ("" or "(ANALYZE, BUFFERS) "):
// the plan made for st's arguments, or with generic the one made for any,
// which the pages pool's connections keep (database.WithGenericPlans).
func explainPlan(tb testing.TB, tx *sql.Tx, st statement, options string, generic bool) []string {
	tb.Helper()
	if !generic {
		return explainLines(tb, tx, statement{query: options + st.query, args: st.args})
	}
	for _, q := range []string{"SET LOCAL plan_cache_mode = force_generic_plan", "PREPARE page_check AS " + st.query} {
		if _, err := tx.Exec(q); err != nil {
			tb.Fatal(err)
		}
	}
	defer func() { _, _ = tx.Exec("DEALLOCATE page_check") }() // a session's, not the transaction's
	// EXPLAIN takes no parameters: EXECUTE gets the arguments as literals.
	return explainLines(tb, tx, statement{query: options + "EXECUTE page_check(" + strings.Join(literals(tb, st.query, st.args), ", ") + ")"})
}

// TestLaterPagesPlannedPerRun: only a root connection's first page asked
// for with first alone runs on the pages pool (database.WithGenericPlans);
// a later page (after, or last), a filter or an order runs every statement
// on the service's pool, planned for its arguments, since the plan made for
// any cursor, filter or order may read the tenant's index instead of the
// project's (BenchmarkGraphQLConnection).
func TestLaterPagesPlannedPerRun(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return
	}
	env, rec := benchEnv(t)
	seed := seedLists(t, env)
	run := func(doc string, vars map[string]any) ([]statement, []byte) {
		t.Helper()
		rec.record()
		res := env.GraphQL(doc, vars, seed.inProject)
		seen := rec.stop()
		if res.Status != 200 || strings.Contains(string(res.Body), `"errors"`) || len(seen) == 0 {
			t.Fatalf("%s: %d %s (%d statements)", doc, res.Status, res.Body, len(seen))
		}
		return seen, res.Body
	}
	first, body := run(`{ activities(first: 1) { edges { cursor } } }`, nil)
	if !first[0].generic {
		t.Fatalf("activities(first: 1) did not run on the pages pool")
	}
	var page struct {
		Data struct {
			Activities struct{ Edges []struct{ Cursor string } }
		}
	}
	if err := json.Unmarshal(body, &page); err != nil || len(page.Data.Activities.Edges) != 1 {
		t.Fatalf("first page %s (%v)", body, err)
	}
	after := map[string]any{"c": page.Data.Activities.Edges[0].Cursor}
	for doc, vars := range map[string]map[string]any{
		`query($c: Cursor) { activities(first: 1, after: $c) { edges { cursor } } }`:                  after,
		`{ activities(last: 1) { edges { cursor } } }`:                                                nil,
		`{ activities(first: 1, where: {status: READY}) { edges { cursor } } }`:                       nil,
		`{ activities(first: 1, orderBy: {field: CREATED_AT, direction: ASC}) { edges { cursor } } }`: nil,
	} {
		seen, _ := run(doc, vars)
		for _, st := range seen {
			if st.generic {
				t.Errorf("%s ran on the pages pool: %s", doc, st.query)
			}
		}
	}
}
