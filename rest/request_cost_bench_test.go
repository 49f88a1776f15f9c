package rest_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

// costBench is a project with rows activities over 1,000 commerces, in a
// tenant whose nine other projects hold as many each, served by a real
// HTTP server, with an API key that lists the project's.
type costBench struct {
	b       *testing.B
	env     *apptest.Env
	rec     *recorder
	l       *listProbe
	srv     *httptest.Server
	key     apptest.Headers
	schema  string
	workers int
	window  time.Duration
	rounds  int
}

func newCostBench(b *testing.B, rows int) *costBench {
	b.Helper()
	l, env, tn := newListBench(b, "/api/activities", "activities", func(l *listProbe, tn apptest.Tenant) {
		l.exec(`INSERT INTO commerces (id, created_at, updated_at, tenant_id, name, external_id, is_active)
			SELECT gen_random_uuid(), now(), now(), $1, 'Commerce ' || g, 'EXT-' || lpad(g::text, 7, '0'), true
			FROM generate_series(1, 1000) g`, tn.TenantID)
		l.exec(`INSERT INTO activities (id, created_at, updated_at, tenant_id, project_id, commerce_id, type, channel, status,
				scheduled_at, title, dispatch_attempts)
			SELECT gen_random_uuid(), now(), now(), $1, $2, c.ids[1 + g % cardinality(c.ids)],
				(ARRAY['TASK','MESSAGE'])[1 + g % 2], (ARRAY['SALESMAN','CALLCENTER','WHATSAPP','EMAIL','SMS','PUSH'])[1 + g % 6],
				(ARRAY['READY','UNRESOLVED','DISPATCHED','COMPLETED','CANCELED','FAILED','RETRYING'])[1 + g % 7],
				timestamptz '2025-01-01' + g * interval '1 minute', 'Visit ' || g, 0
			FROM generate_series(1, $3::int) g, (SELECT array_agg(id) AS ids FROM commerces WHERE tenant_id = $1) c`,
			tn.TenantID, tn.ProjectID, rows)
		// The tenant's nine other projects hold as many activities each:
		// the listed project is a tenth of the table, as a project is in
		// production, not all of it.
		for i := range 9 { // a statement each keeps them under the statement timeout
			other := uuid.New()
			l.exec(`INSERT INTO projects (id, created_at, updated_at, name, name_key, tenant_id) VALUES ($1, now(), now(), $2, $2, $3)`,
				other, fmt.Sprintf("other %d", i), tn.TenantID)
			l.exec(`INSERT INTO activities (id, created_at, updated_at, tenant_id, project_id, commerce_id, type, channel, status,
					scheduled_at, title, dispatch_attempts)
				SELECT gen_random_uuid(), now(), now(), tenant_id, $2, commerce_id, type, channel, status, scheduled_at, title, 0
				FROM activities WHERE project_id = $1`, tn.ProjectID, other)
		}
	}, "commerces", "projects", "activities")
	plain, _ := env.CreateKey(tn.TenantID, tn.UserID, tn.ProjectID, auth.PermActivityView)
	var schema string
	if err := l.db.QueryRow(`SELECT current_schema()`).Scan(&schema); err != nil {
		b.Fatal(err)
	}
	return &costBench{b: b, env: env, rec: l.rec, l: l, srv: l.srv, key: apptest.Key(plain), schema: schema,
		workers: benchSize("BENCH_API_WORKERS", 8), window: time.Duration(benchSize("BENCH_API_SECONDS", 3)) * time.Second,
		rounds: benchSize("BENCH_API_ROUNDS", 2)}
}

// request is one HTTP request the load sends.
type request struct {
	method, url string
	body        []byte
	header      apptest.Headers
}

