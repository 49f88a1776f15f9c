package rest_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

// TestCommerceRoutes: PUT /api/commerces/:id/routes replaces a commerce's
// route assignments with the tenant's routes named by code, GET reads them
// (by code, routes in the trash left out), with exact errors and tenancy.
func TestCommerceRoutes(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newFOWorld(env)
		shop := foID(t, w, w.ha, "/api/commerces", map[string]any{"name": "Almacén"})
		foreignShop := foID(t, w, w.hb, "/api/commerces", map[string]any{"name": "Beta"})
		norte := foID(t, w, w.ha, "/api/routes", map[string]any{"code": "N-1", "name": "Norte"})
		sur := foID(t, w, w.ha, "/api/routes", map[string]any{"code": "S-1", "name": "Sur"})
		centro := foID(t, w, w.ha, "/api/routes", map[string]any{"code": "C-1", "name": "Centro"})
		foID(t, w, w.hb, "/api/routes", map[string]any{"code": "B-1", "name": "Beta"})
		path := "/api/commerces/" + shop + "/routes"
		set := func(routes ...map[string]any) map[string]any {
			if routes == nil {
				routes = []map[string]any{}
			}
			return map[string]any{"commerceId": shop, "routes": routes}
		}

		foExpect(t, env.Do("GET", path, nil, w.ha), 200, set())
		foExpect(t, env.Do("PUT", path, map[string]any{"route_codes": []string{"S-1", "N-1"}}, w.ha), 200,
			set(foRoute(norte, "N-1", "Norte", true), foRoute(sur, "S-1", "Sur", true)))
		// Replacing keeps S-1, drops N-1, adds C-1; GET reads the same set.
		want := set(foRoute(centro, "C-1", "Centro", true), foRoute(sur, "S-1", "Sur", true))
		foExpect(t, env.Do("PUT", path, map[string]any{"route_codes": []string{"C-1", "S-1"}}, w.ha), 200, want)
		foExpect(t, env.Do("GET", path, nil, w.ha), 200, want)

		for _, c := range []struct {
			name string
			body any
			msg  []string
		}{
			{"missing", map[string]any{}, []string{"route_codes must be an array of strings"}},
			{"null", map[string]any{"route_codes": nil}, []string{"route_codes must be an array of strings"}},
			{"not strings", map[string]any{"route_codes": []any{"N-1", 2}}, []string{"route_codes must be an array of strings"}},
			{"unknown property", map[string]any{"route_codes": []string{}, "codes": []string{}}, []string{"property codes should not exist"}},
			{"blank and repeated", map[string]any{"route_codes": []string{"N-1", " ", "N-1"}},
				[]string{"each value in route_codes should not be empty", "All route_codes's elements must be unique"}},
			// Another tenant's route and a made-up code are both unknown.
			{"unknown codes", map[string]any{"route_codes": []string{"N-1", "B-1", "X-9"}}, []string{"route_codes names routes that do not exist: B-1, X-9"}},
			{"too many", map[string]any{"route_codes": manyCodes(101)}, []string{"route_codes must contain no more than 100 elements"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("PUT", path, c.body, w.ha), 400, c.msg)
			})
		}
		// A rejected request changed nothing.
		foExpect(t, env.Do("GET", path, nil, w.ha), 200, want)

		// Tenancy: another tenant's commerce is not found, both ways.
		for _, h := range []apptest.Headers{w.ha} {
			apptest.ExpectError(t, env.Do("GET", "/api/commerces/"+foreignShop+"/routes", nil, h), 404, "Commerce not found")
			apptest.ExpectError(t, env.Do("PUT", "/api/commerces/"+foreignShop+"/routes", map[string]any{"route_codes": []string{"N-1"}}, h), 404, "Commerce not found")
		}
		apptest.ExpectError(t, env.Do("GET", path, nil, w.hb), 404, "Commerce not found")
		apptest.ExpectError(t, env.Do("GET", "/api/commerces/"+uuid.NewString()+"/routes", nil, w.ha), 404, "Commerce not found")

		// Permissions: an operator may read (commerce:view), not change (commerce:manage).
		env.CreateUser(w.a.TenantID, "olga", auth.RoleOperator)
		op := apptest.JWT(env.Login("olga"), w.a.TenantID, uuid.Nil)
		foExpect(t, env.Do("GET", path, nil, op), 200, want)
		apptest.ExpectError(t, env.Do("PUT", path, map[string]any{"route_codes": []string{}}, op), 403, "Required permissions: commerce:manage")

		// A route in the trash is left out and cannot be named; [] removes all.
		foExpect(t, env.Do("DELETE", "/api/routes/"+centro, nil, w.ha), 204, nil)
		foExpect(t, env.Do("GET", path, nil, w.ha), 200, set(foRoute(sur, "S-1", "Sur", true)))
		apptest.ExpectError(t, env.Do("PUT", path, map[string]any{"route_codes": []string{"C-1"}}, w.ha), 400,
			[]string{"route_codes names routes that do not exist: C-1"})
		foExpect(t, env.Do("PUT", path, map[string]any{"route_codes": []string{}}, w.ha), 200, set())

		// Concurrent replacements take turns: the result is one of the sets, whole.
		var wg sync.WaitGroup
		for _, codes := range [][]string{{"N-1"}, {"S-1"}, {"N-1", "S-1"}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if res := env.Do("PUT", path, map[string]any{"route_codes": codes}, w.ha); res.Status != 200 {
					t.Errorf("PUT %v: %d %s", codes, res.Status, res.Body)
				}
			}()
		}
		wg.Wait()
		got := fmt.Sprint(env.Do("GET", path, nil, w.ha).Map(t)["routes"])
		options := map[string]bool{}
		for _, s := range []map[string]any{set(foRoute(norte, "N-1", "Norte", true)), set(foRoute(sur, "S-1", "Sur", true)),
			set(foRoute(norte, "N-1", "Norte", true), foRoute(sur, "S-1", "Sur", true))} {
			options[fmt.Sprint(foRoundTrip(t, s)["routes"])] = true
		}
		if !options[got] {
			t.Fatalf("after concurrent PUTs: routes %s, want one of the sent sets", got)
		}
	})
}

