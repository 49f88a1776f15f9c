package rest_test

import (
	"database/sql"
	"fmt"
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/demo"
)

// Messages the audience tests assert (SPEC.md spells the delete ones).
const (
	auNotFound     = "Audience criteria not found"
	auRootDelete   = "La audiencia raíz de un proyecto no se puede eliminar."
	auReferenced   = "Cannot delete an audience criteria that is referenced by another active audience criteria; remove that composition from the referencing audience criteria first."
	auNoDataset    = "Tenant dataset not configured"
	auCycle        = "audience compositions form a cycle: an audience cannot include itself"
	auMissing      = "compositions[0].operand_criteria_id: the operand audience criteria does not exist in this project"
	auIdentityRule = "an audience must select an identity column (commerces.commerce_id, events.commerce_id, transactions.commerce_id) as a column select item in at least one block"
)

// auFix is a tenant whose dataset is the small demo dataset (a schema of
// the test database on PostgreSQL, a file on SQLite), with a JWT in its
// main project and a handle on the data for hand-written checks.
type auFix struct {
	env    *apptest.Env
	tenant apptest.Tenant
	h      apptest.Headers
	data   *sql.DB
	prefix string // table qualifier for hand-written SQL ("schema". or "")
}

// auDemo sizes the demo data of the audience tests.
var auDemo = demo.Options{Seed: 11, Commerces: 80, Products: 20, Events: 900, Transactions: 120}

func newAUFix(t *testing.T, env *apptest.Env, name string, withDataset bool) *auFix {
	t.Helper()
	tn := env.Bootstrap(name)
	f := &auFix{env: env, tenant: tn, h: apptest.JWT(env.Login(tn.Email), tn.TenantID, tn.ProjectID)}
	if withDataset {
		f.data, f.prefix = auDemoDataset(t, env, tn.TenantID)
	}
	return f
}

// auDemoDataset gives the tenant the demo dataset (apptest.DemoDataset).
func auDemoDataset(t *testing.T, env *apptest.Env, tenantID uuid.UUID) (*sql.DB, string) {
	return apptest.DemoDataset(t, env, tenantID, auDemo)
}

