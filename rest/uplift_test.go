package rest_test

import (
	"encoding/csv"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activityresult"
	tr "github.com/reten-io/reten/ent/commercelifecycletransition"
	gd "github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/ent/generationrule"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/uplift"
)

// upliftWorld is an AGC of Acme (no dataset: ENGAGED is not computed) whose
// rule R decided for seven commerces on 2026-03-01: four GENERATED
// (treated), three HELD_OUT (control). Within the 30 days that follow,
// treated T1 and control C1 reach ENGAGEMENT (improved); T2 does too, but
// after the window; T1's activity has a positive result, T2's a negative
// one.
type upliftWorld struct {
	f            *agcFix
	agc, rule    uuid.UUID
	decisions    []uuid.UUID // T1..T4, C1..C3
	commerces    []uuid.UUID
	acts         []uuid.UUID // T1..T4's activities
	path, csvURL string
}

var upliftDay = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// upliftWorlds counts the worlds made, so each has its own decision ids.
var upliftWorlds int

func newUpliftWorld(t *testing.T, env *apptest.Env, name string) *upliftWorld {
	t.Helper()
	upliftWorlds++
	w := &upliftWorld{f: newAGCFix(t, env, name)}
	c, tn := env.App.DB.Client, w.f.tenant
	w.agc = uuid.MustParse(w.f.create(t, "Retail")["id"].(string))
	w.rule = c.GenerationRule.Create().SetTenantID(tn.TenantID).SetProjectID(tn.ProjectID).SetActivityGenerationConfigID(w.agc).
		SetName("R").SetTrigger(generationrule.TriggerENTER).SetStage(generationrule.StageRESURRECTION).SetStatusCode("at_risk").
		SetType(generationrule.TypeTASK).SetChannel(generationrule.ChannelSALESMAN).SetReasonCode("reactivation").
		SetTitleTemplate("x").SetAssignment(generationrule.AssignmentROUTE_LEAD).SaveX(sys).ID
	for i := range 7 {
		com := c.Commerce.Create().SetTenantID(tn.TenantID).SetName(fmt.Sprintf("C%d", i)).SetExternalID(fmt.Sprintf("X%d", i)).SaveX(sys).ID
		w.commerces = append(w.commerces, com)
		// Increasing ids: the rows' order among decisions of one instant.
		id := uuid.MustParse(fmt.Sprintf("%08x-0000-4000-8000-%012d", upliftWorlds, i+1))
		q := c.GenerationDecision.Create().SetID(id).SetTenantID(tn.TenantID).SetProjectID(tn.ProjectID).SetActivityGenerationConfigID(w.agc).
			SetRuleID(w.rule).SetCommerceID(com).SetTrigger(gd.TriggerENTER).SetStage(gd.StageRESURRECTION).SetStatusCode("at_risk").
			SetEnteredAt(upliftDay.Add(-time.Hour)).SetDetail("d").SetDecidedAt(upliftDay)
		if i < 4 {
			act := c.Activity.Create().SetTenantID(tn.TenantID).SetProjectID(tn.ProjectID).SetCommerceID(com).SetType(activity.TypeTASK).
				SetChannel(activity.ChannelSALESMAN).SetStatus(activity.StatusREADY).SetScheduledAt(upliftDay).SaveX(sys).ID
			w.acts = append(w.acts, act)
			q.SetKind(gd.KindGENERATED).SetActivityID(act)
		} else {
			q.SetKind(gd.KindHELD_OUT).SetReason(gd.ReasonAGC_HOLDOUT)
		}
		w.decisions = append(w.decisions, q.SaveX(sys).ID)
	}
	engaged := func(i int, at time.Time) {
		c.CommerceLifecycleTransition.Create().SetTenantID(tn.TenantID).SetCommerceID(w.commerces[i]).SetActivityGenerationConfigID(w.agc).
			SetFromStage(tr.FromStageRESURRECTION).SetFromCode("at_risk").SetToStage(tr.ToStageENGAGEMENT).SetToCode("low").
			SetStateChangedAt(at).SetLastComputedAt(at).SetSource(tr.SourceAPI).ExecX(sys)
	}
	engaged(0, upliftDay.Add(4*24*time.Hour))  // T1, in the window
	engaged(1, upliftDay.Add(40*24*time.Hour)) // T2, after it
	engaged(4, upliftDay.Add(9*24*time.Hour))  // C1, in the window
	result := func(i int, code string) {
		c.ActivityResult.Create().SetTenantID(tn.TenantID).SetProjectID(tn.ProjectID).SetActivityID(w.acts[i]).SetCommerceID(w.commerces[i]).
			SetSource(activityresult.SourceRETEN_ACTIVITY).SetResultStatus(activityresult.ResultStatusCOMPLETED).
			SetOccurredAt(upliftDay.Add(2 * 24 * time.Hour)).SetResultCode(code).ExecX(sys)
	}
	result(0, "success")
	result(1, "not_home")
	w.path = "/api/activity-generation-configs/" + w.agc.String() + "/uplift"
	w.csvURL = w.path + ".csv"
	return w
}

