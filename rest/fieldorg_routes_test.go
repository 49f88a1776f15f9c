package rest_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/routeoperator"
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

func foRoute(id, code, name string, active bool) map[string]any {
	return map[string]any{"id": id, "code": code, "name": name, "isActive": active}
}

// foExpectRoute asserts a route detail, its links compared in operator id order.
func foExpectRoute(t *testing.T, res *apptest.Response, status int, want map[string]any) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status = %d, want %d; body %s", res.Status, status, res.Body)
	}
	got := res.Map(t)
	byOperator := func(links []any) {
		sort.Slice(links, func(i, j int) bool {
			return fmt.Sprint(links[i].(map[string]any)["operatorId"]) < fmt.Sprint(links[j].(map[string]any)["operatorId"])
		})
	}
	if links, ok := got["operators"].([]any); ok {
		byOperator(links)
	}
	if links, ok := want["operators"].([]any); ok {
		byOperator(links)
	}
	foExpect(t, &apptest.Response{Status: status, Body: foMustJSON(t, got)}, status, want)
}

func foMustJSON(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func foLink(route, op, role string, active bool) map[string]any {
	return map[string]any{"routeId": route, "operatorId": op, "role": role, "isActive": active}
}

func TestRoutes(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newFOWorld(env)
		res := env.Do("POST", "/api/routes", map[string]any{"code": " R-10 ", "name": " Norte "}, w.ha)
		r10 := res.Map(t)["id"].(string)
		foExpect(t, res, 201, foRoute(r10, "R-10", "Norte", true))
		r20 := foID(t, w, w.ha, "/api/routes", map[string]any{"code": "R-20", "name": "Sur"})
		foreign := foID(t, w, w.hb, "/api/routes", map[string]any{"code": "R-10", "name": "Beta norte"})

		for _, c := range []struct {
			name   string
			body   any
			status int
			msg    any
		}{
			{"empty body", map[string]any{}, 400, []string{"code should not be empty", msgFONameEmpty}},
			{"code not a string", map[string]any{"code": 1, "name": "X"}, 400, []string{"code must be a string"}},
			{"unknown property", map[string]any{"code": "X", "name": "X", "is_active": true}, 400, []string{"property is_active should not exist"}},
			{"code taken", map[string]any{"code": "R-10", "name": "Again"}, 409, `A route with code "R-10" already exists`},
		} {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("POST", "/api/routes", c.body, w.ha), c.status, c.msg)
			})
		}

		// PATCH.
		foExpect(t, env.Do("PATCH", "/api/routes/"+r20, map[string]any{"name": "Sur 2", "is_active": false}, w.ha), 200,
			foRoute(r20, "R-20", "Sur 2", false))
		apptest.ExpectError(t, env.Do("PATCH", "/api/routes/"+r20, map[string]any{"code": "R-10"}, w.ha), 409, `A route with code "R-10" already exists`)
		apptest.ExpectError(t, env.Do("PATCH", "/api/routes/"+r20, map[string]any{"code": " "}, w.ha), 400, []string{"code should not be empty"})
		apptest.ExpectError(t, env.Do("PATCH", "/api/routes/"+foreign, map[string]any{"name": "X"}, w.ha), 404, msgFORouteNotFound)
		foExpect(t, env.Do("PATCH", "/api/routes/"+r10, map[string]any{"code": "R-10"}, w.ha), 200, foRoute(r10, "R-10", "Norte", true))

		// List, search and filter.
		meta := func(total int) map[string]any {
			return map[string]any{"page": 1, "limit": 25, "total": total, "totalPages": (total + 24) / 25}
		}
		foExpect(t, env.Do("GET", "/api/routes", nil, w.ha), 200, map[string]any{"data": []any{
			foRoute(r10, "R-10", "Norte", true), foRoute(r20, "R-20", "Sur 2", false)}, "meta": meta(2)})
		foExpect(t, env.Do("GET", "/api/routes?search=sur", nil, w.ha), 200, map[string]any{"data": []any{
			foRoute(r20, "R-20", "Sur 2", false)}, "meta": meta(1)})
		foExpect(t, env.Do("GET", "/api/routes?search=r-1&is_active=true", nil, w.ha), 200, map[string]any{"data": []any{
			foRoute(r10, "R-10", "Norte", true)}, "meta": meta(1)})
		foExpect(t, env.Do("GET", "/api/routes?is_active=false&search=norte", nil, w.ha), 200, map[string]any{"data": []any{}, "meta": meta(0)})

		// GET with links.
		foExpectRoute(t, env.Do("GET", "/api/routes/"+r10, nil, w.ha), 200, map[string]any{"id": r10, "code": "R-10", "name": "Norte",
			"isActive": true, "operators": []any{}})
		apptest.ExpectError(t, env.Do("GET", "/api/routes/"+foreign, nil, w.ha), 404, msgFORouteNotFound)

		// DELETE archives to the trash; the code becomes reusable.
		apptest.ExpectError(t, env.Do("DELETE", "/api/routes/"+foreign, nil, w.ha), 404, msgFORouteNotFound)
		env.CreateUser(w.a.TenantID, "sam", auth.RoleSupervisor)
		sh := apptest.JWT(env.Login("sam"), w.a.TenantID, uuid.Nil)
		apptest.ExpectError(t, env.Do("DELETE", "/api/routes/"+r10, nil, sh), 403, "Required permissions: route:delete")
		foExpect(t, env.Do("DELETE", "/api/routes/"+r10, nil, w.ha), 204, nil)
		apptest.ExpectError(t, env.Do("GET", "/api/routes/"+r10, nil, w.ha), 404, msgFORouteNotFound)
		apptest.ExpectError(t, env.Do("DELETE", "/api/routes/"+r10, nil, w.ha), 404, msgFORouteNotFound)
		foTrashed(t, env, trashrecord.KindROUTE, r10)
		foExpect(t, env.Do("GET", "/api/routes", nil, w.ha), 200, map[string]any{"data": []any{
			foRoute(r20, "R-20", "Sur 2", false)}, "meta": meta(1)})
		foID(t, w, w.ha, "/api/routes", map[string]any{"code": "R-10", "name": "Norte nuevo"})
		if res := env.Do("GET", "/api/routes/"+foreign, nil, w.hb); res.Status != 200 {
			t.Fatalf("tenant B route: %d %s", res.Status, res.Body)
		}
	})
}

