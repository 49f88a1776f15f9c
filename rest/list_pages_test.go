package rest_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestListFirstPagesKeepPlans: the first page of every paginated list of
// the OpenAPI document asked for with no parameter but per_page runs every
// statement that has arguments on the pages pool, where PostgreSQL keeps
// the plan made for any arguments (database.WithGenericPlans). The list's
// own statements, its page and its count, read each tenant's table through
// an index whose condition starts with the tenant or the project, with no
// Sort (pageInOrder, as the GraphQL connections' first pages in
// TestConnectionPagesReadInOrder), in the plan made for any arguments as in
// the one made for the request's. The other statements find records by
// their ids (the path's record, eager loads). A later page (a statement per
// offset) and each documented filter run nothing on the pages pool: they
// are planned for their arguments. PostgreSQL only, as a superuser.
//
// The page of GET /api/users reads the shared users table in username
// order, keeping the tenant's members (a membership subquery): no plan of
// it reads in order from the tenant, kept or not; the test fails when one
// does, so that the exception goes.
func TestListFirstPagesKeepPlans(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return
	}
	env, rec := benchEnv(t)
	seed := seedLists(t, env)
	routes := listRoutes(t)
	kept := 0
	for _, r := range routes {
		path, h := r.target(t, seed)
		send := func(query string) []statement {
			t.Helper()
			rec.record()
			res := env.Do("GET", path+"?"+query, nil, h)
			seen := rec.stop()
			if res.Status != 200 {
				t.Fatalf("GET %s?%s: %d %s", path, query, res.Status, res.Body)
			}
			return seen
		}
		first := send("per_page=2")
		bound := 0
		for _, st := range first {
			if len(st.args) == 0 {
				continue // a statement without arguments has one plan
			}
			bound++
			if !st.generic {
				t.Errorf("GET %s?per_page=2 did not run on the pages pool: %s", r.path, st.query)
			}
			page := strings.Contains(st.query, " ORDER BY ") && strings.HasSuffix(st.query, " LIMIT 2")
			if !page && !strings.HasPrefix(st.query, "SELECT COUNT(") {
				continue // not the page or the count
			}
			want := !page || r.path != "/api/users"
			for _, generic := range []bool{false, true} {
				if plan, ok := pageInOrder(t, env.App.DB.SQL, st, generic); ok != want {
					t.Errorf("GET %s?per_page=2: an index reads the statement in order from the tenant or the project: %t, want %t (generic plan: %t):\n%s\n%s",
						r.path, ok, want, generic, st.query, plan)
				}
			}
		}
		if bound == 0 {
			t.Errorf("GET %s?per_page=2 ran no statement with arguments:\n%s", r.path, kinds(first))
		}
		kept += bound
		queries := []string{"per_page=2&page=2"}
		for _, f := range r.filters {
			queries = append(queries, "per_page=2&"+r.filter(t, seed, f))
		}
		for _, q := range queries {
			for _, st := range send(q) {
				if st.generic {
					t.Errorf("GET %s?%s ran on the pages pool: %s", r.path, q, st.query)
				}
			}
		}
	}
	if !t.Failed() {
		fmt.Printf("the first pages of %d REST lists (%d statements) keep plans that read in order from a tenant's or a project's index\n",
			len(routes), kept)
	}
}