// count runs a hand-written count over the demo data.
func (f *auFix) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	if err := f.data.QueryRow(fmt.Sprintf(query, f.prefix), args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// segmentBlock is one block over commerces selecting the subject, where the
// segment is one of segments (EQUALS for one).
func auSegmentBlock(segments ...string) map[string]any {
	where := map[string]any{"kind": "predicate", "column": auCol("commerces", "segment"), "comparisonOperator": "EQUALS", "value": segments[0]}
	if len(segments) > 1 {
		where["comparisonOperator"], where["value"] = "IN", segments
	}
	return map[string]any{"order": 0, "setOperator": nil, "from": map[string]any{"table": "commerces", "joins": []any{}, "unnests": []any{}},
		"select":     map[string]any{"distinct": false, "items": []any{map[string]any{"kind": "column", "column": auCol("commerces", "commerce_id")}}},
		"timeWindow": nil, "where": where, "groupBy": nil, "having": nil}
}

// cityBlock selects the commerces of a city.
func auCityBlock(city string) map[string]any {
	b := auSegmentBlock("x")
	b["where"] = map[string]any{"kind": "predicate", "column": auCol("commerces", "city"), "comparisonOperator": "EQUALS", "value": city}
	return b
}

func auCol(table, column string) map[string]any {
	return map[string]any{"table": table, "column": column}
}

func auBlocks(bs ...map[string]any) []any {
	out := make([]any, len(bs))
	for i, b := range bs {
		out[i] = b
	}
	return out
}

func auComp(operand any, op string) map[string]any {
	return map[string]any{"operand_criteria_id": operand, "set_operator": op}
}

// create posts an audience that must be created and returns its body.
func (f *auFix) create(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	res := f.env.Do("POST", "/api/audience-criterias", body, f.h)
	if res.Status != 201 {
		t.Fatalf("create %v: %d %s", body["name"], res.Status, res.Body)
	}
	return res.Map(t)
}

// ok sends a request that must answer status and returns its JSON body.
func (f *auFix) ok(t *testing.T, status int, method, path string, body any) map[string]any {
	t.Helper()
	res := f.env.Do(method, path, body, f.h)
	if res.Status != status {
		t.Fatalf("%s %s: %d %s", method, path, res.Status, res.Body)
	}
	if len(res.Body) == 0 {
		return nil
	}
	return res.Map(t)
}

func (f *auFix) root(t *testing.T) string {
	t.Helper()
	p := f.env.App.DB.Client.Project.GetX(sys, f.tenant.ProjectID)
	return p.RootAudienceID.String()
}

func auBlockIDs(t *testing.T, detail map[string]any) []string {
	t.Helper()
	var ids []string
	for _, b := range detail["queryBlocks"].([]any) {
		ids = append(ids, b.(map[string]any)["id"].(string))
	}
	return ids
}

func TestAudienceCRUD(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAUFix(t, env, "Acme", true)
		root := f.root(t)

		// The project starts with its root audience only.
		list := f.ok(t, 200, "GET", "/api/audience-criterias", nil)
		if m := list["meta"].(map[string]any); m["total"] != 1.0 || m["page"] != 1.0 || m["limit"] != 25.0 || m["totalPages"] != 1.0 {
			t.Fatalf("meta = %v", m)
		}
		item := list["data"].([]any)[0].(map[string]any)
		if item["id"] != root || item["isRoot"] != true || item["conditionCount"] != 0.0 || item["name"] != "Audiencia raíz" {
			t.Fatalf("root item = %v", item)
		}

		created := f.create(t, map[string]any{"name": "  Farmacias ", "description": "Pharmacies", "queryBlocks": auBlocks(auSegmentBlock("pharmacy"))})
		id := created["id"].(string)
		if created["name"] != "Farmacias" || created["description"] != "Pharmacies" || created["isRoot"] != false || created["isActive"] != true ||
			created["ownerId"] != f.tenant.UserID.String() || created["updatedBy"] != f.tenant.UserID.String() ||
			created["projectId"] != f.tenant.ProjectID.String() || len(created["compositions"].([]any)) != 0 {
			t.Fatalf("created = %v", created)
		}
		b0 := created["queryBlocks"].([]any)[0].(map[string]any)
		if b0["order"] != 0.0 || b0["setOperator"] != nil || b0["from"].(map[string]any)["table"] != "commerces" || b0["having"] != nil {
			t.Fatalf("block = %v", b0)
		}
		if got := f.ok(t, 200, "GET", "/api/audience-criterias/"+id, nil); fmt.Sprint(got) != fmt.Sprint(created) {
			t.Fatalf("get = %v\nwant %v", got, created)
		}

		// The list: root first, then newest first, with conditionCount; search narrows.
		second := f.create(t, map[string]any{"name": "Quito", "queryBlocks": auBlocks(auCityBlock("Quito"))})
		list = f.ok(t, 200, "GET", "/api/audience-criterias?per_page=2&page=1", nil)
		var names []string
		for _, it := range list["data"].([]any) {
			names = append(names, it.(map[string]any)["name"].(string))
		}
		if !slices.Equal(names, []string{"Audiencia raíz", "Quito"}) || list["meta"].(map[string]any)["totalPages"] != 2.0 {
			t.Fatalf("page 1 = %v %v", names, list["meta"])
		}
		list = f.ok(t, 200, "GET", "/api/audience-criterias?search=farma", nil)
		if d := list["data"].([]any); len(d) != 1 || d[0].(map[string]any)["conditionCount"] != 1.0 || list["meta"].(map[string]any)["total"] != 1.0 {
			t.Fatalf("search = %v", list)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/audience-criterias?per_page=101", nil, f.h), 400, []string{"per_page must not be greater than 100"})

		// PATCH: name only keeps the blocks; description null clears it.
		oldIDs := auBlockIDs(t, created)
		patched := f.ok(t, 200, "PATCH", "/api/audience-criterias/"+id, map[string]any{"name": "Farmacias 2", "description": nil})
		if patched["name"] != "Farmacias 2" || patched["description"] != nil || !slices.Equal(auBlockIDs(t, patched), oldIDs) ||
			patched["updatedAt"].(string) < created["updatedAt"].(string) {
			t.Fatalf("patched = %v", patched)
		}
		// Sent blocks replace the stored ones with new ids.
		patched = f.ok(t, 200, "PATCH", "/api/audience-criterias/"+id, map[string]any{"queryBlocks": auBlocks(auSegmentBlock("pharmacy", "bakery"))})
		newIDs := auBlockIDs(t, patched)
		if len(newIDs) != 1 || newIDs[0] == oldIDs[0] || patched["queryBlocks"].([]any)[0].(map[string]any)["where"].(map[string]any)["comparisonOperator"] != "IN" {
			t.Fatalf("replaced = %v", patched)
		}
		// A failing replacement leaves everything intact.
		noIdentity := auSegmentBlock("pharmacy")
		noIdentity["select"] = map[string]any{"distinct": false, "items": []any{map[string]any{"kind": "column", "column": auCol("commerces", "city")}}}
		apptest.ExpectError(t, env.Do("PATCH", "/api/audience-criterias/"+id, map[string]any{"name": "X", "queryBlocks": auBlocks(noIdentity)}, f.h),
			400, []string{auIdentityRule})
		if got := f.ok(t, 200, "GET", "/api/audience-criterias/"+id, nil); got["name"] != "Farmacias 2" || !slices.Equal(auBlockIDs(t, got), newIDs) {
			t.Fatalf("after failed patch = %v", got)
		}
		// An empty PATCH only touches updatedBy / updatedAt.
		if got := f.ok(t, 200, "PATCH", "/api/audience-criterias/"+id, map[string]any{}); got["updatedBy"] != f.tenant.UserID.String() || !slices.Equal(auBlockIDs(t, got), newIDs) {
			t.Fatalf("empty patch = %v", got)
		}

		// DTO rules.
		for _, c := range []struct {
			method, path string
			body         any
			msgs         []string
		}{
			{"POST", "", map[string]any{}, []string{"name should not be empty", "queryBlocks should not be empty"}},
			{"POST", "", map[string]any{"name": 5, "queryBlocks": []any{}, "owner": "x"}, []string{"property owner should not exist", "name must be a string"}},
			{"POST", "", map[string]any{"name": "A", "queryBlocks": "x"}, []string{"queryBlocks must be an array"}},
			{"POST", "", map[string]any{"name": "A", "queryBlocks": auBlocks(noIdentity)}, []string{auIdentityRule}},
			{"PATCH", "/" + id, map[string]any{"name": nil}, []string{"name should not be empty"}},
			{"PATCH", "/" + id, map[string]any{"name": " "}, []string{"name should not be empty"}},
			{"PATCH", "/" + id, map[string]any{"queryBlocks": []any{}}, []string{"queryBlocks should not be empty"}},
			{"PATCH", "/" + id, map[string]any{"isRoot": true}, []string{"property isRoot should not exist"}},
		} {
			apptest.ExpectError(t, env.Do(c.method, "/api/audience-criterias"+c.path, c.body, f.h), 400, c.msgs)
		}
		// Unnests are always empty in an audience.
		unnest := auSegmentBlock("pharmacy")
		unnest["from"] = map[string]any{"table": "commerces", "joins": []any{}, "unnests": []any{auCol("events", "items")}}
		apptest.ExpectError(t, env.Do("POST", "/api/audience-criterias", map[string]any{"name": "U", "queryBlocks": auBlocks(unnest)}, f.h),
			400, []string{"queryBlocks[0].from.unnests: unnests must be empty in an audience"})
		apptest.ExpectError(t, env.Do("PATCH", "/api/audience-criterias/not-a-uuid", map[string]any{}, f.h), 400, "Validation failed (uuid is expected)")
		apptest.ExpectError(t, env.Do("PATCH", "/api/audience-criterias/"+uuid.NewString(), map[string]any{"name": "X"}, f.h), 404, auNotFound)

		// The root audience is edited through PATCH.
		rootPatched := f.ok(t, 200, "PATCH", "/api/audience-criterias/"+root, map[string]any{"queryBlocks": auBlocks(auSegmentBlock("grocery"))})
		if rootPatched["isRoot"] != true || len(auBlockIDs(t, rootPatched)) != 1 {
			t.Fatalf("root patched = %v", rootPatched)
		}
		_ = second
	})
}

