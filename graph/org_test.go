package graph_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

// gqlOK runs an operation that must succeed and returns its data.
func gqlOK(t *testing.T, env *apptest.Env, h apptest.Headers, query string, vars M) M {
	t.Helper()
	res := env.GraphQL(query, vars, h)
	var out struct {
		Data   M               `json:"data"`
		Errors json.RawMessage `json:"errors"`
	}
	if res.Status != http.StatusOK {
		t.Fatalf("status = %d; body %s", res.Status, res.Body)
	}
	res.JSON(t, &out)
	if out.Errors != nil {
		t.Fatalf("errors: %s", res.Body)
	}
	return out.Data
}

// get walks a decoded JSON document along keys (object keys or list indexes).
func get(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(M)
			if !ok {
				t.Fatalf("%v: not an object at %q", v, k)
			}
			v = m[k]
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				t.Fatalf("%v: no element %d", v, k)
			}
			v = l[k]
		}
	}
	return v
}

func str(t *testing.T, v any, path ...any) string {
	t.Helper()
	s, ok := get(t, v, path...).(string)
	if !ok {
		t.Fatalf("%v at %v is not a string", v, path)
	}
	return s
}

// expectFieldError asserts an answer failing at field with one typed error.
func expectFieldError(t *testing.T, res *apptest.Response, field, message, code string, status int) {
	t.Helper()
	expectBody(t, res, http.StatusOK, M{"data": nil, "errors": L{fieldError(L{field}, message, code, status)}})
}

// expectInvalid asserts a validation error (400 with its messages).
func expectInvalid(t *testing.T, res *apptest.Response, field string, messages ...string) {
	t.Helper()
	expectBody(t, res, http.StatusOK, M{"data": nil, "errors": L{M{
		"message": strings.Join(messages, "; "), "path": L{field},
		"extensions": M{"code": "BAD_REQUEST", "statusCode": 400, "messages": strs(messages)},
	}}})
}

// trashOf returns the id of the trash record of recordID ("" when none).
func trashOf(t *testing.T, env *apptest.Env, h apptest.Headers, recordID, kind string) string {
	t.Helper()
	data := gqlOK(t, env, h, `{ trashRecords(first: 100) { edges { node { id kind recordID } } } }`, nil)
	for _, e := range get(t, data, "trashRecords", "edges").([]any) {
		if str(t, e, "node", "recordID") == recordID {
			if got := str(t, e, "node", "kind"); got != kind {
				t.Fatalf("trash kind = %s, want %s", got, kind)
			}
			return str(t, e, "node", "id")
		}
	}
	return ""
}

// orgSetup is Acme's admin, a viewer of Acme and Beta's admin.
type orgSetup struct {
	acme, beta     apptest.Tenant
	h, viewer, bh  apptest.Headers
	viewerUsername string
}

func newOrgSetup(t *testing.T, env *apptest.Env) orgSetup {
	t.Helper()
	s := orgSetup{acme: env.Bootstrap("Acme"), beta: env.Bootstrap("Beta"), viewerUsername: "vera"}
	env.CreateUser(s.acme.TenantID, s.viewerUsername, auth.RoleViewer)
	s.h = apptest.JWT(env.Login(s.acme.Email), s.acme.TenantID, uuid.Nil)
	s.viewer = apptest.JWT(env.Login(s.viewerUsername), s.acme.TenantID, uuid.Nil)
	s.bh = apptest.JWT(env.Login(s.beta.Email), s.beta.TenantID, uuid.Nil)
	return s
}

func TestCommercesOverGraphQL(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		s := newOrgSetup(t, env)
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
				"createCommerce", `A commerce with external_id "C-1" already exists`, "CONFLICT", 409)
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

