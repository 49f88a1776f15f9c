package rest_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/operator"
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/viewer"
)

// Messages of the field organisation endpoints.
const (
	msgFOOperatorNotFound   = "Operator not found"
	msgFORouteNotFound      = "Route not found"
	msgFOSupervisorNotFound = "Supervisor not found"
	msgFOTypeValues         = "type must be one of the following values: SALESMAN, ACTIVATOR, CALLCENTER"
	msgFORoleValues         = "role must be one of the following values: LEAD, MEMBER"
	msgFONameEmpty          = "name should not be empty"
	msgFOEmailInvalid       = "email must be an email"
)

// foWorld is two tenants with their super_admins' headers.
type foWorld struct {
	env    *apptest.Env
	a, b   apptest.Tenant
	ha, hb apptest.Headers
}

func newFOWorld(env *apptest.Env) *foWorld {
	w := &foWorld{env: env, a: env.Bootstrap("Acme"), b: env.Bootstrap("Beta")}
	w.ha = apptest.JWT(env.Login(w.a.Email), w.a.TenantID, uuid.Nil)
	w.hb = apptest.JWT(env.Login(w.b.Email), w.b.TenantID, uuid.Nil)
	return w
}

// foExpect asserts status and the exact JSON body.
func foExpect(t *testing.T, res *apptest.Response, status int, want any) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status = %d, want %d; body %s", res.Status, status, res.Body)
	}
	if want == nil {
		if len(res.Body) != 0 {
			t.Fatalf("body = %s, want empty", res.Body)
		}
		return
	}
	var got, w any
	if err := json.Unmarshal(res.Body, &got); err != nil {
		t.Fatalf("body is not JSON: %s", res.Body)
	}
	raw, _ := json.Marshal(want)
	_ = json.Unmarshal(raw, &w)
	g, _ := json.Marshal(got)
	ww, _ := json.Marshal(w)
	if string(g) != string(ww) {
		t.Fatalf("body = %s\nwant   %s", g, ww)
	}
}

// foID posts body to path, expects 201 and returns the id.
func foID(t *testing.T, w *foWorld, h apptest.Headers, path string, body any) string {
	t.Helper()
	res := w.env.Do("POST", path, body, h)
	if res.Status != 201 {
		t.Fatalf("POST %s: %d %s", path, res.Status, res.Body)
	}
	return res.Map(t)["id"].(string)
}

func foOperator(id, name string, email, phone any, typ string, ext any, active, placeholder bool) map[string]any {
	return map[string]any{"id": id, "name": name, "email": email, "phone": phone, "type": typ, "externalId": ext,
		"isActive": active, "isPlaceholder": placeholder}
}

// foTrashed asserts the trash record of a deleted record.
func foTrashed(t *testing.T, env *apptest.Env, kind trashrecord.Kind, id string) {
	t.Helper()
	n, err := env.App.DB.Client.TrashRecord.Query().Where(trashrecord.KindEQ(kind),
		trashrecord.RecordID(uuid.MustParse(id))).Count(sys)
	if err != nil || n != 1 {
		t.Fatalf("trash records of %s %s = %d (%v), want 1", kind, id, n, err)
	}
}

