package graph_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	gd "github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/insights"
)

// The five insight queries, every field selected.
const (
	insDistribution = `query($a: ID!) { lifecycleDistribution(activityGenerationConfigID: $a) { stage code count } }`
	insEvolution    = `query($a: ID!, $from: Time, $to: Time) { lifecycleEvolution(activityGenerationConfigID: $a, from: $from, to: $to) {
		days series { stage code counts } } }`
	insTransitions = `query($a: ID!, $from: Time, $to: Time) { lifecycleTransitionCounts(activityGenerationConfigID: $a, from: $from, to: $to) {
		from { stage code } to { stage code } count } }`
	insDecisions  = `query($a: ID!, $since: Time) { generationDecisionCounts(activityGenerationConfigID: $a, since: $since) { ruleID ruleName kind count } }`
	insActivities = `query($a: ID!, $since: Time) { generatedActivityCounts(activityGenerationConfigID: $a, since: $since) { status count } }`
)

// insightQueries are the five queries by their field.
var insightQueries = map[string]string{"lifecycleDistribution": insDistribution, "lifecycleEvolution": insEvolution,
	"lifecycleTransitionCounts": insTransitions, "generationDecisionCounts": insDecisions, "generatedActivityCounts": insActivities}

// bogota is the fixture tenant's zone (UTC-5 all year): a transition at
// 20:00 there is on the next day in UTC.
var bogota, _ = time.LoadLocation("America/Bogota")

// insightSetup is agcSetup (Acme with its status configs, Beta) with Acme
// in Bogotá's zone, an AGC of the main project (agc) with two rules, one
// of a second project of Acme (agcP2) with one rule, one of Beta (agcB),
// and the commerces of Acme a test adds.
type insightSetup struct {
	agcSetup
	h2                     apptest.Headers // Acme's admin in the second project
	p2                     uuid.UUID
	agc, agcP2, agcB       string
	commerces              []string
	visit, call, otherRule uuid.UUID // rules of agc (Visita, Llamada) and of agcP2
}

func newInsightSetup(t *testing.T, env *apptest.Env) insightSetup {
	t.Helper()
	s := insightSetup{agcSetup: newAGCSetup(t, env)}
	c, ctx, a := env.App.DB.Client, sysCtx(), s.acme.TenantID
	c.Tenant.UpdateOneID(a).SetTimeZone("America/Bogota").ExecX(ctx)
	s.p2 = newProject(t, env, a, "Segundo")
	s.h2 = s.h.With("x-project-id", s.p2.String())
	agc := func(tenant, project uuid.UUID, name string) string {
		return c.ActivityGenerationConfig.Create().SetTenantID(tenant).SetProjectID(project).SetName(name).
			SetStatus(activitygenerationconfig.StatusActive).SaveX(ctx).ID.String()
	}
	s.agc, s.agcP2, s.agcB = agc(a, s.acme.ProjectID, "Retail"), agc(a, s.p2, "Otro"), agc(s.beta.TenantID, s.beta.ProjectID, "Beta")
	s.visit, s.call = s.rule(t, env, s.acme.ProjectID, s.agc, "Visita"), s.rule(t, env, s.acme.ProjectID, s.agc, "Llamada")
	s.otherRule = s.rule(t, env, s.p2, s.agcP2, "Otra")
	return s
}

// addCommerces adds n commerces to Acme.
func (s *insightSetup) addCommerces(t *testing.T, env *apptest.Env, n int) {
	t.Helper()
	for range n {
		s.commerces = append(s.commerces, env.App.DB.Client.Commerce.Create().SetTenantID(s.acme.TenantID).
			SetName(fmt.Sprintf("C%03d", len(s.commerces))).SaveX(sysCtx()).ID.String())
	}
}

// rule creates a generation rule of an AGC of Acme.
func (s insightSetup) rule(t *testing.T, env *apptest.Env, project uuid.UUID, agc, name string) uuid.UUID {
	t.Helper()
	return env.App.DB.Client.GenerationRule.Create().SetTenantID(s.acme.TenantID).SetProjectID(project).
		SetActivityGenerationConfigID(uuid.MustParse(agc)).SetName(name).SetTrigger("ENTER").SetStage("ACTIVATION").
		SetStatusCode("new").SetType("TASK").SetChannel("SALESMAN").SetReasonCode("r").SetTitleTemplate("x").SaveX(sysCtx()).ID
}

