package rest_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/commerceaddress"
	"github.com/reten-io/reten/ent/commercecontact"
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

func TestCommerceAddresses(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newCMWorld(t, env)
		cID := w.commerce("Bodega")
		other := w.commerce("Otra")
		base := "/commerces/" + cID + "/addresses"

		first := w.address(cID, map[string]any{"source": "INTEGRATION", "address_alias": "Casa Matriz", "country_code": "CL",
			"region": "RM", "commune": "Providencia", "city": "Santiago", "street": "Av. Providencia", "street_number": "1234",
			"unit": "Of. 5", "formatted_address": "Av. Providencia 1234, Of. 5", "latitude": -33.4263, "longitude": -70.6170})
		want := map[string]any{"commerceId": cID, "source": "INTEGRATION", "addressAlias": "Casa Matriz", "isPrimary": true,
			"countryCode": "CL", "region": "RM", "commune": "Providencia", "city": "Santiago", "street": "Av. Providencia",
			"streetNumber": "1234", "unit": "Of. 5", "formattedAddress": "Av. Providencia 1234, Of. 5", "latitude": -33.4263,
			"longitude": -70.617, "isActive": true}
		if cmJSON(cmWithout(first, "id", "createdAt", "updatedAt")) != cmJSON(want) {
			t.Fatalf("first address = %v\nwant %v", first, want)
		}
		// The first active address is primary; the next ones are not.
		second := w.address(cID, map[string]any{"address_alias": "Bodega 2"})
		if second["isPrimary"] != false || second["latitude"] != nil || second["city"] != nil {
			t.Fatalf("second = %v", second)
		}
		// An inactive first address of another commerce is not primary.
		if a := w.address(other, map[string]any{"is_active": false}); a["isPrimary"] != false {
			t.Fatalf("inactive address primary: %v", a)
		}
		if a := w.address(other, map[string]any{}); a["isPrimary"] != true {
			t.Fatalf("first active address of other not primary: %v", a)
		}
		// is_primary true takes over in the same transaction.
		third := w.address(cID, map[string]any{"address_alias": "Nueva", "is_primary": true})
		if third["isPrimary"] != true || strings.Join(w.primaries(cID), ",") != third["id"] {
			t.Fatalf("third = %v, primaries %v", third, w.primaries(cID))
		}
		// set-primary returns the updated address and unsets the previous one.
		sp := w.do("POST", base+"/"+second["id"].(string)+"/set-primary", nil, 200)
		if sp["id"] != second["id"] || sp["isPrimary"] != true || strings.Join(w.primaries(cID), ",") != second["id"] {
			t.Fatalf("set-primary = %v, primaries %v", sp, w.primaries(cID))
		}
		// Again: idempotent.
		w.do("POST", base+"/"+second["id"].(string)+"/set-primary", nil, 200)

		// PATCH accepts exactly the listed fields.
		p := w.do("PATCH", base+"/"+first["id"].(string), map[string]any{"address_alias": "HQ", "city": "", "latitude": 10,
			"longitude": -20.5, "street_number": "99"}, 200)
		if p["addressAlias"] != "HQ" || p["city"] != nil || p["latitude"] != 10.0 || p["longitude"] != -20.5 ||
			p["streetNumber"] != "99" || p["region"] != "RM" || p["source"] != "INTEGRATION" {
			t.Fatalf("patched = %v", p)
		}
		w.expect(w.h, "PATCH", base+"/"+first["id"].(string), map[string]any{"is_primary": true, "source": "RETEN"}, 400,
			[]string{"property is_primary should not exist", "property source should not exist"})

		// Deactivating the primary promotes the oldest other active address.
		d := w.do("PATCH", base+"/"+second["id"].(string), map[string]any{"is_active": false}, 200)
		if d["isActive"] != false || d["isPrimary"] != false || strings.Join(w.primaries(cID), ",") != first["id"] {
			t.Fatalf("deactivated = %v, primaries %v", d, w.primaries(cID))
		}
		w.expect(w.h, "POST", base+"/"+second["id"].(string)+"/set-primary", nil, 400, "An inactive address cannot be primary")
		// Reactivating does not steal the primary flag.
		if r := w.do("PATCH", base+"/"+second["id"].(string), map[string]any{"is_active": true}, 200); r["isPrimary"] != false {
			t.Fatalf("reactivated = %v", r)
		}
		// Deactivating every address leaves no primary; reactivating one makes it primary.
		for _, a := range []any{first["id"], second["id"], third["id"]} {
			w.do("PATCH", base+"/"+a.(string), map[string]any{"is_active": false}, 200)
		}
		if len(w.primaries(cID)) != 0 {
			t.Fatalf("primaries with no active address: %v", w.primaries(cID))
		}
		if r := w.do("PATCH", base+"/"+third["id"].(string), map[string]any{"is_active": true}, 200); r["isPrimary"] != true {
			t.Fatalf("only active address not primary: %v", r)
		}

		// List (paginated, oldest first) and detail.
		l := w.do("GET", base+"?per_page=2", nil, 200)
		data := l["data"].([]any)
		if len(data) != 2 || data[0].(map[string]any)["id"] != first["id"] || cmJSON(l["meta"]) != `{"limit":2,"page":1,"total":3,"totalPages":2}` {
			t.Fatalf("list = %v", l)
		}
		if det := w.do("GET", "/commerces/"+cID, nil, 200); len(det["addresses"].([]any)) != 3 {
			t.Fatalf("detail addresses = %v", det["addresses"])
		}

		// Validation.
		cases := []struct {
			name string
			body any
			msg  any
		}{
			{"missing source", map[string]any{}, []string{"source must be one of the following values: RETEN, INTEGRATION"}},
			{"bad source", map[string]any{"source": "SAP"}, []string{"source must be one of the following values: RETEN, INTEGRATION"}},
			{"source type", map[string]any{"source": 1}, []string{"source must be one of the following values: RETEN, INTEGRATION"}},
			{"coordinates", map[string]any{"source": "RETEN", "latitude": -90.5, "longitude": 180.01},
				[]string{"latitude must not be less than -90", "longitude must not be greater than 180"}},
			{"coordinates 2", map[string]any{"source": "RETEN", "latitude": 91, "longitude": -181},
				[]string{"latitude must not be greater than 90", "longitude must not be less than -180"}},
			{"types", map[string]any{"source": "RETEN", "latitude": "1", "longitude": true, "city": 3, "is_primary": "y", "is_active": 1},
				[]string{"city must be a string", "latitude must be a number", "longitude must be a number",
					"is_primary must be a boolean value", "is_active must be a boolean value"}},
			{"primary inactive", map[string]any{"source": "RETEN", "is_primary": true, "is_active": false},
				[]string{"is_primary must not be true when is_active is false"}},
			{"unknown", map[string]any{"source": "RETEN", "zip": "1"}, []string{"property zip should not exist"}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { w.expect(w.h, "POST", base, c.body, 400, c.msg) })
		}
		// Boundaries are accepted.
		w.address(cID, map[string]any{"latitude": -90, "longitude": 180})
		w.expect(w.h, "PATCH", base+"/"+first["id"].(string), map[string]any{"latitude": 90.1}, 400, []string{"latitude must not be greater than 90"})

		// The parent chain must hold: another commerce's address, another tenant's commerce.
		oa := w.address(other, map[string]any{})["id"].(string)
		w.expect(w.h, "PATCH", base+"/"+oa, map[string]any{"city": "x"}, 404, "Address not found")
		w.expect(w.h, "POST", base+"/"+oa+"/set-primary", nil, 404, "Address not found")
		w.expect(w.h, "POST", base+"/"+uuid.NewString()+"/set-primary", nil, 404, "Address not found")
		w.expect(w.h, "POST", base+"/x/set-primary", nil, 400, "Validation failed (uuid is expected)")
		for _, c := range []struct {
			method, path string
			body         any
		}{
			{"GET", base, nil},
			{"POST", base, map[string]any{"source": "RETEN"}},
			{"PATCH", base + "/" + first["id"].(string), map[string]any{"city": "x"}},
			{"POST", base + "/" + first["id"].(string) + "/set-primary", nil},
		} {
			w.expect(w.bh, c.method, c.path, c.body, 404, "Commerce not found")
		}
		// Beta changed nothing.
		a, err := env.App.DB.Client.CommerceAddress.Get(sys, uuid.MustParse(first["id"].(string)))
		if err != nil || a.City != "" || a.AddressAlias != "HQ" {
			t.Fatalf("address after Beta's attempts: %+v %v", a, err)
		}
		// Permissions: a viewer lists but does not write.
		env.CreateUser(w.acme.TenantID, "vera", auth.RoleViewer)
		vh := apptest.JWT(env.Login("vera"), w.acme.TenantID, uuid.Nil)
		if res := env.Do("GET", "/api"+base, nil, vh); res.Status != 200 {
			t.Fatalf("viewer list: %d %s", res.Status, res.Body)
		}
		w.expect(vh, "POST", base+"/"+first["id"].(string)+"/set-primary", nil, 403, "Required permissions: commerce:manage")
	})
}

