package rest_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

// Messages of the catalog endpoints.
const (
	msgReasonNotFound  = "Activity reason config not found"
	msgStatusNotFound  = "Retention status config not found"
	msgNeedConfigMgmt  = "Required permissions: activity-config:manage"
	msgCatCodeEmpty    = "code should not be empty"
	msgCatLabelEmpty   = "label should not be empty"
	msgCatItemsMin     = "items must contain at least 1 elements"
	msgCatStageValues  = "stage must be one of the following values: ACTIVATION, ENGAGEMENT, RESURRECTION"
	msgCatCodeNotExist = "property code should not exist"
)

type reasonBody struct {
	ID        uuid.UUID `json:"id"`
	Code      string    `json:"code"`
	Label     string    `json:"label"`
	IsActive  bool      `json:"isActive"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// catalogEnv is a tenant A admin, a tenant A viewer and tenant B's admin.
type catalogEnv struct {
	env       *apptest.Env
	a, viewer apptest.Headers
	b         apptest.Headers
	aTenantID uuid.UUID
}

func newCatalogEnv(t *testing.T, env *apptest.Env) *catalogEnv {
	ta, tb := env.Bootstrap("Acme"), env.Bootstrap("Beta")
	env.CreateUser(ta.TenantID, "vera", auth.RoleViewer)
	return &catalogEnv{env: env,
		a:         apptest.JWT(env.Login(ta.Email), ta.TenantID, uuid.Nil),
		viewer:    apptest.JWT(env.Login("vera"), ta.TenantID, uuid.Nil),
		b:         apptest.JWT(env.Login(tb.Email), tb.TenantID, uuid.Nil),
		aTenantID: ta.TenantID}
}

func (c *catalogEnv) createReason(t *testing.T, code, label string) reasonBody {
	t.Helper()
	res := c.env.Do("POST", "/api/activity-reason-configs", map[string]any{"code": code, "label": label}, c.a)
	if res.Status != 201 {
		t.Fatalf("create reason: %d %s", res.Status, res.Body)
	}
	var out reasonBody
	res.JSON(t, &out)
	return out
}

func (c *catalogEnv) listReasons(t *testing.T, h apptest.Headers) []reasonBody {
	t.Helper()
	res := c.env.Do("GET", "/api/activity-reason-configs", nil, h)
	if res.Status != 200 {
		t.Fatalf("list reasons: %d %s", res.Status, res.Body)
	}
	var out []reasonBody
	res.JSON(t, &out)
	return out
}

func reasonCodes(rs []reasonBody) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Code)
	}
	return out
}

func TestReasonConfigsCRUD(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		c := newCatalogEnv(t, env)
		if got := c.listReasons(t, c.a); len(got) != 0 {
			t.Fatalf("new tenant has reasons: %v", got)
		}
		z := c.createReason(t, "zeta", "Zeta")
		res := env.Do("POST", "/api/activity-reason-configs", map[string]any{"code": "  no_stock ", "label": " Sin stock "}, c.a)
		if res.Status != 201 {
			t.Fatalf("create: %d %s", res.Status, res.Body)
		}
		m := res.Map(t)
		keys := []string{}
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if want := []string{"code", "createdAt", "id", "isActive", "label", "updatedAt"}; !slices.Equal(keys, want) {
			t.Fatalf("shape = %v, want %v", keys, want)
		}
		if m["code"] != "no_stock" || m["label"] != "Sin stock" || m["isActive"] != true {
			t.Fatalf("created = %v", m)
		}
		// Ordered by code; the viewer may list.
		if got := reasonCodes(c.listReasons(t, c.viewer)); !slices.Equal(got, []string{"no_stock", "zeta"}) {
			t.Fatalf("list = %v", got)
		}

		// 409 on a duplicate code, also when the label differs.
		apptest.ExpectError(t, env.Do("POST", "/api/activity-reason-configs", map[string]any{"code": "zeta", "label": "Otra"}, c.a),
			409, `An activity reason config with code "zeta" already exists`)
		// The same code in another tenant is fine.
		if res := env.Do("POST", "/api/activity-reason-configs", map[string]any{"code": "zeta", "label": "Z"}, c.b); res.Status != 201 {
			t.Fatalf("tenant B create: %d %s", res.Status, res.Body)
		}

		// Validation.
		apptest.ExpectError(t, env.Do("POST", "/api/activity-reason-configs", map[string]any{}, c.a), 400,
			[]string{msgCatCodeEmpty, msgCatLabelEmpty})
		apptest.ExpectError(t, env.Do("POST", "/api/activity-reason-configs", map[string]any{"code": " ", "label": "x", "extra": 1}, c.a), 400,
			[]string{"property extra should not exist"})
		apptest.ExpectError(t, env.Do("POST", "/api/activity-reason-configs", map[string]any{"code": " ", "label": "x"}, c.a), 400,
			[]string{msgCatCodeEmpty})
		apptest.ExpectError(t, env.Do("POST", "/api/activity-reason-configs", map[string]any{"code": 5, "label": "x"}, c.a), 400,
			[]string{"code must be a string"})

		// PATCH label and is_active.
		res = env.Do("PATCH", "/api/activity-reason-configs/"+z.ID.String(), map[string]any{"label": "Zeta 2", "is_active": false}, c.a)
		if res.Status != 200 {
			t.Fatalf("patch: %d %s", res.Status, res.Body)
		}
		var p reasonBody
		res.JSON(t, &p)
		if p.ID != z.ID || p.Code != "zeta" || p.Label != "Zeta 2" || p.IsActive {
			t.Fatalf("patched = %+v", p)
		}
		res = env.Do("PATCH", "/api/activity-reason-configs/"+z.ID.String(), map[string]any{"is_active": true}, c.a)
		res.JSON(t, &p)
		if res.Status != 200 || !p.IsActive || p.Label != "Zeta 2" {
			t.Fatalf("reactivate: %d %s", res.Status, res.Body)
		}
		apptest.ExpectError(t, env.Do("PATCH", "/api/activity-reason-configs/"+z.ID.String(), map[string]any{"label": ""}, c.a), 400,
			[]string{msgCatLabelEmpty})
		apptest.ExpectError(t, env.Do("PATCH", "/api/activity-reason-configs/"+z.ID.String(), map[string]any{"code": "x"}, c.a), 400,
			[]string{msgCatCodeNotExist})
		apptest.ExpectError(t, env.Do("PATCH", "/api/activity-reason-configs/"+z.ID.String(), map[string]any{"is_active": "no"}, c.a), 400,
			[]string{"is_active must be a boolean value"})
		apptest.ExpectError(t, env.Do("PATCH", "/api/activity-reason-configs/not-a-uuid", map[string]any{}, c.a), 400, msgUUIDExpected)
		apptest.ExpectError(t, env.Do("PATCH", "/api/activity-reason-configs/"+uuid.NewString(), map[string]any{}, c.a), 404, msgReasonNotFound)

		// DELETE deactivates: 204, the row stays listed as inactive, the code stays taken.
		res = env.Do("DELETE", "/api/activity-reason-configs/"+z.ID.String(), nil, c.a)
		if res.Status != 204 || len(res.Body) != 0 {
			t.Fatalf("delete: %d %s", res.Status, res.Body)
		}
		list := c.listReasons(t, c.a)
		if len(list) != 2 || list[1].ID != z.ID || list[1].IsActive || !list[0].IsActive {
			t.Fatalf("after delete = %+v", list)
		}
		if res := env.Do("DELETE", "/api/activity-reason-configs/"+z.ID.String(), nil, c.a); res.Status != 204 {
			t.Fatalf("delete again: %d %s", res.Status, res.Body)
		}
		apptest.ExpectError(t, env.Do("POST", "/api/activity-reason-configs", map[string]any{"code": "zeta", "label": "Z"}, c.a),
			409, `An activity reason config with code "zeta" already exists`)
		apptest.ExpectError(t, env.Do("DELETE", "/api/activity-reason-configs/"+uuid.NewString(), nil, c.a), 404, msgReasonNotFound)

		// Cross-tenant: B never sees nor touches A's configs.
		apptest.ExpectError(t, env.Do("PATCH", "/api/activity-reason-configs/"+z.ID.String(), map[string]any{"label": "B"}, c.b), 404, msgReasonNotFound)
		apptest.ExpectError(t, env.Do("DELETE", "/api/activity-reason-configs/"+list[0].ID.String(), nil, c.b), 404, msgReasonNotFound)
		if got := reasonCodes(c.listReasons(t, c.b)); !slices.Equal(got, []string{"zeta"}) {
			t.Fatalf("tenant B list = %v", got)
		}
		if got := c.listReasons(t, c.a); !got[0].IsActive || got[1].Label != "Zeta 2" {
			t.Fatalf("tenant A changed by B: %+v", got)
		}
	})
}

func TestReasonConfigDefaults(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		c := newCatalogEnv(t, env)
		get := func() []map[string]string {
			res := env.Do("GET", "/api/activity-reason-configs/defaults", nil, c.viewer)
			if res.Status != 200 {
				t.Fatalf("defaults: %d %s", res.Status, res.Body)
			}
			var out []map[string]string
			res.JSON(t, &out)
			return out
		}
		defs := get()
		if len(defs) != 10 {
			t.Fatalf("defaults = %d entries, want 10: %v", len(defs), defs)
		}
		seen := map[string]bool{}
		for _, d := range defs {
			if len(d) != 2 || d["code"] == "" || d["label"] == "" || seen[d["code"]] {
				t.Fatalf("bad default %v in %v", d, defs)
			}
			seen[d["code"]] = true
		}
		if defs[0]["code"] != "no_stock" || defs[0]["label"] != "Sin stock" {
			t.Fatalf("first default = %v", defs[0])
		}
		// Never persisted, always the full list (also once the tenant adopted one).
		if got := c.listReasons(t, c.a); len(got) != 0 {
			t.Fatalf("defaults were persisted: %v", got)
		}
		c.createReason(t, "no_stock", "Sin stock")
		if again := get(); len(again) != 10 {
			t.Fatalf("defaults after adoption = %v", again)
		}
		if got := c.listReasons(t, c.a); len(got) != 1 {
			t.Fatalf("list = %v", got)
		}
	})
}

func TestReasonConfigsBulk(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		c := newCatalogEnv(t, env)
		bulk := func(items any) *apptest.Response {
			return env.Do("POST", "/api/activity-reason-configs/bulk", map[string]any{"items": items}, c.a)
		}
		res := bulk([]any{map[string]any{"code": "b", "label": "B"}, map[string]any{"code": "a", "label": "A"}})
		if res.Status != 201 {
			t.Fatalf("bulk: %d %s", res.Status, res.Body)
		}
		var created []reasonBody
		res.JSON(t, &created)
		if len(created) != 2 || created[0].Code != "b" || created[1].Code != "a" || !created[0].IsActive || created[0].ID == uuid.Nil {
			t.Fatalf("created = %+v", created)
		}
		if got := reasonCodes(c.listReasons(t, c.a)); !slices.Equal(got, []string{"a", "b"}) {
			t.Fatalf("list = %v", got)
		}

		// Validation: empty, missing, not an array, item rules named by index.
		apptest.ExpectError(t, bulk([]any{}), 400, []string{msgCatItemsMin})
		apptest.ExpectError(t, env.Do("POST", "/api/activity-reason-configs/bulk", map[string]any{}, c.a), 400, []string{msgCatItemsMin})
		apptest.ExpectError(t, bulk("x"), 400, []string{"items must be an array"})
		apptest.ExpectError(t, bulk([]any{
			map[string]any{"code": "c", "label": "C"}, map[string]any{"code": "d", "label": ""}, map[string]any{"label": "E"},
		}), 400, []string{"items.1.label should not be empty", "items.2.code should not be empty"})
		apptest.ExpectError(t, bulk([]any{"x", map[string]any{"code": "c", "label": "C", "other": 1}}), 400,
			[]string{"items.0 must be an object", "items.1.property other should not exist"})
		// A code repeated inside the request: 400 naming the index.
		apptest.ExpectError(t, bulk([]any{
			map[string]any{"code": "c", "label": "C"}, map[string]any{"code": "d", "label": "D"}, map[string]any{"code": "c", "label": "C2"},
		}), 400, []string{`items.2.code "c" duplicates items.0.code`})
		// A code the tenant already has: 409 and nothing written (atomic).
		apptest.ExpectError(t, bulk([]any{
			map[string]any{"code": "c", "label": "C"}, map[string]any{"code": "d", "label": "D"}, map[string]any{"code": "a", "label": "A2"},
		}), 409, `An activity reason config with code "a" already exists`)
		if got := reasonCodes(c.listReasons(t, c.a)); !slices.Equal(got, []string{"a", "b"}) {
			t.Fatalf("a failed bulk wrote rows: %v", got)
		}
		// The viewer may not.
		apptest.ExpectError(t, env.Do("POST", "/api/activity-reason-configs/bulk",
			map[string]any{"items": []any{map[string]any{"code": "v", "label": "V"}}}, c.viewer), 403, msgNeedConfigMgmt)
	})
}

func TestCatalogPermissions(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		c := newCatalogEnv(t, env)
		r := c.createReason(t, "r", "R")
		s := c.createStatus(t, map[string]any{"code": "s", "label": "S", "stage": "ACTIVATION"})
		for _, call := range []struct {
			method, path string
			body         any
		}{
			{"POST", "/api/activity-reason-configs", map[string]any{"code": "v", "label": "V"}},
			{"PATCH", "/api/activity-reason-configs/" + r.ID.String(), map[string]any{"label": "V"}},
			{"DELETE", "/api/activity-reason-configs/" + r.ID.String(), nil},
			{"POST", "/api/retention-status-configs", map[string]any{"code": "v", "label": "V", "stage": "ACTIVATION"}},
			{"PATCH", "/api/retention-status-configs/" + s.ID.String(), map[string]any{"label": "V"}},
			{"DELETE", "/api/retention-status-configs/" + s.ID.String(), nil},
		} {
			apptest.ExpectError(t, env.Do(call.method, call.path, call.body, c.viewer), 403, msgNeedConfigMgmt)
		}
		// Reads: the viewer may; a key without the permission may not.
		for _, path := range []string{"/api/activity-reason-configs", "/api/activity-reason-configs/defaults",
			"/api/retention-status-configs", "/api/retention-status-configs/" + s.ID.String()} {
			if res := env.Do("GET", path, nil, c.viewer); res.Status != 200 {
				t.Fatalf("viewer GET %s: %d %s", path, res.Status, res.Body)
			}
		}
		ta := c.aTenantID
		owner := env.CreateUser(ta, "owner", auth.RoleAdmin)
		plain, _ := env.CreateKey(ta, owner.ID, uuid.Nil, auth.PermProjectView)
		apptest.ExpectError(t, env.Do("GET", "/api/activity-reason-configs", nil, apptest.Key(plain)), 403, "Required permissions: activity:view")
		apptest.ExpectError(t, env.Do("GET", "/api/retention-status-configs", nil, apptest.Key(plain)), 403,
			"Required permissions: activity-generation-config:view")
		// Nothing changed.
		if got := c.listReasons(t, c.a); len(got) != 1 || got[0].Label != "R" || !got[0].IsActive {
			t.Fatalf("reasons = %+v", got)
		}
	})
}