// states writes states through batchUpsertCommerceLifecycleSnapshots, one
// request per step (a transition each time a commerce's state changes).
func (s insightSetup) states(t *testing.T, env *apptest.Env, steps ...[]M) {
	t.Helper()
	for _, items := range steps {
		out := get(t, gqlOK(t, env, s.h, batchQuery, M{"items": items}), "batchUpsertCommerceLifecycleSnapshots")
		if errs := get(t, out, "errors").([]any); len(errs) != 0 {
			t.Fatalf("batch: %v", errs)
		}
	}
}

// state is a batch item: commerce i of s in code (its stage) at at.
func (s insightSetup) state(i int, agc, code, at string) M {
	return snapItem(s.commerces[i], agc, code, map[string]string{"new": "ACTIVATION", "low": "ENGAGEMENT", "at_risk": "RESURRECTION"}[code], at)
}

// decide writes a decision of rule (of agc in project) for commerce i at
// decided; a GENERATED one with its activity in status.
func (s insightSetup) decide(t *testing.T, env *apptest.Env, project uuid.UUID, agc string, rule uuid.UUID, i int, kind gd.Kind,
	reason gd.Reason, status activity.Status, decided string) {
	t.Helper()
	c, ctx := env.App.DB.Client, sysCtx()
	at, err := time.Parse(time.RFC3339, decided)
	if err != nil {
		t.Fatal(err)
	}
	commerce := uuid.MustParse(s.commerces[i])
	q := c.GenerationDecision.Create().SetTenantID(s.acme.TenantID).SetProjectID(project).SetActivityGenerationConfigID(uuid.MustParse(agc)).
		SetRuleID(rule).SetCommerceID(commerce).SetTrigger(gd.TriggerENTER).SetStage(gd.StageACTIVATION).SetStatusCode("new").
		SetEnteredAt(at.Add(-time.Hour)).SetKind(kind).SetDetail("d").SetDecidedAt(at)
	if kind == gd.KindGENERATED {
		q.SetActivityID(c.Activity.Create().SetTenantID(s.acme.TenantID).SetProjectID(project).SetCommerceID(commerce).
			SetType("TASK").SetChannel("SALESMAN").SetStatus(status).SetScheduledAt(at).SetActivityGenerationConfigID(uuid.MustParse(agc)).
			SaveX(ctx).ID)
	} else {
		q.SetReason(reason)
	}
	q.ExecX(ctx)
}

// history is the fixture's states (Bogotá's wall clock, UTC-5):
//
//	c0: new (Mar 2 10:00) -> low (Mar 3 20:00, Mar 4 01:00 UTC) -> at_risk (Mar 4 09:00)
//	c1: new (Feb 20 10:00) -> low (Mar 2 12:00)
//	c2: new (Mar 4 23:30)
//	c3: new (Mar 1 08:00)
//
// and c0 low in agcP2 (Mar 3 10:00), which no answer about agc counts.
func (s insightSetup) history(t *testing.T, env *apptest.Env) {
	t.Helper()
	s.states(t, env,
		[]M{s.state(1, s.agc, "new", "2026-02-20T10:00:00-05:00"), s.state(3, s.agc, "new", "2026-03-01T08:00:00-05:00"),
			s.state(0, s.agc, "new", "2026-03-02T10:00:00-05:00"), s.state(2, s.agc, "new", "2026-03-04T23:30:00-05:00"),
			s.state(0, s.agcP2, "low", "2026-03-03T10:00:00-05:00")},
		[]M{s.state(1, s.agc, "low", "2026-03-02T12:00:00-05:00"), s.state(0, s.agc, "low", "2026-03-03T20:00:00-05:00")},
		[]M{s.state(0, s.agc, "at_risk", "2026-03-04T09:00:00-05:00")})
}