func TestFieldOrgOverGraphQL(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		s := newOrgSetup(t, env)
		op := gqlOK(t, env, s.h, `mutation { createOperator(input: {type: SALESMAN, name: " Olga ", email: "Olga@Example.test", externalID: "V-1",
			metadata: {zone: "norte"}}) { id type name email externalID isActive isPlaceholder metadata } }`, nil)
		opID := str(t, op, "createOperator", "id")
		if canon(t, op) != canon(t, M{"createOperator": M{"id": opID, "type": "SALESMAN", "name": "Olga", "email": "Olga@Example.test",
			"externalID": "V-1", "isActive": true, "isPlaceholder": false, "metadata": M{"zone": "norte"}}}) {
			t.Fatalf("createOperator = %v", op)
		}
		rt := gqlOK(t, env, s.h, `mutation { createRoute(input: {code: "R-1", name: "Centro"}) { id code name isActive } }`, nil)
		routeID := str(t, rt, "createRoute", "id")

		t.Run("operators", func(t *testing.T) {
			expectData(t, env.GraphQL(`{ operators { totalCount edges { node { id name } } } }`, nil, s.h),
				M{"operators": M{"totalCount": 1, "edges": L{M{"node": M{"id": opID, "name": "Olga"}}}}})
			expectData(t, env.GraphQL(`mutation($id: ID!) { updateOperator(id: $id, input: {name: "Olga P.", phone: "+56911111111"}) { name phone } }`,
				M{"id": opID}, s.h), M{"updateOperator": M{"name": "Olga P.", "phone": "+56911111111"}})
			expectFieldError(t, env.GraphQL(`mutation($id: ID!) { updateOperator(id: $id, input: {name: "X"}) { id } }`, M{"id": opID}, s.bh),
				"updateOperator", "Operator not found", "NOT_FOUND", 404)
			expectFieldError(t, env.GraphQL(`mutation { createOperator(input: {type: SALESMAN, name: "X"}) { id } }`, nil, s.viewer),
				"createOperator", "Required permissions: operator:manage", "FORBIDDEN", 403)
			expectData(t, env.GraphQL(`mutation { syncOperators(items: [{externalID: "V-1", type: SALESMAN, name: "Olga S."}, {externalID: "V-2", type: CALLCENTER, name: "Caro"}]) {
				created updated total errors { index } } }`, nil, s.h),
				M{"syncOperators": M{"created": 1, "updated": 1, "total": 2, "errors": L{}}})
			expectData(t, env.GraphQL(`mutation { batchUpsertOperators(items: [{externalID: "V-3", type: ACTIVATOR, name: "Ale"}, {externalID: "V-4", type: SALESMAN, name: ""}]) {
				created updated total errors { index messages } } }`, nil, s.h),
				M{"batchUpsertOperators": M{"created": 1, "updated": 0, "total": 2,
					"errors": L{M{"index": 1, "messages": L{"name should not be empty"}}}}})
			expectData(t, env.GraphQL(`{ operators(orderBy: {field: NAME}) { edges { node { name externalID } } } }`, nil, s.h),
				M{"operators": M{"edges": L{
					M{"node": M{"name": "Ale", "externalID": "V-3"}},
					M{"node": M{"name": "Caro", "externalID": "V-2"}},
					M{"node": M{"name": "Olga S.", "externalID": "V-1"}},
				}}})
		})

		t.Run("routes and links", func(t *testing.T) {
			expectData(t, env.GraphQL(`mutation($r: ID!, $o: ID!) { linkRouteOperator(routeID: $r, operatorID: $o, role: LEAD) { routeID operatorID role isActive } }`,
				M{"r": routeID, "o": opID}, s.h), M{"linkRouteOperator": M{"routeID": routeID, "operatorID": opID, "role": "LEAD", "isActive": true}})
			// Idempotent: linking again keeps the role.
			expectData(t, env.GraphQL(`mutation($r: ID!, $o: ID!) { linkRouteOperator(routeID: $r, operatorID: $o) { role } }`,
				M{"r": routeID, "o": opID}, s.h), M{"linkRouteOperator": M{"role": "LEAD"}})
			expectData(t, env.GraphQL(`{ routes { edges { node { code operatorLinks { role operator { name } } } } } }`, nil, s.h),
				M{"routes": M{"edges": L{M{"node": M{"code": "R-1", "operatorLinks": L{M{"role": "LEAD", "operator": M{"name": "Olga S."}}}}}}}})
			expectData(t, env.GraphQL(`mutation($r: ID!, $o: ID!) { unlinkRouteOperator(routeID: $r, operatorID: $o) }`,
				M{"r": routeID, "o": opID}, s.h), M{"unlinkRouteOperator": true})
			expectData(t, env.GraphQL(`mutation($id: ID!) { updateRoute(id: $id, input: {name: "Centro Sur", isActive: false}) { code name isActive } }`,
				M{"id": routeID}, s.h), M{"updateRoute": M{"code": "R-1", "name": "Centro Sur", "isActive": false}})
			expectFieldError(t, env.GraphQL(`mutation($id: ID!) { updateRoute(id: $id, input: {name: "X"}) { id } }`, M{"id": routeID}, s.bh),
				"updateRoute", "Route not found", "NOT_FOUND", 404)
			expectFieldError(t, env.GraphQL(`mutation { createRoute(input: {code: "R-1", name: "Dup"}) { id } }`, nil, s.h),
				"createRoute", `A route with code "R-1" already exists`, "CONFLICT", 409)
			expectData(t, env.GraphQL(`mutation { batchUpsertRoutes(items: [{code: "R-2", name: "Norte", operators: [{externalID: "V-2", type: CALLCENTER}]}, {code: "", name: "Sin código"}]) {
				created updated total errors { index messages } } }`, nil, s.h),
				M{"batchUpsertRoutes": M{"created": 1, "updated": 0, "total": 2,
					"errors": L{M{"index": 1, "messages": L{"code should not be empty"}}}}})
			expectFieldError(t, env.GraphQL(`mutation { createRoute(input: {code: "R-9", name: "X"}) { id } }`, nil, s.viewer),
				"createRoute", "Required permissions: route:manage", "FORBIDDEN", 403)
		})

		t.Run("supervisors", func(t *testing.T) {
			sup := gqlOK(t, env, s.h, `mutation($r: ID!) { createSupervisor(input: {name: "Sara", email: "sara@example.test", routeIDs: [$r]}) {
				id name email isActive routeIDs operatorIDs } }`, M{"r": routeID})
			supID := str(t, sup, "createSupervisor", "id")
			expectData(t, env.GraphQL(`{ supervisors { totalCount edges { node { id name routeIDs operatorIDs } } } }`, nil, s.h),
				M{"supervisors": M{"totalCount": 1, "edges": L{M{"node": M{"id": supID, "name": "Sara", "routeIDs": L{routeID}, "operatorIDs": L{}}}}}})
			expectData(t, env.GraphQL(`mutation($id: ID!, $o: ID!) { updateSupervisor(id: $id, input: {routeIDs: [], operatorIDs: [$o]}) { routeIDs operatorIDs } }`,
				M{"id": supID, "o": opID}, s.h), M{"updateSupervisor": M{"routeIDs": L{}, "operatorIDs": L{opID}}})
			expectFieldError(t, env.GraphQL(`mutation($id: ID!) { updateSupervisor(id: $id, input: {name: "X"}) { id } }`, M{"id": supID}, s.bh),
				"updateSupervisor", "Supervisor not found", "NOT_FOUND", 404)
			expectFieldError(t, env.GraphQL(`mutation($id: ID!) { deleteSupervisor(id: $id) }`, M{"id": supID}, s.viewer),
				"deleteSupervisor", "Required permissions: supervisor:delete", "FORBIDDEN", 403)
			expectData(t, env.GraphQL(`mutation($id: ID!) { deleteSupervisor(id: $id) }`, M{"id": supID}, s.h), M{"deleteSupervisor": true})
			expectData(t, env.GraphQL(`{ supervisors { totalCount } }`, nil, s.h), M{"supervisors": M{"totalCount": 0}})
			tid := trashOf(t, env, s.h, supID, "SUPERVISOR")
			expectData(t, env.GraphQL(`mutation($id: ID!) { restoreTrashRecord(id: $id) { recordID } }`, M{"id": tid}, s.h),
				M{"restoreTrashRecord": M{"recordID": supID}})
			expectData(t, env.GraphQL(`{ supervisors { edges { node { id operatorIDs } } } }`, nil, s.h),
				M{"supervisors": M{"edges": L{M{"node": M{"id": supID, "operatorIDs": L{opID}}}}}})
		})

		t.Run("delete operator and route to the trash and restore", func(t *testing.T) {
			for _, c := range []struct{ del, kind, list, id string }{
				{"deleteOperator", "OPERATOR", "operators", opID},
				{"deleteRoute", "ROUTE", "routes", routeID},
			} {
				expectFieldError(t, env.GraphQL(`mutation($id: ID!) { `+c.del+`(id: $id) }`, M{"id": c.id}, s.bh), c.del,
					map[string]string{"OPERATOR": "Operator not found", "ROUTE": "Route not found"}[c.kind], "NOT_FOUND", 404)
				expectData(t, env.GraphQL(`mutation($id: ID!) { `+c.del+`(id: $id) }`, M{"id": c.id}, s.h), M{c.del: true})
				expectData(t, env.GraphQL(`query($id: ID!) { `+c.list+`(where: {id: $id}) { totalCount } }`, M{"id": c.id}, s.h),
					M{c.list: M{"totalCount": 0}})
				expectBody(t, env.GraphQL(`query($id: ID!) { node(id: $id) { id } }`, M{"id": c.id}, s.h), http.StatusOK,
					M{"data": M{"node": nil}, "errors": L{fieldError(L{"node"}, "Node not found", "NOT_FOUND", 404)}})
				tid := trashOf(t, env, s.h, c.id, c.kind)
				if tid == "" {
					t.Fatalf("no trash record for %s", c.kind)
				}
				expectData(t, env.GraphQL(`mutation($id: ID!) { restoreTrashRecord(id: $id) { kind } }`, M{"id": tid}, s.h),
					M{"restoreTrashRecord": M{"kind": c.kind}})
				expectData(t, env.GraphQL(`query($id: ID!) { `+c.list+`(where: {id: $id}) { totalCount } }`, M{"id": c.id}, s.h),
					M{c.list: M{"totalCount": 1}})
			}
		})
	})
}

