package rest_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/cutoff"
)

// resBench is a tenant with n commerces and a project API key allowed to
// submit results.
type resBench struct {
	env       *apptest.Env
	rec       *recorder
	db        *sql.DB
	tenantID  uuid.UUID
	projectID uuid.UUID
	ownerID   uuid.UUID
	key       apptest.Headers
}

func newResBench(b *testing.B, commerces int) *resBench {
	b.Helper()
	env, rec := benchEnv(b)
	tn := env.Bootstrap("Bench")
	s := &resBench{env: env, rec: rec, db: env.App.DB.SQL, tenantID: tn.TenantID, projectID: tn.ProjectID, ownerID: tn.UserID}
	s.exec(b, `INSERT INTO commerces (id, created_at, updated_at, tenant_id, name, external_id, is_active)
		SELECT gen_random_uuid(), now(), now(), $1, 'Commerce ' || g, 'EXT-' || lpad(g::text, 7, '0'), true
		FROM generate_series(1, $2) g`, tn.TenantID, commerces)
	plain, _ := env.CreateKey(tn.TenantID, tn.UserID, tn.ProjectID, auth.PermActivityResultSubmit)
	s.key = apptest.Key(plain)
	return s
}

func (s *resBench) exec(b *testing.B, query string, args ...any) {
	b.Helper()
	if _, err := s.db.Exec(query, args...); err != nil {
		b.Fatalf("%s: %v", query, err)
	}
}

// tasks seeds READY tasks of the project (one per commerce, at most n),
// titled set so each phase checks its own, with their CREATED status events,
// and returns their ids. Scheduled tomorrow: no day is closed while it runs.
func (s *resBench) tasks(b *testing.B, set string, n int) []uuid.UUID {
	b.Helper()
	rows, err := s.db.Query(`WITH a AS (
			INSERT INTO activities (id, created_at, updated_at, type, channel, status, scheduled_at, title, dispatch_attempts, tenant_id, project_id, commerce_id)
			SELECT gen_random_uuid(), now(), now(), 'TASK', 'SMS', 'READY', now() + interval '1 day', $3, 0, $1, $2, c.id
			FROM (SELECT id FROM commerces WHERE tenant_id = $1 ORDER BY external_id LIMIT $4) c
			RETURNING id, created_at, tenant_id, project_id),
		e AS (
			INSERT INTO activity_status_events (id, created_at, updated_at, event_type, from_status, to_status, occurred_at, tenant_id, project_id, activity_id)
			SELECT gen_random_uuid(), a.created_at, a.created_at, 'CREATED', NULL, 'READY', a.created_at, a.tenant_id, a.project_id, a.id FROM a)
		SELECT id FROM a`, s.tenantID, s.projectID, set, n)
	if err != nil {
		b.Fatalf("seed %s: %v", set, err)
	}
	defer rows.Close()
	var ids []uuid.UUID
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil || len(ids) != n {
		b.Fatalf("seeded %d %s tasks (%v), want %d", len(ids), set, err, n)
	}
	s.exec(b, "VACUUM ANALYZE activities")
	s.exec(b, "VACUUM ANALYZE activity_status_events")
	return ids
}

// concurrently runs fn(i) for i in [0, n) on workers goroutines and returns
// the elapsed time and the first error.
func concurrently(n, workers int, fn func(i int) error) (time.Duration, error) {
	var (
		next  atomic.Int64
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	start := time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(i); err != nil {
					once.Do(func() { first = err })
					next.Store(int64(n)) // stop the others
					return
				}
			}
		}()
	}
	wg.Wait()
	return time.Since(start), first
}

// submitter posts first results (COMPLETED, "success") over keep-alive
// connections, one per worker, to a real HTTP server.
type submitter struct {
	url    string
	client *http.Client
	key    apptest.Headers
}

func newSubmitter(srv *httptest.Server, workers int, key apptest.Headers) *submitter {
	tr := &http.Transport{MaxIdleConns: workers, MaxIdleConnsPerHost: workers}
	return &submitter{url: srv.URL + "/api/activity-results/tasks", client: &http.Client{Transport: tr}, key: key}
}

