package rest_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

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
