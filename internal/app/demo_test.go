package app_test

import (
	"context"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	entactivity "github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/commercelifecyclesnapshot"
	"github.com/reten-io/reten/ent/commercelifecycletransition"
	"github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/ent/generationsettings"
	"github.com/reten-io/reten/ent/lifecyclerun"
	"github.com/reten-io/reten/ent/retentionstatusconfig"
	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/demo"
	"github.com/reten-io/reten/internal/engine"
	"github.com/reten-io/reten/internal/generation"
	"github.com/reten-io/reten/internal/lifecycle"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/uplift"
	"github.com/reten-io/reten/internal/viewer"
)

// demoNow is the reference time of the demo data in these tests, and the
// instant of their engine runs.
var demoNow = time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)

// demoStatuses are the retention status configs of GET
// /api/lifecycle-defaults, code -> stage and label.
var demoStatuses = map[string][2]string{
	"activated": {"ACTIVATION", "Activado"}, "new": {"ACTIVATION", "Nuevo"},
	"low_engagement": {"ENGAGEMENT", "Bajo"}, "medium_engagement": {"ENGAGEMENT", "Medio"}, "high_engagement": {"ENGAGEMENT", "Alto"},
	"at_risk": {"RESURRECTION", "En riesgo"}, "dormant": {"RESURRECTION", "Dormido"}, "churned": {"RESURRECTION", "Perdido"},
}

// runDemo runs App.Demo on the default demo data generated at demoNow and
// drops the hosted dataset at cleanup.
func runDemo(t *testing.T, env *apptest.Env) *app.DemoResult {
	t.Helper()
	res, err := env.App.Demo(t.Context(), dataset.DemoInput{Options: demo.Options{Now: demoNow}})
	if err != nil {
		t.Fatal(err)
	}
	if env.App.DB.Dialect == "postgres" {
		t.Cleanup(func() {
			short := strings.ReplaceAll(res.TenantID, "-", "")[:8]
			if _, err := env.App.DB.SQL.Exec(`DROP SCHEMA IF EXISTS "demo_` + short + `" CASCADE`); err != nil {
				t.Errorf("drop demo schema: %v", err)
			}
			if err := dataset.DropReader(context.Background(), env.App.DB.SQL, uuid.MustParse(res.TenantID)); err != nil {
				t.Errorf("drop reader role: %v", err)
			}
		})
	}
	return res
}

// demoRows counts what the demo created in its tenant: its setup, and the
// history of its AGC (runs, transitions, decisions, activities).
type demoRows struct {
	commerces, statuses, agcs                int
	agcStatus                                activitygenerationconfig.Status
	runs, transitions, decisions, activities int
}

func countDemo(t *testing.T, env *apptest.Env, tid uuid.UUID) demoRows {
	t.Helper()
	ctx, c := viewer.SystemContext(t.Context()), env.App.DB.Client
	var r demoRows
	var err error
	if r.commerces, err = c.Commerce.Query().Where(commerce.TenantID(tid)).Count(ctx); err != nil {
		t.Fatal(err)
	}
	statuses, err := c.RetentionStatusConfig.Query().Where(retentionstatusconfig.TenantID(tid)).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]string{}
	for _, st := range statuses {
		got[st.Code] = [2]string{string(st.Stage), st.Label}
		if !st.IsActive {
			t.Errorf("status %s is inactive", st.Code)
		}
	}
	if !reflect.DeepEqual(got, demoStatuses) {
		t.Fatalf("retention status configs = %v, want %v", got, demoStatuses)
	}
	r.statuses = len(statuses)
	agcs, err := c.ActivityGenerationConfig.Query().Where(activitygenerationconfig.TenantID(tid)).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if r.agcs = len(agcs); r.agcs > 0 {
		r.agcStatus = agcs[0].Status
	}
	if r.runs, err = c.LifecycleRun.Query().Where(lifecyclerun.TenantID(tid)).Count(ctx); err != nil {
		t.Fatal(err)
	}
	if r.transitions, err = c.CommerceLifecycleTransition.Query().Where(commercelifecycletransition.TenantID(tid)).Count(ctx); err != nil {
		t.Fatal(err)
	}
	if r.decisions, err = c.GenerationDecision.Query().Where(generationdecision.TenantID(tid)).Count(ctx); err != nil {
		t.Fatal(err)
	}
	if r.activities, err = c.Activity.Query().Where(entactivity.TenantID(tid)).Count(ctx); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestDemoLifecycle: the demo creates its commerces, the lifecycle
