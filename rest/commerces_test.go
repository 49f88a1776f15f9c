package rest_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/commerceaddress"
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

// cmWorld is tenant Acme (where the tests act) and tenant Beta (whose
// super_admin must never reach Acme's commerces).
type cmWorld struct {
	t      *testing.T
	env    *apptest.Env
	acme   apptest.Tenant
	beta   apptest.Tenant
	h, bh  apptest.Headers
	nextID int
}

func newCMWorld(t *testing.T, env *apptest.Env) *cmWorld {
	w := &cmWorld{t: t, env: env, acme: env.Bootstrap("Acme"), beta: env.Bootstrap("Beta")}
	w.h = apptest.JWT(env.Login(w.acme.Email), w.acme.TenantID, uuid.Nil)
	w.bh = apptest.JWT(env.Login(w.beta.Email), w.beta.TenantID, uuid.Nil)
	return w
}

// do sends a request as Acme's super_admin and requires the status.
func (w *cmWorld) do(method, path string, body any, status int) map[string]any {
	w.t.Helper()
	res := w.env.Do(method, "/api"+path, body, w.h)
	if res.Status != status {
		w.t.Fatalf("%s %s: status %d, want %d; body %s", method, path, res.Status, status, res.Body)
	}
	if status == 204 {
		if len(res.Body) != 0 {
			w.t.Fatalf("%s %s: 204 with body %s", method, path, res.Body)
		}
		return nil
	}
	return res.Map(w.t)
}

// expect sends a request with headers h and asserts the error envelope.
func (w *cmWorld) expect(h apptest.Headers, method, path string, body any, status int, msg any) {
	w.t.Helper()
	apptest.ExpectError(w.t, w.env.Do(method, "/api"+path, body, h), status, msg)
}

func (w *cmWorld) commerce(name string) string {
	w.t.Helper()
	w.nextID++
	return w.do("POST", "/commerces", map[string]any{"name": name, "external_id": fmt.Sprintf("EXT-%d", w.nextID)}, 201)["id"].(string)
}

func (w *cmWorld) address(cID string, body map[string]any) map[string]any {
	w.t.Helper()
	if _, ok := body["source"]; !ok {
		body["source"] = "RETEN"
	}
	return w.do("POST", "/commerces/"+cID+"/addresses", body, 201)
}

// primaries returns the ids of the commerce's active primary addresses.
func (w *cmWorld) primaries(cID string) []string {
	w.t.Helper()
	as, err := w.env.App.DB.Client.CommerceAddress.Query().Where(commerceaddress.CommerceID(uuid.MustParse(cID)),
		commerceaddress.IsPrimary(true)).All(sys)
	if err != nil {
		w.t.Fatal(err)
	}
	var out []string
	for _, a := range as {
		if !a.IsActive {
			w.t.Fatalf("inactive address %s is primary", a.ID)
		}
		out = append(out, a.ID.String())
	}
	return out
}

// cmJSON is the canonical JSON of v (for exact comparisons).
func cmJSON(v any) string {
	raw, _ := json.Marshal(v)
	var back any
	_ = json.Unmarshal(raw, &back)
	out, _ := json.Marshal(back)
	return string(out)
}

// without returns m minus the named members.
func cmWithout(m map[string]any, names ...string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for _, n := range names {
		delete(out, n)
	}
	return out
}