// TestCommerceAddressPrimaryRace: concurrent set-primary calls on different
// addresses of one commerce all succeed and leave exactly one primary.
func TestCommerceAddressPrimaryRace(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newCMWorld(t, env)
		cID := w.commerce("Bodega")
		var ids []string
		for range 8 {
			ids = append(ids, w.address(cID, map[string]any{})["id"].(string))
		}
		for round := range 3 {
			var wg sync.WaitGroup
			statuses := make([]int, len(ids))
			bodies := make([]string, len(ids))
			for i, id := range ids {
				wg.Add(1)
				go func() {
					defer wg.Done()
					var res *apptest.Response
					if i%2 == 1 && round == 2 {
						// Mix creations with is_primary in the last round.
						res = env.Do("POST", "/api/commerces/"+cID+"/addresses", map[string]any{"source": "RETEN", "is_primary": true}, w.h)
					} else {
						res = env.Do("POST", "/api/commerces/"+cID+"/addresses/"+id+"/set-primary", nil, w.h)
					}
					statuses[i], bodies[i] = res.Status, string(res.Body)
				}()
			}
			wg.Wait()
			for i, s := range statuses {
				if s != 200 && s != 201 {
					t.Fatalf("round %d call %d: %d %s", round, i, s, bodies[i])
				}
			}
			if p := w.primaries(cID); len(p) != 1 {
				t.Fatalf("round %d: primaries = %v, want exactly one", round, p)
			}
		}
	})
}

