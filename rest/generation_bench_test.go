package rest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/generationrule"
	"github.com/reten-io/reten/ent/routeoperator"
	"github.com/reten-io/reten/internal/viewer"
)

// genBench is a snapBench whose AGC is active, with a route led by an
// operator that every commerce is assigned to, and one ENTER rule (a
// salesman visit when a commerce becomes dormant).
type genBench struct {
	*snapBench
	project, rule, route, lead uuid.UUID
	at                         time.Time
}

func newGenBench(b *testing.B, n int) *genBench {
	b.Helper()
	s := newSnapBench(b, n, 1)
	ctx, c := viewer.SystemContext(context.Background()), s.env.App.DB.Client
	g := &genBench{snapBench: s, at: time.Now().UTC().Truncate(time.Microsecond)}
	a := c.ActivityGenerationConfig.UpdateOneID(s.agcs[0]).SetStatus(activitygenerationconfig.StatusActive).SaveX(ctx)
	g.project = a.ProjectID
	g.route = c.Route.Create().SetTenantID(s.tenantID).SetCode("R1").SetName("Norte").SaveX(ctx).ID
	g.lead = c.Operator.Create().SetTenantID(s.tenantID).SetName("Lena").SetType("SALESMAN").SaveX(ctx).ID
	c.RouteOperator.Create().SetTenantID(s.tenantID).SetRouteID(g.route).SetOperatorID(g.lead).SetRole(routeoperator.RoleLEAD).ExecX(ctx)
	s.exec(b, `INSERT INTO commerce_routes (id, created_at, updated_at, tenant_id, commerce_id, route_id)
		SELECT gen_random_uuid(), now(), now(), $1, id, $2 FROM commerces WHERE tenant_id = $1`, s.tenantID, g.route)
	g.rule = c.GenerationRule.Create().SetTenantID(s.tenantID).SetProjectID(g.project).SetActivityGenerationConfigID(a.ID).
		SetName("Visita").SetTrigger(generationrule.TriggerENTER).SetStage(generationrule.StageRESURRECTION).SetStatusCode("dormant").
		SetType(generationrule.TypeTASK).SetChannel(generationrule.ChannelSALESMAN).SetReasonCode("reactivation").
		SetTitleTemplate("Visitar {{.commerce.name}}").SetAssignment(generationrule.AssignmentROUTE_LEAD).SaveX(ctx).ID
	return g
}

// seed clears what generation writes and queues one state entry
// (snapshot, transition, outbox row) per commerce.
func (g *genBench) seed(b *testing.B) {
	b.Helper()
	g.exec(b, `TRUNCATE generation_decisions, activity_status_events, activity_attributes, activities CASCADE`)
	g.exec(b, `TRUNCATE generation_outbox, commerce_lifecycle_transitions, commerce_lifecycle_snapshots`)
	g.exec(b, `WITH c AS (SELECT id, external_id FROM commerces WHERE tenant_id = $1),
		s AS (INSERT INTO commerce_lifecycle_snapshots (id, created_at, updated_at, tenant_id, commerce_id, external_id,
		 activity_generation_config_id, code, label, stage, last_computed_at, state_changed_at)
		 SELECT gen_random_uuid(), $3, $3, $1, c.id, c.external_id, $2, 'dormant', 'DORMANT', 'RESURRECTION', $3, $3 FROM c),
		t AS (INSERT INTO commerce_lifecycle_transitions (id, created_at, updated_at, tenant_id, commerce_id, activity_generation_config_id,
		 to_stage, to_code, state_changed_at, last_computed_at, source)
		 SELECT gen_random_uuid(), $3, $3, $1, c.id, $2, 'RESURRECTION', 'dormant', $3, $3, 'ENGINE' FROM c RETURNING id)
		INSERT INTO generation_outbox (id, tenant_id, created_at) SELECT id, $1, $3 FROM t`, g.tenantID, g.agcs[0], g.at)
	g.exec(b, "VACUUM ANALYZE")
}

// written counts the decisions, activities, attributes, events and queued
// transitions.
func (g *genBench) written(b *testing.B) [5]int {
	b.Helper()
	var out [5]int
	if err := g.db.QueryRow(`SELECT (SELECT count(*) FROM generation_decisions WHERE kind = 'GENERATED'),
		(SELECT count(*) FROM activities WHERE operator_id = $1), (SELECT count(*) FROM activity_attributes),
		(SELECT count(*) FROM activity_status_events), (SELECT count(*) FROM generation_outbox)`, g.lead).
		Scan(&out[0], &out[1], &out[2], &out[3], &out[4]); err != nil {
		b.Fatal(err)
	}
	return out
}

// baseline writes what generation writes for the queued entries with
// hand-written SQL, 1,000 entries per transaction like the generator: claim
// the outbox rows, insert the decisions, the activities (assigned to the
// lead), their rule attribute and CREATED event from arrays, and delete
// the claimed rows. It reads nothing else: the rate of the writes alone.
func (g *genBench) baseline(b *testing.B) time.Duration {
	b.Helper()
	start := time.Now()
	for {
		n, err := g.baselineBatch()
		if err != nil {
			b.Fatal(err)
		}
		if n == 0 {
			return time.Since(start)
		}
	}
}