func (p *submitter) submit(id uuid.UUID) error {
	body, err := json.Marshal(map[string]any{"activity_id": id, "occurred_at": time.Now().UTC().Format(time.RFC3339Nano),
		"status": "COMPLETED", "task_result": map[string]any{"result": "success"}})
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, p.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range p.key {
		req.Header.Set(k, v)
	}
	res, err := p.client.Do(req)
	if err != nil {
		return err
	}
	raw, err := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusCreated {
		return fmt.Errorf("submit %s: %d %.300s", id, res.StatusCode, raw)
	}
	return nil
}

var errNotAccepted = errors.New("activity does not accept a result")

// baseline registers the same first result with hand-written SQL in one
// transaction, doing what the service does: lock the task, check its status,
// read the tenant's day settings and the result type's config (one SELECT
// each), check the day, insert the result, move the task (guarded on its
// status) and insert its status event.
func (s *resBench) baseline(ctx context.Context, id uuid.UUID) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	var (
		status      string
		commerceID  uuid.UUID
		scheduledAt time.Time
		attempts    int64
	)
	if err := tx.QueryRowContext(ctx, `SELECT status, commerce_id, scheduled_at, dispatch_attempts FROM activities
		WHERE id = $1 AND tenant_id = $2 AND project_id = $3 AND type = 'TASK' FOR UPDATE`, id, s.tenantID, s.projectID).
		Scan(&status, &commerceID, &scheduledAt, &attempts); err != nil {
		return fmt.Errorf("lock %s: %w", id, err)
	}
	if !slices.Contains([]string{"READY", "DISPATCHED", "RETRYING", "COMPLETED"}, status) {
		return errNotAccepted
	}
	var zone, dayCutoff string
	if err := tx.QueryRowContext(ctx, `SELECT time_zone, day_cutoff FROM tenants WHERE id = $1`, s.tenantID).Scan(&zone, &dayCutoff); err != nil {
		return err
	}
	settings, err := cutoff.Parse(zone, dayCutoff)
	if err != nil {
		return err
	}
	now := time.Now().Truncate(time.Microsecond)
	if err := cutoff.CheckOpen(scheduledAt, now, settings); err != nil {
		return err
	}
	active := true
	err = tx.QueryRowContext(ctx, `SELECT is_active FROM tenant_result_type_configs WHERE tenant_id = $1 AND result_type_code = $2`,
		s.tenantID, "success").Scan(&active)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if !active {
		return errors.New("result type inactive")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO activity_results (id, created_at, updated_at, project_id, source, result_status,
		occurred_at, result_code, hard_override, submitted_by, activity_id, tenant_id, commerce_id)
		VALUES ($1, $2, $2, $3, 'RETEN_ACTIVITY', 'COMPLETED', $2, 'success', false, $4, $5, $6, $7)`,
		uuid.New(), now, s.projectID, s.ownerID, id, s.tenantID, commerceID); err != nil {
		return fmt.Errorf("insert result: %w", err)
	}
	res, err := tx.ExecContext(ctx, `UPDATE activities SET status = 'COMPLETED', next_dispatch_at = NULL, updated_at = $1
		WHERE id = $2 AND status = $3 AND dispatch_attempts = $4`, now, id, status, attempts)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("move %s: %d rows (%v)", id, n, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO activity_status_events (id, created_at, updated_at, event_type, from_status,
		to_status, occurred_at, actor_id, detail, tenant_id, project_id, activity_id)
		VALUES ($1, $2, $2, 'COMPLETED', $3, 'COMPLETED', $2, $4, '{"resultStatus":"COMPLETED"}', $5, $6, $7)`,
		uuid.New(), now, status, s.ownerID, s.tenantID, s.projectID, id); err != nil {
		return fmt.Errorf("insert event: %w", err)
	}
	return tx.Commit()
}

