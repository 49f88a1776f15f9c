package rest_test

import (
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

// listProbe measures one REST list route through a real HTTP server on a
// seeded PostgreSQL database, recording the statements each request runs.
type listProbe struct {
	b     *testing.B
	rec   *recorder
	db    *sql.DB
	srv   *httptest.Server
	path  string // the route, e.g. /api/activities
	table string // the listed table: its statements are those that read FROM it
}

func newListProbe(b *testing.B, env *apptest.Env, rec *recorder, path, table string) *listProbe {
	b.Helper()
	srv := httptest.NewServer(env.App.Handler)
	b.Cleanup(srv.Close)
	return &listProbe{b: b, rec: rec, db: env.App.DB.SQL, srv: srv, path: path, table: table}
}

// get sends one list request with headers h and returns the statements that
// read the listed table, the others (authentication, eager loads) and the
// latency.
func (l *listProbe) get(query string, h apptest.Headers) (listed, other []statement, elapsed time.Duration) {
	l.b.Helper()
	req, _ := http.NewRequest("GET", l.srv.URL+l.path+"?"+query, nil)
	for k, v := range h {
		req.Header.Set(k, v)
	}
	l.rec.record()
	start := time.Now()
	res, err := l.srv.Client().Do(req)
	if err != nil {
		l.b.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	elapsed = time.Since(start)
	for _, st := range l.rec.stop() {
		if strings.Contains(st.query, `FROM "`+l.table+`"`) {
			listed = append(listed, st)
		} else {
			other = append(other, st)
		}
	}
	if res.StatusCode != http.StatusOK {
		l.b.Fatalf("GET %s?%s: %d %.300s", l.path, query, res.StatusCode, body)
	}
	return listed, other, elapsed
}

// plan is the EXPLAIN of a recorded statement.
func (l *listProbe) plan(st statement) string {
	l.b.Helper()
	return strings.Join(explainLines(l.b, l.db, st), "\n")
}

// explainLines are the lines of the EXPLAIN of st, run by q (a pool or a
// transaction).
func explainLines(tb testing.TB, q interface {
	Query(string, ...any) (*sql.Rows, error)
}, st statement) []string {
	tb.Helper()
	rows, err := q.Query("EXPLAIN "+st.query, st.args...)
	if err != nil {
		tb.Fatalf("explain %s: %v", st.query, err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			tb.Fatal(err)
		}
		lines = append(lines, line)
	}
	return lines
}

// median sends a request k times and returns the median latency and the
// median database time of its statements on the listed table (summed, as
// if they ran one after the other).
func (l *listProbe) median(query string, h apptest.Headers, k int) (latency, work time.Duration) {
	l.b.Helper()
	ls, ws := make([]time.Duration, k), make([]time.Duration, k)
	for i := range k {
		var listed []statement
		listed, _, ls[i] = l.get(query, h)
		for _, st := range listed {
			ws[i] += st.dur
		}
	}
	slices.Sort(ls)
	slices.Sort(ws)
	return ls[k/2], ws[k/2]
}

// check sends the list with per_page=100 and each filter ("" for none,
// else "name=value&...") at page 1 and page 1,000: the request reads the
// listed table with at most two statements (the count and the page), no
// plan has a sort node, and page 1,000 costs at most 1.5x page 1 (median of
// 9, after a warm-up).
func (l *listProbe) check(h apptest.Headers, filters ...string) {
	l.b.Helper()
	for _, f := range filters {
		q := "per_page=100"
		if f != "" {
			q += "&" + f
		}
		listed, other, _ := l.get(q+"&page=1000", h)
		if len(listed) > 2 {
			l.b.Errorf("%s: %d statements on %s", q, len(listed), l.table)
		}
		for _, st := range listed {
			if p := l.plan(st); strings.Contains(p, "Sort") {
				l.b.Errorf("%s: sort node in the plan of %s\n%s", q, st.query, p)
			}
		}
		l.median(q+"&page=1", h, 3) // warm the cache
		p1, w1 := l.median(q+"&page=1", h, 9)
		p1000, w1000 := l.median(q+"&page=1000", h, 9)
		ratio := float64(p1000) / float64(p1)
		fmt.Printf("%-70s page 1 %6.1fms  page 1000 %6.1fms  ratio %.2f | database time %6.1fms / %6.1fms ratio %.2f | %d %s statements, %d others\n",
			strings.TrimPrefix(l.path, "/api/")+"?"+f, ms(p1), ms(p1000), ratio, ms(w1), ms(w1000), float64(w1000)/float64(w1),
			len(listed), l.table, len(other))
		if ratio > 1.5 {
			l.b.Errorf("%s: page 1000 costs %.2fx page 1", q, ratio)
		}
	}
}

func (l *listProbe) exec(query string, args ...any) {
	l.b.Helper()
	if _, err := l.db.Exec(query, args...); err != nil {
		l.b.Fatalf("%.200s: %v", query, err)
	}
}

// newListBench starts the service on a fresh PostgreSQL schema with a
// tenant, runs seed (SQL: INSERT ... SELECT generate_series) and vacuums
// the seeded tables, so that index-only scans find their pages all-visible
// as on a settled production table.
func newListBench(b *testing.B, path, table string, seed func(l *listProbe, tn apptest.Tenant), tables ...string) (*listProbe, *apptest.Env, apptest.Tenant) {
	b.Helper()
	env, rec := benchEnv(b)
	tn := env.Bootstrap("Bench")
	l := newListProbe(b, env, rec, path, table)
	start := time.Now()
	seed(l, tn)
	l.exec("VACUUM ANALYZE " + strings.Join(tables, ", "))
	var n int
	if err := l.db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		b.Fatal(err)
	}
	fmt.Printf("%s=%d seeded in %s\n", table, n, time.Since(start).Round(time.Second))
	return l, env, tn
}

// BenchmarkActivityList checks GET /api/activities (and the task lists) on
// BENCH_LIST_ROWS activities (1,000,000) of one project, over 10,000
// commerces: for every documented filter (status, type, channel,
// commerce_id, the scheduled window, search), page 1,000 (per_page 100)
// costs at most 1.5x page 1, with at most two statements on the activities
// table and no sort node in their plans.
func BenchmarkActivityList(b *testing.B) {
	rows := benchSize("BENCH_LIST_ROWS", 1_000_000)
	l, env, tn := newListBench(b, "/api/activities", "activities", func(l *listProbe, tn apptest.Tenant) {
		l.exec(`INSERT INTO commerces (id, created_at, updated_at, tenant_id, name, external_id, is_active)
			SELECT gen_random_uuid(), now(), now(), $1, 'Commerce ' || g, 'EXT-' || lpad(g::text, 7, '0'), true
			FROM generate_series(1, 10000) g`, tn.TenantID)
		// A fifth of the activities belong to one commerce (its list
		// reaches page 1,000); the others spread over the rest. Two
		// activities share each instant: the order's ties are broken by id.
		// 100,000 rows a statement keep each under the statement timeout.
		for lo := 1; lo <= rows; lo += 100_000 {
			l.exec(`INSERT INTO activities (id, created_at, updated_at, tenant_id, project_id, commerce_id, type, channel, status,
				scheduled_at, title, dispatch_attempts)
				SELECT gen_random_uuid(), now(), now(), $1, $2, c.ids[CASE WHEN g % 5 = 0 THEN 1 ELSE 2 + g % (cardinality(c.ids) - 1) END],
					(ARRAY['TASK','MESSAGE'])[1 + g % 2], (ARRAY['SALESMAN','CALLCENTER','WHATSAPP','EMAIL','SMS','PUSH'])[1 + g % 6],
					(ARRAY['READY','UNRESOLVED','DISPATCHED','COMPLETED','CANCELED','FAILED','RETRYING'])[1 + g % 7],
					timestamptz '2025-01-01' + (g / 2) * interval '30 seconds', 'Visit ' || g, 0
				FROM generate_series($3::int, $4::int) g,
					(SELECT array_agg(id ORDER BY external_id) AS ids FROM commerces WHERE tenant_id = $1) c`,
				tn.TenantID, tn.ProjectID, lo, min(lo+99_999, rows))
		}
	}, "commerces", "activities")
	var first string
	if err := l.db.QueryRow(`SELECT id FROM commerces WHERE external_id = 'EXT-0000001'`).Scan(&first); err != nil {
		b.Fatal(err)
	}
	projectKey, _ := env.CreateKey(tn.TenantID, tn.UserID, tn.ProjectID, auth.PermActivityView)
	tenantKey, _ := env.CreateKey(tn.TenantID, tn.UserID, uuid.Nil, auth.PermActivityView)
	b.ResetTimer()
	for range b.N {
		l.path = "/api/activities"
		l.check(apptest.Key(projectKey), "", "status=COMPLETED", "type=MESSAGE", "channel=EMAIL", "commerce_id="+first,
			"scheduled_from=2025-03-01T00:00:00Z", "scheduled_to=2025-06-01T00:00:00Z",
			"status=READY&scheduled_from=2025-02-01T00:00:00Z", "search=visit")
		l.path = "/api/activities/tasks"
		l.check(apptest.Key(projectKey), "", "scheduled_from=2025-03-01T00:00:00Z")
		l.path = "/api/integration/activities/tasks" // every project of the tenant
		l.check(apptest.Key(tenantKey), "")
	}
}

// BenchmarkCommerceList checks GET /api/commerces on BENCH_LIST_ROWS
// commerces (1,000,000; 2% of them archived, names shared by 20 commerces
// each): with each documented filter (is_active, search), page 1,000
// (per_page 100) costs at most 1.5x page 1, with at most two statements on
// the commerces table and no sort node in their plans.
func BenchmarkCommerceList(b *testing.B) {
	rows := benchSize("BENCH_LIST_ROWS", 1_000_000)
	l, env, tn := newListBench(b, "/api/commerces", "commerces", func(l *listProbe, tn apptest.Tenant) {
		l.exec(`INSERT INTO commerces (id, created_at, updated_at, tenant_id, name, external_id, is_active, archived_at)
			SELECT gen_random_uuid(), now(), now(), $1, 'Commerce ' || (g % ($2 / 20)), 'EXT-' || lpad(g::text, 7, '0'),
				g % 4 <> 0, CASE WHEN g % 50 = 7 THEN now() END
			FROM generate_series(1, $2) g`, tn.TenantID, rows)
	}, "commerces")
	key, _ := env.CreateKey(tn.TenantID, tn.UserID, uuid.Nil, auth.PermCommerceView)
	b.ResetTimer()
	for range b.N {
		l.check(apptest.Key(key), "", "is_active=true", "is_active=false", "search=commerce%201")
	}
}