// outcome is the expected JSON of an outcome comparing x1/n1 with x2/n2.
func outcome(name string, x1, n1, x2, n2 int) map[string]any {
	lo, hi := uplift.Newcombe(x1, n1, x2, n2, uplift.Z95)
	p, _ := uplift.PooledZTest(x1, n1, x2, n2)
	r1, r2 := float64(x1)/float64(n1), float64(x2)/float64(n2)
	return map[string]any{"outcome": name, "treated": map[string]any{"n": n1, "successes": x1, "rate": r1},
		"control": map[string]any{"n": n2, "successes": x2, "rate": r2}, "uplift": r1 - r2, "ciLow": lo, "ciHigh": hi, "pValue": p,
		"warning": fmt.Sprintf(uplift.MsgSmallFmt, fmt.Sprintf("treated %d/%d, control %d/%d", x1, n1, x2, n2))}
}

// TestUpliftReport: the report's figures over REST (each computed with the
// statistics the service tests check against published figures), its
// filters, every broken parameter in one 400, and 404 for another tenant's
// AGC or a rule of another AGC.
func TestUpliftReport(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newUpliftWorld(t, env, "Acme")
		beta := newUpliftWorld(t, env, "Beta")
		res := env.Do("GET", w.path, nil, w.f.h)
		if res.Status != 200 {
			t.Fatalf("report: %d %s", res.Status, res.Body)
		}
		got := res.Map(t)
		want := map[string]any{"activityGenerationConfigId": w.agc.String(), "ruleId": nil, "channel": nil, "from": nil, "to": nil,
			"windowDays": 30, "asOf": got["asOf"], "treated": map[string]any{"decisions": 4}, "control": map[string]any{"decisions": 3},
			"pending": 0, "warnings": []any{uplift.MsgNoDataset},
			"outcomes": []any{
				map[string]any{"outcome": "ENGAGED", "treated": nil, "control": nil, "uplift": nil, "ciLow": nil, "ciHigh": nil,
					"pValue": nil, "warning": uplift.MsgNoDataset},
				outcome("IMPROVED", 1, 4, 1, 3),
				map[string]any{"outcome": "POSITIVE_RESULT", "treated": map[string]any{"n": 4, "successes": 1, "rate": 0.25}, "control": nil,
					"uplift": nil, "ciLow": nil, "ciHigh": nil, "pValue": nil, "warning": fmt.Sprintf(uplift.MsgSmallTreatedFmt, 1, 4)}}}
		expectJSON(t, "report", got, want)
		if at, err := time.Parse(time.RFC3339Nano, got["asOf"].(string)); err != nil || time.Since(at) > time.Minute {
			t.Fatalf("asOf %v", got["asOf"])
		}

		// A window of 60 days: T2 improved too; a period before the decisions: nothing.
		got = env.Do("GET", w.path+"?window_days=60&rule_id="+w.rule.String()+"&channel=SALESMAN", nil, w.f.h).Map(t)
		if o := got["outcomes"].([]any)[1].(map[string]any); fmt.Sprint(o["treated"]) != fmt.Sprint(map[string]any{"n": 4, "successes": 2, "rate": 0.5}) {
			t.Fatalf("60-day IMPROVED %v", o)
		}
		got = env.Do("GET", w.path+"?to=2026-02-01T00:00:00Z&channel=WHATSAPP", nil, w.f.h).Map(t)
		if got["treated"].(map[string]any)["decisions"] != float64(0) || got["outcomes"].([]any)[1].(map[string]any)["warning"] != uplift.MsgNoneAtAll {
			t.Fatalf("empty period %v", got)
		}

		apptest.ExpectError(t, env.Do("GET", w.path+"?rule_id=x&channel=FAX&from=yesterday&to=2026-01-01&window_days=0", nil, w.f.h), 400,
			[]any{uplift.MsgRuleID, uplift.MsgChannel, uplift.MsgFrom, uplift.MsgTo, uplift.MsgWindowDays})
		apptest.ExpectError(t, env.Do("GET", w.path+"?from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z&window_days=366", nil, w.f.h), 400,
			[]any{uplift.MsgToBeforeFrom, uplift.MsgWindowDays})
		apptest.ExpectError(t, env.Do("GET", w.path+"?rule_id="+beta.rule.String(), nil, w.f.h), 404, uplift.MsgRuleNotFound)
		apptest.ExpectError(t, env.Do("GET", beta.path, nil, w.f.h), 404, "Activity generation config "+beta.agc.String()+" not found")
		apptest.ExpectError(t, env.Do("GET", beta.csvURL, nil, w.f.h), 404, "Activity generation config "+beta.agc.String()+" not found")
		apptest.ExpectError(t, env.Do("GET", "/api/activity-generation-configs/x/uplift", nil, w.f.h), 400, "Validation failed (uuid is expected)")
	})
}

