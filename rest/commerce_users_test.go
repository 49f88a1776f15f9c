package rest_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/reten-io/reten/ent/commercecontact"
	"github.com/reten-io/reten/internal/apptest"
)

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