func TestTrashAndDispatchOverGraphQL(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		s := newOrgSetup(t, env)

		t.Run("trash settings and purge", func(t *testing.T) {
			expectData(t, env.GraphQL(`{ trashSettings { retentionDays } }`, nil, s.h), M{"trashSettings": M{"retentionDays": 30}})
			expectData(t, env.GraphQL(`mutation { updateTrashSettings(input: {retentionDays: 45}) { retentionDays } }`, nil, s.h),
				M{"updateTrashSettings": M{"retentionDays": 45}})
			expectData(t, env.GraphQL(`{ trashSettings { retentionDays } }`, nil, s.h), M{"trashSettings": M{"retentionDays": 45}})
			expectData(t, env.GraphQL(`{ trashSettings { retentionDays } }`, nil, s.bh), M{"trashSettings": M{"retentionDays": 30}})
			expectInvalid(t, env.GraphQL(`mutation { updateTrashSettings(input: {retentionDays: 0}) { retentionDays } }`, nil, s.h),
				"updateTrashSettings", "retention_days must not be less than 1")
			expectFieldError(t, env.GraphQL(`{ trashSettings { retentionDays } }`, nil, s.viewer),
				"trashSettings", "Required permissions: trash:manage-settings", "FORBIDDEN", 403)

			rt := gqlOK(t, env, s.h, `mutation { createRoute(input: {code: "TMP", name: "Temporal"}) { id } }`, nil)
			routeID := str(t, rt, "createRoute", "id")
			gqlOK(t, env, s.h, `mutation($id: ID!) { deleteRoute(id: $id) }`, M{"id": routeID})
			tid := trashOf(t, env, s.h, routeID, "ROUTE")
			expectFieldError(t, env.GraphQL(`mutation($id: ID!) { purgeTrashRecord(id: $id) }`, M{"id": tid}, s.bh),
				"purgeTrashRecord", "Trash record not found", "NOT_FOUND", 404)
			expectData(t, env.GraphQL(`mutation($id: ID!) { purgeTrashRecord(id: $id) }`, M{"id": tid}, s.h), M{"purgeTrashRecord": true})
			expectFieldError(t, env.GraphQL(`mutation($id: ID!) { restoreTrashRecord(id: $id) { id } }`, M{"id": tid}, s.h),
				"restoreTrashRecord", "Trash record not found", "NOT_FOUND", 404)
		})

		t.Run("providers keep credentials write-only", func(t *testing.T) {
			const secret = "s3cr3t-t0ken"
			const fields = `id name channel kind isActive settings hasCredentials`
			res := env.GraphQL(`mutation($c: Map) { createDispatchProvider(input: {name: "Bitácora", channel: SMS, kind: "log",
				settings: {note: "x"}, credentials: $c}) { `+fields+` } }`, M{"c": M{"token": secret}}, s.h)
			if strings.Contains(string(res.Body), secret) {
				t.Fatalf("the response contains the secret: %s", res.Body)
			}
			var out struct {
				Data struct {
					P M `json:"createDispatchProvider"`
				} `json:"data"`
			}
			res.JSON(t, &out)
			pid, _ := out.Data.P["id"].(string)
			expectData(t, res, M{"createDispatchProvider": M{"id": pid, "name": "Bitácora", "channel": "SMS", "kind": "log",
				"isActive": true, "settings": M{"note": "x"}, "hasCredentials": true}})
			list := env.GraphQL(`{ dispatchProviders { totalCount edges { node { `+fields+` } } } }`, nil, s.h)
			if strings.Contains(string(list.Body), secret) {
				t.Fatalf("the connection contains the secret: %s", list.Body)
			}
			expectData(t, list, M{"dispatchProviders": M{"totalCount": 1, "edges": L{M{"node": M{"id": pid, "name": "Bitácora", "channel": "SMS",
				"kind": "log", "isActive": true, "settings": M{"note": "x"}, "hasCredentials": true}}}}})
			// No field of the type returns credentials.
			intro := gqlOK(t, env, s.h, `{ __type(name: "DispatchProvider") { fields { name } } }`, nil)
			for _, f := range get(t, intro, "__type", "fields").([]any) {
				if strings.Contains(strings.ToLower(str(t, f, "name")), "credential") && str(t, f, "name") != "hasCredentials" {
					t.Fatalf("DispatchProvider exposes %s", str(t, f, "name"))
				}
			}
			expectData(t, env.GraphQL(`mutation($id: ID!) { updateDispatchProvider(id: $id, input: {clearCredentials: true, name: "Bitácora 2"}) { name hasCredentials } }`,
				M{"id": pid}, s.h), M{"updateDispatchProvider": M{"name": "Bitácora 2", "hasCredentials": false}})
			expectFieldError(t, env.GraphQL(`mutation($id: ID!) { updateDispatchProvider(id: $id, input: {name: "Robado"}) { id } }`, M{"id": pid}, s.bh),
				"updateDispatchProvider", "Dispatch provider not found", "NOT_FOUND", 404)
			expectFieldError(t, env.GraphQL(`mutation { createDispatchProvider(input: {name: "X", channel: SMS, kind: "log"}) { id } }`, nil, s.viewer),
				"createDispatchProvider", "Required permissions: dispatch:manage", "FORBIDDEN", 403)

			def := gqlOK(t, env, s.h, `mutation($p: ID!) { createChannelDefinition(providerID: $p, input: {name: "Recordatorio", template: "Hola", ratePerMinute: 60}) {
				id name channel template ratePerMinute } }`, M{"p": pid})
			did := str(t, def, "createChannelDefinition", "id")
			if canon(t, def) != canon(t, M{"createChannelDefinition": M{"id": did, "name": "Recordatorio", "channel": "SMS", "template": "Hola", "ratePerMinute": 60}}) {
				t.Fatalf("createChannelDefinition = %v", def)
			}
			expectData(t, env.GraphQL(`mutation($p: ID!, $id: ID!) { updateChannelDefinition(providerID: $p, id: $id, input: {template: "Chao", clearRatePerMinute: true}) {
				template ratePerMinute } }`, M{"p": pid, "id": did}, s.h),
				M{"updateChannelDefinition": M{"template": "Chao", "ratePerMinute": nil}})

			expectData(t, env.GraphQL(`mutation($proj: ID!, $p: ID!, $d: ID!) { putDispatchConfig(projectID: $proj, channel: SMS,
				input: {providerID: $p, channelDefinitionID: $d, maxAttempts: 5}) { channel providerID channelDefinitionID maxAttempts retryBackoffSeconds isActive } }`,
				M{"proj": s.acme.ProjectID.String(), "p": pid, "d": did}, s.h),
				M{"putDispatchConfig": M{"channel": "SMS", "providerID": pid, "channelDefinitionID": did, "maxAttempts": 5,
					"retryBackoffSeconds": 300, "isActive": true}})
			expectData(t, env.GraphQL(`query($proj: ID!) { dispatchConfigs(projectID: $proj) { channel maxAttempts provider { name } } }`,
				M{"proj": s.acme.ProjectID.String()}, s.h),
				M{"dispatchConfigs": L{M{"channel": "SMS", "maxAttempts": 5, "provider": M{"name": "Bitácora 2"}}}})
			expectFieldError(t, env.GraphQL(`query($proj: ID!) { dispatchConfigs(projectID: $proj) { id } }`,
				M{"proj": s.acme.ProjectID.String()}, s.bh), "dispatchConfigs", "El proyecto no existe.", "NOT_FOUND", 404)

			other := gqlOK(t, env, s.h, `mutation { createDispatchProvider(input: {name: "Otro", channel: EMAIL, kind: "log"}) { id } }`, nil)
			oid := str(t, other, "createDispatchProvider", "id")
			expectData(t, env.GraphQL(`mutation($id: ID!) { deleteDispatchProvider(id: $id) }`, M{"id": oid}, s.h), M{"deleteDispatchProvider": true})
			expectData(t, env.GraphQL(`{ dispatchProviders { totalCount } }`, nil, s.h), M{"dispatchProviders": M{"totalCount": 1}})
		})
	})
}
