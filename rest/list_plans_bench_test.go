package rest_test

import (
	"slices"
	"testing"

	"github.com/reten-io/reten/internal/database"
)

// BenchmarkListPlans measures what keeping plans saves the first page of a
// REST list (paging.KeepPlans): page 1 of GET /api/activities (per_page
// 25) on a project of BENCH_PLANS_ROWS activities (500: a list whose count
// is cheap, so that planning is a large part of the database's work)
// against the same request with an empty search parameter, which runs the
// same statements (checked, their repeated ids bound once as on the pages
// pool) planned per run on the service's pool: "ratio"
// is the first's rate over the second's, the phases alternating as in
// BenchmarkListRequest.
func BenchmarkListPlans(b *testing.B) {
	c := newCostBench(b, benchSize("BENCH_PLANS_ROWS", 500))
	kept := request{method: "GET", url: c.srv.URL + "/api/activities?per_page=25&page=1", header: c.key}
	perRun := request{method: "GET", url: kept.url + "&search=", header: c.key}
	a, z := c.statements(kept), c.statements(perRun)
	texts := func(seen []statement, generic bool) []string {
		var out []string
		for _, st := range seen {
			if st.generic != generic {
				b.Fatalf("generic plan %t, want %t: %s", st.generic, generic, st.query)
			}
			q, _ := database.SentOnPages(st.query, st.args) // as the pages pool binds it
			out = append(out, q)
		}
		return out
	}
	if ta, tz := texts(a, true), texts(z, false); !slices.Equal(ta, tz) {
		b.Fatalf("the two requests run different statements:\n%q\n%q", ta, tz)
	}
	b.ResetTimer()
	for range b.N {
		c.compare("GET /api/activities page 1, kept plans against plans per run", "ratio", "kept-req/s",
			func() float64 { return c.load(kept) }, "per-run-req/s", func() float64 { return c.load(perRun) })
	}
}
