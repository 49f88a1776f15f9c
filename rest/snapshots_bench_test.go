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
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/reten-io/reten/ent/retentionstatusconfig"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/viewer"
)

// benchSize reads a size from the environment (BENCH_SNAPSHOTS, ...).
func benchSize(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// snapBench is a tenant with n commerces, AGCs and two status configs.
type snapBench struct {
	env       *apptest.Env
	rec       *recorder
	db        *sql.DB
	tenantID  uuid.UUID
	agcs      []uuid.UUID
	commerces []uuid.UUID
	key       apptest.Headers
}

// newSnapBench seeds n commerces (external ids EXT-000001...) with SQL, so
// setup stays out of the way of what is measured.
func newSnapBench(b *testing.B, commerces, agcs int) *snapBench {
	b.Helper()
	env, rec := benchEnv(b)
	tn := env.Bootstrap("Bench")
	ctx, c := viewer.SystemContext(context.Background()), env.App.DB.Client
	s := &snapBench{env: env, rec: rec, db: env.App.DB.SQL, tenantID: tn.TenantID}
	for i := range agcs {
		s.agcs = append(s.agcs, c.ActivityGenerationConfig.Create().SetTenantID(tn.TenantID).SetProjectID(tn.ProjectID).
			SetName(fmt.Sprintf("AGC %d", i)).SaveX(ctx).ID)
	}
	for code, stage := range map[string]string{"new": "ACTIVATION", "engaged": "ENGAGEMENT", "dormant": "RESURRECTION", "fresh": "ACTIVATION"} {
		c.RetentionStatusConfig.Create().SetTenantID(tn.TenantID).SetCode(code).SetLabel(strings.ToUpper(code)).SetStage(retentionstatusconfig.Stage(stage)).SaveX(ctx)
	}
	if _, err := s.db.Exec(`INSERT INTO commerces (id, created_at, updated_at, tenant_id, name, external_id, is_active)
		SELECT gen_random_uuid(), now(), now(), $1, 'Commerce ' || g, 'EXT-' || lpad(g::text, 7, '0'), true
		FROM generate_series(1, $2) g`, tn.TenantID, commerces); err != nil {
		b.Fatal(err)
	}
	rows, err := s.db.Query(`SELECT id FROM commerces WHERE tenant_id = $1 ORDER BY external_id`, tn.TenantID)
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			b.Fatal(err)
		}
		s.commerces = append(s.commerces, id)
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	plain, _ := env.CreateKey(tn.TenantID, tn.UserID, uuid.Nil, auth.PermSnapshotView, auth.PermSnapshotCreate)
	s.key = apptest.Key(plain)
	s.exec(b, "VACUUM ANALYZE commerces")
	return s
}

func (s *snapBench) exec(b *testing.B, query string, args ...any) {
	b.Helper()
	if _, err := s.db.Exec(query, args...); err != nil {
		b.Fatalf("%s: %v", query, err)
	}
}

// bodies encodes the batch-upsert requests (1,000 items each) of every
// commerce under the first AGC with code at time at.
func (s *snapBench) bodies(b *testing.B, code, stage string, at time.Time) [][]byte {
	b.Helper()
	var out [][]byte
	for start := 0; start < len(s.commerces); start += 1000 {
		var items []map[string]any
		for _, id := range s.commerces[start:min(start+1000, len(s.commerces))] {
			items = append(items, map[string]any{"commerce_id": id, "activity_generation_config_id": s.agcs[0],
				"code": code, "stage": stage, "last_computed_at": at})
		}
		raw, err := json.Marshal(map[string]any{"items": items})
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, raw)
	}
	return out
}