func (g *genBench) baselineBatch() (int, error) {
	tx, err := g.db.Begin()
	if err != nil {
		return 0, err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	rows, err := tx.Query(`SELECT o.id, t.commerce_id, t.state_changed_at, c.name FROM generation_outbox o
		JOIN commerce_lifecycle_transitions t ON t.id = o.id JOIN commerces c ON c.id = t.commerce_id
		ORDER BY o.created_at, o.id LIMIT 1000 FOR UPDATE OF o SKIP LOCKED`)
	if err != nil {
		return 0, err
	}
	var outbox, commerces, decisions, activities, titles []string
	var entered []time.Time
	for rows.Next() {
		var id, commerce, name string
		var at time.Time
		if err := rows.Scan(&id, &commerce, &at, &name); err != nil {
			return 0, err
		}
		outbox, commerces, entered = append(outbox, id), append(commerces, commerce), append(entered, at)
		decisions, activities = append(decisions, uuid.Must(uuid.NewV7()).String()), append(activities, uuid.Must(uuid.NewV7()).String())
		titles = append(titles, "Visitar "+name)
	}
	if err := rows.Err(); err != nil || len(outbox) == 0 {
		return 0, err
	}
	now := time.Now().UTC()
	scheduled := now.Add(24 * time.Hour)
	stmts := []struct {
		q    string
		args []any
	}{
		{`INSERT INTO generation_decisions (id, tenant_id, project_id, activity_generation_config_id, rule_id, commerce_id, trigger, stage,
			status_code, entered_at, kind, detail, activity_id, transition_id, decided_at)
			SELECT d, $1, $2, $3, $4, c, 'ENTER', 'RESURRECTION', 'dormant', e, 'GENERATED', 'Created a TASK on SALESMAN', a, t, $5
			FROM unnest($6::uuid[], $7::uuid[], $8::timestamptz[], $9::uuid[], $10::uuid[]) AS u(d, c, e, a, t)
			ON CONFLICT (rule_id, commerce_id, entered_at) DO NOTHING`,
			[]any{g.tenantID, g.project, g.agcs[0], g.rule, now, pq.Array(decisions), pq.Array(commerces), pq.Array(entered), pq.Array(activities), pq.Array(outbox)}},
		{`INSERT INTO activities (id, created_at, updated_at, tenant_id, project_id, commerce_id, operator_id, route_id,
			activity_generation_config_id, type, channel, status, scheduled_at, title, description, reason_code, dispatch_attempts)
			SELECT a, $1, $1, $2, $3, c, $4, $5, $6, 'TASK', 'SALESMAN', 'READY', $7, title, '', 'reactivation', 0
			FROM unnest($8::uuid[], $9::uuid[], $10::text[]) AS u(a, c, title)`,
			[]any{now, g.tenantID, g.project, g.lead, g.route, g.agcs[0], scheduled, pq.Array(activities), pq.Array(commerces), pq.Array(titles)}},
		{`INSERT INTO activity_attributes (id, created_at, updated_at, tenant_id, project_id, activity_id, key, value)
			SELECT gen_random_uuid(), $1, $1, $2, $3, a, 'generation_rule_id', $4 FROM unnest($5::uuid[]) AS u(a)`,
			[]any{now, g.tenantID, g.project, g.rule.String(), pq.Array(activities)}},
		{`INSERT INTO activity_status_events (id, created_at, updated_at, tenant_id, project_id, activity_id, event_type, to_status, occurred_at)
			SELECT gen_random_uuid(), $1, $1, $2, $3, a, 'CREATED', 'READY', $1 FROM unnest($4::uuid[]) AS u(a)`,
			[]any{now, g.tenantID, g.project, pq.Array(activities)}},
		{`DELETE FROM generation_outbox WHERE id = ANY($1::uuid[])`, []any{pq.Array(outbox)}},
	}
	for _, s := range stmts {
		if _, err := tx.Exec(s.q, s.args...); err != nil {
			return 0, fmt.Errorf("%s: %w", s.q, err)
		}
	}
	return len(outbox), tx.Commit()
}

// BenchmarkGeneration compares, in one run on one database, state entries
// per second turned into decisions and activities by the generator (the
// outbox drained in batches of 1,000: claim, read the rules, groups, caps,
// routes and recipients, decide, write) with the same writes by hand-written
// bulk SQL (baseline). BENCH_GENERATION sets the number of entries
// (100,000). Target, asserted: the generator at 0.5x the baseline's rate
// or better.
func BenchmarkGeneration(b *testing.B) {
	n := benchSize("BENCH_GENERATION", 100_000)
	g := newGenBench(b, n)
	want := [5]int{n, n, n, n, 0}
	for range b.N {
		g.seed(b)
		base := g.baseline(b)
		if got := g.written(b); got != want {
			b.Fatalf("baseline wrote %v, want %v", got, want)
		}

		g.seed(b)
		start := time.Now()
		drained, err := g.env.App.Generator.Drain(context.Background(), func() time.Time { return time.Now().UTC() })
		if err != nil {
			b.Fatal(err)
		}
		gen := time.Since(start)
		if got := g.written(b); drained != n || got != want {
			b.Fatalf("generator drained %d and wrote %v, want %d and %v", drained, got, n, want)
		}
		rate := func(d time.Duration) float64 { return float64(n) / d.Seconds() }
		ratio := rate(gen) / rate(base)
		fmt.Printf("BenchmarkGeneration: %d entries | generator %.0f/s | hand-written bulk insert %.0f/s | ratio %.2f (target >= 0.5)\n",
			n, rate(gen), rate(base), ratio)
		b.ReportMetric(ratio, "ratio")
		if ratio < 0.5 {
			b.Errorf("generator at %.2fx the hand-written bulk insert's rate, want >= 0.5", ratio)
		}
	}
}