func TestCommerceCreateAndValidation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newCMWorld(t, env)
		got := w.do("POST", "/commerces", map[string]any{"external_id": " C-001 ", "name": "  Bodega Don Pepe ",
			"tax_id": "76.123.456-7", "segment": "Minimarket", "metadata": map[string]any{"tier": "gold", "n": 12345678901234}}, 201)
		want := map[string]any{"externalId": "C-001", "name": "Bodega Don Pepe", "taxId": "76.123.456-7",
			"segment": "Minimarket", "isActive": true, "metadata": map[string]any{"tier": "gold", "n": 12345678901234}}
		if cmJSON(cmWithout(got, "id", "createdAt", "updatedAt")) != cmJSON(want) {
			t.Fatalf("created = %v\nwant %v", got, want)
		}
		if got["createdAt"] == nil || got["updatedAt"] == nil {
			t.Fatalf("timestamps missing: %v", got)
		}

		// A missing external_id is stored as NULL, not "" (several commerces may lack one).
		for range 2 {
			min := w.do("POST", "/commerces", map[string]any{"name": "Sin Código", "is_active": false}, 201)
			if min["externalId"] != nil || min["taxId"] != nil || min["segment"] != nil || min["isActive"] != false ||
				cmJSON(min["metadata"]) != "{}" {
				t.Fatalf("minimal commerce = %v", min)
			}
			c, err := env.App.DB.Client.Commerce.Get(sys, uuid.MustParse(min["id"].(string)))
			if err != nil || c.ExternalID != nil {
				t.Fatalf("external_id stored as %v (%v), want NULL", c.ExternalID, err)
			}
		}
		w.do("POST", "/commerces", map[string]any{"name": "Blank code", "external_id": "  "}, 201)
		if n, _ := env.App.DB.Client.Commerce.Query().Where(commerce.ExternalIDIsNil()).Count(sys); n != 3 {
			t.Fatalf("commerces with NULL external_id = %d, want 3", n)
		}

		cases := []struct {
			name string
			body any
			msg  any
		}{
			{"missing name", map[string]any{}, []string{"name should not be empty"}},
			{"blank name", map[string]any{"name": "   "}, []string{"name should not be empty"}},
			{"long name", map[string]any{"name": strings.Repeat("ñ", 256)}, []string{"name must be shorter than or equal to 255 characters"}},
			{"types", map[string]any{"name": 5, "external_id": 1, "tax_id": true, "segment": []int{}, "is_active": "yes", "metadata": []int{1}},
				[]string{"external_id must be a string", "name must be a string", "tax_id must be a string", "segment must be a string",
					"is_active must be a boolean value", "metadata must be an object"}},
			{"metadata string", map[string]any{"name": "X", "metadata": "x"}, []string{"metadata must be an object"}},
			{"unknown", map[string]any{"name": "X", "code": "y", "addresses": []any{}},
				[]string{"property addresses should not exist", "property code should not exist"}},
			{"malformed", "{", "Malformed JSON body"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { w.expect(w.h, "POST", "/commerces", c.body, 400, c.msg) })
		}

		// external_id is unique per tenant among live commerces; other tenants may reuse it.
		w.expect(w.h, "POST", "/commerces", map[string]any{"name": "Otro", "external_id": "C-001"}, 409,
			`A commerce with external_id "C-001" already exists`)
		if res := env.Do("POST", "/api/commerces", map[string]any{"name": "Beta's", "external_id": "C-001"}, w.bh); res.Status != 201 {
			t.Fatalf("other tenant, same code: %d %s", res.Status, res.Body)
		}

		// Permissions: a viewer reads but does not write; fde writes but does not delete.
		env.CreateUser(w.acme.TenantID, "vera", auth.RoleViewer)
		vh := apptest.JWT(env.Login("vera"), w.acme.TenantID, uuid.Nil)
		if res := env.Do("GET", "/api/commerces", nil, vh); res.Status != 200 {
			t.Fatalf("viewer list: %d %s", res.Status, res.Body)
		}
		w.expect(vh, "POST", "/commerces", map[string]any{"name": 1}, 403, "Required permissions: commerce:manage")
		env.CreateUser(w.acme.TenantID, "fede", auth.RoleFDE)
		fh := apptest.JWT(env.Login("fede"), w.acme.TenantID, uuid.Nil)
		w.expect(fh, "DELETE", "/commerces/"+got["id"].(string), nil, 403, "Required permissions: commerce:delete")
	})
}

