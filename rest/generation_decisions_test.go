package rest_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/project"
)

// decisionID is the n-th seeded decision's id: fixed, so that the order of
// two decisions made at the same instant (id, descending) is known.
func decisionID(n int) uuid.UUID {
	return uuid.MustParse(fmt.Sprintf("00000000-0000-4000-8000-%012d", n))
}

// decisionSeed is one decision row written straight to the log (the
// generator writes them; the reads are what is tested here).
type decisionSeed struct {
	n                              int
	tenant, project, agc, commerce uuid.UUID
	rule                           uuid.UUID
	trigger                        string
	kind, reason                   string // reason "" = null
	decided                        string // RFC 3339
	activity, transition           bool
}

// decisionWorld is two tenants, two projects of Acme with AGCs, commerces
// and decisions.
type decisionWorld struct {
	f, beta                 *agcFix
	h2                      apptest.Headers // Acme's admin in project 2
	agc1, agc2, agcP2, agcB uuid.UUID
	c1, c2, cB              uuid.UUID
	ruleX, ruleY, ruleZ     uuid.UUID
	rows                    map[int]map[string]any // the REST item of each seeded decision
	agc1Path, c1Path        string
	c2Path                  string
}

func newDecisionWorld(t *testing.T, env *apptest.Env) *decisionWorld {
	t.Helper()
	w := &decisionWorld{f: newAGCFix(t, env, "Acme"), beta: newAGCFix(t, env, "Beta"), rows: map[int]map[string]any{}}
	c := env.App.DB.Client
	acme, beta := w.f.tenant, w.beta.tenant
	w.agc1 = uuid.MustParse(w.f.create(t, "Retail")["id"].(string))
	w.agc2 = uuid.MustParse(w.f.create(t, "Mayoristas")["id"].(string))
	w.agcB = uuid.MustParse(w.beta.create(t, "Retail")["id"].(string))
	p2, err := project.Create(sys, c, acme.TenantID, "Segundo", false, uuid.Nil)
	if err != nil {
		t.Fatal(err)
	}
	w.h2 = w.f.h.With("x-project-id", p2.ID.String())
	w.agcP2 = c.ActivityGenerationConfig.Create().SetTenantID(acme.TenantID).SetProjectID(p2.ID).SetName("Otro proyecto").
		SetStatus(activitygenerationconfig.StatusDraft).SaveX(sys).ID
	w.c1 = c.Commerce.Create().SetTenantID(acme.TenantID).SetName("Almacén Uno").SaveX(sys).ID
	w.c2 = c.Commerce.Create().SetTenantID(acme.TenantID).SetName("Almacén Dos").SaveX(sys).ID
	w.cB = c.Commerce.Create().SetTenantID(beta.TenantID).SetName("Beta Shop").SaveX(sys).ID
	w.ruleX, w.ruleY, w.ruleZ = uuid.New(), uuid.New(), uuid.New()
	a, p1, b := acme.TenantID, acme.ProjectID, beta.TenantID
	seeds := []decisionSeed{
		// Project 1, AGC 1: d1 and d2 at the same instant (id decides).
		{1, a, p1, w.agc1, w.c1, w.ruleX, "ENTER", "GENERATED", "", "2026-03-01T10:00:00Z", true, true},
		{2, a, p1, w.agc1, w.c1, w.ruleY, "ENTER", "SUPPRESSED", "PRIORITY", "2026-03-01T10:00:00Z", false, true},
		{3, a, p1, w.agc1, w.c2, w.ruleX, "ENTER", "HELD_OUT", "CONTROL_GROUP", "2026-03-02T08:30:00Z", false, true},
		{4, a, p1, w.agc1, w.c1, w.ruleX, "DWELL", "CAPPED", "MAX_PER_WINDOW", "2026-03-03T09:00:00.5Z", false, false},
		{5, a, p1, w.agc1, w.c2, w.ruleY, "DWELL", "EXPIRED_RULE", "STATE_LEFT", "2026-03-04T12:00:00Z", false, false},
		// Project 1, AGC 2.
		{6, a, p1, w.agc2, w.c1, w.ruleZ, "ENTER", "GENERATED", "", "2026-03-05T00:00:00Z", true, true},
		// Project 2: its AGC's decision, and one naming AGC 1's id (never
		// shown in project 1: the project filter does not trust the AGC).
		{7, a, p2.ID, w.agcP2, w.c1, uuid.New(), "ENTER", "GENERATED", "", "2026-03-06T00:00:00Z", true, true},
		{8, a, p2.ID, w.agc1, w.c1, uuid.New(), "ENTER", "CAPPED", "MIN_GAP", "2026-03-07T00:00:00Z", false, true},
		// Beta.
		{9, b, beta.ProjectID, w.agcB, w.cB, uuid.New(), "ENTER", "GENERATED", "", "2026-03-08T00:00:00Z", true, true},
	}
	for _, s := range seeds {
		decided, err := time.Parse(time.RFC3339Nano, s.decided)
		if err != nil {
			t.Fatal(err)
		}
		entered := decided.Add(-time.Duration(s.n) * time.Hour)
		q := c.GenerationDecision.Create().SetID(decisionID(s.n)).SetTenantID(s.tenant).SetProjectID(s.project).
			SetActivityGenerationConfigID(s.agc).SetRuleID(s.rule).SetCommerceID(s.commerce).
			SetTrigger(generationdecision.Trigger(s.trigger)).SetStage(generationdecision.StageRESURRECTION).SetStatusCode("at_risk").
			SetEnteredAt(entered).SetKind(generationdecision.Kind(s.kind)).SetDetail(fmt.Sprintf("decision %d", s.n)).SetDecidedAt(decided)
		row := map[string]any{"id": decisionID(s.n), "activityGenerationConfigId": s.agc, "ruleId": s.rule, "commerceId": s.commerce,
			"trigger": s.trigger, "stage": "RESURRECTION", "statusCode": "at_risk", "enteredAt": entered.UTC().Format(time.RFC3339Nano),
			"kind": s.kind, "reason": nil, "detail": fmt.Sprintf("decision %d", s.n), "activityId": nil, "transitionId": nil,
			"decidedAt": s.decided}
		if s.reason != "" {
			q.SetReason(generationdecision.Reason(s.reason))
			row["reason"] = s.reason
		}
		if s.activity {
			id := uuid.New()
			q.SetActivityID(id)
			row["activityId"] = id
		}
		if s.transition {
			id := uuid.New()
			q.SetTransitionID(id)
			row["transitionId"] = id
		}
		q.SaveX(sys)
		w.rows[s.n] = row
	}
	w.agc1Path = "/api/activity-generation-configs/" + w.agc1.String() + "/generation-decisions"
	w.c1Path = "/api/commerces/" + w.c1.String() + "/generation-decisions"
	w.c2Path = "/api/commerces/" + w.c2.String() + "/generation-decisions"
	return w
}