func TestOperatorCreate(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newFOWorld(env)
		// Every field.
		res := env.Do("POST", "/api/operators", map[string]any{"type": "SALESMAN", "name": "  Ana  ", "email": "Ana@Example.test",
			"phone": "+56911111111", "external_id": "S-1", "is_placeholder": true, "metadata": map[string]any{"zone": "N"}}, w.ha)
		id := res.Map(t)["id"]
		foExpect(t, res, 201, foOperator(fmt.Sprint(id), "Ana", "Ana@Example.test", "+56911111111", "SALESMAN", "S-1", true, true))
		o, err := env.App.DB.Client.Operator.Get(sys, uuid.MustParse(fmt.Sprint(id)))
		if err != nil || *o.EmailKey != "ana@example.test" || o.Metadata["zone"] != "N" || o.TenantID != w.a.TenantID {
			t.Fatalf("stored operator = %+v (%v)", o, err)
		}
		// Required fields only: optional strings are null (stored NULL, also when sent blank).
		res = env.Do("POST", "/api/operators", map[string]any{"type": "CALLCENTER", "name": "Bea", "email": "", "phone": " "}, w.ha)
		id2 := res.Map(t)["id"]
		foExpect(t, res, 201, foOperator(fmt.Sprint(id2), "Bea", nil, nil, "CALLCENTER", nil, true, false))
		o, err = env.App.DB.Client.Operator.Get(sys, uuid.MustParse(fmt.Sprint(id2)))
		if err != nil || o.Email != nil || o.EmailKey != nil || o.Phone != nil || o.ExternalID != nil {
			t.Fatalf("optional strings not NULL: %+v (%v)", o, err)
		}
		// Operators without email or external id never collide.
		foID(t, w, w.ha, "/api/operators", map[string]any{"type": "CALLCENTER", "name": "Bea"})
		// The same external id with another type is another operator.
		foID(t, w, w.ha, "/api/operators", map[string]any{"type": "ACTIVATOR", "name": "Ana", "external_id": "S-1"})
		// Another tenant may reuse the email and the external id.
		foID(t, w, w.hb, "/api/operators", map[string]any{"type": "SALESMAN", "name": "Ana", "email": "ana@example.test", "external_id": "S-1"})

		cases := []struct {
			name   string
			body   any
			status int
			msg    any
		}{
			{"empty body", map[string]any{}, 400, []string{msgFOTypeValues, msgFONameEmpty}},
			{"bad type", map[string]any{"type": "BOSS", "name": "X"}, 400, []string{msgFOTypeValues}},
			{"blank name", map[string]any{"type": "SALESMAN", "name": "  "}, 400, []string{msgFONameEmpty}},
			{"name not a string", map[string]any{"type": "SALESMAN", "name": 5}, 400, []string{"name must be a string"}},
			{"bad email", map[string]any{"type": "SALESMAN", "name": "X", "email": "nope"}, 400, []string{msgFOEmailInvalid}},
			{"placeholder not a boolean", map[string]any{"type": "SALESMAN", "name": "X", "is_placeholder": "yes"}, 400,
				[]string{"is_placeholder must be a boolean value"}},
			{"metadata not an object", map[string]any{"type": "SALESMAN", "name": "X", "metadata": []int{1}}, 400,
				[]string{"metadata must be an object"}},
			{"unknown property", map[string]any{"type": "SALESMAN", "name": "X", "is_active": false}, 400,
				[]string{"property is_active should not exist"}},
			{"email taken, other casing", map[string]any{"type": "ACTIVATOR", "name": "X", "email": "ANA@example.TEST"}, 409,
				`An operator with email "ANA@example.TEST" already exists`},
			{"type and external id taken", map[string]any{"type": "SALESMAN", "name": "X", "external_id": "S-1"}, 409,
				`An operator of type SALESMAN with external_id "S-1" already exists`},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("POST", "/api/operators", c.body, w.ha), c.status, c.msg)
			})
		}
		// Permissions: a viewer may not create; a key with operator:manage may.
		env.CreateUser(w.a.TenantID, "vera", auth.RoleViewer)
		vh := apptest.JWT(env.Login("vera"), w.a.TenantID, uuid.Nil)
		apptest.ExpectError(t, env.Do("POST", "/api/operators", map[string]any{}, vh), 403, "Required permissions: operator:manage")
		plain, _ := env.CreateKey(w.a.TenantID, w.a.UserID, uuid.Nil, auth.PermOperatorManage)
		foID(t, w, apptest.Key(plain), "/api/operators", map[string]any{"type": "SALESMAN", "name": "Keyed"})
	})
}

