package rest_test

import (
	"context"
	"fmt"
	"maps"
	"net/url"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/rest"
)

// TestListCountsReadIndexesOnly: every paginated list of the OpenAPI
// document (a GET with a page parameter), unfiltered and with each of its
// documented filters, and every root connection of the GraphQL schema asked
// for its totalCount, counts its exact total once (a REST list in its
// page's statement: see countOf), with a COUNT that an index answers alone:
// every table it reads has an index that gives an Index Only Scan (see
// uncoveredScans). An index on the list's tenant, project and filter
// columns makes the count read no table row, whatever the table's size.
//
// The tables hold the demo tenant's records, vacuumed; on tables that small
// the planner would read the heap whole, so the question asked is whether
// an index covers the count (at scale, BenchmarkListRequest and
// BenchmarkActivityList check the plan the planner picks unaided). The
// routes and connections come from the document and the schema, so a list
// added without its index fails here. PostgreSQL only (the plans are its),
// as a superuser (CI's and make test's postgres role) for the catalogue
// edit uncoveredScans rolls back.
func TestListCountsReadIndexesOnly(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return
	}
	checkListCounts(t)
}

// BenchmarkListCounts is TestListCountsReadIndexesOnly in make bench.
func BenchmarkListCounts(b *testing.B) {
	for range b.N {
		checkListCounts(b)
	}
}

// listRoute is a paginated GET of the OpenAPI document.
type listRoute struct {
	path    string // /api/...
	project bool   // takes the project header
	filters []listParam
	params  []listParam // path parameters
}

type listParam struct {
	Name   string         `yaml:"name"`
	In     string         `yaml:"in"`
	Ref    string         `yaml:"$ref"`
	Schema map[string]any `yaml:"schema"`
}

