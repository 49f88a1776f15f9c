package rest_test

import (
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/supervisor"
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

func foSupervisor(id, name string, email, ext, phone any, active bool, routes, ops []string) map[string]any {
	slices.Sort(routes)
	slices.Sort(ops)
	return map[string]any{"id": id, "name": name, "email": email, "externalId": ext, "phone": phone, "isActive": active,
		"routeIds": routes, "operatorIds": ops}
}

// foExpectSupervisor asserts a supervisor with its ids compared as sets.
func foExpectSupervisor(t *testing.T, res *apptest.Response, status int, want map[string]any) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status = %d, want %d; body %s", res.Status, status, res.Body)
	}
	got := res.Map(t)
	for _, k := range []string{"routeIds", "operatorIds"} {
		ids, _ := got[k].([]any)
		slices.SortFunc(ids, func(a, b any) int {
			if a.(string) < b.(string) {
				return -1
			}
			return 1
		})
	}
	foExpect(t, &apptest.Response{Status: status, Body: foMustJSON(t, got)}, status, want)
}

func TestSupervisors(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newFOWorld(env)
		r1 := foID(t, w, w.ha, "/api/routes", map[string]any{"code": "R-1", "name": "Norte"})
		r2 := foID(t, w, w.ha, "/api/routes", map[string]any{"code": "R-2", "name": "Sur"})
		ana := foID(t, w, w.ha, "/api/operators", map[string]any{"type": "SALESMAN", "name": "Ana"})
		bea := foID(t, w, w.ha, "/api/operators", map[string]any{"type": "SALESMAN", "name": "Bea"})
		foreignRoute := foID(t, w, w.hb, "/api/routes", map[string]any{"code": "R-1", "name": "Beta"})
		foreignOp := foID(t, w, w.hb, "/api/operators", map[string]any{"type": "SALESMAN", "name": "Zed"})

		res := env.Do("POST", "/api/supervisors", map[string]any{"name": " Sara ", "email": "Sara@x.test", "external_id": "SUP-1",
			"phone": "+5699", "metadata": map[string]any{"k": "v"}, "route_ids": []string{r1, r2, r1}, "operator_ids": []string{ana}}, w.ha)
		sara := res.Map(t)["id"].(string)
		foExpectSupervisor(t, res, 201, foSupervisor(sara, "Sara", "Sara@x.test", "SUP-1", "+5699", true, []string{r1, r2}, []string{ana}))
		res = env.Do("POST", "/api/supervisors", map[string]any{"name": "Tom"}, w.ha)
		tom := res.Map(t)["id"].(string)
		foExpect(t, res, 201, foSupervisor(tom, "Tom", nil, nil, nil, true, []string{}, []string{}))
		foreign := foID(t, w, w.hb, "/api/supervisors", map[string]any{"name": "Zoe", "email": "sara@x.test", "external_id": "SUP-1"})

		for _, c := range []struct {
			name   string
			body   any
			status int
			msg    any
		}{
			{"empty body", map[string]any{}, 400, []string{msgFONameEmpty}},
			{"bad email", map[string]any{"name": "X", "email": "x"}, 400, []string{msgFOEmailInvalid}},
			{"bad route id", map[string]any{"name": "X", "route_ids": []string{"x"}}, 400, []string{"each value in route_ids must be a UUID"}},
			{"operator_ids not an array", map[string]any{"name": "X", "operator_ids": "x"}, 400, []string{"each value in operator_ids must be a UUID"}},
			{"unknown property", map[string]any{"name": "X", "is_active": true}, 400, []string{"property is_active should not exist"}},
			{"email taken", map[string]any{"name": "X", "email": "SARA@X.TEST"}, 409, `A supervisor with email "SARA@X.TEST" already exists`},
			{"external id taken", map[string]any{"name": "X", "external_id": "SUP-1"}, 409, `A supervisor with external_id "SUP-1" already exists`},
			{"another tenant's route", map[string]any{"name": "X", "route_ids": []string{foreignRoute}}, 404, msgFORouteNotFound},
			{"another tenant's operator", map[string]any{"name": "X", "operator_ids": []string{foreignOp}}, 404, msgFOOperatorNotFound},
		} {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("POST", "/api/supervisors", c.body, w.ha), c.status, c.msg)
			})
		}
		// Nothing was half-created by the rejected requests.
		if n, err := env.App.DB.Client.Supervisor.Query().Where(supervisor.TenantID(w.a.TenantID)).Count(sys); err != nil || n != 2 {
			t.Fatalf("supervisors = %d (%v), want 2", n, err)
		}

		foExpectSupervisor(t, env.Do("GET", "/api/supervisors/"+sara, nil, w.ha), 200,
			foSupervisor(sara, "Sara", "Sara@x.test", "SUP-1", "+5699", true, []string{r1, r2}, []string{ana}))
		apptest.ExpectError(t, env.Do("GET", "/api/supervisors/"+foreign, nil, w.ha), 404, msgFOSupervisorNotFound)
		res = env.Do("GET", "/api/supervisors?search=sar", nil, w.ha)
		var page struct {
			Data []map[string]any `json:"data"`
			Meta map[string]any   `json:"meta"`
		}
		res.JSON(t, &page)
		if res.Status != 200 || len(page.Data) != 1 || page.Data[0]["id"] != sara || len(page.Data[0]["routeIds"].([]any)) != 2 ||
			page.Meta["total"] != float64(1) {
			t.Fatalf("search: %s", res.Body)
		}
		res = env.Do("GET", "/api/supervisors", nil, w.ha)
		res.JSON(t, &page)
		if len(page.Data) != 2 || page.Data[0]["name"] != "Sara" || page.Data[1]["name"] != "Tom" {
			t.Fatalf("list: %s", res.Body)
		}

		// PATCH: sent ids replace the assignments; omitted ones stay.
		foExpectSupervisor(t, env.Do("PATCH", "/api/supervisors/"+sara, map[string]any{"route_ids": []string{r2},
			"is_active": false, "phone": nil}, w.ha), 200,
			foSupervisor(sara, "Sara", "Sara@x.test", "SUP-1", nil, false, []string{r2}, []string{ana}))
		foExpectSupervisor(t, env.Do("PATCH", "/api/supervisors/"+sara, map[string]any{"operator_ids": []string{bea, ana},
			"route_ids": []string{}}, w.ha), 200,
			foSupervisor(sara, "Sara", "Sara@x.test", "SUP-1", nil, false, []string{}, []string{ana, bea}))
		apptest.ExpectError(t, env.Do("PATCH", "/api/supervisors/"+tom, map[string]any{"email": "sara@X.test"}, w.ha), 409,
			`A supervisor with email "sara@X.test" already exists`)
		apptest.ExpectError(t, env.Do("PATCH", "/api/supervisors/"+tom, map[string]any{"route_ids": []string{foreignRoute}}, w.ha), 404,
			msgFORouteNotFound)
		apptest.ExpectError(t, env.Do("PATCH", "/api/supervisors/"+foreign, map[string]any{"name": "X"}, w.ha), 404, msgFOSupervisorNotFound)
		apptest.ExpectError(t, env.Do("PATCH", "/api/supervisors/"+tom, map[string]any{"name": ""}, w.ha), 400, []string{msgFONameEmpty})
		// Its own values are no conflict.
		if res := env.Do("PATCH", "/api/supervisors/"+sara, map[string]any{"email": "sara@x.test", "external_id": "SUP-1"}, w.ha); res.Status != 200 {
			t.Fatalf("own values: %d %s", res.Status, res.Body)
		}
		// An archived operator disappears from the assignments.
		foExpect(t, env.Do("DELETE", "/api/operators/"+bea, nil, w.ha), 204, nil)
		foExpectSupervisor(t, env.Do("GET", "/api/supervisors/"+sara, nil, w.ha), 200,
			foSupervisor(sara, "Sara", "sara@x.test", "SUP-1", nil, false, []string{}, []string{ana}))

		// Permissions: a supervisor role may read but not manage or delete.
		env.CreateUser(w.a.TenantID, "sam", auth.RoleSupervisor)
		sh := apptest.JWT(env.Login("sam"), w.a.TenantID, uuid.Nil)
		if res := env.Do("GET", "/api/supervisors", nil, sh); res.Status != 200 {
			t.Fatalf("supervisor role list: %d %s", res.Status, res.Body)
		}
		apptest.ExpectError(t, env.Do("POST", "/api/supervisors", map[string]any{"name": "X"}, sh), 403, "Required permissions: supervisor:manage")
		apptest.ExpectError(t, env.Do("DELETE", "/api/supervisors/"+sara, nil, sh), 403, "Required permissions: supervisor:delete")

		// DELETE archives to the trash; email and external id become reusable.
		apptest.ExpectError(t, env.Do("DELETE", "/api/supervisors/"+foreign, nil, w.ha), 404, msgFOSupervisorNotFound)
		foExpect(t, env.Do("DELETE", "/api/supervisors/"+sara, nil, w.ha), 204, nil)
		apptest.ExpectError(t, env.Do("GET", "/api/supervisors/"+sara, nil, w.ha), 404, msgFOSupervisorNotFound)
		apptest.ExpectError(t, env.Do("DELETE", "/api/supervisors/"+sara, nil, w.ha), 404, msgFOSupervisorNotFound)
		foTrashed(t, env, trashrecord.KindSUPERVISOR, sara)
		foID(t, w, w.ha, "/api/supervisors", map[string]any{"name": "Sara 2", "email": "SARA@x.test", "external_id": "SUP-1"})
		if res := env.Do("GET", "/api/supervisors/"+foreign, nil, w.hb); res.Status != 200 {
			t.Fatalf("tenant B supervisor: %d %s", res.Status, res.Body)
		}
	})
}