// page is the expected {data, meta} of the seeded decisions ns on page
// page of perPage, of total.
func (w *decisionWorld) page(page, perPage, total int, ns ...int) map[string]any {
	data := []any{}
	for _, n := range ns {
		data = append(data, w.rows[n])
	}
	return map[string]any{"data": data, "meta": map[string]any{"page": page, "limit": perPage, "total": total,
		"totalPages": (total + perPage - 1) / perPage}}
}

// all is page 1 of 25 holding every decision ns.
func (w *decisionWorld) all(ns ...int) map[string]any { return w.page(1, 25, len(ns), ns...) }

// TestGenerationDecisionsOfAnAGC: the decisions of an AGC of the active
// project, newest first (id breaking ties), filtered by commerce, rule,
// kind and since, paged with the exact total; every broken parameter in
// one 400; 404 for another tenant's or project's AGC; never another
// project's decision.
func TestGenerationDecisionsOfAnAGC(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newDecisionWorld(t, env)
		h := w.f.h
		foExpect(t, env.Do("GET", w.agc1Path, nil, h), 200, w.all(5, 4, 3, 2, 1))
		foExpect(t, env.Do("GET", "/api/activity-generation-configs/"+w.agc2.String()+"/generation-decisions", nil, h), 200, w.all(6))

		for _, c := range []struct {
			name, query string
			want        []int
		}{
			{"commerce c1", "commerce_id=" + w.c1.String(), []int{4, 2, 1}},
			{"commerce c2", "commerce_id=" + w.c2.String(), []int{5, 3}},
			{"rule X", "rule_id=" + w.ruleX.String(), []int{4, 3, 1}},
			{"suppressed", "kind=SUPPRESSED", []int{2}},
			{"generated", "kind=GENERATED", []int{1}},
			{"since, at or after", "since=2026-03-02T08:30:00Z", []int{5, 4, 3}},
			{"since with an offset", "since=2026-03-02T09:30:00%2B01:00", []int{5, 4, 3}},
			{"since with fractions", "since=2026-03-03T09:00:00.6Z", []int{5}},
			{"every filter", "commerce_id=" + w.c1.String() + "&rule_id=" + w.ruleX.String() + "&kind=CAPPED&since=2026-03-03T00:00:00Z", []int{4}},
			{"another tenant's commerce", "commerce_id=" + w.cB.String(), []int{}},
			{"a rule of another AGC", "rule_id=" + w.ruleZ.String(), []int{}},
			{"empty values do not filter", "kind=&since=&commerce_id=&rule_id=", []int{5, 4, 3, 2, 1}},
		} {
			t.Run(c.name, func(t *testing.T) {
				foExpect(t, env.Do("GET", w.agc1Path+"?"+c.query, nil, h), 200, w.all(c.want...))
			})
		}

		// Paging: the newest first, page after page, with the exact total.
		foExpect(t, env.Do("GET", w.agc1Path+"?per_page=2", nil, h), 200, w.page(1, 2, 5, 5, 4))
		foExpect(t, env.Do("GET", w.agc1Path+"?per_page=2&page=2", nil, h), 200, w.page(2, 2, 5, 3, 2))
		foExpect(t, env.Do("GET", w.agc1Path+"?per_page=2&page=3", nil, h), 200, w.page(3, 2, 5, 1))
		foExpect(t, env.Do("GET", w.agc1Path+"?per_page=2&page=4", nil, h), 200, w.page(4, 2, 5))
		foExpect(t, env.Do("GET", w.agc1Path+"?per_page=1&page=2&commerce_id="+w.c1.String(), nil, h), 200, w.page(2, 1, 3, 2))

		// Every broken parameter in one 400, the adapter's first, then the kind rule.
		apptest.ExpectError(t, env.Do("GET", w.agc1Path+"?page=0&commerce_id=c1&rule_id=r&kind=NOPE&since=yesterday", nil, h), 400,
			[]string{"page must not be less than 1", "commerce_id must be a UUID", "rule_id must be a UUID",
				"since must be a valid ISO 8601 date string",
				"kind must be one of the following values: GENERATED, HELD_OUT, CAPPED, SUPPRESSED, EXPIRED_RULE"})
		apptest.ExpectError(t, env.Do("GET", w.agc1Path+"?kind=generated", nil, h), 400,
			[]string{"kind must be one of the following values: GENERATED, HELD_OUT, CAPPED, SUPPRESSED, EXPIRED_RULE"})
		apptest.ExpectError(t, env.Do("GET", w.agc1Path+"?since=2026-03-01", nil, h), 400, []string{"since must be a valid ISO 8601 date string"})
		apptest.ExpectError(t, env.Do("GET", w.agc1Path+"?per_page=101", nil, h), 400, []string{"per_page must not be greater than 100"})
		apptest.ExpectError(t, env.Do("GET", "/api/activity-generation-configs/nope/generation-decisions", nil, h), 400,
			"Validation failed (uuid is expected)")
		// A broken parameter is a 400 before the AGC is looked up.
		apptest.ExpectError(t, env.Do("GET", "/api/activity-generation-configs/"+w.agcB.String()+"/generation-decisions?kind=NOPE", nil, h), 400,
			[]string{"kind must be one of the following values: GENERATED, HELD_OUT, CAPPED, SUPPRESSED, EXPIRED_RULE"})

		// Scope: another tenant's AGC, another project's AGC, an unknown one.
		for _, id := range []uuid.UUID{w.agcB, w.agcP2, uuid.New()} {
			apptest.ExpectError(t, env.Do("GET", "/api/activity-generation-configs/"+id.String()+"/generation-decisions", nil, h), 404,
				"Activity generation config "+id.String()+" not found")
		}
		apptest.ExpectError(t, env.Do("GET", w.agc1Path, nil, w.beta.h), 404, "Activity generation config "+w.agc1.String()+" not found")
		apptest.ExpectError(t, env.Do("GET", w.agc1Path, nil, w.h2), 404, "Activity generation config "+w.agc1.String()+" not found")
		// Each sees its own: project 2 and Beta.
		foExpect(t, env.Do("GET", "/api/activity-generation-configs/"+w.agcP2.String()+"/generation-decisions", nil, w.h2), 200, w.all(7))
		foExpect(t, env.Do("GET", "/api/activity-generation-configs/"+w.agcB.String()+"/generation-decisions", nil, w.beta.h), 200, w.all(9))
		// The project header is required.
		noProject := apptest.JWT(w.f.token, w.f.tenant.TenantID, uuid.Nil)
		apptest.ExpectError(t, env.Do("GET", w.agc1Path, nil, noProject), 400, "Falta el header obligatorio x-project-id.")

		// Permissions: a supervisor reads the trail; an operator (commerce:view, no generation-rule:view) does not.
		env.CreateUser(w.f.tenant.TenantID, "sam", auth.RoleSupervisor)
		sup := apptest.JWT(env.Login("sam"), w.f.tenant.TenantID, w.f.tenant.ProjectID)
		foExpect(t, env.Do("GET", w.agc1Path+"?kind=HELD_OUT", nil, sup), 200, w.all(3))
		env.CreateUser(w.f.tenant.TenantID, "otto", auth.RoleOperator)
		op := apptest.JWT(env.Login("otto"), w.f.tenant.TenantID, w.f.tenant.ProjectID)
		apptest.ExpectError(t, env.Do("GET", w.agc1Path, nil, op), 403, "Required permissions: generation-rule:view")
	})
}

