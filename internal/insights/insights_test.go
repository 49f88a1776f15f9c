package insights_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	gd "github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/ent/retentionstatusconfig"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/insights"
	"github.com/reten-io/reten/internal/lifecycle"
	"github.com/reten-io/reten/internal/snapshot"
	"github.com/reten-io/reten/internal/viewer"
)

// fix is tenant Acme (zone America/New_York) with an AGC, three states and
// commerces c0..c3 whose states were written through the snapshot API.
type fix struct {
	db        *dbtest.DB
	acme      dbtest.Tenant
	admin     context.Context
	svc       *insights.Service
	snaps     *snapshot.Service
	agc       uuid.UUID
	commerces []uuid.UUID
}

// ny is the tenant's zone; its days around the DST change of 2026-03-08
// are 24, 23 and 24 hours long.
var ny, _ = time.LoadLocation("America/New_York")

func newFix(t *testing.T, db *dbtest.DB, name string) *fix {
	t.Helper()
	f := &fix{db: db, acme: db.Tenant(t, name), svc: insights.NewService(db.Client, db.Dialect), snaps: snapshot.NewService(db.Client, db.Dialect)}
	f.admin = f.acme.Admin()
	sys := viewer.SystemContext(context.Background())
	c := db.Client
	c.Tenant.UpdateOneID(f.acme.TenantID).SetTimeZone("America/New_York").ExecX(sys)
	f.agc = c.ActivityGenerationConfig.Create().SetTenantID(f.acme.TenantID).SetProjectID(f.acme.ProjectID).SetName("Retail").
		SetStatus(activitygenerationconfig.StatusActive).SaveX(f.admin).ID
	for code, stage := range map[string]retentionstatusconfig.Stage{"new": "ACTIVATION", "low": "ENGAGEMENT", "at_risk": "RESURRECTION"} {
		c.RetentionStatusConfig.Create().SetTenantID(f.acme.TenantID).SetCode(code).SetLabel(code).SetStage(stage).SaveX(f.admin)
	}
	for i := range 4 {
		f.commerces = append(f.commerces, c.Commerce.Create().SetTenantID(f.acme.TenantID).SetName(fmt.Sprintf("C%d", i)).SaveX(f.admin).ID)
	}
	return f
}

// set writes commerce i's state at at (a transition when it changes).
func (f *fix) set(t *testing.T, i int, at time.Time, stage, code string) {
	t.Helper()
	res, err := f.snaps.BatchUpsert(f.admin, []snapshot.Item{{CommerceID: f.commerces[i].String(), AGCID: f.agc.String(),
		Stage: stage, Code: code, LastComputedAt: &at}})
	dbtest.NoError(t, err)
	if len(res.Errors) != 0 {
		t.Fatalf("upsert: %+v", res.Errors)
	}
}

// local is an instant of New York's wall clock.
func local(day, hour int) time.Time { return time.Date(2026, 3, day, hour, 0, 0, 0, ny) }

// history: c0 new (Mar 6 10:00) -> low (Mar 8 23:30, the short day's last
// hour) -> at_risk (Mar 9 00:30); c1 new (Mar 5, before the period) ->
// low (Mar 7); c2 new (Mar 7 23:59); c3 never written.
func (f *fix) history(t *testing.T) {
	f.set(t, 0, local(6, 10), "ACTIVATION", "new")
	f.set(t, 1, local(5, 12), "ACTIVATION", "new")
	f.set(t, 1, local(7, 9), "ENGAGEMENT", "low")
	f.set(t, 2, local(7, 23).Add(59*time.Minute), "ACTIVATION", "new")
	f.set(t, 0, local(8, 23).Add(30*time.Minute), "ENGAGEMENT", "low")
	f.set(t, 0, local(9, 0).Add(30*time.Minute), "RESURRECTION", "at_risk")
}

// TestDistributionEvolutionAndTransitions: the current distribution, the
// evolution per day of the tenant's zone (across a DST change: each day
// counts what its own wall-clock hours saw), and the transitions of a
// period, each exactly.
func TestDistributionEvolutionAndTransitions(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db, "Acme")
		f.history(t)
		dist, err := f.svc.Distribution(f.admin, f.agc)
		dbtest.NoError(t, err)
		want := []lifecycle.StateCount{{Stage: "ACTIVATION", Code: "new", Count: 1}, {Stage: "ENGAGEMENT", Code: "low", Count: 1},
			{Stage: "RESURRECTION", Code: "at_risk", Count: 1}}
		if !slices.Equal(dist, want) {
			t.Fatalf("distribution %v, want %v", dist, want)
		}

		from, to := local(6, 0), local(10, 0)
		ev, err := f.svc.Evolution(f.admin, f.agc, insights.Period{From: &from, To: &to})
		dbtest.NoError(t, err)
		wantDays := []string{"2026-03-06", "2026-03-07", "2026-03-08", "2026-03-09"}
		series := map[string][]int{}
		for _, s := range ev.Series {
			series[s.Stage+"/"+s.Code] = s.Counts
		}
		// End of Mar 6: c1 new (before), c0 new. Mar 7: c1 low, c2 new. Mar 8
		// 23:30 (EDT): c0 low. Mar 9 00:30: c0 at_risk.
		wantSeries := map[string][]int{"ACTIVATION/new": {2, 2, 1, 1}, "ENGAGEMENT/low": {0, 1, 2, 1}, "RESURRECTION/at_risk": {0, 0, 0, 1}}
		if !slices.Equal(ev.Days, wantDays) || fmt.Sprint(series) != fmt.Sprint(wantSeries) || len(ev.Series) != 3 {
			t.Fatalf("evolution %v %v, want %v %v", ev.Days, series, wantDays, wantSeries)
		}

		tr, err := f.svc.Transitions(f.admin, f.agc, insights.Period{From: &from, To: &to})
		dbtest.NoError(t, err)
		got := []string{}
		for _, c := range tr {
			from := "-"
			if c.From != nil {
				from = c.From.Stage + "/" + c.From.Code
			}
			got = append(got, fmt.Sprintf("%s>%s/%s:%d", from, c.To.Stage, c.To.Code, c.Count))
		}
		// Ties by count: first states ("-") first.
		wantTr := []string{"->ACTIVATION/new:2", "ACTIVATION/new>ENGAGEMENT/low:2", "ENGAGEMENT/low>RESURRECTION/at_risk:1"}
		if !slices.Equal(got, wantTr) {
			t.Fatalf("transitions %v, want %v", got, wantTr)
		}

		// The period's rules and the AGC's tenancy.
		bad := local(1, 0)
		_, err = f.svc.Evolution(f.admin, f.agc, insights.Period{From: &to, To: &from})
		dbtest.ExpectError(t, err, 400, insights.MsgFromTo)
		far := bad.AddDate(-2, 0, 0)
		_, err = f.svc.Transitions(f.admin, f.agc, insights.Period{From: &far, To: &bad})
		dbtest.ExpectError(t, err, 400, insights.MsgPeriodDays)
		beta := db.Tenant(t, "Beta")
		_, err = f.svc.Distribution(beta.Admin(), f.agc)
		dbtest.ExpectError(t, err, 404, "Activity generation config "+f.agc.String()+" not found")
	})
}