func TestCommerceListGetUpdateDelete(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newCMWorld(t, env)
		mk := func(name, ext string, active bool) string {
			return w.do("POST", "/commerces", map[string]any{"name": name, "external_id": ext, "is_active": active}, 201)["id"].(string)
		}
		zeta := mk("Zeta Market", "Z-1", true)
		alpha := mk("alpha store", "A-9", true)
		mk("Bodega Central", "BC-100", false)
		mk("Kiosko", "K-77", true)
		env.Do("POST", "/api/commerces", map[string]any{"name": "Alpha Beta's", "external_id": "A-1"}, w.bh)

		list := func(query string) (names []string, meta map[string]any) {
			t.Helper()
			got := w.do("GET", "/commerces"+query, nil, 200)
			for _, it := range got["data"].([]any) {
				names = append(names, it.(map[string]any)["name"].(string))
			}
			return names, got["meta"].(map[string]any)
		}
		names, meta := list("")
		// Ordered by name (byte order of the database: upper case before lower case on both).
		if strings.Join(names, ",") != "Bodega Central,Kiosko,Zeta Market,alpha store" && strings.Join(names, ",") != "alpha store,Bodega Central,Kiosko,Zeta Market" {
			t.Fatalf("names = %v", names)
		}
		if cmJSON(meta) != `{"limit":25,"page":1,"total":4,"totalPages":1}` {
			t.Fatalf("meta = %v", meta)
		}
		for q, want := range map[string]string{
			"?search=ALPHA":                 "alpha store",
			"?search=bc-1":                  "Bodega Central",
			"?search=k-77":                  "Kiosko",
			"?is_active=false":              "Bodega Central",
			"?search=a&is_active=false":     "Bodega Central",
			"?search=zz":                    "",
			"?search=market&is_active=true": "Zeta Market",
		} {
			names, _ := list(q)
			if strings.Join(names, ",") != want {
				t.Fatalf("%s: names = %v, want %q", q, names, want)
			}
		}
		if names, meta := list("?per_page=2&page=2&is_active=true"); len(names) != 1 || cmJSON(meta) != `{"limit":2,"page":2,"total":3,"totalPages":2}` {
			t.Fatalf("page 2 = %v %v", names, meta)
		}
		w.expect(w.h, "GET", "/commerces?is_active=yes", nil, 400, []string{"is_active must be a boolean value"})
		w.expect(w.h, "GET", "/commerces?per_page=101", nil, 400, []string{"per_page must not be greater than 100"})

		// Get: the detail carries addresses and users (empty here).
		got := w.do("GET", "/commerces/"+alpha, nil, 200)
		if got["name"] != "alpha store" || cmJSON(got["addresses"]) != "[]" || cmJSON(got["users"]) != "[]" {
			t.Fatalf("detail = %v", got)
		}

		// Update.
		upd := w.do("PATCH", "/commerces/"+alpha, map[string]any{"name": " Alpha Store ", "segment": "Retail",
			"tax_id": "1-9", "metadata": map[string]any{"a": 1}, "is_active": false}, 200)
		if upd["name"] != "Alpha Store" || upd["segment"] != "Retail" || upd["taxId"] != "1-9" || upd["isActive"] != false ||
			cmJSON(upd["metadata"]) != `{"a":1}` || upd["externalId"] != "A-9" {
			t.Fatalf("updated = %v", upd)
		}
		// Blank clears an optional text; external_id becomes NULL.
		upd = w.do("PATCH", "/commerces/"+alpha, map[string]any{"segment": "", "external_id": ""}, 200)
		if upd["segment"] != nil || upd["externalId"] != nil || upd["name"] != "Alpha Store" || upd["taxId"] != "1-9" {
			t.Fatalf("cleared = %v", upd)
		}
		// Keeping one's own external_id is fine; taking another's is 409.
		w.do("PATCH", "/commerces/"+zeta, map[string]any{"external_id": "Z-1"}, 200)
		w.expect(w.h, "PATCH", "/commerces/"+zeta, map[string]any{"external_id": "K-77"}, 409, `A commerce with external_id "K-77" already exists`)
		w.expect(w.h, "PATCH", "/commerces/"+zeta, map[string]any{"name": ""}, 400, []string{"name should not be empty"})
		w.expect(w.h, "PATCH", "/commerces/"+zeta, map[string]any{"is_primary": true}, 400, []string{"property is_primary should not exist"})
		w.expect(w.h, "PATCH", "/commerces/nope", map[string]any{}, 400, "Validation failed (uuid is expected)")
		w.expect(w.h, "GET", "/commerces/"+uuid.NewString(), nil, 404, "Commerce not found")

		// Another tenant's super_admin gets 404 on every route of the commerce.
		for _, c := range []struct{ method, path string }{
			{"GET", "/commerces/" + zeta}, {"PATCH", "/commerces/" + zeta}, {"DELETE", "/commerces/" + zeta},
		} {
			w.expect(w.bh, c.method, c.path, map[string]any{}, 404, "Commerce not found")
		}
		if names, _ := func() ([]string, any) {
			res := env.Do("GET", "/api/commerces", nil, w.bh)
			return []string{string(res.Body)}, nil
		}(); strings.Contains(names[0], zeta) || !strings.Contains(names[0], "Alpha Beta's") {
			t.Fatalf("Beta's list = %s", names[0])
		}

		// Delete archives into the trash.
		w.do("DELETE", "/commerces/"+zeta, nil, 204)
		w.expect(w.h, "GET", "/commerces/"+zeta, nil, 404, "Commerce not found")
		w.expect(w.h, "PATCH", "/commerces/"+zeta, map[string]any{"name": "x"}, 404, "Commerce not found")
		w.expect(w.h, "DELETE", "/commerces/"+zeta, nil, 404, "Commerce not found")
		w.expect(w.h, "GET", "/commerces/"+zeta+"/addresses", nil, 404, "Commerce not found")
		if names, _ := list("?search=zeta"); len(names) != 0 {
			t.Fatalf("archived commerce listed: %v", names)
		}
		rec, err := env.App.DB.Client.TrashRecord.Query().Where(trashrecord.RecordID(uuid.MustParse(zeta))).Only(sys)
		if err != nil || rec.Kind != trashrecord.KindCOMMERCE || rec.Label != "Zeta Market" || rec.TenantID != w.acme.TenantID {
			t.Fatalf("trash record = %+v (%v)", rec, err)
		}
		// The archived commerce no longer holds its external_id.
		w.do("POST", "/commerces", map[string]any{"name": "Zeta 2", "external_id": "Z-1"}, 201)
	})
}