// TestGenerationDecisionsOfACommerce: a commerce's decisions under every
// AGC of the active project (only that project's), newest first, with the
// same filters and messages; 404 "Commerce not found" for another tenant's
// commerce or one in the trash.
func TestGenerationDecisionsOfACommerce(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newDecisionWorld(t, env)
		h := w.f.h
		foExpect(t, env.Do("GET", w.c1Path, nil, h), 200, w.all(6, 4, 2, 1))
		foExpect(t, env.Do("GET", w.c2Path, nil, h), 200, w.all(5, 3))
		// Project 2 sees its own decisions about the same commerce.
		foExpect(t, env.Do("GET", w.c1Path, nil, w.h2), 200, w.all(8, 7))
		foExpect(t, env.Do("GET", w.c2Path, nil, w.h2), 200, w.all())
		foExpect(t, env.Do("GET", "/api/commerces/"+w.cB.String()+"/generation-decisions", nil, w.beta.h), 200, w.all(9))

		for _, c := range []struct {
			name, query string
			want        []int
		}{
			{"generated", "kind=GENERATED", []int{6, 1}},
			{"rule X", "rule_id=" + w.ruleX.String(), []int{4, 1}},
			{"since a microsecond later", "since=2026-03-01T10:00:00.000001Z", []int{6, 4}},
			{"since and kind", "since=2026-03-01T10:00:00Z&kind=SUPPRESSED", []int{2}},
			{"an unknown rule", "rule_id=" + uuid.NewString(), []int{}},
		} {
			t.Run(c.name, func(t *testing.T) {
				foExpect(t, env.Do("GET", w.c1Path+"?"+c.query, nil, h), 200, w.all(c.want...))
			})
		}
		foExpect(t, env.Do("GET", w.c1Path+"?per_page=3&page=2", nil, h), 200, w.page(2, 3, 4, 1))

		apptest.ExpectError(t, env.Do("GET", w.c1Path+"?per_page=0&rule_id=x&kind=HELD&since=2026-13-01T00:00:00Z", nil, h), 400,
			[]string{"per_page must not be less than 1", "rule_id must be a UUID", "since must be a valid ISO 8601 date string",
				"kind must be one of the following values: GENERATED, HELD_OUT, CAPPED, SUPPRESSED, EXPIRED_RULE"})
		apptest.ExpectError(t, env.Do("GET", "/api/commerces/c1/generation-decisions", nil, h), 400, "Validation failed (uuid is expected)")

		// Scope: another tenant's commerce (both ways), an unknown one, one in the trash.
		apptest.ExpectError(t, env.Do("GET", "/api/commerces/"+w.cB.String()+"/generation-decisions", nil, h), 404, "Commerce not found")
		apptest.ExpectError(t, env.Do("GET", w.c1Path, nil, w.beta.h), 404, "Commerce not found")
		apptest.ExpectError(t, env.Do("GET", "/api/commerces/"+uuid.NewString()+"/generation-decisions", nil, h), 404, "Commerce not found")
		foExpect(t, env.Do("DELETE", "/api/commerces/"+w.c2.String(), nil, apptest.JWT(w.f.token, w.f.tenant.TenantID, uuid.Nil)), 204, nil)
		apptest.ExpectError(t, env.Do("GET", w.c2Path, nil, h), 404, "Commerce not found")

		// Permissions.
		env.CreateUser(w.f.tenant.TenantID, "otto", auth.RoleOperator)
		op := apptest.JWT(env.Login("otto"), w.f.tenant.TenantID, w.f.tenant.ProjectID)
		apptest.ExpectError(t, env.Do("GET", w.c1Path, nil, op), 403, "Required permissions: generation-rule:view")
		plain, _ := env.CreateKey(w.f.tenant.TenantID, w.f.tenant.UserID, uuid.Nil, auth.PermGenerationRuleView)
		key := apptest.Key(plain).With("x-project-id", w.f.tenant.ProjectID.String())
		if res := env.Do("GET", w.c1Path+"?kind=CAPPED", nil, key); res.Status != 200 || !strings.Contains(string(res.Body), decisionID(4).String()) {
			t.Fatalf("a key with generation-rule:view: %d %s", res.Status, res.Body)
		}
	})
}