// listRoutes reads the paginated GETs of the served OpenAPI document.
func listRoutes(tb testing.TB) []listRoute {
	tb.Helper()
	var doc struct {
		Paths      map[string]map[string]any `yaml:"paths"`
		Components struct {
			Parameters map[string]listParam      `yaml:"parameters"`
			Schemas    map[string]map[string]any `yaml:"schemas"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(rest.OpenAPI(), &doc); err != nil {
		tb.Fatal(err)
	}
	var routes []listRoute
	for path, ops := range doc.Paths {
		get, ok := ops["get"].(map[string]any)
		if !ok {
			continue
		}
		raw, _ := yaml.Marshal(get["parameters"])
		var params []listParam
		if err := yaml.Unmarshal(raw, &params); err != nil {
			tb.Fatal(err)
		}
		r := listRoute{path: "/api" + path}
		paged := false
		for _, p := range params {
			if p.Ref != "" {
				p = doc.Components.Parameters[strings.TrimPrefix(p.Ref, "#/components/parameters/")]
			}
			if ref, ok := p.Schema["$ref"].(string); ok {
				p.Schema = doc.Components.Schemas[strings.TrimPrefix(ref, "#/components/schemas/")]
			}
			switch {
			case p.Name == "page":
				paged = true
			case p.Name == "per_page":
			case p.In == "header":
				r.project = r.project || strings.EqualFold(p.Name, "x-project-id")
			case p.In == "path":
				r.params = append(r.params, p)
			default:
				r.filters = append(r.filters, p)
			}
		}
		if paged {
			routes = append(routes, r)
		}
	}
	sort.Slice(routes, func(i, j int) bool { return routes[i].path < routes[j].path })
	return routes
}

// target is the route's path with the seed's values in its parameters, and
// the headers of the seed's super_admin (in the seed's project when the
// route takes one).
func (r listRoute) target(tb testing.TB, seed listSeed) (string, apptest.Headers) {
	tb.Helper()
	path := r.path
	for _, p := range r.params {
		path = strings.Replace(path, "{"+p.Name+"}", url.PathEscape(seed.value(tb, r.path, p)), 1)
	}
	if r.project {
		return path, seed.inProject
	}
	return path, seed.tenant
}

// filter is the query string of the route's filter f, with a documented
// value.
func (r listRoute) filter(tb testing.TB, seed listSeed, f listParam) string {
	tb.Helper()
	return f.Name + "=" + url.QueryEscape(seed.value(tb, r.path, f))
}

// countOf is the count st runs, with the arguments it binds: st itself
// when it is a COUNT, or the subquery of a page that carries its list's
// total as a column (paging.Fetch), whose arguments come first; false when
// st counts nothing.
func countOf(st statement) (statement, bool) {
	if strings.HasPrefix(st.query, "SELECT COUNT(") {
		return st, true
	}
	start, end := strings.Index(st.query, ", (SELECT COUNT("), strings.Index(st.query, `) AS "list_total" FROM `)
	if start < 0 || end < start {
		return statement{}, false
	}
	count := st.query[start+3 : end]
	n := 0
	for _, m := range placeholder.FindAllStringSubmatch(count, -1) {
		k, _ := strconv.Atoi(m[1])
		n = max(n, k)
	}
	return statement{query: count, args: st.args[:n], generic: st.generic}, true
}

// placeholder is a PostgreSQL statement's argument.
var placeholder = regexp.MustCompile(`\$(\d+)`)

// fromTable names the tables a statement reads.
var fromTable = regexp.MustCompile(`FROM "(\w+)"`)

func checkListCounts(tb testing.TB) {
	env, rec := benchEnv(tb)
	seed := seedLists(tb, env)
	db := env.App.DB.SQL
	tables := map[string]bool{}
	type listCount struct {
		name   string // GET /api/...?filter or the GraphQL field
		counts []statement
	}
	var requests []listCount
	// send sends one list request, which must answer 200 and count once;
	// a REST list counts in its page's statement.
	send := func(name string, do func() *apptest.Response) {
		tb.Helper()
		rec.record()
		res := do()
		seen := rec.stop()
		if res.Status != 200 || strings.Contains(string(res.Body), `"errors"`) {
			tb.Fatalf("%s: %d %s", name, res.Status, res.Body)
		}
		var counts []statement
		alone := 0 // COUNT statements
		for _, st := range seen {
			if count, ok := countOf(st); ok {
				counts = append(counts, count)
				if count.query == st.query {
					alone++
				}
				for _, m := range fromTable.FindAllStringSubmatch(count.query, -1) {
					tables[m[1]] = true
				}
			}
		}
		wantAlone := 0 // a REST list counts in its page's statement, a connection on its own
		if strings.HasPrefix(name, "GraphQL") {
			wantAlone = 1
		}
		if len(counts) != 1 || alone != wantAlone {
			tb.Errorf("%s: %d counts, %d COUNT statements, want 1 and %d:\n%s", name, len(counts), alone, wantAlone, kinds(seen))
		}
		requests = append(requests, listCount{name, counts})
	}
	routes := listRoutes(tb)
	if len(routes) < 26 {
		tb.Fatalf("%d paginated lists in the OpenAPI document, want at least 26", len(routes))
	}
	for _, r := range routes {
		path, h := r.target(tb, seed)
		queries := []string{""}
		for _, f := range r.filters {
			queries = append(queries, r.filter(tb, seed, f))
		}
		for _, q := range queries {
			send("GET "+r.path+"?"+q, func() *apptest.Response { return env.Do("GET", path+"?"+q, nil, h) })
		}
	}
	// The GraphQL connections of the root, with their totalCount.
	connections := rootConnections(tb)
	for _, name := range connections {
		doc := "{ " + name + "(first: 1) { totalCount } }"
		send("GraphQL "+doc, func() *apptest.Response { return env.GraphQL(doc, nil, seed.inProject) })
	}
	// Index-only scans need all-visible pages: a settled table's.
	names := slices.Sorted(maps.Keys(tables))
	if _, err := db.Exec("VACUUM ANALYZE " + strings.Join(names, ", ")); err != nil {
		tb.Fatal(err)
	}
	for _, t := range names {
		var pages int
		if err := db.QueryRow(`SELECT relpages FROM pg_class WHERE oid = to_regclass($1)`, t).Scan(&pages); err != nil || pages == 0 {
			tb.Errorf("%s has no rows (%v): seed it, or its plans say nothing", t, err)
		}
	}
	for _, r := range requests {
		for _, st := range r.counts {
			if bad := uncoveredScans(tb, env, st); bad != "" {
				tb.Errorf("%s: no index answers the count alone:\n%s\n%s", r.name, st.query, bad)
			}
		}
	}
	fmt.Printf("%d REST lists and %d GraphQL connections, %d requests: the counts of %s read indexes only\n",
		len(routes), len(connections), len(requests), strings.Join(names, ", "))
}

// scanOn is a scan node of a plan (forward or backward) and the table it
// reads.
var scanOn = regexp.MustCompile(`\b(Seq|Index Only|Index|Bitmap Heap|Tid Range|Tid) Scan (?:Backward )?(?:using \S+ )?on (\w+)`)

// uncoveredScans returns, for a COUNT statement, the plans of the tables
// whose rows it cannot count from an index alone ("" when every table's
// can). A table is covered when its scan in the statement's plan is an
// Index Only Scan with sequential and bitmap scans off; when the planner
// prefers another index on a small table (a narrow index plus a few heap
// pages can cost what a wide covering index does), the table is covered
// when some index of it, left as the table's only valid one, gives an
// Index Only Scan. Nothing is changed: the catalogue edits are rolled back.
func uncoveredScans(tb testing.TB, env *apptest.Env, st statement) string {
	tb.Helper()
	tx, err := env.App.DB.SQL.BeginTx(context.Background(), nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	exec := func(query string, args ...any) {
		tb.Helper()
		if _, err := tx.Exec(query, args...); err != nil {
			tb.Fatalf("%s: %v", query, err)
		}
	}
	explain := func() (plan string, onlyIndex map[string]bool) {
		tb.Helper()
		lines := explainLines(tb, tx, st)
		onlyIndex = map[string]bool{}
		for _, line := range lines {
			if m := scanOn.FindStringSubmatch(line); m != nil {
				only, seen := onlyIndex[m[2]]
				onlyIndex[m[2]] = (only || !seen) && m[1] == "Index Only"
			} else if strings.Contains(line, "Scan") && !strings.Contains(line, "Subquery Scan") {
				onlyIndex["?"] = false // a scan this check does not know
			}
		}
		return strings.Join(lines, "\n"), onlyIndex
	}
	exec("SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off")
	plan, tables := explain()
	var bad []string
	for table, only := range tables {
		if only {
			continue
		}
		var indexes []string
		rows, err := tx.Query(`SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = to_regclass($1)`, table)
		if err != nil {
			tb.Fatal(err)
		}
		for rows.Next() {
			var ix string
			_ = rows.Scan(&ix)
			indexes = append(indexes, ix)
		}
		_ = rows.Close()
		covered := false
		for _, ix := range indexes {
			exec("SAVEPOINT alone")
			exec(`UPDATE pg_index SET indisvalid = false WHERE indrelid = to_regclass($1) AND indexrelid <> to_regclass($2)`, table, ix)
			_, alone := explain()
			exec("ROLLBACK TO SAVEPOINT alone")
			if alone[table] {
				covered = true
				break
			}
		}
		if !covered {
			bad = append(bad, table)
		}
	}
	if bad == nil {
		return ""
	}
	slices.Sort(bad)
	return "not covered: " + strings.Join(bad, ", ") + "\n" + plan
}