// decisions are the fixture's decisions: of agc, Visita GENERATED for c0
// (COMPLETED) and c1 (READY), HELD_OUT for c2 (Mar 2 10:00 UTC), CAPPED
// for c3 (Mar 3 10:00 UTC); Llamada GENERATED for c0 (READY) and c2
// (DISPATCHED), SUPPRESSED for c1 (Mar 4 10:00 UTC). Not of agc: a
// GENERATED decision of agcP2 (FAILED) and an activity of agc no rule
// created (CANCELED).
func (s insightSetup) decisions(t *testing.T, env *apptest.Env) {
	t.Helper()
	p1 := s.acme.ProjectID
	s.decide(t, env, p1, s.agc, s.visit, 0, gd.KindGENERATED, "", activity.StatusCOMPLETED, "2026-03-02T10:00:00Z")
	s.decide(t, env, p1, s.agc, s.visit, 1, gd.KindGENERATED, "", activity.StatusREADY, "2026-03-02T10:00:00Z")
	s.decide(t, env, p1, s.agc, s.visit, 2, gd.KindHELD_OUT, gd.ReasonAGC_HOLDOUT, "", "2026-03-02T10:00:00Z")
	s.decide(t, env, p1, s.agc, s.visit, 3, gd.KindCAPPED, gd.ReasonOPEN_ACTIVITY, "", "2026-03-03T10:00:00Z")
	s.decide(t, env, p1, s.agc, s.call, 0, gd.KindGENERATED, "", activity.StatusREADY, "2026-03-04T10:00:00Z")
	s.decide(t, env, p1, s.agc, s.call, 2, gd.KindGENERATED, "", activity.StatusDISPATCHED, "2026-03-04T10:00:00Z")
	s.decide(t, env, p1, s.agc, s.call, 1, gd.KindSUPPRESSED, gd.ReasonPRIORITY, "", "2026-03-04T10:00:00Z")
	s.decide(t, env, s.p2, s.agcP2, s.otherRule, 0, gd.KindGENERATED, "", activity.StatusFAILED, "2026-03-04T10:00:00Z")
	env.App.DB.Client.Activity.Create().SetTenantID(s.acme.TenantID).SetProjectID(p1).SetCommerceID(uuid.MustParse(s.commerces[3])).
		SetType("TASK").SetChannel("SALESMAN").SetStatus(activity.StatusCANCELED).SetScheduledAt(time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)).
		SetActivityGenerationConfigID(uuid.MustParse(s.agc)).ExecX(sysCtx())
}

// series is a LifecycleStateSeries.
func series(stage, code string, counts ...int) M {
	l := L{}
	for _, n := range counts {
		l = append(l, n)
	}
	return M{"stage": stage, "code": code, "counts": l}
}

// stateCount is a LifecycleStateCount; transition a LifecycleTransitionCount
// (from "" for a first state); ruleCount a GenerationRuleKindCount.
func stateCount(stage, code string, n int) M { return M{"stage": stage, "code": code, "count": n} }

func transition(fromStage, fromCode, toStage, toCode string, n int) M {
	var from any
	if fromStage != "" {
		from = M{"stage": fromStage, "code": fromCode}
	}
	return M{"from": from, "to": M{"stage": toStage, "code": toCode}, "count": n}
}

func ruleCount(rule uuid.UUID, name, kind string, n int) M {
	return M{"ruleID": rule.String(), "ruleName": name, "kind": kind, "count": n}
}

