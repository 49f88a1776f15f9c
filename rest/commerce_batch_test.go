package rest_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/commerceaddress"
	"github.com/reten-io/reten/ent/commercecontact"
	"github.com/reten-io/reten/ent/commerceuser"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

const cmBatchPath = "/api/integration/commerces/batch-upsert"

type cmBatchResult struct {
	Created   int `json:"created"`
	Updated   int `json:"updated"`
	Unchanged int `json:"unchanged"`
	Total     int `json:"total"`
	Errors    []struct {
		Index    int      `json:"index"`
		Messages []string `json:"messages"`
	} `json:"errors"`
}

func cmBatch(t *testing.T, env *apptest.Env, h apptest.Headers, items any) cmBatchResult {
	t.Helper()
	res := env.Do("POST", cmBatchPath, map[string]any{"items": items}, h)
	if res.Status != 201 {
		t.Fatalf("batch upsert: %d %s", res.Status, res.Body)
	}
	var out cmBatchResult
	res.JSON(t, &out)
	return out
}

// cmCommerce loads a commerce of the tenant by external id with its children.
func cmCommerce(t *testing.T, env *apptest.Env, tenantID uuid.UUID, ext string) *ent.Commerce {
	t.Helper()
	c, err := env.App.DB.Client.Commerce.Query().Where(commerce.TenantID(tenantID), commerce.ExternalID(ext)).
		WithAddresses(func(q *ent.CommerceAddressQuery) { q.Order(commerceaddress.ByAddressAlias()) }).
		WithUsers(func(q *ent.CommerceUserQuery) {
			q.Order(commerceuser.ByExternalID()).WithRoles().WithContacts(func(q *ent.CommerceContactQuery) {
				q.Order(commercecontact.ByValue())
			})
		}).Only(sys)
	if err != nil {
		t.Fatalf("commerce %s: %v", ext, err)
	}
	return c
}

// cmAddrSummary is "alias:primary:active" per address, by alias.
func cmAddrSummary(c *ent.Commerce) []string {
	var out []string
	for _, a := range c.Edges.Addresses {
		out = append(out, fmt.Sprintf("%s:%t:%t:%s:%s", a.AddressAlias, a.IsPrimary, a.IsActive, a.City, a.Source))
	}
	return out
}

// cmUserSummary is "ext name roles [type value primary active]..." per user.
func cmUserSummary(c *ent.Commerce) []string {
	var out []string
	for _, u := range c.Edges.Users {
		var roles []string
		for _, r := range u.Edges.Roles {
			roles = append(roles, string(r.Role))
		}
		slices.Sort(roles)
		s := fmt.Sprintf("%s|%s|%v|%s|%t", *u.ExternalID, u.Name, roles, u.Source, u.IsActive)
		for _, ct := range u.Edges.Contacts {
			s += fmt.Sprintf("|%s:%s:%t:%t", ct.ContactType, ct.Value, ct.IsPrimary, ct.IsActive)
		}
		out = append(out, s)
	}
	return out
}

