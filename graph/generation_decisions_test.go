package graph_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

const decisionFields = `id activityGenerationConfigID ruleID commerceID trigger stage statusCode enteredAt kind reason detail
	activityID transitionID decidedAt`

// decisionSetup is agcSetup with two AGCs in Acme's main project, one in a
// second project of Acme and one in Beta, commerces, and decisions written
// straight to the log.
type decisionSetup struct {
	agcSetup
	h2                      apptest.Headers // Acme's admin in the second project
	agc1, agc2, agcP2, agcB string
	c1, c2, cB              string
	ruleX                   string
	nodes                   map[int]M // the GraphQL node of each seeded decision
}

// gqlDecisionID is the n-th seeded decision's id (fixed: ties on decidedAt
// are broken by id, descending).
func gqlDecisionID(n int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }

func newDecisionSetup(t *testing.T, env *apptest.Env) decisionSetup {
	t.Helper()
	s := decisionSetup{agcSetup: newAGCSetup(t, env), nodes: map[int]M{}}
	c := env.App.DB.Client
	a, b := s.acme.TenantID, s.beta.TenantID
	p1, p2 := s.acme.ProjectID, newProject(t, env, a, "Segundo")
	s.h2 = s.h.With("x-project-id", p2.String())
	s.agc1, s.agc2 = s.createAGC(t, env, "Retail"), s.createAGC(t, env, "Mayoristas")
	s.agcP2 = c.ActivityGenerationConfig.Create().SetTenantID(a).SetProjectID(p2).SetName("Otro").
		SetStatus(activitygenerationconfig.StatusDraft).SaveX(sysCtx()).ID.String()
	s.agcB = c.ActivityGenerationConfig.Create().SetTenantID(b).SetProjectID(s.beta.ProjectID).SetName("Beta").
		SetStatus(activitygenerationconfig.StatusDraft).SaveX(sysCtx()).ID.String()
	s.c1 = c.Commerce.Create().SetTenantID(a).SetName("Uno").SaveX(sysCtx()).ID.String()
	s.c2 = c.Commerce.Create().SetTenantID(a).SetName("Dos").SaveX(sysCtx()).ID.String()
	s.cB = c.Commerce.Create().SetTenantID(b).SetName("Beta").SaveX(sysCtx()).ID.String()
	ruleX, ruleY := uuid.New(), uuid.New()
	s.ruleX = ruleX.String()
	id := uuid.MustParse
	for _, d := range []struct {
		n                     int
		tenant, project       uuid.UUID
		agc, commerce         string
		rule                  uuid.UUID
		kind, reason, decided string
		withActivity          bool
	}{
		{1, a, p1, s.agc1, s.c1, ruleX, "GENERATED", "", "2026-03-01T10:00:00Z", true},
		{2, a, p1, s.agc1, s.c1, ruleY, "SUPPRESSED", "PRIORITY", "2026-03-01T10:00:00Z", false},
		{3, a, p1, s.agc1, s.c2, ruleX, "HELD_OUT", "AGC_HOLDOUT", "2026-03-02T00:00:00Z", false},
		{4, a, p1, s.agc1, s.c1, ruleX, "CAPPED", "OPEN_ACTIVITY", "2026-03-03T00:00:00Z", false},
		{5, a, p1, s.agc2, s.c1, uuid.New(), "EXPIRED_RULE", "EXPIRED", "2026-03-04T00:00:00Z", false},
		{6, a, p2, s.agcP2, s.c1, uuid.New(), "GENERATED", "", "2026-03-05T00:00:00Z", true},
		{7, b, s.beta.ProjectID, s.agcB, s.cB, uuid.New(), "GENERATED", "", "2026-03-06T00:00:00Z", true},
	} {
		decided, _ := time.Parse(time.RFC3339, d.decided)
		entered := decided.Add(-24 * time.Hour)
		q := c.GenerationDecision.Create().SetID(id(gqlDecisionID(d.n))).SetTenantID(d.tenant).SetProjectID(d.project).
			SetActivityGenerationConfigID(id(d.agc)).SetRuleID(d.rule).SetCommerceID(id(d.commerce)).
			SetTrigger(generationdecision.TriggerDWELL).SetStage(generationdecision.StageENGAGEMENT).SetStatusCode("low").
			SetEnteredAt(entered).SetKind(generationdecision.Kind(d.kind)).SetDetail("d" + fmt.Sprint(d.n)).SetDecidedAt(decided)
		node := M{"id": gqlDecisionID(d.n), "activityGenerationConfigID": d.agc, "ruleID": d.rule.String(), "commerceID": d.commerce,
			"trigger": "DWELL", "stage": "ENGAGEMENT", "statusCode": "low", "enteredAt": entered.Format(time.RFC3339), "kind": d.kind,
			"reason": nil, "detail": "d" + fmt.Sprint(d.n), "activityID": nil, "transitionID": nil, "decidedAt": d.decided}
		if d.reason != "" {
			q.SetReason(generationdecision.Reason(d.reason))
			node["reason"] = d.reason
		}
		if d.withActivity {
			act := uuid.New()
			q.SetActivityID(act)
			node["activityID"] = act.String()
		}
		q.SaveX(sysCtx())
		s.nodes[d.n] = node
	}
	return s
}