// TestInsightsOverGraphQL: each insight query answers the fixture's exact
// numbers (only agc's: not another AGC's of the tenant, nor an activity no
// rule created), the evolution per day of the tenant's zone, the periods'
// bounds and defaults; the period rules as BAD_REQUEST naming the field;
// NOT_FOUND for another tenant's or project's AGC; each query's
// permission.
func TestInsightsOverGraphQL(t *testing.T) {
	each(t, newInsightSetup, func(t *testing.T, env *apptest.Env, s insightSetup) {
		s.addCommerces(t, env, 4)
		s.history(t, env)
		s.decisions(t, env)
		// The Llamada rule is in the trash: its decisions keep its name.
		env.App.DB.Client.GenerationRule.UpdateOneID(s.call).SetArchivedAt(time.Now()).ExecX(sysCtx())

		expectData(t, env.GraphQL(insDistribution, M{"a": s.agc}, s.ph), M{"lifecycleDistribution": L{
			stateCount("ACTIVATION", "new", 2), stateCount("ENGAGEMENT", "low", 1), stateCount("RESURRECTION", "at_risk", 1)}})

		// End of Mar 2: c0 new, c1 low, c3 new. Mar 3 (c0 low at 20:00,
		// already Mar 4 in UTC): c0 low. Mar 4: c0 at_risk, c2 new.
		expectData(t, env.GraphQL(insEvolution, M{"a": s.agc, "from": "2026-03-02T00:00:00-05:00", "to": "2026-03-05T00:00:00-05:00"}, s.ph),
			M{"lifecycleEvolution": M{"days": L{"2026-03-02", "2026-03-03", "2026-03-04"}, "series": L{
				series("ACTIVATION", "new", 2, 1, 2), series("ENGAGEMENT", "low", 1, 2, 1), series("RESURRECTION", "at_risk", 0, 0, 1)}}})
		// to only: the 30 days before it (Feb 3 to Mar 4).
		days, newC, lowC, riskC := L{}, []int{}, []int{}, []int{}
		for d := time.Date(2026, 2, 3, 0, 0, 0, 0, bogota); d.Before(time.Date(2026, 3, 5, 0, 0, 0, 0, bogota)); d = d.AddDate(0, 0, 1) {
			days = append(days, d.Format(time.DateOnly))
			n, l, r := 0, 0, 0
			switch day := d.Format(time.DateOnly); {
			case day == "2026-03-04":
				n, l, r = 2, 1, 1
			case day == "2026-03-03":
				n, l = 1, 2
			case day == "2026-03-02":
				n, l = 2, 1
			case day == "2026-03-01": // c1 and c3 new
				n = 2
			case day >= "2026-02-20": // c1 new
				n = 1
			}
			newC, lowC, riskC = append(newC, n), append(lowC, l), append(riskC, r)
		}
		if len(days) != insights.DefaultDays {
			t.Fatalf("%d days", len(days))
		}
		expectData(t, env.GraphQL(insEvolution, M{"a": s.agc, "to": "2026-03-05T00:00:00-05:00"}, s.ph),
			M{"lifecycleEvolution": M{"days": days, "series": L{
				series("ACTIVATION", "new", newC...), series("ENGAGEMENT", "low", lowC...), series("RESURRECTION", "at_risk", riskC...)}}})
		// Neither: the last 30 days up to now (31 of the tenant's days), the
		// current states all along.
		today := time.Now().In(bogota)
		var flat [3][]int
		days = L{}
		for d := time.Date(today.Year(), today.Month(), today.Day()-30, 0, 0, 0, 0, bogota); !d.After(today); d = d.AddDate(0, 0, 1) {
			days = append(days, d.Format(time.DateOnly))
			flat[0], flat[1], flat[2] = append(flat[0], 2), append(flat[1], 1), append(flat[2], 1)
		}
		expectData(t, env.GraphQL(insEvolution, M{"a": s.agc}, s.ph), M{"lifecycleEvolution": M{"days": days, "series": L{
			series("ACTIVATION", "new", flat[0]...), series("ENGAGEMENT", "low", flat[1]...), series("RESURRECTION", "at_risk", flat[2]...)}}})
		// A period of exactly 366 days is allowed.
		res := gqlOK(t, env, s.ph, insEvolution, M{"a": s.agc, "from": "2025-03-05T00:00:00-05:00", "to": "2026-03-06T00:00:00-05:00"})
		if d := get(t, res, "lifecycleEvolution", "days").([]any); len(d) != insights.MaxDays || d[0] != "2025-03-05" || d[365] != "2026-03-05" {
			t.Fatalf("366 days: %d days, %v .. %v", len(d), d[0], d[len(d)-1])
		}

		// Transitions: the most frequent first, first states first on ties;
		// c1's and c3's first states are before the period.
		expectData(t, env.GraphQL(insTransitions, M{"a": s.agc, "from": "2026-03-02T00:00:00-05:00", "to": "2026-03-05T00:00:00-05:00"}, s.ph),
			M{"lifecycleTransitionCounts": L{transition("", "", "ACTIVATION", "new", 2),
				transition("ACTIVATION", "new", "ENGAGEMENT", "low", 2), transition("ENGAGEMENT", "low", "RESURRECTION", "at_risk", 1)}})
		// [from, to): c1's change at from is in, c0's at to is out.
		expectData(t, env.GraphQL(insTransitions, M{"a": s.agc, "from": "2026-03-02T17:00:00Z", "to": "2026-03-04T09:00:00-05:00"}, s.ph),
			M{"lifecycleTransitionCounts": L{transition("ACTIVATION", "new", "ENGAGEMENT", "low", 2)}})
		expectData(t, env.GraphQL(insTransitions, M{"a": s.agc}, s.ph), M{"lifecycleTransitionCounts": L{}})
		// The other AGC's own history.
		expectData(t, env.GraphQL(insTransitions, M{"a": s.agcP2, "from": "2026-03-01T00:00:00Z", "to": "2026-03-05T00:00:00Z"}, s.h2),
			M{"lifecycleTransitionCounts": L{transition("", "", "ENGAGEMENT", "low", 1)}})
		expectData(t, env.GraphQL(insDistribution, M{"a": s.agcP2}, s.h2), M{"lifecycleDistribution": L{stateCount("ENGAGEMENT", "low", 1)}})

		// Decisions per rule (by name) and kind (documented order).
		expectData(t, env.GraphQL(insDecisions, M{"a": s.agc}, s.ph), M{"generationDecisionCounts": L{
			ruleCount(s.call, "Llamada", "GENERATED", 2), ruleCount(s.call, "Llamada", "SUPPRESSED", 1),
			ruleCount(s.visit, "Visita", "GENERATED", 2), ruleCount(s.visit, "Visita", "HELD_OUT", 1), ruleCount(s.visit, "Visita", "CAPPED", 1)}})
		// since is inclusive, whatever its offset (Mar 3 10:00 UTC).
		expectData(t, env.GraphQL(insDecisions, M{"a": s.agc, "since": "2026-03-03T05:00:00-05:00"}, s.ph), M{"generationDecisionCounts": L{
			ruleCount(s.call, "Llamada", "GENERATED", 2), ruleCount(s.call, "Llamada", "SUPPRESSED", 1), ruleCount(s.visit, "Visita", "CAPPED", 1)}})
		expectData(t, env.GraphQL(insDecisions, M{"a": s.agc, "since": "2026-03-04T10:00:00.000001Z"}, s.ph), M{"generationDecisionCounts": L{}})
		expectData(t, env.GraphQL(insDecisions, M{"a": s.agcP2}, s.h2), M{"generationDecisionCounts": L{ruleCount(s.otherRule, "Otra", "GENERATED", 1)}})

		// The rules' activities by status (SPEC order).
		expectData(t, env.GraphQL(insActivities, M{"a": s.agc}, s.ph), M{"generatedActivityCounts": L{
			M{"status": "READY", "count": 2}, M{"status": "DISPATCHED", "count": 1}, M{"status": "COMPLETED", "count": 1}}})
		expectData(t, env.GraphQL(insActivities, M{"a": s.agc, "since": "2026-03-04T05:00:00-05:00"}, s.ph), M{"generatedActivityCounts": L{
			M{"status": "READY", "count": 1}, M{"status": "DISPATCHED", "count": 1}}})
		expectData(t, env.GraphQL(insActivities, M{"a": s.agcP2}, s.h2), M{"generatedActivityCounts": L{M{"status": "FAILED", "count": 1}}})

		// An AGC without history: empty answers, zero series.
		fresh := env.App.DB.Client.ActivityGenerationConfig.Create().SetTenantID(s.acme.TenantID).SetProjectID(s.acme.ProjectID).
			SetName("Vacía").SaveX(sysCtx()).ID.String()
		expectData(t, env.GraphQL(insDistribution, M{"a": fresh}, s.ph), M{"lifecycleDistribution": L{}})
		expectData(t, env.GraphQL(insEvolution, M{"a": fresh, "from": "2026-03-02T00:00:00-05:00", "to": "2026-03-03T00:00:00-05:00"}, s.ph),
			M{"lifecycleEvolution": M{"days": L{"2026-03-02"}, "series": L{}}})
		expectData(t, env.GraphQL(insTransitions, M{"a": fresh}, s.ph), M{"lifecycleTransitionCounts": L{}})
		expectData(t, env.GraphQL(insDecisions, M{"a": fresh}, s.ph), M{"generationDecisionCounts": L{}})
		expectData(t, env.GraphQL(insActivities, M{"a": fresh}, s.ph), M{"generatedActivityCounts": L{}})

		// The period's rules, one BAD_REQUEST naming the field.
		for _, field := range []string{"lifecycleEvolution", "lifecycleTransitionCounts"} {
			q := insightQueries[field]
			expectInvalid(t, env.GraphQL(q, M{"a": s.agc, "from": "2026-03-05T00:00:00Z", "to": "2026-03-05T00:00:00Z"}, s.ph), field, insights.MsgFromTo)
			expectInvalid(t, env.GraphQL(q, M{"a": s.agc, "from": "2026-03-05T00:00:00Z", "to": "2026-03-04T23:59:59Z"}, s.ph), field, insights.MsgFromTo)
			// from after now, to defaulting to now.
			expectInvalid(t, env.GraphQL(q, M{"a": s.agc, "from": time.Now().Add(time.Hour).Format(time.RFC3339)}, s.ph), field, insights.MsgFromTo)
			expectInvalid(t, env.GraphQL(q, M{"a": s.agc, "from": "2025-03-05T00:00:00-05:00", "to": "2026-03-06T00:00:01-05:00"}, s.ph),
				field, insights.MsgPeriodDays)
			expectInvalid(t, env.GraphQL(q, M{"a": s.agc, "from": "2024-01-01T00:00:00Z"}, s.ph), field, insights.MsgPeriodDays)
			// The rules hold before the AGC is looked up.
			expectInvalid(t, env.GraphQL(q, M{"a": s.agcB, "from": "2026-03-05T00:00:00Z", "to": "2026-03-01T00:00:00Z"}, s.ph), field, insights.MsgFromTo)
			expectBody(t, env.GraphQL(q, M{"a": s.agc, "from": "yesterday"}, s.ph), http.StatusOK, M{"data": nil, "errors": L{
				fieldError(L{field, "from"}, "from must be an RFC 3339 instant (such as 2025-01-31T09:00:00Z)", "BAD_REQUEST", 400)}})
		}

		// Another tenant's or project's AGC, or none, is not found; the
		// project header is required.
		env.CreateUser(s.acme.TenantID, "otto", auth.RoleOperator)
		op := apptest.JWT(env.Login("otto"), s.acme.TenantID, s.acme.ProjectID)
		for field, q := range insightQueries {
			for _, c := range []struct {
				h   apptest.Headers
				agc string
			}{{s.ph, s.agcB}, {s.ph, s.agcP2}, {s.h2, s.agc}, {s.bph, s.agc}, {s.ph, uuid.NewString()}} {
				expectFieldError(t, env.GraphQL(q, M{"a": c.agc}, c.h), field, "Activity generation config "+c.agc+" not found", "NOT_FOUND", 404)
			}
			expectFieldError(t, env.GraphQL(q, M{"a": s.agc}, s.h), field, "Falta el header obligatorio x-project-id.", "BAD_REQUEST", 400)
			// The permissions: an operator reads the activities only.
			res := env.GraphQL(q, M{"a": s.agc}, op)
			switch field {
			case "generatedActivityCounts":
				expectData(t, res, M{field: L{M{"status": "READY", "count": 2}, M{"status": "DISPATCHED", "count": 1}, M{"status": "COMPLETED", "count": 1}}})
			case "generationDecisionCounts":
				expectFieldError(t, res, field, "Required permissions: generation-rule:view", "FORBIDDEN", 403)
			default:
				expectFieldError(t, res, field, "Required permissions: commerce-lifecycle-snapshot:view", "FORBIDDEN", 403)
			}
		}
	})
}