func TestOperatorReadUpdate(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newFOWorld(env)
		ana := foID(t, w, w.ha, "/api/operators", map[string]any{"type": "SALESMAN", "name": "Ana", "email": "ana@x.test", "external_id": "S-1"})
		bea := foID(t, w, w.ha, "/api/operators", map[string]any{"type": "ACTIVATOR", "name": "Bea", "external_id": "A-9"})
		carl := foID(t, w, w.ha, "/api/operators", map[string]any{"type": "SALESMAN", "name": "Carl", "email": "carl@x.test"})
		foreign := foID(t, w, w.hb, "/api/operators", map[string]any{"type": "SALESMAN", "name": "Zed"})
		if res := env.Do("PATCH", "/api/operators/"+carl, map[string]any{"is_active": false}, w.ha); res.Status != 200 {
			t.Fatalf("deactivate: %d %s", res.Status, res.Body)
		}
		anaBody := foOperator(ana, "Ana", "ana@x.test", nil, "SALESMAN", "S-1", true, false)
		beaBody := foOperator(bea, "Bea", nil, nil, "ACTIVATOR", "A-9", true, false)
		carlBody := foOperator(carl, "Carl", "carl@x.test", nil, "SALESMAN", nil, false, false)

		list := func(q string) *apptest.Response { return env.Do("GET", "/api/operators"+q, nil, w.ha) }
		meta := func(page, limit, total, pages int) map[string]any {
			return map[string]any{"page": page, "limit": limit, "total": total, "totalPages": pages}
		}
		foExpect(t, list(""), 200, map[string]any{"data": []any{anaBody, beaBody, carlBody}, "meta": meta(1, 25, 3, 1)})
		foExpect(t, list("?per_page=2&page=2"), 200, map[string]any{"data": []any{carlBody}, "meta": meta(2, 2, 3, 2)})
		foExpect(t, list("?type=SALESMAN"), 200, map[string]any{"data": []any{anaBody, carlBody}, "meta": meta(1, 25, 2, 1)})
		foExpect(t, list("?is_active=false"), 200, map[string]any{"data": []any{carlBody}, "meta": meta(1, 25, 1, 1)})
		foExpect(t, list("?search=CARL%40"), 200, map[string]any{"data": []any{carlBody}, "meta": meta(1, 25, 1, 1)})
		foExpect(t, list("?search=a-9"), 200, map[string]any{"data": []any{beaBody}, "meta": meta(1, 25, 1, 1)})
		foExpect(t, list("?search=zed"), 200, map[string]any{"data": []any{}, "meta": meta(1, 25, 0, 0)})
		apptest.ExpectError(t, list("?type=BOSS"), 400, []string{msgFOTypeValues})
		apptest.ExpectError(t, list("?is_active=maybe&per_page=500"), 400,
			[]string{"per_page must not be greater than 100", "is_active must be a boolean value"})
		// Tenant B sees only its own.
		res := env.Do("GET", "/api/operators", nil, w.hb)
		if m := res.Map(t); res.Status != 200 || m["meta"].(map[string]any)["total"].(float64) != 1 {
			t.Fatalf("tenant B list: %s", res.Body)
		}

		foExpect(t, env.Do("GET", "/api/operators/"+ana, nil, w.ha), 200, anaBody)
		apptest.ExpectError(t, env.Do("GET", "/api/operators/"+foreign, nil, w.ha), 404, msgFOOperatorNotFound)
		apptest.ExpectError(t, env.Do("GET", "/api/operators/"+uuid.NewString(), nil, w.ha), 404, msgFOOperatorNotFound)
		apptest.ExpectError(t, env.Do("GET", "/api/operators/nope", nil, w.ha), 400, msgUUIDExpected)

		// PATCH.
		path := "/api/operators/" + ana
		foExpect(t, env.Do("PATCH", path, map[string]any{"name": "Ana María", "phone": "+56922", "is_placeholder": true,
			"email": "ANA@x.test", "metadata": map[string]any{"k": 1}}, w.ha), 200,
			foOperator(ana, "Ana María", "ANA@x.test", "+56922", "SALESMAN", "S-1", true, true))
		// null clears the optional strings.
		foExpect(t, env.Do("PATCH", path, map[string]any{"email": nil, "phone": nil, "external_id": nil, "metadata": nil}, w.ha), 200,
			foOperator(ana, "Ana María", nil, nil, "SALESMAN", nil, true, true))
		o, err := env.App.DB.Client.Operator.Get(sys, uuid.MustParse(ana))
		if err != nil || o.Email != nil || o.EmailKey != nil || o.Phone != nil || o.ExternalID != nil || len(o.Metadata) != 0 {
			t.Fatalf("cleared operator = %+v (%v)", o, err)
		}
		cases := []struct {
			name   string
			path   string
			body   any
			status int
			msg    any
		}{
			{"blank name", path, map[string]any{"name": ""}, 400, []string{msgFONameEmpty}},
			{"null name", path, map[string]any{"name": nil}, 400, []string{msgFONameEmpty}},
			{"bad email", path, map[string]any{"email": "x"}, 400, []string{msgFOEmailInvalid}},
			{"type is not editable", path, map[string]any{"type": "ACTIVATOR"}, 400, []string{"property type should not exist"}},
			{"email of another operator", path, map[string]any{"email": "Carl@X.test"}, 409, `An operator with email "Carl@X.test" already exists`},
			{"external id of another operator", "/api/operators/" + carl, map[string]any{"external_id": "S-1x"}, 0, nil},
			{"another tenant's operator", "/api/operators/" + foreign, map[string]any{"name": "X"}, 404, msgFOOperatorNotFound},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				res := env.Do("PATCH", c.path, c.body, w.ha)
				if c.status == 0 {
					if res.Status != 200 {
						t.Fatalf("%d %s", res.Status, res.Body)
					}
					return
				}
				apptest.ExpectError(t, res, c.status, c.msg)
			})
		}
		// (type, external_id) taken by another operator of the same type.
		apptest.ExpectError(t, env.Do("PATCH", "/api/operators/"+ana, map[string]any{"external_id": "S-1x"}, w.ha), 409,
			`An operator of type SALESMAN with external_id "S-1x" already exists`)
		// Its own values are not a conflict.
		if res := env.Do("PATCH", "/api/operators/"+carl, map[string]any{"email": "carl@x.test", "external_id": "S-1x"}, w.ha); res.Status != 200 {
			t.Fatalf("own values: %d %s", res.Status, res.Body)
		}
		// A viewer may read but not edit.
		env.CreateUser(w.a.TenantID, "vera", auth.RoleViewer)
		vh := apptest.JWT(env.Login("vera"), w.a.TenantID, uuid.Nil)
		if res := env.Do("GET", "/api/operators/"+ana, nil, vh); res.Status != 200 {
			t.Fatalf("viewer get: %d %s", res.Status, res.Body)
		}
		apptest.ExpectError(t, env.Do("PATCH", path, map[string]any{"name": "X"}, vh), 403, "Required permissions: operator:manage")
	})
}