// decisionNodes reads the nodes of a decision connection at field, with
// the instants in UTC (the drivers may name UTC differently).
func decisionNodes(t *testing.T, data M, field string) L {
	t.Helper()
	out := L{}
	for _, e := range get(t, data, field, "edges").([]any) {
		n := get(t, e, "node").(M)
		for _, k := range []string{"enteredAt", "decidedAt"} {
			at, err := time.Parse(time.RFC3339Nano, n[k].(string))
			if err != nil {
				t.Fatalf("%s = %v: %v", k, n[k], err)
			}
			n[k] = at.UTC().Format(time.RFC3339Nano)
		}
		out = append(out, n)
	}
	return out
}

func (s decisionSetup) want(ns ...int) L {
	out := L{}
	for _, n := range ns {
		out = append(out, s.nodes[n])
	}
	return out
}

// TestGenerationDecisionsOverGraphQL: generationDecisions reads an AGC's
// decisions, a commerce's or the project's, newest first (id breaking
// ties), with the REST filters; pages as a connection; names the argument
// of a bad value; answers NOT_FOUND for another tenant's or project's AGC
// and another tenant's commerce; another project's decisions never show.
func TestGenerationDecisionsOverGraphQL(t *testing.T) {
	each(t, newDecisionSetup, func(t *testing.T, env *apptest.Env, s decisionSetup) {
		const agcQuery = `query($a: ID, $c: ID, $r: ID, $k: GenerationDecisionKind, $since: Time, $first: Int, $after: Cursor, $last: Int) {
			generationDecisions(activityGenerationConfigID: $a, commerceID: $c, ruleID: $r, kind: $k, since: $since, first: $first, after: $after, last: $last) {
				totalCount pageInfo { hasNextPage hasPreviousPage endCursor } edges { node { ` + decisionFields + ` } } } }`
		// Without an AGC, commerceID names the commerce whose decisions are read.
		const commerceQuery = `query($c: ID!, $r: ID, $k: GenerationDecisionKind, $since: Time, $first: Int) {
			generationDecisions(commerceID: $c, ruleID: $r, kind: $k, since: $since, first: $first) {
				totalCount edges { node { ` + decisionFields + ` } } } }`
		list := func(h apptest.Headers, q, field string, vars M, wantTotal int, want L) M {
			t.Helper()
			data := gqlOK(t, env, h, q, vars)
			if got := decisionNodes(t, data, field); canon(t, got) != canon(t, want) {
				t.Fatalf("%s %v = %s\nwant %s", field, vars, canon(t, got), canon(t, want))
			}
			if got := get(t, data, field, "totalCount"); got != float64(wantTotal) {
				t.Fatalf("%s %v: totalCount %v, want %d", field, vars, got, wantTotal)
			}
			return data
		}
		agcList := func(vars M, total int, ns ...int) M {
			t.Helper()
			vars["a"] = s.agc1
			return list(s.ph, agcQuery, "generationDecisions", vars, total, s.want(ns...))
		}

		agcList(M{}, 4, 4, 3, 2, 1)
		agcList(M{"c": s.c1}, 3, 4, 2, 1)
		agcList(M{"r": s.ruleX}, 3, 4, 3, 1)
		agcList(M{"k": "SUPPRESSED"}, 1, 2)
		agcList(M{"since": "2026-03-02T00:00:00Z"}, 2, 4, 3)
		agcList(M{"since": "2026-03-02T01:00:00+01:00"}, 2, 4, 3)
		agcList(M{"c": s.c1, "r": s.ruleX, "k": "CAPPED", "since": "2026-03-01T00:00:00Z"}, 1, 4)
		agcList(M{"c": s.cB}, 0)

		// Pages: forward with a cursor, and the last ones.
		page := agcList(M{"first": 3}, 4, 4, 3, 2)
		if get(t, page, "generationDecisions", "pageInfo", "hasNextPage") != true {
			t.Fatalf("first page: %v", page)
		}
		after := str(t, page, "generationDecisions", "pageInfo", "endCursor")
		page = agcList(M{"first": 3, "after": after}, 4, 1)
		if get(t, page, "generationDecisions", "pageInfo", "hasNextPage") != false {
			t.Fatalf("second page: %v", page)
		}
		agcList(M{"last": 2}, 4, 2, 1)

		// The commerce's decisions: every AGC of the active project, only that project's.
		commerceList := func(h apptest.Headers, vars M, total int, ns ...int) {
			t.Helper()
			list(h, commerceQuery, "generationDecisions", vars, total, s.want(ns...))
		}
		commerceList(s.ph, M{"c": s.c1}, 4, 5, 4, 2, 1)
		commerceList(s.ph, M{"c": s.c1, "k": "GENERATED"}, 1, 1)
		commerceList(s.ph, M{"c": s.c1, "r": s.ruleX, "since": "2026-03-01T10:00:00Z"}, 2, 4, 1)
		commerceList(s.ph, M{"c": s.c1, "first": 1}, 4, 5)
		commerceList(s.ph, M{"c": s.c2}, 1, 3)
		commerceList(s.h2, M{"c": s.c1}, 1, 6)
		commerceList(s.bph, M{"c": s.cB}, 1, 7)
		list(s.h2, agcQuery, "generationDecisions", M{"a": s.agcP2}, 1, s.want(6))

		// Without either, every decision of the active project (and only its).
		list(s.ph, agcQuery, "generationDecisions", M{}, 5, s.want(5, 4, 3, 2, 1))
		list(s.ph, agcQuery, "generationDecisions", M{"k": "GENERATED"}, 1, s.want(1))
		list(s.ph, agcQuery, "generationDecisions", M{"r": s.ruleX, "since": "2026-03-02T00:00:00Z"}, 2, s.want(4, 3))
		list(s.h2, agcQuery, "generationDecisions", M{}, 1, s.want(6))
		list(s.bph, agcQuery, "generationDecisions", M{}, 1, s.want(7))

		// Bad values name the argument.
		expectBody(t, env.GraphQL(agcQuery, M{"a": s.agc1, "since": "yesterday"}, s.ph), http.StatusOK, M{"data": nil, "errors": L{
			fieldError(L{"generationDecisions", "since"}, "since must be an RFC 3339 instant (such as 2025-01-31T09:00:00Z)", "BAD_REQUEST", 400)}})
		expectBody(t, env.GraphQL(agcQuery, M{"a": s.agc1, "c": "c1"}, s.ph), http.StatusOK, M{"data": nil, "errors": L{
			fieldError(L{"generationDecisions", "commerceID"}, "commerceID must be a UUID", "BAD_REQUEST", 400)}})
		expectBody(t, env.GraphQL(commerceQuery, M{"c": s.c1, "r": "rule"}, s.ph), http.StatusOK, M{"data": nil, "errors": L{
			fieldError(L{"generationDecisions", "ruleID"}, "ruleID must be a UUID", "BAD_REQUEST", 400)}})
		expectVariableInvalid(t, env.GraphQL(agcQuery, M{"a": s.agc1, "k": "NOPE"}, s.ph), L{"k"}, "NOPE is not a valid GenerationDecisionKind")
		expectInvalid(t, env.GraphQL(agcQuery, M{"a": s.agc1, "first": 101}, s.ph), "generationDecisions", "first must not be greater than 100")
		expectInvalid(t, env.GraphQL(commerceQuery, M{"c": s.c1, "first": 0}, s.ph), "generationDecisions", "first must not be less than 1")

		// Scope: another tenant's or project's AGC, another tenant's commerce, the project header.
		for _, c := range []struct {
			h   apptest.Headers
			agc string
		}{{s.ph, s.agcB}, {s.ph, s.agcP2}, {s.h2, s.agc1}, {s.bph, s.agc1}} {
			expectFieldError(t, env.GraphQL(agcQuery, M{"a": c.agc}, c.h), "generationDecisions",
				"Activity generation config "+c.agc+" not found", "NOT_FOUND", 404)
		}
		expectFieldError(t, env.GraphQL(commerceQuery, M{"c": s.cB}, s.ph), "generationDecisions", "Commerce not found", "NOT_FOUND", 404)
		expectFieldError(t, env.GraphQL(commerceQuery, M{"c": s.c1}, s.bph), "generationDecisions", "Commerce not found", "NOT_FOUND", 404)
		expectFieldError(t, env.GraphQL(commerceQuery, M{"c": uuid.NewString()}, s.ph), "generationDecisions", "Commerce not found", "NOT_FOUND", 404)
		expectFieldError(t, env.GraphQL(commerceQuery, M{"c": s.c1}, s.h), "generationDecisions",
			"Falta el header obligatorio x-project-id.", "BAD_REQUEST", 400)

		// Permissions: the viewer role reads them, an operator does not.
		list(s.viewer.With("x-project-id", s.acme.ProjectID.String()), commerceQuery, "generationDecisions", M{"c": s.c2}, 1, s.want(3))
		env.CreateUser(s.acme.TenantID, "otto", auth.RoleOperator)
		op := apptest.JWT(env.Login("otto"), s.acme.TenantID, s.acme.ProjectID)
		expectFieldError(t, env.GraphQL(agcQuery, M{"a": s.agc1}, op), "generationDecisions",
			"Required permissions: generation-rule:view", "FORBIDDEN", 403)
		expectFieldError(t, env.GraphQL(commerceQuery, M{"c": s.c1}, op), "generationDecisions",
			"Required permissions: generation-rule:view", "FORBIDDEN", 403)
	})
}