// TestUpliftExport: the CSV export holds one row per measured decision
// (the report's population), header first, as text/csv; GraphQL reads
// the same report and the same rows a page at a time.
func TestUpliftExport(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newUpliftWorld(t, env, "Acme")
		res := env.Do("GET", w.csvURL+"?window_days=30", nil, w.f.h)
		if res.Status != 200 || res.Header.Get("Content-Type") != "text/csv; charset=utf-8" ||
			res.Header.Get("Content-Disposition") != `attachment; filename="uplift-`+w.agc.String()+`.csv"` {
			t.Fatalf("export: %d %v", res.Status, res.Header)
		}
		records, err := csv.NewReader(strings.NewReader(string(res.Body))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		day, end := upliftDay.Format(time.RFC3339Nano), upliftDay.Add(30*24*time.Hour).Format(time.RFC3339Nano)
		want := [][]string{uplift.CSVHeader}
		for i, d := range w.decisions {
			group, act, code, positive, endStage, endCode, improved := "CONTROL", "", "", "", "RESURRECTION", "at_risk", "false"
			if i < 4 {
				group, act, positive = "TREATED", w.acts[i].String(), "false"
			}
			switch i {
			case 0:
				code, positive = "success", "true"
			case 1:
				code = "not_home"
			}
			if i == 0 || i == 4 {
				endStage, endCode, improved = "ENGAGEMENT", "low", "true"
			}
			want = append(want, []string{d.String(), w.commerces[i].String(), fmt.Sprintf("X%d", i), w.rule.String(), "SALESMAN", group, day, end,
				"RESURRECTION", "at_risk", "", endStage, endCode, improved, act, code, positive})
		}
		if fmt.Sprint(records) != fmt.Sprint(want) {
			t.Fatalf("export:\n%v\nwant:\n%v", records, want)
		}

		gql := func(q string, vars map[string]any) map[string]any {
			t.Helper()
			r := env.GraphQL(q, vars, w.f.h)
			m := r.Map(t)
			if r.Status != 200 || m["errors"] != nil {
				t.Fatalf("graphql: %d %s", r.Status, r.Body)
			}
			return m["data"].(map[string]any)
		}
		rep := gql(`query($id: ID!) { upliftReport(activityGenerationConfigID: $id, windowDays: 60) { windowDays pending csvPath
			treated { decisions } outcomes { outcome treated { n successes rate } control { successes } uplift ciLow ciHigh pValue warning } } }`,
			map[string]any{"id": w.agc})["upliftReport"].(map[string]any)
		improved := rep["outcomes"].([]any)[1].(map[string]any)
		lo, hi := uplift.Newcombe(2, 4, 1, 3, uplift.Z95)
		r1, r2 := 2.0/4, 1.0/3 // at run time, as the service subtracts
		if rep["csvPath"] != w.csvURL+"?window_days=60" || rep["treated"].(map[string]any)["decisions"] != float64(4) ||
			improved["ciLow"] != lo || improved["ciHigh"] != hi || improved["uplift"] != r1-r2 {
			t.Fatalf("upliftReport %v", rep)
		}
		var ids []string
		var after any
		for page := 0; ; page++ {
			rows := gql(`query($id: ID!, $after: String) { upliftRows(activityGenerationConfigID: $id, first: 3, after: $after) {
				edges { cursor node { decisionID group improved positiveResult engaged } } hasNextPage endCursor } }`,
				map[string]any{"id": w.agc, "after": after})["upliftRows"].(map[string]any)
			for _, e := range rows["edges"].([]any) {
				n := e.(map[string]any)["node"].(map[string]any)
				ids = append(ids, n["decisionID"].(string))
				if n["engaged"] != nil {
					t.Fatalf("engaged %v without a dataset", n)
				}
			}
			if rows["hasNextPage"] != (page < 2) {
				t.Fatalf("page %d: hasNextPage %v", page, rows["hasNextPage"])
			}
			if rows["hasNextPage"] == false {
				break
			}
			after = rows["endCursor"]
		}
		if fmt.Sprint(ids) != fmt.Sprint(w.decisions) {
			t.Fatalf("rows %v, want %v", ids, w.decisions)
		}
		r := env.GraphQL(`query($id: ID!) { upliftRows(activityGenerationConfigID: $id, first: 101, after: "nope") { hasNextPage } }`,
			map[string]any{"id": w.agc}, w.f.h)
		if !strings.Contains(string(r.Body), `"message":"first must be an integer from 1 to 100"`) {
			t.Fatalf("bad first: %s", r.Body)
		}
		r = env.GraphQL(`query($id: ID!) { upliftReport(activityGenerationConfigID: $id, windowDays: 0, channel: "FAX") { pending } }`,
			map[string]any{"id": w.agc}, w.f.h)
		if !strings.Contains(string(r.Body), `"messages":["channel must be one of the following values: SALESMAN, CALLCENTER, WHATSAPP, EMAIL, SMS, PUSH","windowDays must be an integer from 1 to 365"]`) {
			t.Fatalf("bad arguments: %s", r.Body)
		}
	})
}