func TestCommerceBatchUpsert(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newCMWorld(t, env)
		plain, _ := env.CreateKey(w.acme.TenantID, w.acme.UserID, uuid.Nil, auth.PermCommerceBatchUpsert)
		kh := apptest.Key(plain)

		// An existing commerce with an address, a user, a role and a contact.
		ex := w.do("POST", "/commerces", map[string]any{"name": "Existente", "external_id": "EX-1", "segment": "A"}, 201)["id"].(string)
		w.address(ex, map[string]any{"address_alias": "Casa", "city": "Antes"})
		uID := w.do("POST", "/commerces/"+ex+"/users", map[string]any{"external_id": "U-1", "name": "Ana", "roles": []string{"OWNER"}}, 201)["id"].(string)
		w.do("POST", "/commerces/"+ex+"/users/"+uID+"/contacts", map[string]any{"contact_type": "EMAIL", "value": "ana@ex.cl", "source": "RETEN"}, 201)

		items := []any{
			// 0: new, with children.
			map[string]any{"external_id": "N-1", "name": "Nuevo", "tax_id": "1-9", "metadata": map[string]any{"k": "v"},
				"addresses": []any{
					map[string]any{"address_alias": "A", "city": "Uno"},
					map[string]any{"address_alias": "B", "city": "Dos", "is_primary": true, "latitude": -33.1, "longitude": -70.2},
					map[string]any{"address_alias": "C", "is_active": false},
				},
				"users": []any{map[string]any{"external_id": "u1", "name": "Luis", "roles": []string{"OWNER", "ORDERS", "OWNER"},
					"contacts": []any{
						map[string]any{"contact_type": "EMAIL", "value": "a@n.cl"},
						map[string]any{"contact_type": "PHONE", "value": "+56911111111"},
						map[string]any{"contact_type": "EMAIL", "value": "b@n.cl", "is_primary": true},
					}}}},
			// 1: no external_id.
			map[string]any{"name": "Sin código"},
			// 2: several broken rules, children included: nothing of it is written.
			map[string]any{"external_id": "BAD-2", "addresses": []any{map[string]any{"address_alias": "A", "latitude": 100}},
				"users": []any{map[string]any{"external_id": "x", "roles": []string{"JEFE"},
					"contacts": []any{map[string]any{"contact_type": "PHONE", "value": "12345"}, map[string]any{"contact_type": "EMAIL", "value": "nope"}}}}},
			// 3: update of the existing commerce and its children.
			map[string]any{"external_id": "EX-1", "name": "Existente 2", "is_active": false,
				"addresses": []any{
					map[string]any{"address_alias": "Casa", "city": "Después"},
					map[string]any{"address_alias": "Nueva", "is_primary": true},
				},
				"users": []any{
					map[string]any{"external_id": "U-1", "roles": []string{"FINANCE"},
						"contacts": []any{map[string]any{"contact_type": "EMAIL", "value": "ana2@ex.cl", "is_primary": true},
							map[string]any{"contact_type": "EMAIL", "value": "ana@ex.cl"}}},
					map[string]any{"external_id": "U-2", "name": "Beto"},
				}},
			// 4: repeats item 0's external id.
			map[string]any{"external_id": "N-1", "name": "Otra vez"},
			// 5: not an object.
			"N-5",
			// 6: unknown property and wrong types.
			map[string]any{"external_id": "T-6", "name": "x", "foo": 1, "is_active": "yes", "addresses": map[string]any{},
				"users": []any{map[string]any{"external_id": 7, "contacts": []any{map[string]any{"contact_type": "EMAIL", "value": "a@b.cl", "bar": 1}, 3,
					map[string]any{"contact_type": 5, "value": "x"}}}}},
			// 7: new, plain.
			map[string]any{"external_id": "P-7", "name": "Plano", "is_active": false},
			// 8: a user without external id, repeated aliases, two primary addresses, two primary emails.
			map[string]any{"external_id": "Q-8", "name": "Q", "addresses": []any{
				map[string]any{"address_alias": "X", "is_primary": true}, map[string]any{"address_alias": "X", "is_primary": true},
				map[string]any{"is_primary": true, "is_active": false}},
				"users": []any{map[string]any{"name": "sin"}, map[string]any{"external_id": "d"}, map[string]any{"external_id": "d",
					"contacts": []any{map[string]any{"contact_type": "EMAIL", "value": "a@b.cl", "is_primary": true},
						map[string]any{"contact_type": "EMAIL", "value": "c@b.cl", "is_primary": true}}}}},
		}
		got := cmBatch(t, env, kh, items)
		wantErrors := []struct {
			Index    int      `json:"index"`
			Messages []string `json:"messages"`
		}{
			{1, []string{"external_id should not be empty"}},
			{2, []string{"name should not be empty", "addresses.0.latitude must not be greater than 90",
				"users.0.each value in roles must be one of the following values: OWNER, ORDERS, FINANCE, ATTENTION, ADMIN, COMMERCE_REP, OTHER",
				"users.0.contacts.0.value must be a valid phone number in E.164 format", "users.0.contacts.1.value must be an email"}},
			{4, []string{`external_id "N-1" is repeated in this request (first at index 0)`}},
			{5, []string{"each value in items must be an object"}},
			{6, []string{"property foo should not exist", "is_active must be a boolean value", "addresses must be an array",
				"users.0.external_id must be a string", "users.0.contacts.0.property bar should not exist", "users.0.contacts.1 must be an object",
				"users.0.contacts.2.contact_type must be one of the following values: EMAIL, PHONE, WHATSAPP, OTHER"}},
			{8, []string{"addresses.1.address_alias is repeated in this item", "addresses.2.address_alias should not be empty",
				"addresses.2.is_primary must not be true when is_active is false", "addresses must contain at most one primary address",
				"users.0.external_id should not be empty", "users.2.external_id is repeated in this item",
				"users.2.contacts must contain at most one primary contact per contact_type"}},
		}
		if got.Created != 2 || got.Updated != 1 || got.Total != 9 || cmJSON(got.Errors) != cmJSON(wantErrors) {
			t.Fatalf("result = %s\nwant errors %s", cmJSON(got), cmJSON(wantErrors))
		}

		// Invalid items wrote nothing.
		for _, ext := range []string{"BAD-2", "T-6", "Q-8", "N-5"} {
			if n, _ := env.App.DB.Client.Commerce.Query().Where(commerce.ExternalID(ext)).Count(sys); n != 0 {
				t.Fatalf("invalid item %s was written", ext)
			}
		}
		if n, _ := env.App.DB.Client.Commerce.Query().Where(commerce.TenantID(w.acme.TenantID)).Count(sys); n != 3 {
			t.Fatalf("commerces = %d, want 3", n)
		}

		n1 := cmCommerce(t, env, w.acme.TenantID, "N-1")
		if n1.Name != "Nuevo" || n1.TaxID != "1-9" || n1.Metadata["k"] != "v" || !n1.IsActive {
			t.Fatalf("N-1 = %+v", n1)
		}
		if s := cmAddrSummary(n1); cmJSON(s) != cmJSON([]string{"A:false:true:Uno:INTEGRATION", "B:true:true:Dos:INTEGRATION", "C:false:false::INTEGRATION"}) {
			t.Fatalf("N-1 addresses = %v", s)
		}
		if s := cmUserSummary(n1); cmJSON(s) != cmJSON([]string{"u1|Luis|[ORDERS OWNER]|INTEGRATION|true|PHONE:+56911111111:true:true|EMAIL:a@n.cl:false:true|EMAIL:b@n.cl:true:true"}) {
			t.Fatalf("N-1 users = %v", s)
		}
		ex1 := cmCommerce(t, env, w.acme.TenantID, "EX-1")
		if ex1.Name != "Existente 2" || ex1.IsActive || ex1.Segment != "A" || ex1.ID.String() != ex {
			t.Fatalf("EX-1 = %+v", ex1)
		}
		if s := cmAddrSummary(ex1); cmJSON(s) != cmJSON([]string{"Casa:false:true:Después:RETEN", "Nueva:true:true::INTEGRATION"}) {
			t.Fatalf("EX-1 addresses = %v", s)
		}
		if s := cmUserSummary(ex1); cmJSON(s) != cmJSON([]string{
			"U-1|Ana|[FINANCE]|RETEN|true|EMAIL:ana2@ex.cl:true:true|EMAIL:ana@ex.cl:false:true",
			"U-2|Beto|[]|INTEGRATION|true"}) {
			t.Fatalf("EX-1 users = %v", s)
		}
		if p7 := cmCommerce(t, env, w.acme.TenantID, "P-7"); p7.Name != "Plano" || p7.IsActive {
			t.Fatalf("P-7 = %+v", p7)
		}

		// A second run of the valid items creates nothing, duplicates no child
		// and, the items being what is stored now, writes nothing.
		again := []any{items[0], items[3], items[7]}
		if got := cmBatch(t, env, kh, again); got.Created != 0 || got.Updated != 0 || got.Unchanged != 3 || got.Total != 3 || len(got.Errors) != 0 {
			t.Fatalf("second run = %s", cmJSON(got))
		}
		if s := cmAddrSummary(cmCommerce(t, env, w.acme.TenantID, "N-1")); len(s) != 3 {
			t.Fatalf("N-1 addresses after second run = %v", s)
		}
		if s := cmUserSummary(cmCommerce(t, env, w.acme.TenantID, "EX-1")); len(s) != 2 {
			t.Fatalf("EX-1 users after second run = %v", s)
		}
		// Deactivating the primary address through the batch promotes another.
		cmBatch(t, env, kh, []any{map[string]any{"external_id": "N-1", "name": "Nuevo", "addresses": []any{
			map[string]any{"address_alias": "B", "is_active": false}, map[string]any{"address_alias": "C", "is_active": true}}}})
		if s := cmAddrSummary(cmCommerce(t, env, w.acme.TenantID, "N-1")); cmJSON(s) != cmJSON([]string{"A:true:true:Uno:INTEGRATION", "B:false:false:Dos:INTEGRATION", "C:false:true::INTEGRATION"}) {
			t.Fatalf("N-1 addresses after deactivation = %v", s)
		}
		// An item refused while being written (a stored inactive child marked
		// primary) is rolled back as a whole: its name change is not kept either.
		cmBatch(t, env, kh, []any{map[string]any{"external_id": "EX-1", "name": "Existente 2", "users": []any{
			map[string]any{"external_id": "U-1", "contacts": []any{map[string]any{"contact_type": "EMAIL", "value": "ana@ex.cl", "is_active": false}}}}}})
		got = cmBatch(t, env, kh, []any{
			map[string]any{"external_id": "N-1", "name": "Cambiado", "addresses": []any{
				map[string]any{"address_alias": "C", "city": "Nueva"}, map[string]any{"address_alias": "B", "is_primary": true}}},
			map[string]any{"external_id": "EX-1", "name": "Cambiado", "users": []any{map[string]any{"external_id": "U-2", "name": "Cambiado"},
				map[string]any{"external_id": "U-1", "contacts": []any{map[string]any{"contact_type": "EMAIL", "value": "ana@ex.cl", "is_primary": true}}}}},
		})
		if got.Created != 0 || got.Updated != 0 || cmJSON(got.Errors) != cmJSON([]map[string]any{
			{"index": 0, "messages": []string{"addresses.1.is_primary must not be true when is_active is false"}},
			{"index": 1, "messages": []string{"users.1.contacts.0.is_primary must not be true when is_active is false"}}}) {
			t.Fatalf("refused while writing = %s", cmJSON(got))
		}
		if c := cmCommerce(t, env, w.acme.TenantID, "N-1"); c.Name != "Nuevo" || cmJSON(cmAddrSummary(c)) != cmJSON([]string{"A:true:true:Uno:INTEGRATION", "B:false:false:Dos:INTEGRATION", "C:false:true::INTEGRATION"}) {
			t.Fatalf("N-1 half-written: %s %v", c.Name, cmAddrSummary(c))
		}
		if c := cmCommerce(t, env, w.acme.TenantID, "EX-1"); c.Name != "Existente 2" || cmJSON(cmUserSummary(c)) != cmJSON([]string{
			"U-1|Ana|[FINANCE]|RETEN|true|EMAIL:ana2@ex.cl:true:true|EMAIL:ana@ex.cl:false:false", "U-2|Beto|[]|INTEGRATION|true"}) {
			t.Fatalf("EX-1 half-written: %s %v", c.Name, cmUserSummary(c))
		}
		// Mixed second run: one new, one update, one invalid.
		got = cmBatch(t, env, w.h, []any{map[string]any{"external_id": "N-9", "name": "Nueve"}, map[string]any{"external_id": "P-7", "name": "Plano 2"},
			map[string]any{"external_id": "Z", "name": ""}})
		if got.Created != 1 || got.Updated != 1 || got.Total != 3 || cmJSON(got.Errors) != `[{"index":2,"messages":["name should not be empty"]}]` {
			t.Fatalf("mixed run = %s", cmJSON(got))
		}
		// Archived commerces are not matched: the same external id creates a new one.
		w.do("DELETE", "/commerces/"+cmCommerce(t, env, w.acme.TenantID, "P-7").ID.String(), nil, 204)
		if got := cmBatch(t, env, kh, []any{map[string]any{"external_id": "P-7", "name": "Plano 3"}}); got.Created != 1 {
			t.Fatalf("after archive = %s", cmJSON(got))
		}

		// Another tenant's batch never touches Acme's commerces.
		if got := cmBatch(t, env, w.bh, []any{map[string]any{"external_id": "EX-1", "name": "Beta"}}); got.Created != 1 {
			t.Fatalf("Beta's batch = %s", cmJSON(got))
		}
		if c := cmCommerce(t, env, w.acme.TenantID, "EX-1"); c.Name != "Existente 2" {
			t.Fatalf("Acme's EX-1 changed: %s", c.Name)
		}

		// Request-level errors.
		for _, c := range []struct {
			name string
			body any
			msg  any
		}{
			{"missing items", map[string]any{}, []string{"items must be an array"}},
			{"null items", map[string]any{"items": nil}, []string{"items must be an array"}},
			{"items object", map[string]any{"items": map[string]any{}}, []string{"items must be an array"}},
			{"unknown", map[string]any{"items": []any{}, "mode": "x"}, []string{"property mode should not exist"}},
			{"unknown, no items", map[string]any{"mode": "x"}, []string{"property mode should not exist", "items must be an array"}},
			{"empty", map[string]any{"items": []any{}}, []string{"items should not be empty"}},
			{"not an object", "[]", "Request body must be a JSON object"},
		} {
			t.Run(c.name, func(t *testing.T) { w.expect(kh, "POST", "/integration/commerces/batch-upsert", c.body, 400, c.msg) })
		}
		other, _ := env.CreateKey(w.acme.TenantID, w.acme.UserID, uuid.Nil, auth.PermCommerceManage)
		w.expect(apptest.Key(other), "POST", "/integration/commerces/batch-upsert", map[string]any{"items": []any{}}, 403,
			"Required permissions: commerce:batch-upsert")
	})
}