// defaults' status configs and the active AGC "Ciclo de vida" once, with a
// history of weekly runs before the demo data's reference time (checkHistory);
// a run of that AGC at the reference time classifies every demo commerce as
// the rules' plain-Go evaluation does (explain), the demo data gives every
// state of the defaults, and a second run at the same instant writes nothing.
func TestDemoLifecycle(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		res := runDemo(t, env)
		tid, pid, agcID := uuid.MustParse(res.TenantID), uuid.MustParse(res.ProjectID), uuid.MustParse(res.ActivityGenerationConfigID)
		first := countDemo(t, env, tid)
		want := demoRows{commerces: demo.DefaultCommerces, statuses: len(demoStatuses), agcs: 1, agcStatus: activitygenerationconfig.StatusActive,
			runs: app.DemoHistoryWeeks, transitions: first.transitions, decisions: first.decisions, activities: first.activities}
		if first != want || first.transitions == 0 || first.decisions == 0 || first.activities == 0 {
			t.Fatalf("after the demo: %+v, want %+v with transitions, decisions and activities", first, want)
		}
		checkHistory(t, env, res)
		again, err := env.App.Demo(t.Context(), dataset.DemoInput{Options: demo.Options{Now: demoNow}})
		if err != nil {
			t.Fatal(err)
		}
		if again.TenantID != res.TenantID || again.ActivityGenerationConfigID != res.ActivityGenerationConfigID || again.Password != "" {
			t.Fatalf("second demo = %+v, first %+v", again, res)
		}
		// No second history: the AGC had runs.
		if got := countDemo(t, env, tid); got != first {
			t.Fatalf("after a second demo: %+v, want %+v", got, first)
		}

		// The AGC reads the demo's transactions with the defaults' rules.
		ctx, err := tenancy.Enter(viewer.NewContext(t.Context(), &viewer.Viewer{TenantID: tid, ProjectID: pid,
			Roles: []string{auth.RoleSuperAdmin}, Permissions: auth.PermissionsOf([]string{auth.RoleSuperAdmin})}),
			"GET /activity-generation-configs/{id}/lifecycle-explain")
		if err != nil {
			t.Fatal(err)
		}
		g, err := env.App.AGCs.Get(ctx, agcID)
		if err != nil {
			t.Fatal(err)
		}
		rules := engine.RulesOf(g.ActivityGenerationConfig)
		for _, src := range []lifecycle.Source{rules.Activation.Source, rules.Engagement.Source, rules.Resurrection.Source} {
			if !reflect.DeepEqual(src, lifecycle.Source{Table: "transactions", DateColumn: "transacted_at", Columns: []string{"transaction_id"}}) {
				t.Fatalf("source %+v", src)
			}
		}
		if g.Name != app.DemoAGCName || len(rules.ActiveMoments())+len(rules.ActiveLevels())+len(rules.ActiveThresholds()) != len(demoStatuses) {
			t.Fatalf("AGC %q with rules %+v", g.Name, rules)
		}

		// The plain-Go evaluation of every demo commerce at demoNow.
		commerces, err := env.App.DB.Client.Commerce.Query().Where(commerce.TenantID(tid)).All(viewer.SystemContext(t.Context()))
		if err != nil {
			t.Fatal(err)
		}
		wantStates, unclassified := map[[2]string]int{}, 0
		asOf := demoNow.Format(time.RFC3339Nano)
		for _, c := range commerces {
			x, err := env.App.Engine.Explain(ctx, agcID, c.ID.String(), asOf)
			if err != nil {
				t.Fatal(err)
			}
			if !x.InAudience {
				t.Fatalf("commerce %v is not in the AGC's population", c.ExternalID)
			}
			if x.Code == nil {
				unclassified++
			} else {
				wantStates[[2]string{*x.Stage, *x.Code}]++
			}
		}
		if len(wantStates) != len(demoStatuses) {
			t.Fatalf("the demo data at %s gives the states %v, want every one of %v", asOf, wantStates, slices.Sorted(maps.Keys(demoStatuses)))
		}

		// After the history: the commerces classified by then are updated
		// (their last_computed_at at least moves), the others created.
		before, err := env.App.DB.Client.CommerceLifecycleSnapshot.Query().
			Where(commercelifecyclesnapshot.ActivityGenerationConfigID(agcID)).Count(viewer.SystemContext(t.Context()))
		if err != nil {
			t.Fatal(err)
		}
		run := runEngine(t, env, tid, agcID, asOf)
		n := len(commerces)
		c := run.Counts
		if before == 0 || c.Evaluated != n || c.Classified != n-unclassified || c.Unclassified != unclassified ||
			c.Created != c.Classified-before || c.Updated != before || c.Unchanged != 0 || c.Stale != 0 || c.UnknownIdentities != 0 || c.LeftAudience != 0 {
			t.Fatalf("first run counts %+v; %d commerces, %d unclassified, %d with a state before", c, n, unclassified, before)
		}
		got := map[[2]string]int{}
		for _, s := range run.ByState {
			got[[2]string{s.Stage, s.Code}] = s.Count
		}
		if !reflect.DeepEqual(got, wantStates) {
			t.Fatalf("byState %v, want %v", got, wantStates)
		}
		second := runEngine(t, env, tid, agcID, asOf)
		if c := second.Counts; c.Evaluated != n || c.Unchanged != c.Classified || c.Classified != n-unclassified ||
			c.Created != 0 || c.Updated != 0 || !reflect.DeepEqual(second.ByState, run.ByState) {
			t.Fatalf("second run counts %+v, byState %v", c, second.ByState)
		}
	})
}