func TestCommerceUsersRolesContacts(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newCMWorld(t, env)
		cID := w.commerce("Bodega")
		other := w.commerce("Otra")
		users := "/commerces/" + cID + "/users"

		u := w.do("POST", users, map[string]any{"name": " Ana ", "external_id": "U-1", "source": "INTEGRATION",
			"roles": []string{"OTHER", "OWNER", "FINANCE", "OWNER"}}, 201)
		want := map[string]any{"commerceId": cID, "name": "Ana", "externalId": "U-1", "source": "INTEGRATION", "isActive": true,
			"roles": []string{"OWNER", "FINANCE", "OTHER"}, "contacts": []any{}}
		if cmJSON(cmWithout(u, "id", "createdAt", "updatedAt")) != cmJSON(want) {
			t.Fatalf("user = %v\nwant %v", u, want)
		}
		uID := u["id"].(string)
		// Everything is optional; source defaults to RETEN.
		bare := w.do("POST", users, nil, 201)
		if bare["name"] != nil || bare["externalId"] != nil || bare["source"] != "RETEN" || cmJSON(bare["roles"]) != "[]" {
			t.Fatalf("bare user = %v", bare)
		}
		w.expect(w.h, "POST", users, map[string]any{"external_id": "U-1"}, 409, `A commerce user with external_id "U-1" already exists in this commerce`)
		w.do("POST", "/commerces/"+other+"/users", map[string]any{"external_id": "U-1"}, 201) // unique per commerce only
		for _, c := range []struct {
			body any
			msg  any
		}{
			{map[string]any{"roles": []string{"OWNER", "BOSS"}}, []string{"each value in roles must be one of the following values: OWNER, ORDERS, FINANCE, ATTENTION, ADMIN, COMMERCE_REP, OTHER"}},
			{map[string]any{"roles": "OWNER"}, []string{"roles must be an array of strings"}},
			{map[string]any{"source": "CRM"}, []string{"source must be one of the following values: RETEN, INTEGRATION"}},
			{map[string]any{"name": 1, "external_id": false}, []string{"name must be a string", "external_id must be a string"}},
			{map[string]any{"email": "x"}, []string{"property email should not exist"}},
		} {
			w.expect(w.h, "POST", users, c.body, 400, c.msg)
		}

		// PATCH: name, external_id, is_active.
		p := w.do("PATCH", users+"/"+uID, map[string]any{"name": "Ana María", "external_id": "U-2", "is_active": false}, 200)
		if p["name"] != "Ana María" || p["externalId"] != "U-2" || p["isActive"] != false || cmJSON(p["roles"]) != `["OWNER","FINANCE","OTHER"]` {
			t.Fatalf("patched user = %v", p)
		}
		w.do("POST", users, map[string]any{"external_id": "U-3"}, 201)
		w.expect(w.h, "PATCH", users+"/"+uID, map[string]any{"external_id": "U-3"}, 409, `A commerce user with external_id "U-3" already exists in this commerce`)
		w.expect(w.h, "PATCH", users+"/"+uID, map[string]any{"roles": []string{}}, 400, []string{"property roles should not exist"})

		// Roles: add (idempotent), remove (204, idempotent), validation.
		r := w.do("POST", users+"/"+uID+"/roles", map[string]any{"role": "ADMIN"}, 201)
		if cmJSON(r["roles"]) != `["OWNER","FINANCE","ADMIN","OTHER"]` {
			t.Fatalf("roles after add = %v", r["roles"])
		}
		if r := w.do("POST", users+"/"+uID+"/roles", map[string]any{"role": "ADMIN"}, 201); cmJSON(r["roles"]) != `["OWNER","FINANCE","ADMIN","OTHER"]` {
			t.Fatalf("roles after second add = %v", r["roles"])
		}
		msgRole := "role must be one of the following values: OWNER, ORDERS, FINANCE, ATTENTION, ADMIN, COMMERCE_REP, OTHER"
		w.expect(w.h, "POST", users+"/"+uID+"/roles", map[string]any{}, 400, []string{msgRole})
		w.expect(w.h, "POST", users+"/"+uID+"/roles", map[string]any{"role": "owner"}, 400, []string{msgRole})
		w.expect(w.h, "POST", users+"/"+uID+"/roles", map[string]any{"role": 3}, 400, []string{msgRole})
		w.do("DELETE", users+"/"+uID+"/roles/FINANCE", nil, 204)
		w.do("DELETE", users+"/"+uID+"/roles/FINANCE", nil, 204)
		w.expect(w.h, "DELETE", users+"/"+uID+"/roles/BOSS", nil, 400, []string{msgRole})
		if got := w.do("GET", users, nil, 200)["data"].([]any)[0].(map[string]any); cmJSON(got["roles"]) != `["OWNER","ADMIN","OTHER"]` {
			t.Fatalf("roles after delete = %v", got["roles"])
		}

		// Contacts.
		contacts := users + "/" + uID + "/contacts"
		c1 := w.do("POST", contacts, map[string]any{"contact_type": "EMAIL", "value": " ana@bodega.cl ", "source": "RETEN"}, 201)
		wantC := map[string]any{"commerceUserId": uID, "contactType": "EMAIL", "value": "ana@bodega.cl", "source": "RETEN",
			"isPrimary": true, "isActive": true}
		if cmJSON(cmWithout(c1, "id", "createdAt", "updatedAt")) != cmJSON(wantC) {
			t.Fatalf("contact = %v\nwant %v", c1, wantC)
		}
		c2 := w.do("POST", contacts, map[string]any{"contact_type": "EMAIL", "value": "compras@bodega.cl", "source": "INTEGRATION"}, 201)
		phone := w.do("POST", contacts, map[string]any{"contact_type": "PHONE", "value": "+56912345678", "source": "RETEN", "is_primary": false}, 201)
		wa := w.do("POST", contacts, map[string]any{"contact_type": "WHATSAPP", "value": "+14155552671", "source": "RETEN"}, 201)
		oth := w.do("POST", contacts, map[string]any{"contact_type": "OTHER", "value": "@bodega_ig", "source": "RETEN"}, 201)
		if c2["isPrimary"] != false || phone["isPrimary"] != true || wa["isPrimary"] != true || oth["isPrimary"] != true {
			t.Fatalf("first of each type should be primary: %v %v %v %v", c2, phone, wa, oth)
		}
		// is_primary true takes over its type only.
		c3 := w.do("POST", contacts, map[string]any{"contact_type": "EMAIL", "value": "jefe@bodega.cl", "source": "RETEN", "is_primary": true}, 201)
		primaryOf := func(ct string) []string {
			cs, err := env.App.DB.Client.CommerceContact.Query().Where(commercecontact.CommerceUserID(uuid.MustParse(uID)),
				commercecontact.ContactTypeEQ(commercecontact.ContactType(ct)), commercecontact.IsPrimary(true)).All(sys)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, c := range cs {
				ids = append(ids, c.ID.String())
			}
			return ids
		}
		if c3["isPrimary"] != true || strings.Join(primaryOf("EMAIL"), ",") != c3["id"] || strings.Join(primaryOf("PHONE"), ",") != phone["id"] {
			t.Fatalf("primary after is_primary create: %v / %v", primaryOf("EMAIL"), primaryOf("PHONE"))
		}
		sp := w.do("POST", contacts+"/"+c2["id"].(string)+"/set-primary", nil, 200)
		if sp["isPrimary"] != true || sp["id"] != c2["id"] || strings.Join(primaryOf("EMAIL"), ",") != c2["id"] {
			t.Fatalf("set-primary contact = %v, primaries %v", sp, primaryOf("EMAIL"))
		}
		// Deactivating the primary email promotes the oldest other active email.
		d := w.do("PATCH", contacts+"/"+c2["id"].(string), map[string]any{"is_active": false}, 200)
		if d["isPrimary"] != false || strings.Join(primaryOf("EMAIL"), ",") != c1["id"] {
			t.Fatalf("deactivated = %v, primaries %v", d, primaryOf("EMAIL"))
		}
		w.expect(w.h, "POST", contacts+"/"+c2["id"].(string)+"/set-primary", nil, 400, "An inactive contact cannot be primary")
		// PATCH validates the value against the contact's type.
		pc := w.do("PATCH", contacts+"/"+phone["id"].(string), map[string]any{"value": "+56222222222", "source": "INTEGRATION"}, 200)
		if pc["value"] != "+56222222222" || pc["source"] != "INTEGRATION" || pc["contactType"] != "PHONE" {
			t.Fatalf("patched contact = %v", pc)
		}
		w.expect(w.h, "PATCH", contacts+"/"+phone["id"].(string), map[string]any{"value": "56222222222"}, 400,
			[]string{"value must be a valid phone number in E.164 format"})
		w.expect(w.h, "PATCH", contacts+"/"+c1["id"].(string), map[string]any{"value": "not-an-email"}, 400, []string{"value must be an email"})
		w.expect(w.h, "PATCH", contacts+"/"+c1["id"].(string), map[string]any{"value": ""}, 400, []string{"value should not be empty"})
		w.expect(w.h, "PATCH", contacts+"/"+c1["id"].(string), map[string]any{"contact_type": "PHONE", "is_primary": true}, 400,
			[]string{"property contact_type should not exist", "property is_primary should not exist"})

		msgPhone := "value must be a valid phone number in E.164 format"
		cases := []struct {
			name string
			body map[string]any
			msg  []string
		}{
			{"email", map[string]any{"contact_type": "EMAIL", "value": "ana@", "source": "RETEN"}, []string{"value must be an email"}},
			{"email with name", map[string]any{"contact_type": "EMAIL", "value": "Ana <ana@b.cl>", "source": "RETEN"}, []string{"value must be an email"}},
			{"email no dot", map[string]any{"contact_type": "EMAIL", "value": "ana@localhost", "source": "RETEN"}, []string{"value must be an email"}},
			{"phone no plus", map[string]any{"contact_type": "PHONE", "value": "56912345678", "source": "RETEN"}, []string{msgPhone}},
			{"phone leading zero", map[string]any{"contact_type": "PHONE", "value": "+056912345678", "source": "RETEN"}, []string{msgPhone}},
			{"phone too long", map[string]any{"contact_type": "PHONE", "value": "+1234567890123456", "source": "RETEN"}, []string{msgPhone}},
			{"phone spaces", map[string]any{"contact_type": "PHONE", "value": "+56 9 1234 5678", "source": "RETEN"}, []string{msgPhone}},
			{"whatsapp", map[string]any{"contact_type": "WHATSAPP", "value": "+5", "source": "RETEN"}, []string{msgPhone}},
			{"whatsapp letters", map[string]any{"contact_type": "WHATSAPP", "value": "+56abc", "source": "RETEN"}, []string{msgPhone}},
			{"missing all", map[string]any{}, []string{"contact_type must be one of the following values: EMAIL, PHONE, WHATSAPP, OTHER",
				"value should not be empty", "source must be one of the following values: RETEN, INTEGRATION"}},
			{"bad type", map[string]any{"contact_type": "FAX", "value": "123", "source": "RETEN"},
				[]string{"contact_type must be one of the following values: EMAIL, PHONE, WHATSAPP, OTHER"}},
			{"types", map[string]any{"contact_type": "EMAIL", "value": 5, "source": "RETEN", "is_primary": "no"},
				[]string{"value must be a string", "is_primary must be a boolean value"}},
			{"is_active not accepted", map[string]any{"contact_type": "OTHER", "value": "x", "source": "RETEN", "is_active": true},
				[]string{"property is_active should not exist"}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { w.expect(w.h, "POST", contacts, c.body, 400, c.msg) })
		}
		// Shortest and longest valid E.164 numbers.
		w.do("POST", contacts, map[string]any{"contact_type": "PHONE", "value": "+12", "source": "RETEN"}, 201)
		w.do("POST", contacts, map[string]any{"contact_type": "WHATSAPP", "value": "+123456789012345", "source": "RETEN"}, 201)

		// The detail and the user list carry roles and contacts.
		det := w.do("GET", "/commerces/"+cID, nil, 200)
		du := det["users"].([]any)[0].(map[string]any)
		if du["id"] != uID || len(du["contacts"].([]any)) != 8 || cmJSON(du["roles"]) != `["OWNER","ADMIN","OTHER"]` ||
			du["contacts"].([]any)[0].(map[string]any)["id"] != c1["id"] {
			t.Fatalf("detail user = %v", du)
		}
		if l := w.do("GET", users+"?per_page=1", nil, 200); cmJSON(l["meta"]) != `{"limit":1,"page":1,"total":3,"totalPages":3}` {
			t.Fatalf("user list meta = %v", l["meta"])
		}

		// Parent chain: another commerce's user, another user's contact, another tenant.
		ou := w.do("POST", "/commerces/"+other+"/users", map[string]any{"external_id": "O-1"}, 201)["id"].(string)
		oc := w.do("POST", "/commerces/"+other+"/users/"+ou+"/contacts", map[string]any{"contact_type": "OTHER", "value": "x", "source": "RETEN"}, 201)["id"].(string)
		w.expect(w.h, "PATCH", users+"/"+ou, map[string]any{"name": "x"}, 404, "Commerce user not found")
		w.expect(w.h, "POST", users+"/"+ou+"/roles", map[string]any{"role": "OWNER"}, 404, "Commerce user not found")
		w.expect(w.h, "DELETE", users+"/"+ou+"/roles/OWNER", nil, 404, "Commerce user not found")
		w.expect(w.h, "POST", users+"/"+ou+"/contacts", map[string]any{"contact_type": "OTHER", "value": "x", "source": "RETEN"}, 404, "Commerce user not found")
		w.expect(w.h, "PATCH", contacts+"/"+oc, map[string]any{"value": "y"}, 404, "Contact not found")
		w.expect(w.h, "POST", contacts+"/"+oc+"/set-primary", nil, 404, "Contact not found")
		w.expect(w.h, "POST", contacts+"/"+uuid.NewString()+"/set-primary", nil, 404, "Contact not found")
		w.expect(w.h, "POST", users+"/x/roles", map[string]any{"role": "OWNER"}, 400, "Validation failed (uuid is expected)")
		for _, c := range []struct {
			method, path string
			body         any
		}{
			{"GET", users, nil},
			{"POST", users, map[string]any{}},
			{"PATCH", users + "/" + uID, map[string]any{"name": "x"}},
			{"POST", users + "/" + uID + "/roles", map[string]any{"role": "OWNER"}},
			{"DELETE", users + "/" + uID + "/roles/OWNER", nil},
			{"POST", contacts, map[string]any{"contact_type": "OTHER", "value": "x", "source": "RETEN"}},
			{"PATCH", contacts + "/" + c1["id"].(string), map[string]any{"value": "b@b.cl"}},
			{"POST", contacts + "/" + c1["id"].(string) + "/set-primary", nil},
		} {
			w.expect(w.bh, c.method, c.path, c.body, 404, "Commerce not found")
		}
		if n, _ := env.App.DB.Client.CommerceUserRole.Query().Count(sys); n != 3 {
			t.Fatalf("roles after Beta's attempts = %d, want 3", n)
		}
		// A deleted commerce takes its children out of reach.
		w.do("DELETE", "/commerces/"+cID, nil, 204)
		w.expect(w.h, "POST", users+"/"+uID+"/roles", map[string]any{"role": "OWNER"}, 404, "Commerce not found")
		w.expect(w.h, "GET", users, nil, 404, "Commerce not found")
	})
}

