package rest_test

import (
	"context"
	"database/sql"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/reten-io/reten/ent/retentionstatusconfig"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/demo"
	"github.com/reten-io/reten/internal/engine"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/viewer"
)

// fillDemoTable replaces the rows of a demo table with n generated ones:
// generated expressions for the columns in gen, the demo's first row's
// values for the others.
func fillDemoTable(b *testing.B, db *sql.DB, schema, table string, n int, gen map[string]string) {
	b.Helper()
	rows, err := db.Query(`SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`, schema, table)
	if err != nil {
		b.Fatal(err)
	}
	var cols, exprs []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			b.Fatal(err)
		}
		cols = append(cols, pq.QuoteIdentifier(c))
		if e, ok := gen[c]; ok {
			exprs = append(exprs, e)
		} else {
			exprs = append(exprs, "tpl."+pq.QuoteIdentifier(c))
		}
	}
	if err := rows.Close(); err != nil {
		b.Fatal(err)
	}
	t := pq.QuoteIdentifier(schema) + "." + pq.QuoteIdentifier(table)
	for _, q := range []string{
		`CREATE TEMP TABLE tpl AS SELECT * FROM ` + t + ` LIMIT 1`,
		`TRUNCATE ` + t,
		fmt.Sprintf(`INSERT INTO %s (%s) SELECT %s FROM generate_series(1, %d) g, tpl`, t, strings.Join(cols, ", "), strings.Join(exprs, ", "), n),
		`DROP TABLE tpl`,
		`ANALYZE ` + t,
	} {
		if _, err := db.Exec(q); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
}

// BenchmarkLifecycleRun runs the lifecycle engine over BENCH_ENGINE_COMMERCES
// commerces (200,000) and BENCH_ENGINE_TRANSACTIONS transactions (4,000,000)
// of a hosted PostgreSQL dataset, against the baseline of the same
// classification statement streamed into one hand-written
// INSERT ... ON CONFLICT per 1,000 rows. Targets: engine time <= 1.3x the
// baseline, the heap grows by less than 256 MB, and a second run at the same
// instant writes no row.
func BenchmarkLifecycleRun(b *testing.B) {
	nc, nt := benchSize("BENCH_ENGINE_COMMERCES", 200_000), benchSize("BENCH_ENGINE_TRANSACTIONS", 4_000_000)
	env, _ := benchEnv(b)
	tn := env.Bootstrap("Engine")
	ctx, c := viewer.SystemContext(context.Background()), env.App.DB.Client
	_, prefix := apptest.DemoDataset(b, env, tn.TenantID, demo.Options{Commerces: 2, Products: 2, Events: 2, Transactions: 2})
	// Setup and the baseline use a connection of their own, without the
	// service pool's statement timeout.
	db, err := sql.Open("postgres", env.App.Config.DatabaseURL)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	schema := strings.Trim(strings.TrimSuffix(prefix, "."), `"`)
	asOf := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	id := fmt.Sprintf(`'BC' || lpad(%%s::text, 7, '0')`)
	fillDemoTable(b, db, schema, "commerces", nc, map[string]string{"commerce_id": fmt.Sprintf(id, "g"),
		"created_at": "timestamptz '2024-01-01' + (g % 600) * interval '1 day'"})
	// Skewed: a few commerces buy a lot, many rarely; dates over 400 days
	// before T, so every rule applies to some.
	fillDemoTable(b, db, schema, "transactions", nt, map[string]string{"transaction_id": "'BT' || g",
		"commerce_id":   fmt.Sprintf(id, fmt.Sprintf("(1 + floor(%d * power(random(), 2)))::int", nc)),
		"transacted_at": "timestamptz '2026-11-01' - random() * interval '400 days'"})
	if _, err := db.Exec(`INSERT INTO commerces (id, created_at, updated_at, tenant_id, name, external_id, is_active)
		SELECT gen_random_uuid(), now(), now(), $1, 'Commerce ' || g, 'BC' || lpad(g::text, 7, '0'), true FROM generate_series(1, $2) g`,
		tn.TenantID, nc); err != nil {
		b.Fatal(err)
	}
	f := &agcFix{env: env, tenant: tn, status: map[string]uuid.UUID{}, onDemo: true}
	f.h = apptest.JWT(env.Login(tn.Email), tn.TenantID, tn.ProjectID)
	for code, stage := range map[string]string{"new": "ACTIVATION", "activated": "ACTIVATION", "low": "ENGAGEMENT", "high": "ENGAGEMENT",
		"at_risk": "RESURRECTION", "dormant": "RESURRECTION"} {
		f.status[code] = c.RetentionStatusConfig.Create().SetTenantID(tn.TenantID).SetCode(code).SetLabel(strings.ToUpper(code)).
			SetStage(retentionstatusconfig.Stage(stage)).SaveX(ctx).ID
	}
	res := env.Do("POST", "/api/activity-generation-configs", f.createBody("Bench"), f.h)
	if res.Status != 201 {
		b.Fatalf("create AGC: %d %s", res.Status, res.Body)
	}
	agcID := uuid.MustParse(res.Map(b)["id"].(string))
	res = env.Do("GET", fmt.Sprintf("/api/activity-generation-configs/%s/lifecycle-sql?as_of=%s", agcID, asOf.Format(time.RFC3339)), nil, f.h)
	var stmt struct {
		Query  string         `json:"query"`
		Params map[string]any `json:"params"`
	}
	res.JSON(b, &stmt)
	admin, err := tenancy.EnterAsSuperAdmin(context.Background(), tn.UserID, tn.TenantID, tn.ProjectID,
		"POST /activity-generation-configs/{id}/lifecycle-runs")
	if err != nil {
		b.Fatal(err)
	}
	sqldb := db
	truncate := func() {
		if _, err := sqldb.Exec(`TRUNCATE commerce_lifecycle_snapshots, commerce_lifecycle_transitions, generation_outbox`); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		truncate()
		start := time.Now()
		written := lifecycleBaseline(b, db, sqldb, stmt.Query, stmt.Params["p0"], tn.TenantID, agcID, asOf)
		base := time.Since(start)
		truncate()

		var before, peak runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var maxHeap atomic.Uint64
		done := make(chan struct{})
		go func() {
			t := time.NewTicker(20 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-done:
					return
				case <-t.C:
					runtime.ReadMemStats(&peak)
					if peak.HeapInuse > maxHeap.Load() {
						maxHeap.Store(peak.HeapInuse)
					}
				}
			}
		}()
		start = time.Now()
		run, err := env.App.Runs.RunNow(admin, agcID, engine.StartInput{AsOf: asOf.Format(time.RFC3339)})
		took := time.Since(start)
		close(done)
		if err != nil || run.Status != "SUCCEEDED" {
			b.Fatalf("run: %v %v", run, err)
		}
		growth := float64(maxHeap.Load()-min(maxHeap.Load(), before.HeapInuse)) / (1 << 20)
		mark := time.Now()
		again, err := env.App.Runs.RunNow(admin, agcID, engine.StartInput{AsOf: asOf.Format(time.RFC3339)})
		if err != nil {
			b.Fatal(err)
		}
		var rewritten int
		if err := sqldb.QueryRow(`SELECT count(*) FROM commerce_lifecycle_snapshots WHERE updated_at >= $1`, mark).Scan(&rewritten); err != nil {
			b.Fatal(err)
		}
		ratio := took.Seconds() / base.Seconds()
		fmt.Printf("commerces=%d transactions=%d classified=%d (baseline wrote %d)  engine %.2fs, baseline %.2fs, ratio %.2f | heap growth %.0f MB | rerun: %d unchanged, %d rows written\n",
			nc, nt, run.Counts.Classified, written, took.Seconds(), base.Seconds(), ratio, growth, again.Counts.Unchanged, rewritten)
		b.ReportMetric(ratio, "engine/baseline")
		b.ReportMetric(growth, "heap-MB")
		if ratio > 1.3 || growth >= 256 || rewritten != 0 || again.Counts.Unchanged != run.Counts.Classified || written != run.Counts.Created {
			b.Errorf("targets missed: ratio %.2f (<= 1.3), heap growth %.0f MB (< 256), rerun wrote %d rows, created %d vs baseline %d",
				ratio, growth, rewritten, run.Counts.Created, written)
		}
	}
}