func TestRouteOperatorLinks(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newFOWorld(env)
		rt := foID(t, w, w.ha, "/api/routes", map[string]any{"code": "R-1", "name": "Norte"})
		ana := foID(t, w, w.ha, "/api/operators", map[string]any{"type": "SALESMAN", "name": "Ana"})
		bea := foID(t, w, w.ha, "/api/operators", map[string]any{"type": "SALESMAN", "name": "Bea"})
		foreignOp := foID(t, w, w.hb, "/api/operators", map[string]any{"type": "SALESMAN", "name": "Zed"})
		foreignRoute := foID(t, w, w.hb, "/api/routes", map[string]any{"code": "R-1", "name": "Beta"})
		path := "/api/routes/" + rt + "/operators"
		links := func() int {
			n, err := env.App.DB.Client.RouteOperator.Query().Where(routeoperator.RouteID(uuid.MustParse(rt))).Count(sys)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}

		// New link: MEMBER by default.
		foExpect(t, env.Do("POST", path, map[string]any{"operator_id": ana}, w.ha), 201, foLink(rt, ana, "MEMBER", true))
		// Idempotent: the same link, no second row.
		foExpect(t, env.Do("POST", path, map[string]any{"operator_id": ana}, w.ha), 201, foLink(rt, ana, "MEMBER", true))
		if n := links(); n != 1 {
			t.Fatalf("links = %d, want 1", n)
		}
		// A role sent changes the role.
		foExpect(t, env.Do("POST", path, map[string]any{"operator_id": ana, "role": "LEAD"}, w.ha), 201, foLink(rt, ana, "LEAD", true))
		// An inactive link is reactivated (keeping its role when none is sent).
		if err := env.App.DB.Client.RouteOperator.Update().Where(routeoperator.OperatorID(uuid.MustParse(ana))).
			SetIsActive(false).Exec(sys); err != nil {
			t.Fatal(err)
		}
		foExpect(t, env.Do("POST", path, map[string]any{"operator_id": ana}, w.ha), 201, foLink(rt, ana, "LEAD", true))
		if n := links(); n != 1 {
			t.Fatalf("links = %d, want 1", n)
		}
		foExpect(t, env.Do("POST", path, map[string]any{"operator_id": bea, "role": "MEMBER"}, w.ha), 201, foLink(rt, bea, "MEMBER", true))
		foExpectRoute(t, env.Do("GET", "/api/routes/"+rt, nil, w.ha), 200, map[string]any{"id": rt, "code": "R-1", "name": "Norte",
			"isActive": true, "operators": []any{foLink(rt, ana, "LEAD", true), foLink(rt, bea, "MEMBER", true)}})

		for _, c := range []struct {
			name   string
			path   string
			body   any
			status int
			msg    any
		}{
			{"missing operator_id", path, map[string]any{}, 400, []string{"operator_id must be a UUID"}},
			{"operator_id not a uuid", path, map[string]any{"operator_id": "x"}, 400, []string{"operator_id must be a UUID"}},
			{"bad role", path, map[string]any{"operator_id": ana, "role": "BOSS"}, 400, []string{msgFORoleValues}},
			{"unknown operator", path, map[string]any{"operator_id": uuid.NewString()}, 404, msgFOOperatorNotFound},
			{"another tenant's operator", path, map[string]any{"operator_id": foreignOp}, 404, msgFOOperatorNotFound},
			{"another tenant's route", "/api/routes/" + foreignRoute + "/operators", map[string]any{"operator_id": ana}, 404, msgFORouteNotFound},
			{"route id not a uuid", "/api/routes/x/operators", map[string]any{"operator_id": ana}, 400, msgUUIDExpected},
		} {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("POST", c.path, c.body, w.ha), c.status, c.msg)
			})
		}

		// Removal is a hard delete.
		foExpect(t, env.Do("DELETE", path+"/"+ana, nil, w.ha), 204, nil)
		if n := links(); n != 1 {
			t.Fatalf("links after delete = %d, want 1", n)
		}
		apptest.ExpectError(t, env.Do("DELETE", path+"/"+ana, nil, w.ha), 404, "Operator is not linked to this route")
		apptest.ExpectError(t, env.Do("DELETE", "/api/routes/"+foreignRoute+"/operators/"+bea, nil, w.ha), 404, msgFORouteNotFound)
		apptest.ExpectError(t, env.Do("DELETE", path+"/nope", nil, w.ha), 400, msgUUIDExpected)
		// Tenant B cannot remove tenant A's link.
		apptest.ExpectError(t, env.Do("DELETE", path+"/"+bea, nil, w.hb), 404, msgFORouteNotFound)
		foExpectRoute(t, env.Do("GET", "/api/routes/"+rt, nil, w.ha), 200, map[string]any{"id": rt, "code": "R-1", "name": "Norte",
			"isActive": true, "operators": []any{foLink(rt, bea, "MEMBER", true)}})
		// Relinking after removal creates a fresh MEMBER link.
		foExpect(t, env.Do("POST", path, map[string]any{"operator_id": ana}, w.ha), 201, foLink(rt, ana, "MEMBER", true))
		// An archived operator disappears from the route and cannot be linked.
		foExpect(t, env.Do("DELETE", "/api/operators/"+bea, nil, w.ha), 204, nil)
		foExpectRoute(t, env.Do("GET", "/api/routes/"+rt, nil, w.ha), 200, map[string]any{"id": rt, "code": "R-1", "name": "Norte",
			"isActive": true, "operators": []any{foLink(rt, ana, "MEMBER", true)}})
		apptest.ExpectError(t, env.Do("POST", path, map[string]any{"operator_id": bea}, w.ha), 404, msgFOOperatorNotFound)
		// A viewer may not link.
		env.CreateUser(w.a.TenantID, "vera", auth.RoleViewer)
		vh := apptest.JWT(env.Login("vera"), w.a.TenantID, uuid.Nil)
		apptest.ExpectError(t, env.Do("POST", path, map[string]any{"operator_id": ana}, vh), 403, "Required permissions: route:manage")
	})
}

