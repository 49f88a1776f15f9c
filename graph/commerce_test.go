package graph_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/reten-io/reten/internal/apptest"
)

func TestCommercesOverGraphQL(t *testing.T) {
	each(t, newOrgSetup, func(t *testing.T, env *apptest.Env, s orgSetup) {
		const fields = `id externalID name taxID segment isActive metadata`
		created := gqlOK(t, env, s.h, `mutation { createCommerce(input: {externalID: " C-1 ", name: " Almacén Uno ", taxID: "76.123.456-7",
			metadata: {tier: "gold", visits: 3}}) { `+fields+` } }`, nil)
		id := str(t, created, "createCommerce", "id")
		want := M{"id": id, "externalID": "C-1", "name": "Almacén Uno", "taxID": "76.123.456-7", "segment": "",
			"isActive": true, "metadata": M{"tier": "gold", "visits": 3}}
		if canon(t, created["createCommerce"]) != canon(t, want) {
			t.Fatalf("createCommerce = %v, want %v", created["createCommerce"], want)
		}
		const list = `{ commerces(orderBy: {field: NAME}) { totalCount edges { node { id name } } } }`
		expectData(t, env.GraphQL(list, nil, s.h), M{"commerces": M{"totalCount": 1, "edges": L{M{"node": M{"id": id, "name": "Almacén Uno"}}}}})
		// Beta sees none of Acme's commerces.
		expectData(t, env.GraphQL(list, nil, s.bh), M{"commerces": M{"totalCount": 0, "edges": L{}}})

		t.Run("update and errors", func(t *testing.T) {
			expectData(t, env.GraphQL(`mutation($id: ID!) { updateCommerce(id: $id, input: {name: "Almacén Dos", segment: "retail", isActive: false}) { name segment isActive } }`,
				M{"id": id}, s.h), M{"updateCommerce": M{"name": "Almacén Dos", "segment": "retail", "isActive": false}})
			expectInvalid(t, env.GraphQL(`mutation($id: ID!) { updateCommerce(id: $id, input: {name: "  "}) { id } }`, M{"id": id}, s.h),
				"updateCommerce", "name should not be empty")
			// Another tenant's id: not found, never Acme's data.
			expectFieldError(t, env.GraphQL(`mutation($id: ID!) { updateCommerce(id: $id, input: {name: "Robado"}) { id } }`, M{"id": id}, s.bh),
				"updateCommerce", "Commerce not found", "NOT_FOUND", 404)
			expectFieldError(t, env.GraphQL(`mutation { createCommerce(input: {name: "X"}) { id } }`, nil, s.viewer),
				"createCommerce", "Required permissions: commerce:manage", "FORBIDDEN", 403)
			// Duplicate external id in the tenant.
			expectFieldError(t, env.GraphQL(`mutation { createCommerce(input: {externalID: "C-1", name: "Otro"}) { id } }`, nil, s.h),
				"createCommerce", `A commerce with externalID "C-1" already exists`, "CONFLICT", 409)
		})

		t.Run("primary address switch", func(t *testing.T) {
			add := func(alias string, primary bool) string {
				d := gqlOK(t, env, s.h, `mutation($c: ID!, $a: String!, $p: Boolean) { addCommerceAddress(commerceID: $c,
					input: {source: RETEN, addressAlias: $a, city: "Santiago", isPrimary: $p}) { id isPrimary } }`,
					M{"c": id, "a": alias, "p": primary})
				if get(t, d, "addCommerceAddress", "isPrimary") != primary {
					t.Fatalf("address %s: isPrimary = %v, want %t", alias, d, primary)
				}
				return str(t, d, "addCommerceAddress", "id")
			}
			primaries := func() string {
				d := gqlOK(t, env, s.h, `query($id: ID!) { node(id: $id) { ... on Commerce { addresses { addressAlias isPrimary } } } }`, M{"id": id})
				var out []string
				for _, a := range get(t, d, "node", "addresses").([]any) {
					if get(t, a, "isPrimary") == true {
						out = append(out, str(t, a, "addressAlias"))
					}
				}
				slices.Sort(out)
				return strings.Join(out, ",")
			}
			casa := add("casa", true)
			add("bodega", true) // the new primary unsets casa
			if got := primaries(); got != "bodega" {
				t.Fatalf("primary addresses = %q, want bodega", got)
			}
			expectData(t, env.GraphQL(`mutation($c: ID!, $id: ID!) { setPrimaryCommerceAddress(commerceID: $c, id: $id) { id isPrimary } }`,
				M{"c": id, "id": casa}, s.h), M{"setPrimaryCommerceAddress": M{"id": casa, "isPrimary": true}})
			if got := primaries(); got != "casa" {
				t.Fatalf("primary addresses = %q, want casa", got)
			}
			expectData(t, env.GraphQL(`mutation($c: ID!, $id: ID!) { updateCommerceAddress(commerceID: $c, id: $id, input: {city: "Valparaíso"}) { city } }`,
				M{"c": id, "id": casa}, s.h), M{"updateCommerceAddress": M{"city": "Valparaíso"}})
			expectFieldError(t, env.GraphQL(`mutation($c: ID!, $id: ID!) { setPrimaryCommerceAddress(commerceID: $c, id: $id) { id } }`,
				M{"c": id, "id": casa}, s.bh), "setPrimaryCommerceAddress", "Commerce not found", "NOT_FOUND", 404)
		})

		t.Run("users, roles and contacts", func(t *testing.T) {
			u := gqlOK(t, env, s.h, `mutation($c: ID!) { createCommerceUser(commerceID: $c, input: {name: "Ana", externalID: "U-1", roles: [OWNER, OWNER]}) {
				id name externalID source roles { role } } }`, M{"c": id})
			uid := str(t, u, "createCommerceUser", "id")
			if canon(t, u) != canon(t, M{"createCommerceUser": M{"id": uid, "name": "Ana", "externalID": "U-1", "source": "RETEN", "roles": L{M{"role": "OWNER"}}}}) {
				t.Fatalf("createCommerceUser = %v", u)
			}
			expectData(t, env.GraphQL(`mutation($c: ID!, $u: ID!) { addCommerceUserRole(commerceID: $c, userID: $u, role: FINANCE) { id } }`,
				M{"c": id, "u": uid}, s.h), M{"addCommerceUserRole": M{"id": uid}})
			expectData(t, env.GraphQL(`mutation($c: ID!, $u: ID!) { removeCommerceUserRole(commerceID: $c, userID: $u, role: OWNER) }`,
				M{"c": id, "u": uid}, s.h), M{"removeCommerceUserRole": true})
			expectData(t, env.GraphQL(`mutation($c: ID!, $u: ID!) { updateCommerceUser(commerceID: $c, id: $u, input: {name: "Ana María"}) { name roles { role } } }`,
				M{"c": id, "u": uid}, s.h), M{"updateCommerceUser": M{"name": "Ana María", "roles": L{M{"role": "FINANCE"}}}})
			contact := func(value string) string {
				d := gqlOK(t, env, s.h, `mutation($c: ID!, $u: ID!, $v: String!) { addCommerceContact(commerceID: $c, userID: $u,
					input: {contactType: PHONE, value: $v, source: RETEN, isPrimary: true}) { id isPrimary } }`, M{"c": id, "u": uid, "v": value})
				return str(t, d, "addCommerceContact", "id")
			}
			first := contact("+56911111111")
			contact("+56922222222")
			expectData(t, env.GraphQL(`mutation($c: ID!, $u: ID!, $id: ID!) { setPrimaryCommerceContact(commerceID: $c, userID: $u, id: $id) { value isPrimary } }`,
				M{"c": id, "u": uid, "id": first}, s.h), M{"setPrimaryCommerceContact": M{"value": "+56911111111", "isPrimary": true}})
			expectData(t, env.GraphQL(`mutation($c: ID!, $u: ID!, $id: ID!) { updateCommerceContact(commerceID: $c, userID: $u, id: $id, input: {value: "+56933333333"}) { value } }`,
				M{"c": id, "u": uid, "id": first}, s.h), M{"updateCommerceContact": M{"value": "+56933333333"}})
			expectInvalid(t, env.GraphQL(`mutation($c: ID!, $u: ID!) { addCommerceContact(commerceID: $c, userID: $u, input: {contactType: PHONE, value: "123", source: RETEN}) { id } }`,
				M{"c": id, "u": uid}, s.h), "addCommerceContact", "value must be a valid phone number in E.164 format")
		})

		t.Run("batch upsert with an invalid item", func(t *testing.T) {
			res := env.GraphQL(`mutation { batchUpsertCommerces(items: [
				{externalID: "C-1", name: "Almacén Uno", addresses: [{addressAlias: "casa", city: "Talca"}]},
				{externalID: "B-2", name: ""},
				{externalID: "B-3", name: "Nuevo", users: [{externalID: "U-9", roles: [ADMIN], contacts: [{contactType: EMAIL, value: "b3@example.test"}]}]}
			]) { created updated unchanged total errors { index messages } } }`, nil, s.h)
			expectData(t, res, M{"batchUpsertCommerces": M{"created": 1, "updated": 1, "unchanged": 0, "total": 3,
				"errors": L{M{"index": 1, "messages": L{"name should not be empty"}}}}})
			// The valid items again: identical to what is stored, nothing is written.
			expectData(t, env.GraphQL(`mutation { batchUpsertCommerces(items: [
				{externalID: "C-1", name: "Almacén Uno", addresses: [{addressAlias: "casa", city: "Talca"}]},
				{externalID: "B-3", name: "Nuevo", users: [{externalID: "U-9", roles: [ADMIN], contacts: [{contactType: EMAIL, value: "b3@example.test"}]}]}
			]) { created updated unchanged total errors { index } } }`, nil, s.h),
				M{"batchUpsertCommerces": M{"created": 0, "updated": 0, "unchanged": 2, "total": 2, "errors": L{}}})
			expectData(t, env.GraphQL(`{ commerces(orderBy: {field: EXTERNAL_ID}) { edges { node { externalID name users { externalID } } } } }`, nil, s.h),
				M{"commerces": M{"edges": L{
					M{"node": M{"externalID": "B-3", "name": "Nuevo", "users": L{M{"externalID": "U-9"}}}},
					M{"node": M{"externalID": "C-1", "name": "Almacén Uno", "users": L{M{"externalID": "U-1"}}}},
				}}})
			expectFieldError(t, env.GraphQL(`mutation { batchUpsertCommerces(items: [{externalID: "X", name: "X"}]) { total } }`, nil, s.viewer),
				"batchUpsertCommerces", "Required permissions: commerce:batch-upsert", "FORBIDDEN", 403)
		})

		t.Run("delete to the trash and restore", func(t *testing.T) {
			expectFieldError(t, env.GraphQL(`mutation($id: ID!) { deleteCommerce(id: $id) }`, M{"id": id}, s.bh),
				"deleteCommerce", "Commerce not found", "NOT_FOUND", 404)
			expectData(t, env.GraphQL(`mutation($id: ID!) { deleteCommerce(id: $id) }`, M{"id": id}, s.h), M{"deleteCommerce": true})
			expectData(t, env.GraphQL(`query($id: ID!) { commerces(where: {id: $id}) { totalCount } }`, M{"id": id}, s.h),
				M{"commerces": M{"totalCount": 0}})
			expectBody(t, env.GraphQL(`query($id: ID!) { node(id: $id) { id } }`, M{"id": id}, s.h), http.StatusOK,
				M{"data": M{"node": nil}, "errors": L{fieldError(L{"node"}, "Node not found", "NOT_FOUND", 404)}})
			tid := trashOf(t, env, s.h, id, "COMMERCE")
			if tid == "" {
				t.Fatal("no trash record for the deleted commerce")
			}
			expectFieldError(t, env.GraphQL(`mutation($id: ID!) { restoreTrashRecord(id: $id) { id } }`, M{"id": tid}, s.bh),
				"restoreTrashRecord", "Trash record not found", "NOT_FOUND", 404)
			expectData(t, env.GraphQL(`mutation($id: ID!) { restoreTrashRecord(id: $id) { id kind recordID } }`, M{"id": tid}, s.h),
				M{"restoreTrashRecord": M{"id": tid, "kind": "COMMERCE", "recordID": id}})
			back := gqlOK(t, env, s.h, `query($id: ID!) { node(id: $id) { ... on Commerce { name addresses { addressAlias } } } }`, M{"id": id})
			var aliases []string
			for _, a := range get(t, back, "node", "addresses").([]any) {
				aliases = append(aliases, str(t, a, "addressAlias"))
			}
			slices.Sort(aliases)
			if str(t, back, "node", "name") != "Almacén Uno" || strings.Join(aliases, ",") != "bodega,casa" {
				t.Fatalf("restored commerce = %v, want Almacén Uno with its addresses bodega and casa", back)
			}
			if trashOf(t, env, s.h, id, "COMMERCE") != "" {
				t.Fatal("trash record still listed after restore")
			}
		})
	})
}