func TestAudienceDeleteChecksInOrder(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAUFix(t, env, "Acme", true)
		root := f.root(t)
		b := f.create(t, map[string]any{"name": "Quito", "queryBlocks": auBlocks(auCityBlock("Quito"))})["id"].(string)
		a := f.create(t, map[string]any{"name": "Farmacias de Quito", "queryBlocks": auBlocks(auSegmentBlock("pharmacy")),
			"compositions": []any{auComp(b, "INTERSECT_DISTINCT")}})["id"].(string)

		// 1. Not an audience of the active project: 404 (even for a root-looking id).
		apptest.ExpectError(t, env.Do("DELETE", "/api/audience-criterias/"+uuid.NewString(), nil, f.h), 404, auNotFound)
		apptest.ExpectError(t, env.Do("DELETE", "/api/audience-criterias/nope", nil, f.h), 400, "Validation failed (uuid is expected)")
		// 2. The root audience: 409, whether or not others reference it.
		f.ok(t, 200, "PATCH", "/api/audience-criterias/"+root, map[string]any{"queryBlocks": auBlocks(auSegmentBlock("grocery"))})
		c := f.create(t, map[string]any{"name": "Con raíz", "queryBlocks": auBlocks(auSegmentBlock("bakery")), "compositions": []any{auComp(root, "UNION_ALL")}})["id"].(string)
		apptest.ExpectError(t, env.Do("DELETE", "/api/audience-criterias/"+root, nil, f.h), 409, auRootDelete)
		// 3. An operand of another live audience: 400.
		apptest.ExpectError(t, env.Do("DELETE", "/api/audience-criterias/"+b, nil, f.h), 400, auReferenced)
		// 4. Otherwise 204, into the trash; then 404 everywhere.
		if res := env.Do("DELETE", "/api/audience-criterias/"+a, nil, f.h); res.Status != 204 || len(res.Body) != 0 {
			t.Fatalf("delete: %d %s", res.Status, res.Body)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/audience-criterias/"+a, nil, f.h), 404, auNotFound)
		apptest.ExpectError(t, env.Do("DELETE", "/api/audience-criterias/"+a, nil, f.h), 404, auNotFound)
		apptest.ExpectError(t, env.Do("PATCH", "/api/audience-criterias/"+a, map[string]any{"name": "X"}, f.h), 404, auNotFound)
		list := f.ok(t, 200, "GET", "/api/audience-criterias", nil)
		if list["meta"].(map[string]any)["total"] != 3.0 {
			t.Fatalf("list after delete = %v", list)
		}
		trash := f.ok(t, 200, "GET", "/api/trash?kind=AUDIENCE_CRITERIA", nil)
		entries := trash["data"].([]any)
		if len(entries) != 1 || entries[0].(map[string]any)["recordId"] != a || entries[0].(map[string]any)["label"] != "Farmacias de Quito" ||
			entries[0].(map[string]any)["projectId"] != f.tenant.ProjectID.String() {
			t.Fatalf("trash = %v", trash)
		}
		// An archived audience no longer holds its operands.
		if res := env.Do("DELETE", "/api/audience-criterias/"+b, nil, f.h); res.Status != 204 {
			t.Fatalf("delete operand: %d %s", res.Status, res.Body)
		}
		if res := env.Do("DELETE", "/api/audience-criterias/"+c, nil, f.h); res.Status != 204 {
			t.Fatalf("delete c: %d %s", res.Status, res.Body)
		}
	})
}