// do sends r and returns its body when keep is true or r fails. The load
// reads every body to its end, as pgbench reads every row, and keeps none:
// read into a growing slice, page 1 of the activities (15 kB) allocated
// 38 kB per request, whose collection took CPU from the server measured
// beside it.
func (c *costBench) do(client *http.Client, r request, keep bool) ([]byte, error) {
	req, err := http.NewRequest(r.method, r.url, bytes.NewReader(r.body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range r.header {
		req.Header.Set(k, v)
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	var body []byte
	if keep || res.StatusCode != http.StatusOK {
		body, err = io.ReadAll(res.Body)
	} else {
		_, err = io.Copy(io.Discard, res.Body)
	}
	_ = res.Body.Close()
	if err == nil && res.StatusCode != http.StatusOK {
		err = fmt.Errorf("%s %s: %d %.300s", r.method, r.url, res.StatusCode, body)
	}
	return body, err
}

// load sends r from c.workers keep-alive clients for c.window and returns
// the requests answered per second.
func (c *costBench) load(r request) float64 {
	c.b.Helper()
	tr := &http.Transport{MaxIdleConns: c.workers, MaxIdleConnsPerHost: c.workers}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	var (
		done  atomic.Int64
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	stop := time.Now().Add(c.window)
	start := time.Now()
	for range c.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				if _, err := c.do(client, r, false); err != nil {
					once.Do(func() { first = err })
					return
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	if first != nil {
		c.b.Fatal(first)
	}
	return float64(done.Load()) / time.Since(start).Seconds()
}

// statements records the statements one (warm) request r runs.
func (c *costBench) statements(r request) []statement {
	c.b.Helper()
	client := c.srv.Client()
	if _, err := c.do(client, r, false); err != nil { // warms the credential cache and the prepared statements
		c.b.Fatal(err)
	}
	c.rec.record()
	_, err := c.do(client, r, false)
	seen := c.rec.stop()
	if err != nil {
		c.b.Fatal(err)
	}
	return seen
}

// compare measures a and b (alternate), prints their rates under label and
// reports them with their ratio.
func (c *costBench) compare(label, ratio, unitA string, a func() float64, unitB string, b func() float64) {
	rateA, rateB := c.alternate(a, b)
	fmt.Printf("%s: %s %.0f, %s %.0f, %s %.2f\n", label, unitA, rateA, unitB, rateB, ratio, rateA/rateB)
	c.b.ReportMetric(rateA, unitA)
	c.b.ReportMetric(rateB, unitB)
	c.b.ReportMetric(rateA/rateB, ratio)
}

// alternate measures a and b in c.rounds rounds each, alternating (a b b a
// ...), and returns their mean rates.
func (c *costBench) alternate(a, b func() float64) (rateA, rateB float64) {
	for r := range c.rounds {
		first, second := a, b
		if r%2 == 1 {
			first, second = b, a
		}
		x, y := first(), second()
		if r%2 == 1 {
			x, y = y, x
		}
		rateA += x / float64(c.rounds)
		rateB += y / float64(c.rounds)
	}
	return rateA, rateB
}

// BenchmarkListRequest compares page 1 of GET /api/activities (per_page 25,
// BENCH_API_ROWS activities: 50,000) through HTTP with pgbench running the
// statement the request runs (its page, which carries its exact count and
// its commerces' names; recorded, its arguments written in) on the same
// database at the same concurrency, prepared once; the phases alternate
// (BENCH_API_ROUNDS, BENCH_API_SECONDS each, BENCH_API_WORKERS clients).
// The request must run it on the pages pool, whose connections keep their
// plans (paging.KeepPlans). Then again with pgbench binding the arguments
// as the service does, on connections that keep plans as the pages pool's
// ("ratio-bound"). Last, the ceiling: the same statement served by a
// minimal Go handler over the pages pool (no authentication, no
// middleware, prepared once, rows written as JSON) against pgbench as in
// the first comparison ("ratio-minimal"). The list counts once, and its
// exact count, with each documented filter, reads an index only (EXPLAIN).
func BenchmarkListRequest(b *testing.B) {
	c := newCostBench(b, benchSize("BENCH_API_ROWS", 50_000))
	r := request{method: "GET", url: c.srv.URL + "/api/activities?per_page=25&page=1", header: c.key}
	// Every documented filter's exact count reads an index only.
	var shop string
	if err := c.l.db.QueryRow(`SELECT min(commerce_id::text) FROM activities`).Scan(&shop); err != nil {
		b.Fatal(err)
	}
	for _, f := range []string{"", "status=COMPLETED", "type=MESSAGE", "channel=EMAIL", "commerce_id=" + shop, "scheduled_from=2025-01-20T00:00:00Z",
		"scheduled_to=2025-01-20T00:00:00Z", "status=READY&scheduled_from=2025-01-10T00:00:00Z", "search=visit%201"} {
		counts := 0
		for _, st := range c.statements(request{method: "GET", url: r.url + "&" + f, header: c.key}) {
			if count, ok := countOf(st); ok {
				counts++
				scan := scanNode(c.l.plan(count))
				fmt.Printf("count of activities?%s: %s\n", f, scan)
				if !strings.HasPrefix(scan, "Index Only Scan") {
					b.Errorf("the count of activities?%s reads more than an index: %s\n%s", f, scan, c.l.plan(count))
				}
			}
		}
		if counts != 1 {
			b.Errorf("activities?%s counted %d times, want once", f, counts)
		}
	}
	seen := c.statements(r)
	for _, st := range seen {
		if !st.generic {
			b.Fatalf("page 1 did not run on the pages pool: %s", st.query)
		}
	}
	var literal, bound strings.Builder
	var vars []string // pgbench -D name=value: the bound script's arguments
	for _, st := range seen {
		literal.WriteString(inline(b, st.query, st.args) + ";\n")
		q := st.query
		for i := len(st.args); i >= 1; i-- { // $10 before $1
			name := fmt.Sprintf("a%d", len(vars)/2)
			vars = append(vars, "-D", name+"="+literalText(b, st.query, i, st.args[i-1]))
			q = strings.ReplaceAll(q, "$"+strconv.Itoa(i), ":"+name)
		}
		bound.WriteString(q + ";\n")
	}
	dir := b.TempDir()
	file, boundFile := filepath.Join(dir, "page.sql"), filepath.Join(dir, "bound.sql")
	for f, text := range map[string]string{file: literal.String(), boundFile: bound.String()} {
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	label := fmt.Sprintf("GET /api/activities page 1 (%d statements: %s)", len(seen), kinds(seen))
	base := request{method: "GET", url: c.minimal(c.env.App.DB.Pages, seen, true).URL}
	// One window of each first: the service's pages pool opens its
	// connections and plans on each, as pgbench's connections are not
	// timed ("without initial connection time"). Unwarmed, the first pair
	// of phases measured lower than the same pair later (0.88 against 0.94).
	c.load(r)
	c.pgbench(file)
	b.ResetTimer()
	for range b.N {
		c.compare(label, "ratio", "http-req/s", func() float64 { return c.load(r) }, "pgbench-tx/s", func() float64 { return c.pgbench(file) })
		c.compare(label+", arguments bound", "ratio-bound", "http-bound-phase-req/s", func() float64 { return c.load(r) },
			"pgbench-bound-tx/s", func() float64 { return c.pgbench(boundFile, vars...) })
		c.compare(label+", minimal Go handler", "ratio-minimal", "handler-req/s", func() float64 { return c.load(base) },
			"pgbench-minimal-phase-tx/s", func() float64 { return c.pgbench(file) })
	}
}

// pgbench runs file for c.window on c.workers connections to the bench's
// schema, with the arguments args, and returns its transactions per second.
func (c *costBench) pgbench(file string, args ...string) float64 {
	c.b.Helper()
	args = append([]string{"-n", "-M", "prepared", "-c", strconv.Itoa(c.workers), "-j", "2",
		"-T", strconv.Itoa(int(c.window.Seconds())), "-f", file}, args...)
	cmd := exec.Command("pgbench", append(args, os.Getenv("TEST_DATABASE_URL"))...)
	cmd.Env = append(os.Environ(), "PGOPTIONS=-c search_path="+c.schema)
	out, err := cmd.CombinedOutput()
	if err != nil {
		c.b.Fatalf("pgbench: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`tps = ([0-9.]+) \(without initial connection time\)`).FindSubmatch(out)
	if m == nil {
		c.b.Fatalf("pgbench printed no tps:\n%s", out)
	}
	tps, _ := strconv.ParseFloat(string(m[1]), 64)
	return tps
}

// minimal serves the statements seen run by a minimal Go handler over db
// (one of the service's pools), their rows written as JSON: no
// authentication, no middleware. The statements are prepared once when
// prepared is true, else unprepared, as database/sql runs them.
func (c *costBench) minimal(db *sql.DB, seen []statement, prepared bool) *httptest.Server {
	stmts := make([]*sql.Stmt, len(seen)) // nil: unprepared
	for i, st := range seen {
		if prepared {
			stmt, err := db.Prepare(st.query)
			if err != nil {
				c.b.Fatal(err)
			}
			c.b.Cleanup(func() { _ = stmt.Close() })
			stmts[i] = stmt
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var out [][][]any
		for i, st := range seen {
			rows, err := runRows(req.Context(), db, stmts[i], st)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			out = append(out, rows)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	}))
	c.b.Cleanup(srv.Close)
	return srv
}

// runRows runs st on db, or stmt (st prepared) when not nil, and returns
// its rows.
func runRows(ctx context.Context, db *sql.DB, stmt *sql.Stmt, st statement) ([][]any, error) {
	var rows *sql.Rows
	var err error
	if stmt != nil {
		rows, err = stmt.QueryContext(ctx, st.args...)
	} else {
		rows, err = db.QueryContext(ctx, st.query, st.args...)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		out = append(out, vals)
	}
	return out, rows.Err()
}

// scanNode is the first scan of plan ("Seq Scan on activities").
func scanNode(plan string) string {
	if m := scanOn.FindString(plan); m != "" {
		return m
	}
	return "no scan"
}

// kinds names the statements ("SELECT activities, ...").
func kinds(seen []statement) string {
	names := make([]string, len(seen))
	for i, st := range seen {
		names[i] = stmtKind(st.query)
	}
	return strings.Join(names, ", ")
}