// verify asserts that every task of set has exactly one COMPLETED result,
// is COMPLETED with one READY -> COMPLETED event, and that the results table
// holds total rows.
func (s *resBench) verify(b *testing.B, set string, n, total int) {
	b.Helper()
	var results, distinct, completed, tasksDone, events, eventTasks, all int
	err := s.db.QueryRow(`SELECT
			(SELECT count(*) FROM activity_results r JOIN activities a ON a.id = r.activity_id WHERE a.title = $1),
			(SELECT count(DISTINCT r.activity_id) FROM activity_results r JOIN activities a ON a.id = r.activity_id WHERE a.title = $1),
			(SELECT count(*) FROM activity_results r JOIN activities a ON a.id = r.activity_id
				WHERE a.title = $1 AND r.result_status = 'COMPLETED' AND r.source = 'RETEN_ACTIVITY' AND r.result_code = 'success'),
			(SELECT count(*) FROM activities WHERE title = $1 AND status = 'COMPLETED'),
			(SELECT count(*) FROM activity_status_events e JOIN activities a ON a.id = e.activity_id
				WHERE a.title = $1 AND e.event_type = 'COMPLETED' AND e.from_status = 'READY' AND e.to_status = 'COMPLETED'),
			(SELECT count(DISTINCT e.activity_id) FROM activity_status_events e JOIN activities a ON a.id = e.activity_id
				WHERE a.title = $1 AND e.event_type = 'COMPLETED'),
			(SELECT count(*) FROM activity_results)`, set).
		Scan(&results, &distinct, &completed, &tasksDone, &events, &eventTasks, &all)
	if err != nil {
		b.Fatalf("verify %s: %v", set, err)
	}
	if results != n || distinct != n || completed != n || tasksDone != n || events != n || eventTasks != n || all != total {
		b.Fatalf("%s: %d results (%d tasks, %d COMPLETED), %d COMPLETED tasks, %d COMPLETED events (%d tasks), %d results in all; want %d each and %d in all",
			set, results, distinct, completed, tasksDone, events, eventTasks, all, n, total)
	}
}

var (
	stmtTable  = regexp.MustCompile("(?i)\\b(?:FROM|INTO|UPDATE)\\s+[\"`]?(\\w+)")
	stmtParens = regexp.MustCompile(`\([^()]*\)`)
)

// stmtKind names a statement by its verb and first table outside
// parentheses ("SELECT api_keys"; a subquery in the select list does not count).
func stmtKind(q string) string {
	verb, _, _ := strings.Cut(strings.TrimSpace(q), " ")
	kind := strings.ToUpper(verb)
	outer := q
	for stmtParens.MatchString(outer) {
		outer = stmtParens.ReplaceAllString(outer, "")
	}
	if m := stmtTable.FindStringSubmatch(outer); m != nil {
		kind += " " + m[1]
	}
	if strings.Contains(strings.ToUpper(q), "FOR UPDATE") {
		kind += " FOR UPDATE"
	}
	return kind
}

// profile submits k first results one after another through HTTP with the
// statement recorder on, and k through the baseline, and returns the ent
// statements by kind (count and time), the statements per request and the
// median latencies and database time (the recorded statements, summed) per
// request.
func (s *resBench) profile(b *testing.B, p *submitter, k int) (kinds map[string]int, spent map[string]time.Duration,
	perReq float64, httpLat, dbTime, baseLat time.Duration) {
	b.Helper()
	ids := s.tasks(b, "profile-http", k)
	kinds, spent = map[string]int{}, map[string]time.Duration{}
	lats, dbs := make([]time.Duration, k), make([]time.Duration, k)
	total := 0
	for i, id := range ids {
		s.rec.record()
		start := time.Now()
		if err := p.submit(id); err != nil {
			b.Fatal(err)
		}
		lats[i] = time.Since(start)
		seen := s.rec.stop()
		for _, st := range seen {
			kinds[stmtKind(st.query)]++
			spent[stmtKind(st.query)] += st.dur
			dbs[i] += st.dur
		}
		total += len(seen)
	}
	base := s.tasks(b, "profile-baseline", k)
	blats := make([]time.Duration, k)
	for i, id := range base {
		start := time.Now()
		if err := s.baseline(context.Background(), id); err != nil {
			b.Fatal(err)
		}
		blats[i] = time.Since(start)
	}
	med := func(d []time.Duration) time.Duration { slices.Sort(d); return d[len(d)/2] }
	return kinds, spent, float64(total) / float64(k), med(lats), med(dbs), med(blats)
}