// TestDecisionsAndActivities: the decisions per rule and kind, and the
// status of the activities the GENERATED ones created.
func TestDecisionsAndActivities(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db, "Acme")
		c, tn := db.Client, f.acme
		rule := func(name string) uuid.UUID {
			return c.GenerationRule.Create().SetTenantID(tn.TenantID).SetProjectID(tn.ProjectID).SetActivityGenerationConfigID(f.agc).
				SetName(name).SetTrigger("ENTER").SetStage("ACTIVATION").SetStatusCode("new").SetType("TASK").SetChannel("SALESMAN").
				SetReasonCode("r").SetTitleTemplate("x").SaveX(f.admin).ID
		}
		visit, call := rule("Visita"), rule("Llamada")
		at := local(6, 10)
		decide := func(r uuid.UUID, i int, kind gd.Kind, status activity.Status, decided time.Time) {
			q := c.GenerationDecision.Create().SetTenantID(tn.TenantID).SetProjectID(tn.ProjectID).SetActivityGenerationConfigID(f.agc).
				SetRuleID(r).SetCommerceID(f.commerces[i]).SetTrigger("ENTER").SetStage("ACTIVATION").SetStatusCode("new").
				SetEnteredAt(at.Add(time.Duration(i) * time.Minute)).SetKind(kind).SetDetail("d").SetDecidedAt(decided)
			if kind == gd.KindGENERATED {
				q.SetActivityID(c.Activity.Create().SetTenantID(tn.TenantID).SetProjectID(tn.ProjectID).SetCommerceID(f.commerces[i]).
					SetType("TASK").SetChannel("SALESMAN").SetStatus(status).SetScheduledAt(at).SaveX(f.admin).ID)
			} else {
				q.SetReason(gd.ReasonAGC_HOLDOUT)
			}
			q.ExecX(f.admin)
		}
		decide(visit, 0, gd.KindGENERATED, activity.StatusCOMPLETED, at)
		decide(visit, 1, gd.KindGENERATED, activity.StatusREADY, at)
		decide(visit, 2, gd.KindHELD_OUT, "", at)
		decide(call, 0, gd.KindGENERATED, activity.StatusREADY, at.Add(48*time.Hour))
		// A manual activity of the AGC's commerce is not the rules'.
		c.Activity.Create().SetTenantID(tn.TenantID).SetProjectID(tn.ProjectID).SetCommerceID(f.commerces[3]).SetType("TASK").
			SetChannel("SALESMAN").SetStatus(activity.StatusFAILED).SetScheduledAt(at).SetActivityGenerationConfigID(f.agc).ExecX(f.admin)

		ds, err := f.svc.Decisions(f.admin, f.agc, nil)
		dbtest.NoError(t, err)
		got := []string{}
		for _, d := range ds {
			got = append(got, fmt.Sprintf("%s %s %d", d.RuleName, d.Kind, d.Count))
		}
		if want := []string{"Llamada GENERATED 1", "Visita GENERATED 2", "Visita HELD_OUT 1"}; !slices.Equal(got, want) {
			t.Fatalf("decisions %v, want %v", got, want)
		}
		acts, err := f.svc.Activities(f.admin, f.agc, nil)
		dbtest.NoError(t, err)
		if want := []insights.StatusCount{{Status: "READY", Count: 2}, {Status: "COMPLETED", Count: 1}}; !slices.Equal(acts, want) {
			t.Fatalf("activities %v, want %v", acts, want)
		}
		since := at.Add(time.Hour)
		ds, err = f.svc.Decisions(f.admin, f.agc, &since)
		dbtest.NoError(t, err)
		acts2, err := f.svc.Activities(f.admin, f.agc, &since)
		dbtest.NoError(t, err)
		if len(ds) != 1 || ds[0].RuleID != call || !slices.Equal(acts2, []insights.StatusCount{{Status: "READY", Count: 1}}) {
			t.Fatalf("since: %v %v", ds, acts2)
		}
		beta := db.Tenant(t, "Beta")
		_, err = f.svc.Decisions(beta.Admin(), f.agc, nil)
		dbtest.ExpectError(t, err, 404, "Activity generation config "+f.agc.String()+" not found")
	})
}