func TestOperatorDeleteArchives(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newFOWorld(env)
		body := map[string]any{"type": "SALESMAN", "name": "Ana", "email": "ana@x.test", "external_id": "S-1"}
		ana := foID(t, w, w.ha, "/api/operators", body)
		foreign := foID(t, w, w.hb, "/api/operators", body)
		// An fde (no operator:delete) is refused.
		env.CreateUser(w.a.TenantID, "fiona", auth.RoleFDE)
		fh := apptest.JWT(env.Login("fiona"), w.a.TenantID, uuid.Nil)
		apptest.ExpectError(t, env.Do("DELETE", "/api/operators/"+ana, nil, fh), 403, "Required permissions: operator:delete")
		apptest.ExpectError(t, env.Do("DELETE", "/api/operators/"+foreign, nil, w.ha), 404, msgFOOperatorNotFound)

		foExpect(t, env.Do("DELETE", "/api/operators/"+ana, nil, w.ha), 204, nil)
		apptest.ExpectError(t, env.Do("GET", "/api/operators/"+ana, nil, w.ha), 404, msgFOOperatorNotFound)
		apptest.ExpectError(t, env.Do("PATCH", "/api/operators/"+ana, map[string]any{"name": "X"}, w.ha), 404, msgFOOperatorNotFound)
		apptest.ExpectError(t, env.Do("DELETE", "/api/operators/"+ana, nil, w.ha), 404, msgFOOperatorNotFound)
		foExpect(t, env.Do("GET", "/api/operators", nil, w.ha), 200,
			map[string]any{"data": []any{}, "meta": map[string]any{"page": 1, "limit": 25, "total": 0, "totalPages": 0}})
		foTrashed(t, env, trashrecord.KindOPERATOR, ana)
		rec, err := env.App.DB.Client.TrashRecord.Query().Where(trashrecord.RecordID(uuid.MustParse(ana))).Only(sys)
		if err != nil || rec.TenantID != w.a.TenantID || rec.Label != "Ana" || rec.DeletedBy == nil || *rec.DeletedBy != w.a.UserID {
			t.Fatalf("trash record = %+v (%v)", rec, err)
		}
		// The row stays (restorable) and its email and external id are free again.
		o, err := env.App.DB.Client.Operator.Query().Where(operator.ID(uuid.MustParse(ana)), operator.ArchivedAtNotNil()).Only(withArchived)
		if err != nil || o.Name != "Ana" {
			t.Fatalf("archived row: %v %v", o, err)
		}
		foID(t, w, w.ha, "/api/operators", body)
		// Tenant B's operator is untouched.
		if res := env.Do("GET", "/api/operators/"+foreign, nil, w.hb); res.Status != 200 {
			t.Fatalf("tenant B operator: %d %s", res.Status, res.Body)
		}
	})
}

// foItems builds n operator items.
func foItems(n int, prefix string) []map[string]any {
	items := make([]map[string]any, n)
	for i := range items {
		items[i] = map[string]any{"external_id": fmt.Sprintf("%s-%05d", prefix, i), "type": "SALESMAN", "name": fmt.Sprintf("Op %d", i)}
	}
	return items
}

var withArchived = viewer.WithArchived(sys)

// foOperatorCount counts the live operators of a tenant.
func foOperatorCount(t *testing.T, env *apptest.Env, tenantID uuid.UUID) int {
	t.Helper()
	n, err := env.App.DB.Client.Operator.Query().Where(operator.TenantID(tenantID)).Count(sys)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