// TestCommerceContactPrimaryRace: concurrent set-primary calls on different
// contacts of one type leave exactly one primary contact of that type.
func TestCommerceContactPrimaryRace(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newCMWorld(t, env)
		cID := w.commerce("Bodega")
		uID := w.do("POST", "/commerces/"+cID+"/users", map[string]any{"name": "Ana"}, 201)["id"].(string)
		contacts := "/commerces/" + cID + "/users/" + uID + "/contacts"
		var ids []string
		for i := range 8 {
			ids = append(ids, w.do("POST", contacts, map[string]any{"contact_type": "WHATSAPP",
				"value": fmt.Sprintf("+5691234560%d", i), "source": "RETEN"}, 201)["id"].(string))
		}
		w.do("POST", contacts, map[string]any{"contact_type": "EMAIL", "value": "a@b.cl", "source": "RETEN"}, 201)
		for round := range 3 {
			var wg sync.WaitGroup
			statuses := make([]int, len(ids))
			bodies := make([]string, len(ids))
			for i, id := range ids {
				wg.Add(1)
				go func() {
					defer wg.Done()
					var res *apptest.Response
					if i%2 == 0 && round == 2 {
						res = env.Do("POST", "/api"+contacts, map[string]any{"contact_type": "WHATSAPP",
							"value": fmt.Sprintf("+5697654320%d", i), "source": "RETEN", "is_primary": true}, w.h)
					} else {
						res = env.Do("POST", "/api"+contacts+"/"+id+"/set-primary", nil, w.h)
					}
					statuses[i], bodies[i] = res.Status, string(res.Body)
				}()
			}
			wg.Wait()
			for i, s := range statuses {
				if s != 200 && s != 201 {
					t.Fatalf("round %d call %d: %d %s", round, i, s, bodies[i])
				}
			}
			for ct, want := range map[commercecontact.ContactType]int{commercecontact.ContactTypeWHATSAPP: 1, commercecontact.ContactTypeEMAIL: 1} {
				n, err := env.App.DB.Client.CommerceContact.Query().Where(commercecontact.CommerceUserID(uuid.MustParse(uID)),
					commercecontact.ContactTypeEQ(ct), commercecontact.IsPrimary(true), commercecontact.IsActive(true)).Count(sys)
				if err != nil || n != want {
					t.Fatalf("round %d: %s primaries = %d (%v), want %d", round, ct, n, err, want)
				}
			}
		}
	})
}