// postAll sends the bodies one after another over one keep-alive connection
// to a real HTTP server and returns the elapsed time.
func (s *snapBench) postAll(b *testing.B, srv *httptest.Server, bodies [][]byte, wantOutcome string) time.Duration {
	b.Helper()
	start := time.Now()
	for _, body := range bodies {
		req, _ := http.NewRequest("POST", srv.URL+"/api/commerce-lifecycle-snapshots/batch-upsert", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range s.key {
			req.Header.Set(k, v)
		}
		res, err := srv.Client().Do(req)
		if err != nil {
			b.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		var out map[string]any
		_ = json.Unmarshal(raw, &out)
		if res.StatusCode != 200 || out[wantOutcome] != float64(len(out["results"].([]any))) {
			b.Fatalf("batch: %d %.300s", res.StatusCode, raw)
		}
	}
	return time.Since(start)
}

// baseline writes the same rows with one hand-written multi-row
// INSERT ... ON CONFLICT statement per 1,000 rows (each its own transaction,
// like the route's chunks), with the ids the service gives snapshots
// (UUIDv7), and returns the elapsed time. With history, the statement also
// appends the transition rows the route writes (a creation, or the replaced
// state kept in prior_stage/prior_code) and their generation outbox rows,
// so both sides do the same writes.
func (s *snapBench) baseline(b *testing.B, code, label, stage string, at time.Time, history bool) time.Duration {
	b.Helper()
	const cols = 12
	start := time.Now()
	for first := 0; first < len(s.commerces); first += 1000 {
		chunk := s.commerces[first:min(first+1000, len(s.commerces))]
		var sb strings.Builder
		if history {
			sb.WriteString("WITH w AS (")
		}
		sb.WriteString(`INSERT INTO commerce_lifecycle_snapshots AS s (id, created_at, updated_at, tenant_id, commerce_id, external_id,
			activity_generation_config_id, code, label, stage, last_computed_at, state_changed_at) VALUES `)
		args := make([]any, 0, len(chunk)*cols+2)
		now := time.Now()
		commerces, transitions := make([]string, len(chunk)), make([]string, len(chunk))
		for i, id := range chunk {
			if i > 0 {
				sb.WriteByte(',')
			}
			p := i * cols
			fmt.Fprintf(&sb, "($%d,$%d,$%d,$%d,$%d,$%d,$%d,$%d,$%d,$%d,$%d,$%d)", p+1, p+2, p+3, p+4, p+5, p+6, p+7, p+8, p+9, p+10, p+11, p+12)
			args = append(args, uuid.Must(uuid.NewV7()), now, now, s.tenantID, id, fmt.Sprintf("EXT-%07d", first+i+1), s.agcs[0], code, label, stage, at, at)
			commerces[i], transitions[i] = id.String(), uuid.Must(uuid.NewV7()).String()
		}
		sb.WriteString(` ON CONFLICT (commerce_id, activity_generation_config_id) DO UPDATE SET code = excluded.code, label = excluded.label,
			stage = excluded.stage, last_computed_at = excluded.last_computed_at, state_changed_at = excluded.state_changed_at, updated_at = excluded.updated_at`)
		if history {
			n := len(args)
			args = append(args, pq.Array(commerces), pq.Array(transitions))
			fmt.Fprintf(&sb, `, prior_stage = s.stage, prior_code = s.code
			RETURNING commerce_id, activity_generation_config_id, prior_stage, prior_code, stage, code, state_changed_at, last_computed_at),
			h AS (INSERT INTO commerce_lifecycle_transitions (id, created_at, updated_at, tenant_id, commerce_id, activity_generation_config_id,
			 from_stage, from_code, to_stage, to_code, state_changed_at, last_computed_at, source)
			SELECT t.id, $2, $2, $4, w.commerce_id, w.activity_generation_config_id, w.prior_stage, w.prior_code, w.stage, w.code,
			 w.state_changed_at, w.last_computed_at, 'API'
			FROM w JOIN unnest($%d::uuid[], $%d::uuid[]) AS t(commerce_id, id) ON t.commerce_id = w.commerce_id RETURNING id)
			INSERT INTO generation_outbox (id, tenant_id, created_at) SELECT id, $4, $2 FROM h`, n+1, n+2)
		}
		s.exec(b, sb.String(), args...)
	}
	return time.Since(start)
}

// BenchmarkSnapshotBatchUpsert compares, in one run on one database,
// snapshots per second through POST /api/commerce-lifecycle-snapshots/batch-upsert
// (1,000-item requests over HTTP) with the same rows written by one
// hand-written INSERT ... ON CONFLICT per 1,000 rows: first inserts, then a
// state change of every row. BENCH_SNAPSHOTS sets the size (200,000).
// The route also appends the transition history: the target, the route at
// 70% of the rate of raw SQL doing the same writes (snapshots and
// transitions) or better, is asserted; the rate against raw SQL writing the
// snapshots alone is reported beside it (what the history costs).
func BenchmarkSnapshotBatchUpsert(b *testing.B) {
	n := benchSize("BENCH_SNAPSHOTS", 200_000)
	s := newSnapBench(b, n, 1)
	t1, t2 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	insertBodies, changeBodies := s.bodies(b, "new", "ACTIVATION", t1), s.bodies(b, "engaged", "ENGAGEMENT", t2)
	srv := httptest.NewServer(s.env.App.Handler)
	defer srv.Close()
	rate := func(d time.Duration) float64 { return float64(n) / d.Seconds() }
	reset := func() {
		s.exec(b, "TRUNCATE commerce_lifecycle_snapshots, commerce_lifecycle_transitions, generation_outbox")
	}
	b.ResetTimer()
	for range b.N {
		reset()
		bareInsert := s.baseline(b, "new", "NEW", "ACTIVATION", t1, false)
		bareChange := s.baseline(b, "engaged", "ENGAGED", "ENGAGEMENT", t2, false)
		reset()
		baseInsert := s.baseline(b, "new", "NEW", "ACTIVATION", t1, true)
		baseChange := s.baseline(b, "engaged", "ENGAGED", "ENGAGEMENT", t2, true)
		var baseTransitions int
		if err := s.db.QueryRow(`SELECT count(*) FROM commerce_lifecycle_transitions`).Scan(&baseTransitions); err != nil || baseTransitions != 2*n {
			b.Fatalf("the baseline wrote %d transitions (%v), want %d", baseTransitions, err, 2*n)
		}
		reset()
		routeInsert := s.postAll(b, srv, insertBodies, "created")
		routeChange := s.postAll(b, srv, changeBodies, "updated")
		mark := time.Now()
		routeResend := s.postAll(b, srv, changeBodies, "unchanged")
		var rewritten, transitions int
		if err := s.db.QueryRow(`SELECT (SELECT count(*) FROM commerce_lifecycle_snapshots WHERE updated_at >= $1),
			(SELECT count(*) FROM commerce_lifecycle_transitions)`, mark).Scan(&rewritten, &transitions); err != nil {
			b.Fatal(err)
		}
		insertRatio, changeRatio := rate(routeInsert)/rate(baseInsert), rate(routeChange)/rate(baseChange)
		fmt.Printf("snapshots=%d  first inserts: route %.0f/s, same writes in SQL %.0f/s, ratio %.2f (snapshots alone in SQL %.0f/s, ratio %.2f)"+
			" | state changes: route %.0f/s, same writes in SQL %.0f/s, ratio %.2f (snapshots alone in SQL %.0f/s, ratio %.2f)"+
			" | identical resend: %.0f/s, %d rows rewritten, %d transitions\n",
			n, rate(routeInsert), rate(baseInsert), insertRatio, rate(bareInsert), rate(routeInsert)/rate(bareInsert),
			rate(routeChange), rate(baseChange), changeRatio, rate(bareChange), rate(routeChange)/rate(bareChange),
			rate(routeResend), rewritten, transitions)
		b.ReportMetric(insertRatio, "insert-ratio")
		b.ReportMetric(changeRatio, "change-ratio")
		b.ReportMetric(rate(routeInsert)/rate(bareInsert), "insert-ratio-vs-snapshots-alone")
		b.ReportMetric(rate(routeChange)/rate(bareChange), "change-ratio-vs-snapshots-alone")
		if rewritten != 0 || transitions != 2*n {
			b.Errorf("identical resend rewrote %d rows; %d transitions, want %d", rewritten, transitions, 2*n)
		}
		if insertRatio < 0.7 || changeRatio < 0.7 {
			b.Errorf("route below 70%% of the baseline: inserts %.2f, changes %.2f", insertRatio, changeRatio)
		}
	}
}

// seedSnapshots writes a snapshot of every commerce under every AGC with SQL:
// codes spread over the four status configs, state_changed_at over 2025.
func (s *snapBench) seedSnapshots(b *testing.B) int {
	b.Helper()
	// One statement per AGC keeps each under the statement timeout.
	for _, agc := range s.agcs {
		s.exec(b, `INSERT INTO commerce_lifecycle_snapshots (id, created_at, updated_at, tenant_id, commerce_id, external_id,
			activity_generation_config_id, code, label, stage, last_computed_at, state_changed_at)
			SELECT gen_random_uuid(), now(), now(), $1, x.cid, x.external_id, $2, st.code, st.label, st.stage, x.at + interval '1 day', x.at
			FROM (SELECT c.id AS cid, c.external_id, floor(random() * 4)::int AS pick,
			        timestamptz '2025-01-01' + random() * interval '365 days' AS at
			      FROM commerces c WHERE c.tenant_id = $1) x
			JOIN (SELECT code, label, stage, (row_number() OVER (ORDER BY code) - 1)::int AS pick
			      FROM retention_status_configs WHERE tenant_id = $1) st ON st.pick = x.pick`, s.tenantID, agc)
	}
	s.exec(b, "VACUUM ANALYZE commerce_lifecycle_snapshots")
	var n int
	if err := s.db.QueryRow("SELECT count(*) FROM commerce_lifecycle_snapshots").Scan(&n); err != nil || n != len(s.commerces)*len(s.agcs) {
		b.Fatalf("seeded %d snapshots (%v), want %d", n, err, len(s.commerces)*len(s.agcs))
	}
	return n
}

// BenchmarkSnapshotList checks GET /api/commerce-lifecycle-snapshots on
// BENCH_LIST_ROWS snapshots (1,000,000: 200,000 commerces under 5 AGCs):
// for every documented filter, in both sort orders, the request runs at most
// two statements on the snapshots table, no plan has a sort node, and page
// 1,000 (per_page 100) costs at most 1.5x page 1.
func BenchmarkSnapshotList(b *testing.B) {
	rows := benchSize("BENCH_LIST_ROWS", 1_000_000)
	s := newSnapBench(b, rows/5, 5)
	n := s.seedSnapshots(b)
	filters := []string{"", "code=engaged", "stage=ENGAGEMENT", "activity_generation_config_id=" + s.agcs[2].String(),
		"state_changed_since=2025-07-01T00:00:00Z", "code=new&state_changed_since=2025-04-01T00:00:00Z"}
	l := newListProbe(b, s.env, s.rec, "/api/commerce-lifecycle-snapshots", "commerce_lifecycle_snapshots")
	b.ResetTimer()
	for range b.N {
		fmt.Printf("snapshots=%d\n", n)
		var queries []string
		for _, f := range filters {
			for _, sort := range []string{"-state_changed_at", "state_changed_at"} {
				queries = append(queries, strings.TrimSuffix("sort="+sort+"&"+f, "&"))
			}
		}
		l.check(s.key, queries...)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