func manyCodes(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("R-%03d", i)
	}
	return out
}

// foRoundTrip is v as JSON decodes it.
func foRoundTrip(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	return (&apptest.Response{Status: 200, Body: foMustJSON(t, v)}).Map(t)
}

// TestCommerceBatchRouteCodes: route_codes in the commerce batch upsert
// replaces the item's route assignments (creating or updating); omitted, the
// assignments stay; the same set counts unchanged; bad codes reject the item
// alone, with messages naming the member.
func TestCommerceBatchRouteCodes(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newFOWorld(env)
		foID(t, w, w.ha, "/api/routes", map[string]any{"code": "N-1", "name": "Norte"})
		foID(t, w, w.ha, "/api/routes", map[string]any{"code": "S-1", "name": "Sur"})
		codesOf := func(ext string) []string {
			t.Helper()
			id := cmCommerce(t, env, w.a.TenantID, ext).ID.String()
			var out []string
			for _, r := range env.Do("GET", "/api/commerces/"+id+"/routes", nil, w.ha).Map(t)["routes"].([]any) {
				out = append(out, r.(map[string]any)["code"].(string))
			}
			return out
		}
		item := func(ext string, codes any) map[string]any {
			it := map[string]any{"external_id": ext, "name": "Comercio " + ext}
			if codes != nil {
				it["route_codes"] = codes
			}
			return it
		}

		res := cmBatch(t, env, w.ha, []any{item("C1", []string{"S-1", "N-1"}), item("C2", nil), item("C3", []string{"X-1"}),
			item("C4", []string{"N-1", "N-1"}), map[string]any{"external_id": "C5", "name": "C5", "route_codes": nil}})
		if res.Created != 2 || res.Total != 5 || len(res.Errors) != 3 ||
			res.Errors[0].Index != 2 || !slices.Equal(res.Errors[0].Messages, []string{"route_codes names routes that do not exist: X-1"}) ||
			res.Errors[1].Index != 3 || !slices.Equal(res.Errors[1].Messages, []string{"All route_codes's elements must be unique"}) ||
			res.Errors[2].Index != 4 || !slices.Equal(res.Errors[2].Messages, []string{"route_codes must be an array of strings"}) {
			t.Fatalf("first batch = %+v", res)
		}
		if got := codesOf("C1"); !slices.Equal(got, []string{"N-1", "S-1"}) {
			t.Fatalf("C1 routes = %v", got)
		}
		if got := codesOf("C2"); len(got) != 0 {
			t.Fatalf("C2 routes = %v", got)
		}
		// The same set (any order) is unchanged; omitted keeps; a new set replaces.
		if res := cmBatch(t, env, w.ha, []any{item("C1", []string{"N-1", "S-1"}), item("C2", nil)}); res.Unchanged != 2 || res.Updated != 0 {
			t.Fatalf("resend = %+v", res)
		}
		if res := cmBatch(t, env, w.ha, []any{item("C1", nil), item("C2", []string{"S-1"})}); res.Unchanged != 1 || res.Updated != 1 {
			t.Fatalf("second batch = %+v", res)
		}
		if got := codesOf("C1"); !slices.Equal(got, []string{"N-1", "S-1"}) {
			t.Fatalf("C1 routes after omitting route_codes = %v", got)
		}
		if got := codesOf("C2"); !slices.Equal(got, []string{"S-1"}) {
			t.Fatalf("C2 routes = %v", got)
		}
		if res := cmBatch(t, env, w.ha, []any{item("C1", []string{})}); res.Updated != 1 {
			t.Fatalf("clearing batch = %+v", res)
		}
		if got := codesOf("C1"); len(got) != 0 {
			t.Fatalf("C1 routes after [] = %v", got)
		}
	})
}