func TestAudienceCompositions(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAUFix(t, env, "Acme", true)
		beta := newAUFix(t, env, "Beta", false)
		quito := f.create(t, map[string]any{"name": "Quito", "queryBlocks": auBlocks(auCityBlock("Quito"))})["id"].(string)
		cuenca := f.create(t, map[string]any{"name": "Cuenca", "queryBlocks": auBlocks(auCityBlock("Cuenca"))})["id"].(string)
		a := f.create(t, map[string]any{"name": "Farmacias", "queryBlocks": auBlocks(auSegmentBlock("pharmacy")),
			"compositions": []any{auComp(quito, "INTERSECT_DISTINCT"), auComp(cuenca, "UNION_ALL")}})
		id := a["id"].(string)
		cs := a["compositions"].([]any)
		if len(cs) != 2 {
			t.Fatalf("compositions = %v", cs)
		}
		for i, want := range []struct{ id, name, op string }{{quito, "Quito", "INTERSECT_DISTINCT"}, {cuenca, "Cuenca", "UNION_ALL"}} {
			c := cs[i].(map[string]any)
			if c["operandCriteriaId"] != want.id || c["operandCriteriaName"] != want.name || c["setOperator"] != want.op || c["id"] == nil {
				t.Fatalf("composition %d = %v", i, c)
			}
		}

		// Shape rules, all listed at once.
		apptest.ExpectError(t, env.Do("POST", "/api/audience-criterias", map[string]any{"name": "X", "queryBlocks": auBlocks(auSegmentBlock("pharmacy")),
			"compositions": "x"}, f.h), 400, []string{"compositions: compositions must be an array"})
		apptest.ExpectError(t, env.Do("POST", "/api/audience-criterias", map[string]any{"name": "X", "queryBlocks": auBlocks(auSegmentBlock("pharmacy")),
			"compositions": []any{map[string]any{"operand_criteria_id": "nope", "set_operator": "MINUS", "extra": 1}, 7, map[string]any{}}}, f.h), 400, []string{
			"compositions[0].extra: property extra should not exist",
			"compositions[0].operand_criteria_id: operand_criteria_id must be a UUID",
			"compositions[0].set_operator: set_operator must be one of the following values: UNION_DISTINCT, UNION_ALL, INTERSECT_DISTINCT",
			"compositions[1]: compositions[1] must be an object",
			"compositions[2].operand_criteria_id: operand_criteria_id should not be null or undefined",
			"compositions[2].set_operator: set_operator should not be null or undefined",
		})
		// Request bodies are snake_case: the camelCase members are refused by name.
		apptest.ExpectError(t, env.Do("PATCH", "/api/audience-criterias/"+id, map[string]any{
			"compositions": []any{map[string]any{"operandCriteriaId": quito, "setOperator": "UNION_ALL"}}}, f.h), 400, []string{
			"compositions[0].operandCriteriaId: property operandCriteriaId should not exist",
			"compositions[0].setOperator: property setOperator should not exist",
			"compositions[0].operand_criteria_id: operand_criteria_id should not be null or undefined",
			"compositions[0].set_operator: set_operator should not be null or undefined",
		})
		apptest.ExpectError(t, env.Do("POST", "/api/audience-criterias", map[string]any{"name": "X", "queryBlocks": auBlocks(auSegmentBlock("pharmacy")),
			"compositions": []any{auComp(quito, "UNION_ALL"), auComp(quito, "UNION_DISTINCT")}}, f.h), 400,
			[]string{"compositions[1].operand_criteria_id: the audience criteria is already an operand of this audience"})

		// Operands must be live audiences of the active project.
		other := f.ok(t, 201, "POST", "/api/projects", map[string]any{"name": "Otro"})
		otherRoot := other["rootAudienceId"].(string)
		betaRoot := beta.root(t)
		for _, operand := range []string{otherRoot, betaRoot, uuid.NewString()} {
			apptest.ExpectError(t, env.Do("POST", "/api/audience-criterias", map[string]any{"name": "X", "queryBlocks": auBlocks(auSegmentBlock("pharmacy")),
				"compositions": []any{auComp(operand, "UNION_ALL")}}, f.h), 400, []string{auMissing})
		}

		// A diamond (two operands sharing one) is no cycle.
		left := f.create(t, map[string]any{"name": "L", "queryBlocks": auBlocks(auSegmentBlock("bakery")), "compositions": []any{auComp(quito, "UNION_ALL")}})["id"]
		right := f.create(t, map[string]any{"name": "R", "queryBlocks": auBlocks(auSegmentBlock("grocery")), "compositions": []any{auComp(quito, "UNION_ALL")}})["id"]
		f.create(t, map[string]any{"name": "Diamond", "queryBlocks": auBlocks(auSegmentBlock("pharmacy")),
			"compositions": []any{auComp(left, "UNION_DISTINCT"), auComp(right, "UNION_DISTINCT")}})

		// Cycles: directly, and through an operand.
		apptest.ExpectError(t, env.Do("PATCH", "/api/audience-criterias/"+id, map[string]any{"compositions": []any{auComp(id, "UNION_ALL")}}, f.h),
			400, []string{auCycle})
		apptest.ExpectError(t, env.Do("PATCH", "/api/audience-criterias/"+quito, map[string]any{"compositions": []any{auComp(id, "UNION_ALL")}}, f.h),
			400, []string{auCycle})
		if got := f.ok(t, 200, "GET", "/api/audience-criterias/"+quito, nil); len(got["compositions"].([]any)) != 0 {
			t.Fatalf("a failing PATCH stored compositions: %v", got)
		}
		res := env.Do("POST", "/api/audience-criterias/validate-from-body", map[string]any{"queryBlocks": auBlocks(auSegmentBlock("pharmacy")),
			"compositions": []any{auComp(id, "UNION_ALL"), auComp(uuid.Nil.String(), "UNION_ALL")}}, f.h)
		if res.Status != 201 || string(res.Body) != `{"valid":false,"errors":[{"path":"compositions[1].operand_criteria_id","message":"the operand audience criteria does not exist in this project"}]}`+"\n" {
			t.Fatalf("validate = %d %s", res.Status, res.Body)
		}

		// An operand whose audience was archived and restored is unresolvable:
		// the detail names it "", its SQL is a 400.
		d := f.create(t, map[string]any{"name": "D", "queryBlocks": auBlocks(auSegmentBlock("bakery")), "compositions": []any{auComp(cuenca, "UNION_DISTINCT")}})["id"].(string)
		f.ok(t, 204, "DELETE", "/api/audience-criterias/"+d, nil)
		f.ok(t, 200, "PATCH", "/api/audience-criterias/"+id, map[string]any{"compositions": []any{auComp(quito, "INTERSECT_DISTINCT")}})
		f.ok(t, 204, "DELETE", "/api/audience-criterias/"+cuenca, nil)
		entry := f.ok(t, 200, "GET", "/api/trash?kind=AUDIENCE_CRITERIA", nil)["data"].([]any)
		for _, e := range entry {
			if e.(map[string]any)["recordId"] == d {
				f.ok(t, 200, "POST", "/api/trash/"+e.(map[string]any)["id"].(string)+"/restore", nil)
			}
		}
		restored := f.ok(t, 200, "GET", "/api/audience-criterias/"+d, nil)
		if c := restored["compositions"].([]any)[0].(map[string]any); c["operandCriteriaId"] != cuenca || c["operandCriteriaName"] != "" {
			t.Fatalf("unresolvable operand = %v", c)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/audience-criterias/"+d+"/sql", nil, f.h), 400, []string{auMissing})

		// [] removes every composition.
		if got := f.ok(t, 200, "PATCH", "/api/audience-criterias/"+id, map[string]any{"compositions": []any{}}); len(got["compositions"].([]any)) != 0 {
			t.Fatalf("compositions not removed: %v", got)
		}
	})
}