// runEngine runs the AGC as `reten engine run` does and wants it SUCCEEDED.
func runEngine(t *testing.T, env *apptest.Env, tid, agcID uuid.UUID, asOf string) *ent.LifecycleRun {
	t.Helper()
	run, err := env.App.RunEngine(t.Context(), tid, agcID, engine.StartInput{AsOf: asOf})
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != lifecyclerun.StatusSUCCEEDED || !run.AsOf.Equal(demoNow) || run.DryRun {
		t.Fatalf("run %+v", run)
	}
	return run
}

// TestRunEngineOtherTenant: an AGC is run only in its own tenant.
func TestRunEngineOtherTenant(t *testing.T) {
	env := apptest.New(t, "sqlite")
	res := runDemo(t, env)
	other := env.Bootstrap("Other")
	agcID := uuid.MustParse(res.ActivityGenerationConfigID)
	_, err := env.App.RunEngine(t.Context(), other.TenantID, agcID, engine.StartInput{})
	if want := "Activity generation config " + agcID.String() + " not found in tenant " + other.TenantID.String(); err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

// checkHistory checks the history the demo replays before the data's
// reference time: app.DemoHistoryWeeks runs one week apart, oldest first,
// each with its transitions dated at its instant; a decision per entry into
// a rule's state, decided at that instant (HELD_OUT exactly for the
// holdout group) with its activity created then; and an uplift report,
// read at the reference time, that measures the decisions whose 30-day
// window has elapsed, treated and control, with an uplift for ENGAGED and
// IMPROVED.
func checkHistory(t *testing.T, env *apptest.Env, res *app.DemoResult) {
	t.Helper()
	ctx, c := viewer.SystemContext(t.Context()), env.App.DB.Client
	tid, pid, agcID := uuid.MustParse(res.TenantID), uuid.MustParse(res.ProjectID), uuid.MustParse(res.ActivityGenerationConfigID)

	runs, err := c.LifecycleRun.Query().Where(lifecyclerun.ActivityGenerationConfigID(agcID)).
		Order(ent.Asc(lifecyclerun.FieldCreatedAt), ent.Asc(lifecyclerun.FieldID)).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != app.DemoHistoryWeeks {
		t.Fatalf("%d runs, want %d", len(runs), app.DemoHistoryWeeks)
	}
	byInstant := map[time.Time]*ent.LifecycleRun{}
	for i, r := range runs {
		want := demoNow.AddDate(0, 0, -7*(app.DemoHistoryWeeks-i)) // oldest first, one week apart
		c := r.Counts
		if !r.AsOf.Equal(want) || r.Status != lifecyclerun.StatusSUCCEEDED || r.DryRun || r.Trigger != lifecyclerun.TriggerMANUAL ||
			c.Evaluated != demo.DefaultCommerces || c.Classified == 0 || c.Stale != 0 || c.Unchanged != 0 || c.LeftAudience != 0 ||
			(i == 0 && c.Created != c.Classified) || (i > 0 && c.Created+c.Updated != c.Classified) {
			t.Fatalf("run %d of the history: as of %v, %s, counts %+v; want as of %v", i, r.AsOf, r.Status, c, want)
		}
		byInstant[r.AsOf.UTC()] = r
	}

	// Transitions at every run's instant, written by that run.
	trs, err := c.CommerceLifecycleTransition.Query().Where(commercelifecycletransition.ActivityGenerationConfigID(agcID)).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	perInstant, entries := map[time.Time]int{}, map[time.Time]int{}
	transitionAt := map[uuid.UUID]time.Time{}
	for _, x := range trs {
		at := x.StateChangedAt.UTC()
		r := byInstant[at]
		if r == nil || x.RunID == nil || *x.RunID != r.ID || x.Source != commercelifecycletransition.SourceENGINE || !x.LastComputedAt.Equal(at) {
			t.Fatalf("transition %+v is not a history run's", x)
		}
		perInstant[at]++
		transitionAt[x.ID] = at
		if x.ToCode == "at_risk" || x.ToCode == "new" { // the demo rules' states
			entries[at]++
		}
	}
	if len(perInstant) != app.DemoHistoryWeeks || perInstant[runs[0].AsOf.UTC()] != runs[0].Counts.Created {
		t.Fatalf("transitions per instant %v; the first run created %d states", perInstant, runs[0].Counts.Created)
	}

	// A decision per entry into a rule's state, decided when it happened.
	settings, err := c.GenerationSettings.Query().Where(generationsettings.ActivityGenerationConfigID(agcID)).Only(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := c.GenerationDecision.Query().Where(generationdecision.ActivityGenerationConfigID(agcID)).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	decided, kinds := map[time.Time]int{}, map[generationdecision.Kind]int{}
	cutoff := demoNow.AddDate(0, 0, -uplift.DefaultWindowDays) // the report's measured decisions are decided by then
	var treated, control, pending int
	for _, d := range ds {
		at := d.DecidedAt.UTC()
		held := generation.InGroup(settings.HoldoutSalt, d.CommerceID, settings.HoldoutPercent)
		if byInstant[at] == nil || !d.EnteredAt.Equal(at) || d.TransitionID == nil || !transitionAt[*d.TransitionID].Equal(at) ||
			(d.Kind == generationdecision.KindHELD_OUT) != held ||
			(d.Kind != generationdecision.KindHELD_OUT && d.Kind != generationdecision.KindGENERATED && d.Kind != generationdecision.KindCAPPED) ||
			// Nothing closes the history's activities: a commerce entering a
			// state again while its earlier activity is open is capped.
			(d.Kind == generationdecision.KindCAPPED && *d.Reason != generationdecision.ReasonOPEN_ACTIVITY) {
			t.Fatalf("decision %+v (held out %v) is not a history run's", d, held)
		}
		decided[at]++
		kinds[d.Kind]++
		if d.Kind == generationdecision.KindGENERATED {
			a, err := c.Activity.Get(ctx, *d.ActivityID)
			if err != nil {
				t.Fatal(err)
			}
			// Scheduled on the decision's day or later (at the rule's time
			// of day, perhaps earlier that day), expiring after it.
			if a.CreatedAt.Before(at) || !a.CreatedAt.Before(at.Add(time.Second)) || !a.ScheduledAt.After(at.AddDate(0, 0, -1)) ||
				a.ExpiresAt == nil || !a.ExpiresAt.After(at) ||
				(a.Status != entactivity.StatusREADY && a.Status != entactivity.StatusUNRESOLVED) {
				t.Fatalf("activity %+v of a decision at %v", a, at)
			}
		}
		switch measured := !at.After(cutoff); {
		case d.Kind == generationdecision.KindCAPPED:
		case !measured:
			pending++
		case d.Kind == generationdecision.KindGENERATED:
			treated++
		default:
			control++
		}
	}
	if !reflect.DeepEqual(decided, entries) || len(decided) < 2 {
		t.Fatalf("decisions per instant %v, entries into at_risk or new %v", decided, entries)
	}
	acts, err := c.Activity.Query().Where(entactivity.ActivityGenerationConfigID(agcID)).Count(ctx)
	if err != nil || acts != kinds[generationdecision.KindGENERATED] {
		t.Fatalf("%d activities, %d GENERATED decisions, %v", acts, kinds[generationdecision.KindGENERATED], err)
	}
	t.Logf("history: %d runs, %d transitions, decisions %v, %d activities", len(runs), len(trs), kinds, acts)

	// The uplift report as read at the reference time.
	env.App.Uplift.SetClock(func() time.Time { return demoNow })
	uctx, err := tenancy.EnterAsSuperAdmin(t.Context(), uuid.Nil, tid, pid, "GET /activity-generation-configs/{id}/uplift")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := env.App.Uplift.Report(uctx, agcID, uplift.Input{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.WindowDays != uplift.DefaultWindowDays || rep.Treated.Decisions != treated || rep.Control.Decisions != control ||
		rep.Pending != pending || treated == 0 || control == 0 || pending == 0 || len(rep.Warnings) != 0 {
		t.Fatalf("uplift report: treated %d, control %d, pending %d, warnings %v; want %d, %d, %d",
			rep.Treated.Decisions, rep.Control.Decisions, rep.Pending, rep.Warnings, treated, control, pending)
	}
	for _, o := range rep.Outcomes {
		computed := o.Outcome != uplift.OutcomePositiveResult // the control group has no activity to have a result
		if o.Treated == nil || o.Treated.N != treated || (o.Uplift != nil) != computed || (o.Control != nil && o.Control.N != control) {
			t.Fatalf("uplift outcome %s: %+v", o.Outcome, o)
		}
		if computed {
			t.Logf("uplift %s: treated %d/%d, control %d/%d, uplift %.3f", o.Outcome, o.Treated.Successes, o.Treated.N,
				o.Control.Successes, o.Control.N, *o.Uplift)
		}
	}
}
