package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/viewer"
)

// BenchmarkGraphQLConnection compares activities(first: 25) through POST
// /graphql (totalCount not selected: no count) with a minimal Go handler
// that runs the statements the GraphQL request runs (recorded) over the
// service's pool, unprepared as database/sql runs them (parsed and planned
// each run), and writes the rows as JSON; the phases alternate as in
// BenchmarkListRequest. The service runs this first page prepared on its
// pages pool, on the plan PostgreSQL keeps for it
// (database.WithGenericPlans). Then gqlgen as its documentation sets it
// up, answering the same request with the same statement and nothing else
// (bareGqlgen, its answer checked to be the service's), against the
// minimal handler ("ratio-gqlgen"): what gqlgen's own executor costs,
// which the service's compiled writers avoid. Last, the service against
// the minimal handler running the statement prepared on the pages pool,
// on the same kept plan ("ratio-same-plan"): what the service's Go side
// costs over the least a Go handler spends.
func BenchmarkGraphQLConnection(b *testing.B) {
	c := newCostBench(b, benchSize("BENCH_API_ROWS", 50_000))
	query, _ := json.Marshal(map[string]string{"query": `{ activities(first: 25) { edges { node { id type channel status scheduledAt title } }
		pageInfo { hasNextPage endCursor } } }`})
	r := request{method: "POST", url: c.srv.URL + "/graphql", body: query, header: c.key}
	seen := c.statements(r)
	minimal := c.minimal(c.l.db, seen, false)
	base := request{method: "POST", url: minimal.URL, body: query}
	if len(seen) != 1 {
		b.Fatalf("activities(first: 25) runs %d statements (%s), bare gqlgen one", len(seen), kinds(seen))
	}
	if !seen[0].generic {
		b.Fatal("activities(first: 25) did not run on the pages pool (database.WithGenericPlans)")
	}
	c.pageFromIndex(seen[0], "activities(first: 25)")
	bare := request{method: "POST", url: c.bareGqlgen(seen[0], 25).URL, body: query}
	samePlan := request{method: "POST", url: c.minimal(c.env.App.DB.Pages, seen, true).URL, body: query}
	want, err := c.do(c.srv.Client(), r)
	if err != nil {
		b.Fatal(err)
	}
	var first struct {
		Data struct {
			Activities struct{ PageInfo struct{ EndCursor string } }
		}
	}
	if err := json.Unmarshal(want, &first); err != nil || first.Data.Activities.PageInfo.EndCursor == "" {
		b.Fatalf("no end cursor in %s (%v)", want, err)
	}
	next, _ := json.Marshal(map[string]any{"query": `query($after: Cursor) { activities(first: 25, after: $after) { edges { node { id } } } }`,
		"variables": map[string]string{"after": first.Data.Activities.PageInfo.EndCursor}})
	for _, st := range c.statements(request{method: "POST", url: r.url, body: next, header: c.key}) {
		if st.generic {
			b.Fatal("activities(first: 25, after: endCursor) ran on the pages pool: a plan for any cursor may read the tenant's index")
		}
		c.pageFromIndex(st, "activities(first: 25, after: endCursor)")
	}
	if got, err := c.do(c.srv.Client(), bare); err != nil || !bytes.Equal(got, want) {
		b.Fatalf("bare gqlgen answers %s (%v), the service %s", got, err, want)
	}
	label := fmt.Sprintf("GraphQL activities(first: 25) (%d statements: %s)", len(seen), kinds(seen))
	b.ResetTimer()
	for range b.N {
		c.compare(label, "ratio", "graphql-req/s", func() float64 { return c.load(r) }, "handler-req/s", func() float64 { return c.load(base) })
		c.compare(label+", bare gqlgen", "ratio-gqlgen", "gqlgen-req/s", func() float64 { return c.load(bare) },
			"handler-gqlgen-phase-req/s", func() float64 { return c.load(base) })
		c.compare(label+", minimal handler on the same plan", "ratio-same-plan", "graphql-same-plan-phase-req/s", func() float64 { return c.load(r) },
			"handler-same-plan-req/s", func() float64 { return c.load(samePlan) })
	}
}

// pageFromIndex fails the benchmark unless the page statement st of the
// GraphQL connection named reads the project's rows from an index in id
// order (the ProjectMixin's), with the plan made for its arguments and,
// when st ran on the pages pool, with the one made for any (which that
// pool's connections keep: database.WithGenericPlans): EXPLAIN ANALYZE
// names the project in the scan's index condition, so the page reads its
// own rows only, not the id order of every project's filtered (Index Scan
// using activities_pkey ... Filter) or of the tenant's. It prints the scan,
// the buffers the page read, its planning time and its execution time.
func (c *costBench) pageFromIndex(st statement, named string) {
	c.b.Helper()
	plans := []bool{false}
	if st.generic {
		plans = append(plans, true)
	}
	for _, generic := range plans {
		tx, err := c.l.db.Begin()
		if err != nil {
			c.b.Fatal(err)
		}
		lines := explainPlan(c.b, tx, st, "(ANALYZE, BUFFERS) ", generic)
		_ = tx.Rollback()
		plan := strings.Join(lines, "\n")
		buffers, took := "", ""
		for _, line := range lines {
			if line = strings.TrimSpace(line); buffers == "" && strings.HasPrefix(line, "Buffers: ") {
				buffers = line
			} else if strings.HasPrefix(line, "Planning Time: ") || strings.HasPrefix(line, "Execution Time: ") {
				took += "; " + line
			}
		}
		fmt.Printf("page of %s (generic plan: %t): %s; %s%s\n", named, generic, scanNode(plan), buffers, took)
		if !strings.HasPrefix(scanNode(plan), "Index") || !projectCond.MatchString(plan) {
			c.b.Fatalf("the page of %s is not read from the project's index (generic plan: %t):\n%s", named, generic, plan)
		}
	}
}

// projectCond is an index condition that starts with the project.
var projectCond = regexp.MustCompile(`Index Cond: \(+project_id = `)

// BenchmarkGraphQLPageAllocs measures the Go side of activities(first: 25)
// in process (the handler called directly, on SQLite): time and
// allocations per request.
func BenchmarkGraphQLPageAllocs(b *testing.B) {
	env := apptest.New(b, "sqlite")
	tn := env.Bootstrap("Bench")
	plain, _ := env.CreateKey(tn.TenantID, tn.UserID, tn.ProjectID, auth.PermActivityView)
	sys, c := viewer.SystemContext(context.Background()), env.App.DB.Client
	shop := c.Commerce.Create().SetTenantID(tn.TenantID).SetName("Shop").SaveX(sys)
	for range 30 {
		c.Activity.Create().SetTenantID(tn.TenantID).SetProjectID(tn.ProjectID).SetCommerceID(shop.ID).SetType("TASK").
			SetChannel("SMS").SetStatus("READY").SetScheduledAt(time.Now()).SaveX(sys)
	}
	query, _ := json.Marshal(map[string]string{"query": `{ activities(first: 25) { edges { node { id type channel status scheduledAt title } }
		pageInfo { hasNextPage endCursor } } }`})
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		req := httptest.NewRequest("POST", "/graphql", bytes.NewReader(query))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range apptest.Key(plain) {
			req.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		env.App.Handler.ServeHTTP(w, req)
		if w.Code != http.StatusOK || bytes.Contains(w.Body.Bytes(), []byte(`"errors"`)) {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
	}
}