// TestInsightsCostFixedStatements counts the SQL statements of each
// insight query (the request's authentication included): 60 commerces
// with their history, decisions and activities cost exactly what 3 cost.
func TestInsightsCostFixedStatements(t *testing.T) {
	eachLogged(t, func(t *testing.T, env *apptest.Env, log *statementLog) {
		s := newInsightSetup(t, env)
		// Each new commerce enters new on Mar 2, every other one goes low on
		// Mar 3; a Visita decision GENERATED (READY) and a Llamada one
		// HELD_OUT each.
		grow := func(n int) {
			first := len(s.commerces)
			s.addCommerces(t, env, n)
			var enter, low []M
			for i := first; i < len(s.commerces); i++ {
				enter = append(enter, s.state(i, s.agc, "new", "2026-03-02T10:00:00-05:00"))
				if i%2 == 0 {
					low = append(low, s.state(i, s.agc, "low", "2026-03-03T10:00:00-05:00"))
				}
				s.decide(t, env, s.acme.ProjectID, s.agc, s.visit, i, gd.KindGENERATED, "", activity.StatusREADY, "2026-03-02T10:00:00Z")
				s.decide(t, env, s.acme.ProjectID, s.agc, s.call, i, gd.KindHELD_OUT, gd.ReasonAGC_HOLDOUT, "", "2026-03-02T10:00:00Z")
			}
			s.states(t, env, enter, low)
		}
		period := M{"a": s.agc, "from": "2026-03-01T00:00:00-05:00", "to": "2026-03-05T00:00:00-05:00"}
		vars := map[string]M{"lifecycleDistribution": {"a": s.agc}, "lifecycleEvolution": period, "lifecycleTransitionCounts": period,
			"generationDecisionCounts": {"a": s.agc}, "generatedActivityCounts": {"a": s.agc}}
		// count runs a query, checks its answer for n commerces and returns
		// its statements.
		count := func(field string, n int) []string {
			t.Helper()
			lows := (n + 1) / 2 // commerces 0, 2, 4 ...
			news := n - lows
			want := map[string]any{
				"lifecycleDistribution": L{stateCount("ACTIVATION", "new", news), stateCount("ENGAGEMENT", "low", lows)},
				"lifecycleEvolution": M{"days": L{"2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04"}, "series": L{
					series("ACTIVATION", "new", 0, n, news, news), series("ENGAGEMENT", "low", 0, 0, lows, lows)}},
				"lifecycleTransitionCounts": L{transition("", "", "ACTIVATION", "new", n), transition("ACTIVATION", "new", "ENGAGEMENT", "low", lows)},
				"generationDecisionCounts":  L{ruleCount(s.call, "Llamada", "HELD_OUT", n), ruleCount(s.visit, "Visita", "GENERATED", n)},
				"generatedActivityCounts":   L{M{"status": "READY", "count": n}},
			}
			log.take()
			res := env.GraphQL(insightQueries[field], vars[field], s.ph)
			got := log.take()
			expectData(t, res, M{field: want[field]})
			return got
		}
		fields := []string{"lifecycleDistribution", "lifecycleEvolution", "lifecycleTransitionCounts", "generationDecisionCounts", "generatedActivityCounts"}
		// The request's authentication (the user with its membership and
		// the active project, one statement: the cache is off here) and the
		// AGC's lookup, then one aggregation (the evolution also reads the
		// tenant's zone; the decisions also read the rules' names).
		const auth = 2
		exact := map[string]int{"lifecycleDistribution": auth + 1, "lifecycleEvolution": auth + 2, "lifecycleTransitionCounts": auth + 1,
			"generationDecisionCounts": auth + 2, "generatedActivityCounts": auth + 1}
		grow(3)
		small := map[string][]string{}
		for _, f := range fields {
			small[f] = count(f, 3)
		}
		grow(57)
		for _, f := range fields {
			large := count(f, 60)
			t.Logf("%s: %d statements with 3 commerces, %d with 60", f, len(small[f]), len(large))
			if len(small[f]) != len(large) || len(large) != exact[f] {
				t.Errorf("%s: %d statements with 3 commerces, %d with 60, want %d:\n%s", f, len(small[f]), len(large), exact[f],
					strings.Join(large, "\n"))
			}
		}
	})
}
