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
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/lifecyclerun"
	"github.com/reten-io/reten/ent/retentionstatusconfig"
	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/demo"
	"github.com/reten-io/reten/internal/engine"
	"github.com/reten-io/reten/internal/lifecycle"
	"github.com/reten-io/reten/internal/tenancy"
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

// demoRows counts what the demo created in its tenant.
type demoRows struct {
	commerces, statuses, agcs int
	agcStatus                 activitygenerationconfig.Status
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
	return r
}

// TestDemoLifecycle: the demo creates its commerces, the lifecycle
// defaults' status configs and the active AGC "Ciclo de vida" once; a run
// of that AGC at the demo data's reference time classifies every demo
// commerce as the rules' plain-Go evaluation does (explain), the demo data
// gives every state of the defaults, and a second run at the same instant
// writes nothing.
func TestDemoLifecycle(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		res := runDemo(t, env)
		tid, pid, agcID := uuid.MustParse(res.TenantID), uuid.MustParse(res.ProjectID), uuid.MustParse(res.ActivityGenerationConfigID)
		want := demoRows{commerces: demo.DefaultCommerces, statuses: len(demoStatuses), agcs: 1, agcStatus: activitygenerationconfig.StatusActive}
		if got := countDemo(t, env, tid); got != want {
			t.Fatalf("after the demo: %+v, want %+v", got, want)
		}
		again, err := env.App.Demo(t.Context(), dataset.DemoInput{Options: demo.Options{Now: demoNow}})
		if err != nil {
			t.Fatal(err)
		}
		if again.TenantID != res.TenantID || again.ActivityGenerationConfigID != res.ActivityGenerationConfigID || again.Password != "" {
			t.Fatalf("second demo = %+v, first %+v", again, res)
		}
		if got := countDemo(t, env, tid); got != want {
			t.Fatalf("after a second demo: %+v, want %+v", got, want)
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

		run := runEngine(t, env, tid, agcID, asOf)
		n := len(commerces)
		c := run.Counts
		if c.Evaluated != n || c.Classified != n-unclassified || c.Unclassified != unclassified ||
			c.Created != c.Classified || c.Updated != 0 || c.Unchanged != 0 || c.Stale != 0 || c.UnknownIdentities != 0 || c.LeftAudience != 0 {
			t.Fatalf("first run counts %+v; %d commerces, %d unclassified", c, n, unclassified)
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