func TestRouteBatchUpsert(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newFOWorld(env)
		plain, _ := env.CreateKey(w.a.TenantID, w.a.UserID, uuid.Nil, auth.PermRouteBatchUpsert)
		kh := apptest.Key(plain)
		batch := func(items any) *apptest.Response {
			return env.Do("POST", "/api/integration/routes/batch-upsert", map[string]any{"items": items}, kh)
		}
		ana := foID(t, w, w.ha, "/api/operators", map[string]any{"type": "SALESMAN", "name": "Ana", "external_id": "S-1"})
		bea := foID(t, w, w.ha, "/api/operators", map[string]any{"type": "ACTIVATOR", "name": "Bea", "external_id": "A-1"})
		foID(t, w, w.hb, "/api/operators", map[string]any{"type": "SALESMAN", "name": "Zed", "external_id": "Z-1"})
		existing := foID(t, w, w.ha, "/api/routes", map[string]any{"code": "R-OLD", "name": "Old"})

		foExpect(t, batch([]any{
			map[string]any{"code": "R-1", "name": "Norte", "operators": []any{
				map[string]any{"external_id": "S-1", "type": "SALESMAN", "role": "LEAD"},
				map[string]any{"external_id": "A-1", "type": "ACTIVATOR"}}},
			map[string]any{"code": "R-2", "name": "Sur", "operators": []any{
				map[string]any{"external_id": "S-1", "type": "SALESMAN"},
				map[string]any{"external_id": "Z-1", "type": "SALESMAN"}}},
			map[string]any{"code": "", "name": "No code"},
			map[string]any{"code": "R-OLD", "name": "Old renamed", "is_active": false},
			map[string]any{"code": "R-1", "name": "Twice"},
			map[string]any{"code": "R-3", "name": "Bad links", "operators": []any{
				map[string]any{"external_id": "", "type": "BOSS", "role": "KING"},
				map[string]any{"external_id": "S-1", "type": "SALESMAN", "x": 1},
				map[string]any{"external_id": "S-1", "type": "SALESMAN"},
				map[string]any{"external_id": "S-1", "type": "SALESMAN"}}},
			map[string]any{"code": "R-4", "name": "No links", "operators": "x"},
		}), 201, map[string]any{"created": 1, "updated": 1, "total": 7, "errors": []any{
			map[string]any{"index": 1, "messages": []string{`operators.1: Operator not found (type SALESMAN, external_id "Z-1")`}},
			map[string]any{"index": 2, "messages": []string{"code should not be empty"}},
			map[string]any{"index": 4, "messages": []string{"code duplicates item 0"}},
			map[string]any{"index": 5, "messages": []string{
				"operators.1.property x should not exist",
				"operators.0.external_id should not be empty",
				"operators.0." + msgFOTypeValues,
				"operators.0." + msgFORoleValues,
				"operators.3 duplicates operators.2 (same type and external_id)"}},
			map[string]any{"index": 6, "messages": []string{"operators must be an array"}},
		}})
		// Only R-1 (with its links) was created and R-OLD updated; R-2 wrote nothing.
		res := env.Do("GET", "/api/routes", nil, w.ha)
		var page struct {
			Data []map[string]any `json:"data"`
		}
		res.JSON(t, &page)
		if len(page.Data) != 2 || page.Data[0]["code"] != "R-1" || page.Data[1]["code"] != "R-OLD" ||
			page.Data[1]["name"] != "Old renamed" || page.Data[1]["isActive"] != false || page.Data[1]["id"] != existing {
			t.Fatalf("routes = %s", res.Body)
		}
		r1 := page.Data[0]["id"].(string)
		foExpectRoute(t, env.Do("GET", "/api/routes/"+r1, nil, w.ha), 200, map[string]any{"id": r1, "code": "R-1", "name": "Norte",
			"isActive": true, "operators": []any{foLink(r1, ana, "LEAD", true), foLink(r1, bea, "MEMBER", true)}})

		// A second run sets the links: Bea listed as LEAD, Ana unlisted (deactivated).
		foExpect(t, batch([]any{
			map[string]any{"code": "R-1", "name": "Norte", "operators": []any{map[string]any{"external_id": "A-1", "type": "ACTIVATOR", "role": "LEAD"}}},
			map[string]any{"code": "R-OLD", "name": "Old renamed"},
		}), 201, map[string]any{"created": 0, "updated": 2, "total": 2, "errors": []any{}})
		foExpectRoute(t, env.Do("GET", "/api/routes/"+r1, nil, w.ha), 200, map[string]any{"id": r1, "code": "R-1", "name": "Norte",
			"isActive": true, "operators": []any{foLink(r1, ana, "LEAD", false), foLink(r1, bea, "LEAD", true)}})
		// The deactivated link is reactivated by POST /routes/:id/operators.
		foExpect(t, env.Do("POST", "/api/routes/"+r1+"/operators", map[string]any{"operator_id": ana}, w.ha), 201,
			foLink(r1, ana, "LEAD", true))
		// Omitted operators leave the links as they are; an empty list deactivates them all.
		foExpect(t, batch([]any{map[string]any{"code": "R-1", "name": "Norte 2"}}), 201,
			map[string]any{"created": 0, "updated": 1, "total": 1, "errors": []any{}})
		foExpectRoute(t, env.Do("GET", "/api/routes/"+r1, nil, w.ha), 200, map[string]any{"id": r1, "code": "R-1", "name": "Norte 2",
			"isActive": true, "operators": []any{foLink(r1, ana, "LEAD", true), foLink(r1, bea, "LEAD", true)}})
		foExpect(t, batch([]any{map[string]any{"code": "R-1", "name": "Norte 2", "operators": []any{}}}), 201,
			map[string]any{"created": 0, "updated": 1, "total": 1, "errors": []any{}})
		foExpectRoute(t, env.Do("GET", "/api/routes/"+r1, nil, w.ha), 200, map[string]any{"id": r1, "code": "R-1", "name": "Norte 2",
			"isActive": true, "operators": []any{foLink(r1, ana, "LEAD", false), foLink(r1, bea, "LEAD", false)}})

		apptest.ExpectError(t, batch(make([]map[string]any, 5001)), 400, []string{"items must contain no more than 5000 elements"})
		other, _ := env.CreateKey(w.a.TenantID, w.a.UserID, uuid.Nil, auth.PermRouteManage)
		apptest.ExpectError(t, env.Do("POST", "/api/integration/routes/batch-upsert", map[string]any{"items": []any{}}, apptest.Key(other)),
			403, "Required permissions: route:batch-upsert")
		// Tenant B's batch never touches tenant A's routes.
		foExpect(t, env.Do("POST", "/api/integration/routes/batch-upsert", map[string]any{"items": []any{
			map[string]any{"code": "R-1", "name": "Beta"}}}, w.hb), 201,
			map[string]any{"created": 1, "updated": 0, "total": 1, "errors": []any{}})
	})
}

// TestRouteOperatorLinkConcurrent: simultaneous identical links all answer
// 201 with the same link, and one row exists.
func TestRouteOperatorLinkConcurrent(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newFOWorld(env)
		rt := foID(t, w, w.ha, "/api/routes", map[string]any{"code": "R-1", "name": "Norte"})
		op := foID(t, w, w.ha, "/api/operators", map[string]any{"type": "SALESMAN", "name": "Ana"})
		const n = 8
		results := make(chan *apptest.Response, n)
		var wg sync.WaitGroup
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results <- env.Do("POST", "/api/routes/"+rt+"/operators", map[string]any{"operator_id": op}, w.ha)
			}()
		}
		wg.Wait()
		close(results)
		for res := range results {
			foExpect(t, res, 201, foLink(rt, op, "MEMBER", true))
		}
		if c, err := env.App.DB.Client.RouteOperator.Query().Where(routeoperator.RouteID(uuid.MustParse(rt))).Count(sys); err != nil || c != 1 {
			t.Fatalf("links = %d (%v), want 1", c, err)
		}
	})
}