// TestCommerceBatchUpsertRace: two batches racing on the same external ids
// never write an item twice nor half: each commerce exists once with its one address.
func TestCommerceBatchUpsertRace(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newCMWorld(t, env)
		var items []any
		for i := range 60 {
			it := map[string]any{"external_id": fmt.Sprintf("R-%02d", i), "name": fmt.Sprintf("Race %d", i)}
			if i%2 == 0 {
				it["addresses"] = []any{map[string]any{"address_alias": "main", "city": "X"}}
			}
			items = append(items, it)
		}
		var wg sync.WaitGroup
		results := make([]cmBatchResult, 3)
		for k := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res := env.Do("POST", cmBatchPath, map[string]any{"items": items}, w.h)
				if res.Status == 201 {
					res.JSON(t, &results[k])
				} else {
					results[k].Total = -res.Status
				}
			}()
		}
		wg.Wait()
		created := 0
		for k, r := range results {
			if r.Total != 60 || r.Created+r.Updated+r.Unchanged+len(r.Errors) != 60 {
				t.Fatalf("batch %d = %s", k, cmJSON(r))
			}
			for _, e := range r.Errors {
				if cmJSON(e.Messages) != cmJSON([]string{fmt.Sprintf(`A commerce with external_id "R-%02d" already exists`, e.Index)}) {
					t.Fatalf("batch %d error = %s", k, cmJSON(e))
				}
			}
			created += r.Created
		}
		if created != 60 {
			t.Fatalf("created in all = %d, want 60; %s", created, cmJSON(results))
		}
		cs, err := env.App.DB.Client.Commerce.Query().WithAddresses().All(sys)
		if err != nil || len(cs) != 60 {
			t.Fatalf("commerces = %d (%v), want 60", len(cs), err)
		}
		for _, c := range cs {
			want := 0
			var i int
			fmt.Sscanf(*c.ExternalID, "R-%d", &i)
			if i%2 == 0 {
				want = 1
			}
			if len(c.Edges.Addresses) != want || want == 1 && !c.Edges.Addresses[0].IsPrimary {
				t.Fatalf("%s addresses = %d, want %d", *c.ExternalID, len(c.Edges.Addresses), want)
			}
		}
	})
}