// BenchmarkResultSubmit compares, in one run on one database, first results
// per second through POST /api/activity-results/tasks (a real loopback HTTP
// server, workers concurrent keep-alive clients, one request per result) with
// the same work in hand-written SQL, one transaction per result, on the same
// number of workers. Each phase registers a COMPLETED result for its own set
// of READY tasks and is verified: one result, one COMPLETED status, one
// READY -> COMPLETED event per task. BENCH_RESULTS sets the size (10,000),
// BENCH_RESULT_WORKERS the concurrency (8), BENCH_RESULT_ROUNDS the rounds
// the phases alternate in (6). A sequential profile then counts
// the statements of one request by kind (authentication included).
func BenchmarkResultSubmit(b *testing.B) {
	n := benchSize("BENCH_RESULTS", 10_000)
	workers := benchSize("BENCH_RESULT_WORKERS", 8)
	rounds := benchSize("BENCH_RESULT_ROUNDS", 6)
	s := newResBench(b, n)
	srv := httptest.NewServer(s.env.App.Handler)
	defer srv.Close()
	p := newSubmitter(srv, workers, s.key)
	rate := func(d time.Duration) float64 { return float64(n) / d.Seconds() }
	b.ResetTimer()
	for iter := range b.N {
		b.StopTimer()
		baseSet, httpSet := fmt.Sprintf("baseline-%d", iter), fmt.Sprintf("http-%d", iter)
		baseIDs, httpIDs := s.tasks(b, baseSet, n), s.tasks(b, httpSet, n)
		b.StartTimer()

		// The two phases alternate in rounds (baseline, HTTP, HTTP,
		// baseline, ...), so that a drift of the machine or of the
		// database (a checkpoint, autovacuum) weighs on both alike.
		var baseDur, httpDur time.Duration
		for r := range rounds {
			lo, hi := r*n/rounds, (r+1)*n/rounds
			phases := []func() error{
				func() error {
					d, err := concurrently(hi-lo, workers, func(i int) error { return s.baseline(context.Background(), baseIDs[lo+i]) })
					baseDur += d
					return err
				},
				func() error {
					d, err := concurrently(hi-lo, workers, func(i int) error { return p.submit(httpIDs[lo+i]) })
					httpDur += d
					return err
				},
			}
			if r%2 == 1 {
				slices.Reverse(phases)
			}
			for _, phase := range phases {
				if err := phase(); err != nil {
					b.Fatal(err)
				}
			}
		}
		s.verify(b, baseSet, n, (2*iter+2)*n)
		s.verify(b, httpSet, n, (2*iter+2)*n)

		ratio := rate(httpDur) / rate(baseDur)
		fmt.Printf("results=%d workers=%d  http %.0f/s (%.2fs), baseline %.0f/s (%.2fs), ratio %.2f\n",
			n, workers, rate(httpDur), httpDur.Seconds(), rate(baseDur), baseDur.Seconds(), ratio)
		b.ReportMetric(rate(httpDur), "http-results/s")
		b.ReportMetric(rate(baseDur), "baseline-results/s")
		b.ReportMetric(ratio, "ratio")
	}
	b.StopTimer()

	const k = 50
	kinds, spent, perReq, httpLat, dbTime, baseLat := s.profile(b, p, k)
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	slices.Sort(names)
	fmt.Printf("one request, sequential (median of %d): http %.2fms of which %.2fms in %.1f ent statements; baseline %.2fms in 7 statements + BEGIN/COMMIT\n",
		k, ms(httpLat), ms(dbTime), perReq, ms(baseLat))
	for _, name := range names {
		fmt.Printf("  %4.1f per request, %.3fms each  %s\n", float64(kinds[name])/k, ms(spent[name])/float64(kinds[name]), name)
	}
	b.ReportMetric(perReq, "stmts/result")
}