// lifecycleBaseline streams the classification statement from the dataset
// and writes its classified rows with one hand-written INSERT ... ON
// CONFLICT per 1,000 rows; it returns the number of rows written.
func lifecycleBaseline(b *testing.B, dataset, service *sql.DB, query string, p0 any, tenantID, agcID uuid.UUID, at time.Time) int {
	b.Helper()
	rows, err := dataset.Query(query, p0)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var ident string
	var stage, code sql.NullString
	dest := []any{&ident, &stage, &code}
	for range cols[3:] {
		dest = append(dest, new(sql.RawBytes))
	}
	var exts, codes, stages, ids []string
	total := 0
	flush := func() {
		res, err := service.Exec(`INSERT INTO commerce_lifecycle_snapshots AS s (id, created_at, updated_at, tenant_id, commerce_id, external_id,
			activity_generation_config_id, code, label, stage, last_computed_at, state_changed_at)
			SELECT u.id, now(), now(), $1, c.id, c.external_id, $2, u.code, st.label, u.stage, $3, $3
			FROM unnest($4::text[], $5::text[], $6::text[], $7::uuid[]) u(ext, code, stage, id)
			JOIN commerces c ON c.tenant_id = $1 AND c.external_id = u.ext
			JOIN retention_status_configs st ON st.tenant_id = $1 AND st.code = u.code
			ON CONFLICT (commerce_id, activity_generation_config_id) DO UPDATE SET code = excluded.code, label = excluded.label,
			 stage = excluded.stage, last_computed_at = excluded.last_computed_at, updated_at = excluded.updated_at,
			 state_changed_at = CASE WHEN s.stage = excluded.stage AND s.code = excluded.code THEN s.state_changed_at ELSE excluded.last_computed_at END`,
			tenantID, agcID, at, pq.Array(exts), pq.Array(codes), pq.Array(stages), pq.Array(ids))
		if err != nil {
			b.Fatal(err)
		}
		n, _ := res.RowsAffected()
		total += int(n)
		exts, codes, stages, ids = exts[:0], codes[:0], stages[:0], ids[:0]
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			b.Fatal(err)
		}
		if code.Valid {
			exts, codes, stages = append(exts, ident), append(codes, code.String), append(stages, stage.String)
			ids = append(ids, uuid.Must(uuid.NewV7()).String()) // the ids the service gives snapshots
		}
		if len(exts) == 1000 {
			flush()
		}
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	if len(exts) > 0 {
		flush()
	}
	return total
}
