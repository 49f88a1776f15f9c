package app_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/graph/generated"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/demo"
	"github.com/reten-io/reten/internal/project"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
	"github.com/reten-io/reten/rest"
)

// TestMatrixCoversEveryRouteAndOperation fails when a REST route or a GraphQL
// root field exists without its line in tenancy.Matrix (or the reverse).
func TestMatrixCoversEveryRouteAndOperation(t *testing.T) {
	var want, got []string
	for _, e := range tenancy.Matrix {
		want = append(want, e.Key())
	}
	router, ok := rest.NewRouter(rest.Deps{}).(chi.Routes)
	if !ok {
		t.Fatal("the REST router is not a chi router")
	}
	if err := chi.Walk(router, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		got = append(got, method+" "+route)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	for _, typ := range []string{"Query", "Mutation"} {
		for _, f := range schema.Types[typ].Fields {
			if !strings.HasPrefix(f.Name, "__") {
				got = append(got, typ+"."+f.Name)
			}
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(want, got) {
		t.Fatalf("matrix and router/schema differ:\nmatrix: %v\nserved: %v", want, got)
	}
}

// fixture is tenant A's data that every probe points at, and tenant B's
// super_admin who must never reach it.
type fixture struct {
	env            *apptest.Env
	a, b           apptest.Tenant
	aToken, bToken string
	aRoot          uuid.UUID
	aUser          uuid.UUID
	aKey           uuid.UUID
	aOperator      string // tenant A's operator, route and supervisor (field organisation probes)
	aRoute         string
	aSupervisor    string
}

// probe is how to call one matrix line: a REST request or a GraphQL operation,
// and what another tenant's super_admin must get.
type probe struct {
	body      func() any
	path      func(f *fixture) string // REST path with tenant A's ids; nil = the matrix path
	query     string                  // GraphQL document
	vars      func(f *fixture) map[string]any
	crossCode int    // REST status for B on A's resource; 0 = a list or creation (B's own data)
	crossMsg  string // message of that error
}

var seq int

func unique(prefix string) string {
	seq++
	return fmt.Sprintf("%s%d%s", prefix, seq, uuid.NewString()[:6])
}

var probes = map[string]probe{
	"POST /auth/register": {body: func() any {
		u := unique("u")
		return map[string]any{"email": u + "@example.test", "username": u, "password": "long-enough-1", "roles": []string{"viewer"}}
	}},
	"GET /tenant/mine":    {},
	"GET /tenants":        {},
	"POST /tenants":       {body: func() any { return map[string]any{"name": unique("T")} }},
	"PATCH /tenants/{id}": {path: func(f *fixture) string { return "/tenants/" + f.a.TenantID.String() }, body: func() any { return map[string]any{"time_zone": "UTC"} }, crossCode: 404, crossMsg: "Tenant not found"},
	"GET /projects":       {},
	"POST /projects":      {body: func() any { return map[string]any{"name": unique("P")} }},
	"PATCH /projects/{id}": {path: func(f *fixture) string { return "/projects/" + f.a.ProjectID.String() },
		body: func() any { return map[string]any{"name": unique("P")} }, crossCode: 404, crossMsg: "El proyecto no existe."},
	"POST /api-keys": {body: func() any {
		return map[string]any{"name": "k", "permissions": []string{auth.PermProjectView}, "scope": "tenant"}
	}},
	"GET /api-keys":      {},
	"GET /api-keys/{id}": {path: func(f *fixture) string { return "/api-keys/" + f.aKey.String() }, crossCode: 403, crossMsg: "You do not own this API key"},
	"DELETE /api-keys/{id}": {path: func(f *fixture) string { return "/api-keys/" + f.aKey.String() },
		crossCode: 403, crossMsg: "You do not own this API key"},
	"PUT /api-keys/{id}/permissions": {path: func(f *fixture) string { return "/api-keys/" + f.aKey.String() + "/permissions" },
		body: func() any { return map[string]any{"permissions": []string{auth.PermProjectView}} }, crossCode: 403, crossMsg: "You do not own this API key"},
	"GET /users":        {},
	"GET /users/{id}":   {path: func(f *fixture) string { return "/users/" + f.aUser.String() }, crossCode: 404, crossMsg: "User not found"},
	"PATCH /users/{id}": {path: func(f *fixture) string { return "/users/" + f.aUser.String() }, body: func() any { return map[string]any{"first_name": "X"} }, crossCode: 404, crossMsg: "User not found"},
	"PUT /user/{id}/roles": {path: func(f *fixture) string { return "/user/" + f.aUser.String() + "/roles" },
		body: func() any { return map[string]any{"roles": []string{"operator"}} }, crossCode: 403, crossMsg: "Cannot modify roles for user outside your active tenant"},

	// Commerces (each probe creates its own tenant-A commerce tree with cmA).
	"GET /commerces":  {},
	"POST /commerces": {body: func() any { return map[string]any{"name": unique("C")} }},
	"GET /commerces/{id}": {path: func(f *fixture) string { return "/commerces/" + cmA(f).commerce },
		crossCode: 404, crossMsg: "Commerce not found"},
	"PATCH /commerces/{id}": {path: func(f *fixture) string { return "/commerces/" + cmA(f).commerce },
		body: func() any { return map[string]any{"name": "X"} }, crossCode: 404, crossMsg: "Commerce not found"},
	"DELETE /commerces/{id}": {path: func(f *fixture) string { return "/commerces/" + cmA(f).commerce },
		crossCode: 404, crossMsg: "Commerce not found"},
	"GET /commerces/{id}/addresses": {path: func(f *fixture) string { return "/commerces/" + cmA(f).commerce + "/addresses" },
		crossCode: 404, crossMsg: "Commerce not found"},
	"POST /commerces/{id}/addresses": {path: func(f *fixture) string { return "/commerces/" + cmA(f).commerce + "/addresses" },
		body: func() any { return map[string]any{"source": "RETEN"} }, crossCode: 404, crossMsg: "Commerce not found"},
	"PATCH /commerces/{id}/addresses/{addressId}": {path: func(f *fixture) string { i := cmA(f); return "/commerces/" + i.commerce + "/addresses/" + i.address },
		body: func() any { return map[string]any{"city": "X"} }, crossCode: 404, crossMsg: "Commerce not found"},
	"POST /commerces/{id}/addresses/{addressId}/set-primary": {path: func(f *fixture) string {
		i := cmA(f)
		return "/commerces/" + i.commerce + "/addresses/" + i.address + "/set-primary"
	}, crossCode: 404, crossMsg: "Commerce not found"},
	"GET /commerces/{id}/users": {path: func(f *fixture) string { return "/commerces/" + cmA(f).commerce + "/users" },
		crossCode: 404, crossMsg: "Commerce not found"},
	"POST /commerces/{id}/users": {path: func(f *fixture) string { return "/commerces/" + cmA(f).commerce + "/users" },
		body: func() any { return map[string]any{"name": "X"} }, crossCode: 404, crossMsg: "Commerce not found"},
	"PATCH /commerces/{id}/users/{userId}": {path: func(f *fixture) string { i := cmA(f); return "/commerces/" + i.commerce + "/users/" + i.user },
		body: func() any { return map[string]any{"name": "X"} }, crossCode: 404, crossMsg: "Commerce not found"},
	"POST /commerces/{id}/users/{userId}/roles": {path: func(f *fixture) string {
		i := cmA(f)
		return "/commerces/" + i.commerce + "/users/" + i.user + "/roles"
	},
		body: func() any { return map[string]any{"role": "OWNER"} }, crossCode: 404, crossMsg: "Commerce not found"},
	"DELETE /commerces/{id}/users/{userId}/roles/{role}": {path: func(f *fixture) string {
		i := cmA(f)
		return "/commerces/" + i.commerce + "/users/" + i.user + "/roles/OWNER"
	}, crossCode: 404, crossMsg: "Commerce not found"},
	"POST /commerces/{id}/users/{userId}/contacts": {path: func(f *fixture) string {
		i := cmA(f)
		return "/commerces/" + i.commerce + "/users/" + i.user + "/contacts"
	}, body: func() any { return map[string]any{"contact_type": "OTHER", "value": "x", "source": "RETEN"} }, crossCode: 404, crossMsg: "Commerce not found"},
	"PATCH /commerces/{id}/users/{userId}/contacts/{contactId}": {path: func(f *fixture) string {
		i := cmA(f)
		return "/commerces/" + i.commerce + "/users/" + i.user + "/contacts/" + i.contact
	}, body: func() any { return map[string]any{"value": "y"} }, crossCode: 404, crossMsg: "Commerce not found"},
	"POST /commerces/{id}/users/{userId}/contacts/{contactId}/set-primary": {path: func(f *fixture) string {
		i := cmA(f)
		return "/commerces/" + i.commerce + "/users/" + i.user + "/contacts/" + i.contact + "/set-primary"
	}, crossCode: 404, crossMsg: "Commerce not found"},
	"POST /integration/commerces/batch-upsert": {body: func() any {
		return map[string]any{"items": []any{map[string]any{"external_id": unique("E"), "name": "X"}}}
	}},

	"GET /operators": {},
	"POST /operators": {body: func() any {
		return map[string]any{"type": "SALESMAN", "name": "Op", "email": unique("op") + "@example.test"}
	}},
	"POST /operators/sync": {body: func() any {
		return map[string]any{"items": []any{map[string]any{"external_id": unique("E"), "type": "SALESMAN", "name": "Op"}}}
	}},
	"GET /operators/{id}": {path: func(f *fixture) string { return "/operators/" + f.aOperator }, crossCode: 404, crossMsg: "Operator not found"},
	"PATCH /operators/{id}": {path: func(f *fixture) string { return "/operators/" + f.aOperator },
		body: func() any { return map[string]any{"name": "Renamed"} }, crossCode: 404, crossMsg: "Operator not found"},
	"DELETE /operators/{id}": {path: func(f *fixture) string { return "/operators/" + f.aOperator }, crossCode: 404, crossMsg: "Operator not found"},
	"POST /integration/operators/batch-upsert": {body: func() any {
		return map[string]any{"items": []any{map[string]any{"external_id": unique("E"), "type": "SALESMAN", "name": "Op"}}}
	}},
	"GET /routes":      {},
	"POST /routes":     {body: func() any { return map[string]any{"code": unique("R"), "name": "Route"} }},
	"GET /routes/{id}": {path: func(f *fixture) string { return "/routes/" + f.aRoute }, crossCode: 404, crossMsg: "Route not found"},
	"PATCH /routes/{id}": {path: func(f *fixture) string { return "/routes/" + f.aRoute },
		body: func() any { return map[string]any{"name": "Renamed"} }, crossCode: 404, crossMsg: "Route not found"},
	"DELETE /routes/{id}": {path: func(f *fixture) string { return "/routes/" + f.aRoute }, crossCode: 404, crossMsg: "Route not found"},
	"POST /routes/{id}/operators": {path: func(f *fixture) string { return "/routes/" + f.aRoute + "/operators" },
		body: func() any { return map[string]any{"operator_id": uuid.NewString()} }, crossCode: 404, crossMsg: "Route not found"},
	"DELETE /routes/{id}/operators/{opId}": {path: func(f *fixture) string { return "/routes/" + f.aRoute + "/operators/" + f.aOperator },
		crossCode: 404, crossMsg: "Route not found"},
	"POST /integration/routes/batch-upsert": {body: func() any {
		return map[string]any{"items": []any{map[string]any{"code": unique("R"), "name": "Route"}}}
	}},
	"GET /supervisors":      {},
	"POST /supervisors":     {body: func() any { return map[string]any{"name": "Sup", "email": unique("sup") + "@example.test"} }},
	"GET /supervisors/{id}": {path: func(f *fixture) string { return "/supervisors/" + f.aSupervisor }, crossCode: 404, crossMsg: "Supervisor not found"},
	"PATCH /supervisors/{id}": {path: func(f *fixture) string { return "/supervisors/" + f.aSupervisor },
		body: func() any { return map[string]any{"name": "Renamed"} }, crossCode: 404, crossMsg: "Supervisor not found"},
	"DELETE /supervisors/{id}": {path: func(f *fixture) string { return "/supervisors/" + f.aSupervisor }, crossCode: 404, crossMsg: "Supervisor not found"},

	"Query.node":                {query: `query($id: ID!) { node(id: $id) { id } }`, vars: func(f *fixture) map[string]any { return map[string]any{"id": f.a.ProjectID} }, crossCode: 404, crossMsg: "Node not found"},
	"Query.nodes":               {query: `query($id: ID!) { nodes(ids: [$id]) { id } }`, vars: func(f *fixture) map[string]any { return map[string]any{"id": f.a.ProjectID} }},
	"Query.viewer":              {query: `{ viewer { isAPIKey } }`},
	"Query.projects":            {query: `{ projects { totalCount } }`},
	"Query.apiKeys":             {query: `{ apiKeys { totalCount } }`},
	"Query.users":               {query: `{ users { totalCount } }`},
	"Query.administeredTenants": {query: `{ administeredTenants { id } }`},
	"Mutation.updateProject": {query: `mutation($id: ID!, $n: String!) { updateProject(id: $id, input: {name: $n}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.a.ProjectID, "n": unique("P")} }, crossCode: 404, crossMsg: "El proyecto no existe."},
	"Mutation.createProject": {query: `mutation($n: String!) { createProject(input: {name: $n}) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"n": unique("P")} }},
	"Mutation.createAPIKey": {query: `mutation { createAPIKey(input: {name: "k", permissions: ["project:view"], scope: tenant}) { plaintextKey } }`},
	"Mutation.revokeAPIKey": {query: `mutation($id: ID!) { revokeAPIKey(id: $id) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.aKey} }, crossCode: 403, crossMsg: "You do not own this API key"},
	"Mutation.updateAPIKeyPermissions": {query: `mutation($id: ID!) { updateAPIKeyPermissions(id: $id, permissions: ["project:view"]) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.aKey} }, crossCode: 403, crossMsg: "You do not own this API key"},
	"Mutation.registerUser": {query: `mutation($u: String!, $e: String!) { registerUser(input: {email: $e, username: $u, password: "long-enough-1", roles: ["viewer"]}) { id } }`,
		vars: func(*fixture) map[string]any {
			u := unique("u")
			return map[string]any{"u": u, "e": u + "@example.test"}
		}},
	"Mutation.updateUser": {query: `mutation($id: ID!) { updateUser(id: $id, input: {firstName: "X"}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.aUser} }, crossCode: 404, crossMsg: "User not found"},
	"Mutation.setUserRoles": {query: `mutation($id: ID!) { setUserRoles(id: $id, roles: ["operator"]) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.aUser} }, crossCode: 403, crossMsg: "Cannot modify roles for user outside your active tenant"},
	"Mutation.createTenant": {query: `mutation($n: String!) { createTenant(input: {name: $n}) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"n": unique("T")} }},
	"Mutation.updateTenant": {query: `mutation($id: ID!) { updateTenant(id: $id, input: {timeZone: "UTC"}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.a.TenantID} }, crossCode: 404, crossMsg: "Tenant not found"},
	// Trash and dispatch (entries of tenant A created by the path functions).
	"GET /trash":            {},
	"GET /trash/settings":   {},
	"PATCH /trash/settings": {body: func() any { return map[string]any{"retention_days": 30} }},
	"GET /trash/{id}":       {path: func(f *fixture) string { return "/trash/" + f.trashEntry() }, crossCode: 404, crossMsg: "Trash record not found"},
	"POST /trash/{id}/restore": {path: func(f *fixture) string { return "/trash/" + f.trashEntry() + "/restore" },
		crossCode: 404, crossMsg: "Trash record not found"},
	"DELETE /trash/{id}":       {path: func(f *fixture) string { return "/trash/" + f.trashEntry() }, crossCode: 404, crossMsg: "Trash record not found"},
	"POST /dispatch-providers": {body: func() any { return map[string]any{"name": unique("P"), "channel": "SMS", "kind": "log"} }},
	"GET /dispatch-providers":  {},
	"GET /dispatch-providers/{id}": {path: func(f *fixture) string { return "/dispatch-providers/" + f.provider() },
		crossCode: 404, crossMsg: "Dispatch provider not found"},
	"PATCH /dispatch-providers/{id}": {path: func(f *fixture) string { return "/dispatch-providers/" + f.provider() },
		body: func() any { return map[string]any{"name": unique("P")} }, crossCode: 404, crossMsg: "Dispatch provider not found"},
	"DELETE /dispatch-providers/{id}": {path: func(f *fixture) string { return "/dispatch-providers/" + f.provider() },
		crossCode: 404, crossMsg: "Dispatch provider not found"},
	"POST /dispatch-providers/{providerId}/channel-definitions": {path: func(f *fixture) string { return "/dispatch-providers/" + f.provider() + "/channel-definitions" },
		body: func() any { return map[string]any{"name": unique("D")} }, crossCode: 404, crossMsg: "Dispatch provider not found"},
	"GET /dispatch-providers/{providerId}/channel-definitions": {path: func(f *fixture) string { return "/dispatch-providers/" + f.provider() + "/channel-definitions" },
		crossCode: 404, crossMsg: "Dispatch provider not found"},
	"PATCH /dispatch-providers/{providerId}/channel-definitions/{definitionId}": {path: func(f *fixture) string { return f.definition() },
		body: func() any { return map[string]any{"template": "x"} }, crossCode: 404, crossMsg: "Dispatch provider not found"},
	"GET /projects/{projectId}/dispatch-configs": {path: func(f *fixture) string { return "/projects/" + f.a.ProjectID.String() + "/dispatch-configs" },
		crossCode: 404, crossMsg: "El proyecto no existe."},
	"PUT /projects/{projectId}/dispatch-configs/{channel}": {path: func(f *fixture) string { return "/projects/" + f.a.ProjectID.String() + "/dispatch-configs/SMS" },
		body: func() any { return map[string]any{"provider_id": uuid.NewString()} }, crossCode: 404, crossMsg: "El proyecto no existe."},

	// GraphQL org data: mutations on records use fresh tenant-A records (the
	// REST probes above archive aOperator, aRoute and aSupervisor).
	"Query.commerces": {query: `{ commerces { totalCount } }`},
	"Mutation.createCommerce": {query: `mutation($n: String!) { createCommerce(input: {name: $n}) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"n": unique("C")} }},
	"Mutation.updateCommerce": {query: `mutation($id: ID!) { updateCommerce(id: $id, input: {name: "X"}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": cmA(f).commerce} }, crossCode: 404, crossMsg: "Commerce not found"},
	"Mutation.deleteCommerce": {query: `mutation($id: ID!) { deleteCommerce(id: $id) }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": cmA(f).commerce} }, crossCode: 404, crossMsg: "Commerce not found"},
	"Mutation.addCommerceAddress": {query: `mutation($c: ID!) { addCommerceAddress(commerceID: $c, input: {source: RETEN}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"c": cmA(f).commerce} }, crossCode: 404, crossMsg: "Commerce not found"},
	"Mutation.updateCommerceAddress": {query: `mutation($c: ID!, $id: ID!) { updateCommerceAddress(commerceID: $c, id: $id, input: {city: "X"}) { id } }`,
		vars: func(f *fixture) map[string]any { i := cmA(f); return map[string]any{"c": i.commerce, "id": i.address} }, crossCode: 404, crossMsg: "Commerce not found"},
	"Mutation.setPrimaryCommerceAddress": {query: `mutation($c: ID!, $id: ID!) { setPrimaryCommerceAddress(commerceID: $c, id: $id) { id } }`,
		vars: func(f *fixture) map[string]any { i := cmA(f); return map[string]any{"c": i.commerce, "id": i.address} }, crossCode: 404, crossMsg: "Commerce not found"},
	"Mutation.createCommerceUser": {query: `mutation($c: ID!) { createCommerceUser(commerceID: $c, input: {name: "X"}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"c": cmA(f).commerce} }, crossCode: 404, crossMsg: "Commerce not found"},
	"Mutation.updateCommerceUser": {query: `mutation($c: ID!, $id: ID!) { updateCommerceUser(commerceID: $c, id: $id, input: {name: "X"}) { id } }`,
		vars: func(f *fixture) map[string]any { i := cmA(f); return map[string]any{"c": i.commerce, "id": i.user} }, crossCode: 404, crossMsg: "Commerce not found"},
	"Mutation.addCommerceUserRole": {query: `mutation($c: ID!, $u: ID!) { addCommerceUserRole(commerceID: $c, userID: $u, role: OWNER) { id } }`,
		vars: func(f *fixture) map[string]any { i := cmA(f); return map[string]any{"c": i.commerce, "u": i.user} }, crossCode: 404, crossMsg: "Commerce not found"},
	"Mutation.removeCommerceUserRole": {query: `mutation($c: ID!, $u: ID!) { removeCommerceUserRole(commerceID: $c, userID: $u, role: OWNER) }`,
		vars: func(f *fixture) map[string]any { i := cmA(f); return map[string]any{"c": i.commerce, "u": i.user} }, crossCode: 404, crossMsg: "Commerce not found"},
	"Mutation.addCommerceContact": {query: `mutation($c: ID!, $u: ID!, $v: String!) { addCommerceContact(commerceID: $c, userID: $u, input: {contactType: OTHER, value: $v, source: RETEN}) { id } }`,
		vars: func(f *fixture) map[string]any {
			i := cmA(f)
			return map[string]any{"c": i.commerce, "u": i.user, "v": unique("v")}
		}, crossCode: 404, crossMsg: "Commerce not found"},
	"Mutation.updateCommerceContact": {query: `mutation($c: ID!, $u: ID!, $id: ID!) { updateCommerceContact(commerceID: $c, userID: $u, id: $id, input: {value: "y"}) { id } }`,
		vars: func(f *fixture) map[string]any {
			i := cmA(f)
			return map[string]any{"c": i.commerce, "u": i.user, "id": i.contact}
		}, crossCode: 404, crossMsg: "Commerce not found"},
	"Mutation.setPrimaryCommerceContact": {query: `mutation($c: ID!, $u: ID!, $id: ID!) { setPrimaryCommerceContact(commerceID: $c, userID: $u, id: $id) { id } }`,
		vars: func(f *fixture) map[string]any {
			i := cmA(f)
			return map[string]any{"c": i.commerce, "u": i.user, "id": i.contact}
		}, crossCode: 404, crossMsg: "Commerce not found"},
	"Mutation.batchUpsertCommerces": {query: `mutation($e: String!) { batchUpsertCommerces(items: [{externalID: $e, name: "X"}]) { total } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"e": unique("E")} }},

	"Query.operators":   {query: `{ operators { totalCount } }`},
	"Query.routes":      {query: `{ routes { totalCount } }`},
	"Query.supervisors": {query: `{ supervisors { totalCount } }`},
	"Mutation.createOperator": {query: `mutation($e: String!) { createOperator(input: {type: SALESMAN, name: "Op", email: $e}) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"e": unique("op") + "@example.test"} }},
	"Mutation.updateOperator": {query: `mutation($id: ID!) { updateOperator(id: $id, input: {name: "Renamed"}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.newOperator()} }, crossCode: 404, crossMsg: "Operator not found"},
	"Mutation.deleteOperator": {query: `mutation($id: ID!) { deleteOperator(id: $id) }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.newOperator()} }, crossCode: 404, crossMsg: "Operator not found"},
	"Mutation.syncOperators": {query: `mutation($e: String!) { syncOperators(items: [{externalID: $e, type: SALESMAN, name: "Op"}]) { total } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"e": unique("E")} }},
	"Mutation.batchUpsertOperators": {query: `mutation($e: String!) { batchUpsertOperators(items: [{externalID: $e, type: SALESMAN, name: "Op"}]) { total } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"e": unique("E")} }},
	"Mutation.createRoute": {query: `mutation($c: String!) { createRoute(input: {code: $c, name: "Route"}) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"c": unique("R")} }},
	"Mutation.updateRoute": {query: `mutation($id: ID!) { updateRoute(id: $id, input: {name: "Renamed"}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.newRoute()} }, crossCode: 404, crossMsg: "Route not found"},
	"Mutation.deleteRoute": {query: `mutation($id: ID!) { deleteRoute(id: $id) }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.newRoute()} }, crossCode: 404, crossMsg: "Route not found"},
	"Mutation.linkRouteOperator": {query: `mutation($r: ID!, $o: ID!) { linkRouteOperator(routeID: $r, operatorID: $o) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"r": f.newRoute(), "o": f.newOperator()} }, crossCode: 404, crossMsg: "Route not found"},
	"Mutation.unlinkRouteOperator": {query: `mutation($r: ID!, $o: ID!) { unlinkRouteOperator(routeID: $r, operatorID: $o) }`,
		vars: func(f *fixture) map[string]any {
			r, o := f.newRoute(), f.newOperator()
			f.env.App.DB.Client.RouteOperator.Create().SetTenantID(f.a.TenantID).SetRouteID(r).SetOperatorID(o).SaveX(f.aCtx())
			return map[string]any{"r": r, "o": o}
		}, crossCode: 404, crossMsg: "Route not found"},
	"Mutation.batchUpsertRoutes": {query: `mutation($c: String!) { batchUpsertRoutes(items: [{code: $c, name: "Route"}]) { total } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"c": unique("R")} }},
	"Mutation.createSupervisor": {query: `mutation($e: String!) { createSupervisor(input: {name: "Sup", email: $e}) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"e": unique("sup") + "@example.test"} }},
	"Mutation.updateSupervisor": {query: `mutation($id: ID!) { updateSupervisor(id: $id, input: {name: "Renamed"}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.newSupervisor()} }, crossCode: 404, crossMsg: "Supervisor not found"},
	"Mutation.deleteSupervisor": {query: `mutation($id: ID!) { deleteSupervisor(id: $id) }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.newSupervisor()} }, crossCode: 404, crossMsg: "Supervisor not found"},

	"Query.trashRecords":  {query: `{ trashRecords { totalCount } }`},
	"Query.trashSettings": {query: `{ trashSettings { retentionDays } }`},
	"Mutation.restoreTrashRecord": {query: `mutation($id: ID!) { restoreTrashRecord(id: $id) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.trashEntry()} }, crossCode: 404, crossMsg: "Trash record not found"},
	"Mutation.purgeTrashRecord": {query: `mutation($id: ID!) { purgeTrashRecord(id: $id) }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.trashEntry()} }, crossCode: 404, crossMsg: "Trash record not found"},
	"Mutation.updateTrashSettings": {query: `mutation { updateTrashSettings(input: {retentionDays: 30}) { retentionDays } }`},

	"Query.dispatchProviders": {query: `{ dispatchProviders { totalCount } }`},
	"Query.dispatchConfigs": {query: `query($p: ID!) { dispatchConfigs(projectID: $p) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"p": f.a.ProjectID} }, crossCode: 404, crossMsg: "El proyecto no existe."},
	"Mutation.createDispatchProvider": {query: `mutation($n: String!) { createDispatchProvider(input: {name: $n, channel: SMS, kind: "log"}) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"n": unique("P")} }},
	"Mutation.updateDispatchProvider": {query: `mutation($id: ID!, $n: String!) { updateDispatchProvider(id: $id, input: {name: $n}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.provider(), "n": unique("P")} }, crossCode: 404, crossMsg: "Dispatch provider not found"},
	"Mutation.deleteDispatchProvider": {query: `mutation($id: ID!) { deleteDispatchProvider(id: $id) }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.provider()} }, crossCode: 404, crossMsg: "Dispatch provider not found"},
	"Mutation.createChannelDefinition": {query: `mutation($p: ID!, $n: String!) { createChannelDefinition(providerID: $p, input: {name: $n}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"p": f.provider(), "n": unique("D")} }, crossCode: 404, crossMsg: "Dispatch provider not found"},
	"Mutation.updateChannelDefinition": {query: `mutation($p: ID!, $id: ID!) { updateChannelDefinition(providerID: $p, id: $id, input: {template: "x"}) { id } }`,
		vars: func(f *fixture) map[string]any {
			parts := strings.Split(f.definition(), "/") // /dispatch-providers/{p}/channel-definitions/{d}
			return map[string]any{"p": parts[2], "id": parts[4]}
		}, crossCode: 404, crossMsg: "Dispatch provider not found"},
	"Mutation.putDispatchConfig": {query: `mutation($p: ID!, $prov: ID!) { putDispatchConfig(projectID: $p, channel: SMS, input: {providerID: $prov}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"p": f.a.ProjectID, "prov": f.provider()} }, crossCode: 404, crossMsg: "El proyecto no existe."},

	// Lifecycle catalogs: every probe on a config gets a fresh tenant-A config.
	"GET /activity-reason-configs":          {},
	"GET /activity-reason-configs/defaults": {},
	"POST /activity-reason-configs":         {body: func() any { return map[string]any{"code": unique("r"), "label": "Razón"} }},
	"POST /activity-reason-configs/bulk": {body: func() any {
		return map[string]any{"items": []any{map[string]any{"code": unique("r"), "label": "Razón"}}}
	}},
	"PATCH /activity-reason-configs/{id}": {path: func(f *fixture) string {
		return "/activity-reason-configs/" + f.env.App.DB.Client.ActivityReasonConfig.Create().SetTenantID(f.a.TenantID).
			SetCode(unique("r")).SetLabel("R").SaveX(f.aCtx()).ID.String()
	}, body: func() any { return map[string]any{"label": "X"} }, crossCode: 404, crossMsg: "Activity reason config not found"},
	"DELETE /activity-reason-configs/{id}": {path: func(f *fixture) string {
		return "/activity-reason-configs/" + f.env.App.DB.Client.ActivityReasonConfig.Create().SetTenantID(f.a.TenantID).
			SetCode(unique("r")).SetLabel("R").SaveX(f.aCtx()).ID.String()
	}, crossCode: 404, crossMsg: "Activity reason config not found"},
	"GET /retention-status-configs": {},
	"POST /retention-status-configs": {body: func() any {
		return map[string]any{"code": unique("s"), "label": "Activo", "stage": "ENGAGEMENT"}
	}},
	"GET /retention-status-configs/{id}": {path: func(f *fixture) string {
		return "/retention-status-configs/" + f.env.App.DB.Client.RetentionStatusConfig.Create().SetTenantID(f.a.TenantID).
			SetCode(unique("s")).SetLabel("S").SetStage("ACTIVATION").SaveX(f.aCtx()).ID.String()
	}, crossCode: 404, crossMsg: "Retention status config not found"},
	"PATCH /retention-status-configs/{id}": {path: func(f *fixture) string {
		return "/retention-status-configs/" + f.env.App.DB.Client.RetentionStatusConfig.Create().SetTenantID(f.a.TenantID).
			SetCode(unique("s")).SetLabel("S").SetStage("ACTIVATION").SaveX(f.aCtx()).ID.String()
	}, body: func() any { return map[string]any{"label": "X"} }, crossCode: 404, crossMsg: "Retention status config not found"},
	"DELETE /retention-status-configs/{id}": {path: func(f *fixture) string {
		return "/retention-status-configs/" + f.env.App.DB.Client.RetentionStatusConfig.Create().SetTenantID(f.a.TenantID).
			SetCode(unique("s")).SetLabel("S").SetStage("ACTIVATION").SaveX(f.aCtx()).ID.String()
	}, crossCode: 404, crossMsg: "Retention status config not found"},
	"Query.activityReasonConfigs":  {query: `{ activityReasonConfigs { totalCount } }`},
	"Query.activityReasonDefaults": {query: `{ activityReasonDefaults { code } }`},
	"Query.retentionStatusConfigs": {query: `{ retentionStatusConfigs { totalCount } }`},
	"Mutation.createActivityReasonConfig": {query: `mutation($c: String!) { createActivityReasonConfig(input: {code: $c, label: "R"}) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"c": unique("r")} }},
	"Mutation.bulkCreateActivityReasonConfigs": {query: `mutation($c: String!) { bulkCreateActivityReasonConfigs(items: [{code: $c, label: "R"}]) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"c": unique("r")} }},
	"Mutation.updateActivityReasonConfig": {query: `mutation($id: ID!) { updateActivityReasonConfig(id: $id, input: {label: "X"}) { id } }`,
		vars: func(f *fixture) map[string]any {
			return map[string]any{"id": f.env.App.DB.Client.ActivityReasonConfig.Create().SetTenantID(f.a.TenantID).
				SetCode(unique("r")).SetLabel("R").SaveX(f.aCtx()).ID}
		}, crossCode: 404, crossMsg: "Activity reason config not found"},
	"Mutation.deactivateActivityReasonConfig": {query: `mutation($id: ID!) { deactivateActivityReasonConfig(id: $id) { id } }`,
		vars: func(f *fixture) map[string]any {
			return map[string]any{"id": f.env.App.DB.Client.ActivityReasonConfig.Create().SetTenantID(f.a.TenantID).
				SetCode(unique("r")).SetLabel("R").SaveX(f.aCtx()).ID}
		}, crossCode: 404, crossMsg: "Activity reason config not found"},
	"Mutation.createRetentionStatusConfig": {query: `mutation($c: String!) { createRetentionStatusConfig(input: {code: $c, label: "S", stage: ACTIVATION}) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"c": unique("s")} }},
	"Mutation.updateRetentionStatusConfig": {query: `mutation($id: ID!) { updateRetentionStatusConfig(id: $id, input: {label: "X"}) { id } }`,
		vars: func(f *fixture) map[string]any {
			return map[string]any{"id": f.env.App.DB.Client.RetentionStatusConfig.Create().SetTenantID(f.a.TenantID).
				SetCode(unique("s")).SetLabel("S").SetStage("ACTIVATION").SaveX(f.aCtx()).ID}
		}, crossCode: 404, crossMsg: "Retention status config not found"},
	"Mutation.deactivateRetentionStatusConfig": {query: `mutation($id: ID!) { deactivateRetentionStatusConfig(id: $id) { id } }`,
		vars: func(f *fixture) map[string]any {
			return map[string]any{"id": f.env.App.DB.Client.RetentionStatusConfig.Create().SetTenantID(f.a.TenantID).
				SetCode(unique("s")).SetLabel("S").SetStage("ACTIVATION").SaveX(f.aCtx()).ID}
		}, crossCode: 404, crossMsg: "Retention status config not found"},
	// Activity generation configs and lifecycle pillars (project-scoped; each
	// probe on an AGC gets its own tenant-A AGC with a fixed id, see agcFor).
	"GET /activity-generation-configs": {},
	"POST /activity-generation-configs": {body: func() any {
		pillar := func(children string, extra map[string]any) map[string]any {
			m := map[string]any{"name": "P", "source_table": "orders", "date_column": "d", children: []any{}}
			for k, v := range extra {
				m[k] = v
			}
			return m
		}
		return map[string]any{"name": unique("AGC"),
			"activation":   pillar("moments", map[string]any{"aggregation_method": "count"}),
			"engagement":   pillar("levels", map[string]any{"engagement_window_days": 30, "min_lifetime_actions_for_engaged": 1, "counting_method": "count"}),
			"resurrection": pillar("thresholds", nil)}
	}},
	"GET /activity-generation-configs/{id}": {path: func(f *fixture) string { return "/activity-generation-configs/" + f.agcFor("get", "draft").String() },
		crossCode: 404, crossMsg: agcMissing("get")},
	"PATCH /activity-generation-configs/{id}": {path: func(f *fixture) string { return "/activity-generation-configs/" + f.agcFor("patch", "draft").String() },
		body: func() any { return map[string]any{"description": "x"} }, crossCode: 404, crossMsg: agcMissing("patch")},
	"DELETE /activity-generation-configs/{id}": {path: func(f *fixture) string { return "/activity-generation-configs/" + f.agcFor("delete", "draft").String() },
		crossCode: 404, crossMsg: agcMissing("delete")},
	"PUT /activity-generation-configs/{id}/lifecycle": {path: func(f *fixture) string {
		return "/activity-generation-configs/" + f.agcFor("lifecycle", "draft").String() + "/lifecycle"
	}, body: func() any { return map[string]any{"activation": map[string]any{"name": "X"}} }, crossCode: 404, crossMsg: agcMissing("lifecycle")},
	"POST /activity-generation-configs/{id}/publish": {path: func(f *fixture) string {
		return "/activity-generation-configs/" + f.agcFor("publish", "draft").String() + "/publish"
	}, crossCode: 404, crossMsg: agcMissing("publish")},
	"POST /activity-generation-configs/{id}/pause": {path: func(f *fixture) string {
		return "/activity-generation-configs/" + f.agcFor("pause", "active").String() + "/pause"
	}, crossCode: 404, crossMsg: agcMissing("pause")},
	"GET /activation-configs": {},
	"GET /activation-configs/{id}": {path: func(f *fixture) string {
		f.agcFor("pillars", "draft")
		return "/activation-configs/" + agcProbeID("pillars/activation").String()
	}, crossCode: 404, crossMsg: "Activation config not found"},
	"GET /engagement-configs": {},
	"GET /engagement-configs/{id}": {path: func(f *fixture) string {
		f.agcFor("pillars", "draft")
		return "/engagement-configs/" + agcProbeID("pillars/engagement").String()
	}, crossCode: 404, crossMsg: "Engagement config not found"},
	"GET /resurrection-configs": {},
	"GET /resurrection-configs/{id}": {path: func(f *fixture) string {
		f.agcFor("pillars", "draft")
		return "/resurrection-configs/" + agcProbeID("pillars/resurrection").String()
	}, crossCode: 404, crossMsg: "Resurrection config not found"},
	"GET /lifecycle-defaults":         {},
	"Query.activityGenerationConfigs": {query: `{ activityGenerationConfigs { totalCount edges { node { id activationConfig { id } } } } }`},
	"Query.lifecycleDefaults":         {query: `{ lifecycleDefaults }`},
	"Mutation.createActivityGenerationConfig": {query: `mutation($n: String!) { createActivityGenerationConfig(input: {name: $n,
		activation: {name: "P", sourceTable: "orders", dateColumn: "d", aggregationMethod: count, moments: []},
		engagement: {name: "P", sourceTable: "orders", dateColumn: "d", engagementWindowDays: 30, minLifetimeActionsForEngaged: 1, countingMethod: "count", levels: []},
		resurrection: {name: "P", sourceTable: "orders", dateColumn: "d", thresholds: []}}) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"n": unique("AGC")} }},
	"Mutation.updateActivityGenerationConfig": {query: `mutation($id: ID!) { updateActivityGenerationConfig(id: $id, input: {description: "x"}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("gql-update", "draft")} }, crossCode: 404, crossMsg: agcMissing("gql-update")},
	"Mutation.replaceActivityGenerationConfigLifecycle": {query: `mutation($id: ID!) { replaceActivityGenerationConfigLifecycle(id: $id, input: {activation: {name: "X"}}) }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("gql-lifecycle", "draft")} }, crossCode: 404, crossMsg: agcMissing("gql-lifecycle")},
	"Mutation.publishActivityGenerationConfig": {query: `mutation($id: ID!) { publishActivityGenerationConfig(id: $id) { status } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("gql-publish", "draft")} }, crossCode: 404, crossMsg: agcMissing("gql-publish")},
	"Mutation.pauseActivityGenerationConfig": {query: `mutation($id: ID!) { pauseActivityGenerationConfig(id: $id) { status } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("gql-pause", "active")} }, crossCode: 404, crossMsg: agcMissing("gql-pause")},
	"Mutation.archiveActivityGenerationConfig": {query: `mutation($id: ID!) { archiveActivityGenerationConfig(id: $id) }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("gql-archive", "draft")} }, crossCode: 404, crossMsg: agcMissing("gql-archive")},
	// Commerce lifecycle snapshots (tenant A's commerce, AGC, status and snapshot from snapA).
	"GET /commerce-lifecycle-snapshots": {},
	"GET /commerce-lifecycle-snapshots/{commerceIdentifier}": {path: func(f *fixture) string {
		return "/commerce-lifecycle-snapshots/" + f.snapA().String()
	}, crossCode: 404, crossMsg: "Commerce not found"},
	"POST /commerce-lifecycle-snapshots/batch-lookup": {body: func() any { return map[string]any{"external_ids": []string{"SNAP-PROBE"}} }},
	"PUT /commerce-lifecycle-snapshots": {path: func(f *fixture) string { f.snapA(); return "/commerce-lifecycle-snapshots" },
		body: func() any {
			return map[string]any{"commerce_id": agcProbeID("snap/commerce"), "activity_generation_config_id": agcProbeID("snap"),
				"code": "probe", "stage": "ACTIVATION", "last_computed_at": "2030-01-01T00:00:00Z"}
		}, crossCode: 404, crossMsg: "Commerce " + agcProbeID("snap/commerce").String() + " not found"},
	"POST /commerce-lifecycle-snapshots/batch-upsert": {path: func(f *fixture) string { f.snapA(); return "/commerce-lifecycle-snapshots/batch-upsert" },
		body: func() any {
			return map[string]any{"items": []any{map[string]any{"external_id": "SNAP-PROBE", "activity_generation_config_id": agcProbeID("snap"),
				"code": "probe", "stage": "ENGAGEMENT", "last_computed_at": "2030-01-02T00:00:00Z"}}}
		}},
	// GraphQL snapshots: list answers select tenantID, so tenant B seeing A's rows fails the probe.
	"Query.commerceLifecycleSnapshots": {query: `{ commerceLifecycleSnapshots { totalCount edges { node { tenantID } } } }`,
		vars: func(f *fixture) map[string]any { f.snapA(); return nil }},
	"Query.commerceLifecycleSnapshotsByCommerce": {query: `query($c: String!) { commerceLifecycleSnapshotsByCommerce(commerce: $c) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"c": f.snapA().String()} }, crossCode: 404, crossMsg: "Commerce not found"},
	"Query.commerceLifecycleSnapshotsBatchLookup": {query: `{ commerceLifecycleSnapshotsBatchLookup(externalIDs: ["SNAP-PROBE"]) { snapshots { tenantID } unresolved } }`,
		vars: func(f *fixture) map[string]any { f.snapA(); return nil }},
	"Mutation.upsertCommerceLifecycleSnapshot": {query: `mutation($c: ID!, $a: ID!) { upsertCommerceLifecycleSnapshot(input: {commerceID: $c,
		activityGenerationConfigID: $a, code: "probe", stage: "ACTIVATION", lastComputedAt: "2030-01-01T00:00:00Z"}) { outcome } }`,
		vars: func(f *fixture) map[string]any {
			return map[string]any{"c": f.snapA(), "a": agcProbeID("snap")}
		}, crossCode: 404, crossMsg: "Commerce " + agcProbeID("snap/commerce").String() + " not found"},
	"Mutation.batchUpsertCommerceLifecycleSnapshots": {query: `mutation($a: ID!) { batchUpsertCommerceLifecycleSnapshots(items: [{externalID: "SNAP-PROBE",
		activityGenerationConfigID: $a, code: "probe", stage: "ACTIVATION", lastComputedAt: "2030-01-02T00:00:00Z"}]) { created updated errors { messages } } }`,
		vars: func(f *fixture) map[string]any { f.snapA(); return map[string]any{"a": agcProbeID("snap")} }},
}

// audienceProbes: audience criteria (tenant A's dataset is configured by
// auReady where an allowed call needs it; REST calls of tenant B or without
// a dataset answer 404, which the matrix walk accepts).
var audienceProbes = map[string]probe{
	"GET /audience-criterias":                            {},
	"POST /audience-criterias":                           {body: func() any { return map[string]any{"name": unique("A"), "queryBlocks": auProbeBlocks()} }},
	"GET /audience-criterias/tables":                     {},
	"GET /audience-criterias/tables/{tableName}/columns": {path: func(*fixture) string { return "/audience-criterias/tables/events/columns" }},
	"POST /audience-criterias/generate-sql":              {body: func() any { return map[string]any{"queryBlocks": auProbeBlocks()} }},
	"POST /audience-criterias/validate-from-body":        {body: func() any { return map[string]any{"queryBlocks": auProbeBlocks()} }},
	"POST /audience-criterias/preview-from-body":         {body: func() any { return map[string]any{"queryBlocks": auProbeBlocks()} }},
	"GET /audience-criterias/{id}":                       {path: func(f *fixture) string { return "/audience-criterias/" + f.aRoot.String() }, crossCode: 404, crossMsg: "Audience criteria not found"},
	"PATCH /audience-criterias/{id}": {path: func(f *fixture) string { return "/audience-criterias/" + f.aRoot.String() },
		body: func() any { return map[string]any{"name": unique("A")} }, crossCode: 404, crossMsg: "Audience criteria not found"},
	"DELETE /audience-criterias/{id}": {path: func(f *fixture) string { return "/audience-criterias/" + f.auAudience() },
		crossCode: 404, crossMsg: "Audience criteria not found"},
	"GET /audience-criterias/{id}/sql": {path: func(f *fixture) string { return "/audience-criterias/" + f.auAudience() + "/sql" },
		crossCode: 404, crossMsg: "Audience criteria not found"},
	"POST /audience-criterias/{id}/preview": {path: func(f *fixture) string { return "/audience-criterias/" + f.auAudience() + "/preview" },
		crossCode: 404, crossMsg: "Audience criteria not found"},
	"POST /audience-criterias/{id}/preview-change": {path: func(f *fixture) string { return "/audience-criterias/" + f.auAudience() + "/preview-change" },
		body: func() any { return map[string]any{} }, crossCode: 404, crossMsg: "Audience criteria not found"},

	"Query.audiences": {query: `{ audiences { totalCount edges { node { id conditionCount } } } }`},
	"Query.audience": {query: `query($id: ID!) { audience(id: $id) { id isRoot } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.aRoot} }, crossCode: 404, crossMsg: "Audience criteria not found"},
	"Query.audienceTables": {query: `{ audienceTables { name identityColumn } }`,
		vars: func(f *fixture) map[string]any { f.auReady(); return nil }},
	"Query.audienceColumns": {query: `{ audienceColumns(table: "events") { table columns { name isIdentity } } }`,
		vars: func(f *fixture) map[string]any { f.auReady(); return nil }},
	"Query.audienceSQL": {query: `query($id: ID!) { audienceSQL(id: $id) { subjectColumn } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.auAudience()} }, crossCode: 404, crossMsg: "Audience criteria not found"},
	"Query.generateAudienceSQL": {query: `query($b: [Map!]!) { generateAudienceSQL(queryBlocks: $b) { subjectColumn } }`,
		vars: func(f *fixture) map[string]any { f.auReady(); return map[string]any{"b": auProbeBlocks()} }},
	"Query.validateAudience": {query: `query($b: [Map!]!) { validateAudience(queryBlocks: $b) { valid } }`,
		vars: func(f *fixture) map[string]any { f.auReady(); return map[string]any{"b": auProbeBlocks()} }},
	"Query.previewAudience": {query: `query($b: [Map!]!) { previewAudience(queryBlocks: $b, limit: 1) { subjectCount } }`,
		vars: func(f *fixture) map[string]any { f.auReady(); return map[string]any{"b": auProbeBlocks()} }},
	"Query.audienceMembershipChange": {query: `query($id: ID!, $b: [Map!]!) { audienceMembershipChange(id: $id, queryBlocks: $b) { entering } }`,
		vars:      func(f *fixture) map[string]any { return map[string]any{"id": f.auAudience(), "b": auProbeBlocks()} },
		crossCode: 404, crossMsg: "Audience criteria not found"},
	"Mutation.createAudience": {query: `mutation($n: String!, $b: [Map!]!) { createAudience(input: {name: $n, queryBlocks: $b}) { id } }`,
		vars: func(f *fixture) map[string]any {
			f.auReady()
			return map[string]any{"n": unique("A"), "b": auProbeBlocks()}
		}},
	"Mutation.updateAudience": {query: `mutation($id: ID!, $n: String!) { updateAudience(id: $id, input: {name: $n}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.aRoot, "n": unique("A")} }, crossCode: 404, crossMsg: "Audience criteria not found"},
	"Mutation.deleteAudience": {query: `mutation($id: ID!) { deleteAudience(id: $id) }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.auAudience()} }, crossCode: 404, crossMsg: "Audience criteria not found"},
}

func init() { maps.Copy(probes, audienceProbes) }

// auProbeBlocks is a valid audience definition over the demo catalog.
func auProbeBlocks() []any {
	return []any{map[string]any{"order": 0, "setOperator": nil, "from": map[string]any{"table": "commerces", "joins": []any{}, "unnests": []any{}},
		"select": map[string]any{"distinct": false, "items": []any{map[string]any{"kind": "column",
			"column": map[string]any{"table": "commerces", "column": "commerce_id"}}}},
		"where": map[string]any{"kind": "predicate", "column": map[string]any{"table": "commerces", "column": "segment"},
			"comparisonOperator": "EQUALS", "value": "pharmacy"}}}
}

// auDatasets holds, per test environment, the demo dataset file of tenant A.
var auDatasets = map[*apptest.Env]string{}

// auReady (re)configures tenant A's dataset as a small demo sqlite file
// with the demo catalog (other probes may have replaced the configuration).
func (f *fixture) auReady() {
	path, ok := auDatasets[f.env]
	if !ok {
		path = filepath.Join(f.env.T.TempDir(), "audience-dataset.db")
		db, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			panic(err)
		}
		defer db.Close()
		if _, err := demo.Create(context.Background(), db, demo.DialectSQLite, "",
			demo.Options{Seed: 3, Commerces: 20, Products: 10, Events: 100, Transactions: 20}); err != nil {
			panic(err)
		}
		auDatasets[f.env] = path
	}
	ctx := viewer.NewContext(context.Background(), &viewer.Viewer{UserID: f.a.UserID, TenantID: f.a.TenantID,
		Roles: []string{auth.RoleSuperAdmin}, Permissions: auth.PermissionsOf([]string{auth.RoleSuperAdmin})})
	if _, _, err := f.env.App.Dataset.Set(ctx, dataset.ConfigInput{Engine: dataset.EngineSQLite, Connection: &path}); err != nil {
		panic(err)
	}
	if _, err := f.env.App.Dataset.SetCatalog(ctx, demo.Catalog()); err != nil {
		panic(err)
	}
}

// auAudience creates a live audience of tenant A's main project with a
// valid definition (each probe call gets its own) and returns its id.
func (f *fixture) auAudience() string {
	f.auReady()
	res := f.env.Do("POST", "/api/audience-criterias", map[string]any{"name": unique("A"), "queryBlocks": auProbeBlocks()},
		apptest.JWT(f.aToken, f.a.TenantID, f.a.ProjectID))
	if res.Status != 201 {
		panic(fmt.Sprintf("audience fixture: %d %s", res.Status, res.Body))
	}
	var out struct{ ID string }
	if err := json.Unmarshal(res.Body, &out); err != nil {
		panic(err)
	}
	return out.ID
}

// agcProbeID is the fixed id of an AGC probe record (the cross-tenant 404
// message names the AGC id, so it must be known when probes are declared).
func agcProbeID(name string) uuid.UUID {
	return uuid.NewSHA1(uuid.NameSpaceURL, []byte("agc-probe/"+name))
}

func agcMissing(name string) string {
	return "Activity generation config " + agcProbeID(name).String() + " not found"
}

// agcFor returns tenant A's AGC of the probe name (with its three pillars),
// creating it on first use with the given status.
func (f *fixture) agcFor(name, status string) uuid.UUID {
	ctx, c, id := f.aCtx(), f.env.App.DB.Client, agcProbeID(name)
	if c.ActivityGenerationConfig.Query().Where(activitygenerationconfig.ID(id)).ExistX(ctx) {
		return id
	}
	tid, pid := f.a.TenantID, f.a.ProjectID
	c.ActivityGenerationConfig.Create().SetID(id).SetTenantID(tid).SetProjectID(pid).SetName(unique("AGC")).
		SetStatus(activitygenerationconfig.Status(status)).SaveX(ctx)
	c.ActivationConfig.Create().SetID(agcProbeID(name + "/activation")).SetTenantID(tid).SetProjectID(pid).
		SetActivityGenerationConfigID(id).SetName("A").SetSourceTable("t").SetDateColumn("d").SetAggregationMethod("count").SaveX(ctx)
	c.EngagementConfig.Create().SetID(agcProbeID(name + "/engagement")).SetTenantID(tid).SetProjectID(pid).
		SetActivityGenerationConfigID(id).SetName("E").SetSourceTable("t").SetDateColumn("d").SetEngagementWindowDays(30).
		SetMinLifetimeActionsForEngaged(1).SetCountingMethod("count").SaveX(ctx)
	c.ResurrectionConfig.Create().SetID(agcProbeID(name + "/resurrection")).SetTenantID(tid).SetProjectID(pid).
		SetActivityGenerationConfigID(id).SetName("R").SetSourceTable("t").SetDateColumn("d").SaveX(ctx)
	return id
}

// snapA returns tenant A's probe commerce (external id SNAP-PROBE), creating
// it on first use with an AGC, an active status config "probe" and a snapshot.
func (f *fixture) snapA() uuid.UUID {
	ctx, c := viewer.SystemContext(context.Background()), f.env.App.DB.Client
	id, agcID, tid := agcProbeID("snap/commerce"), agcProbeID("snap"), f.a.TenantID
	if c.Commerce.Query().Where(commerce.ID(id)).ExistX(ctx) {
		return id
	}
	c.Commerce.Create().SetID(id).SetTenantID(tid).SetName("Snap").SetExternalID("SNAP-PROBE").SaveX(ctx)
	c.ActivityGenerationConfig.Create().SetID(agcID).SetTenantID(tid).SetProjectID(f.a.ProjectID).SetName(unique("AGC")).SaveX(ctx)
	c.RetentionStatusConfig.Create().SetTenantID(tid).SetCode("probe").SetLabel("Probe").SetStage("ACTIVATION").SaveX(ctx)
	at := time.Date(2029, 1, 1, 0, 0, 0, 0, time.UTC)
	c.CommerceLifecycleSnapshot.Create().SetTenantID(tid).SetCommerceID(id).SetActivityGenerationConfigID(agcID).
		SetCode("probe").SetLabel("Probe").SetStage("ACTIVATION").SetLastComputedAt(at).SetStateChangedAt(at).SaveX(ctx)
	return id
}

// newOperator, newRoute and newSupervisor create a live record of tenant A
// (the GraphQL probes that change or archive one each get their own).
func (f *fixture) newOperator() uuid.UUID {
	return f.env.App.DB.Client.Operator.Create().SetTenantID(f.a.TenantID).SetName("Op").SetType("SALESMAN").SaveX(f.aCtx()).ID
}

func (f *fixture) newRoute() uuid.UUID {
	return f.env.App.DB.Client.Route.Create().SetTenantID(f.a.TenantID).SetCode(unique("R")).SetName("R").SaveX(f.aCtx()).ID
}

func (f *fixture) newSupervisor() uuid.UUID {
	return f.env.App.DB.Client.Supervisor.Create().SetTenantID(f.a.TenantID).SetName("Sup").SaveX(f.aCtx()).ID
}

// aCtx is tenant A's data-layer context.
func (f *fixture) aCtx() context.Context {
	return viewer.NewContext(context.Background(), &viewer.Viewer{TenantID: f.a.TenantID, UserID: f.a.UserID})
}

// trashEntry archives a new route of tenant A and returns its trash entry id.
func (f *fixture) trashEntry() string {
	ctx, c := f.aCtx(), f.env.App.DB.Client
	r := c.Route.Create().SetTenantID(f.a.TenantID).SetCode(unique("R")).SetName("R").SaveX(ctx)
	if err := txn.Run(ctx, c, func(ctx context.Context, tx *ent.Client) error {
		if err := tx.Route.UpdateOneID(r.ID).SetArchivedAt(time.Now()).Exec(ctx); err != nil {
			return err
		}
		return trash.Archive(ctx, tx, trash.Record{Kind: trash.KindRoute, RecordID: r.ID, Label: r.Code})
	}); err != nil {
		panic(err)
	}
	return c.TrashRecord.Query().Where(trashrecord.RecordID(r.ID)).OnlyX(ctx).ID.String()
}

// provider creates a dispatch provider of tenant A and returns its id.
func (f *fixture) provider() string {
	return f.env.App.DB.Client.DispatchProvider.Create().SetTenantID(f.a.TenantID).SetName(unique("P")).
		SetChannel("SMS").SetKind("log").SaveX(f.aCtx()).ID.String()
}

// definition creates a provider and a channel definition of tenant A and returns the definition's path.
func (f *fixture) definition() string {
	pid := f.provider()
	d := f.env.App.DB.Client.ChannelDefinition.Create().SetTenantID(f.a.TenantID).SetProviderID(uuid.MustParse(pid)).
		SetName(unique("D")).SetChannel("SMS").SaveX(f.aCtx())
	return "/dispatch-providers/" + pid + "/channel-definitions/" + d.ID.String()
}

// call sends the probe for entry e with headers h (project header added for
// project-scoped lines when project is set).
func (f *fixture) call(e tenancy.Entry, p probe, h apptest.Headers) *apptest.Response {
	if e.IsGraphQL() {
		var vars map[string]any
		if p.vars != nil {
			vars = p.vars(f)
		}
		return f.env.GraphQL(p.query, vars, h)
	}
	path := e.Path
	if p.path != nil {
		path = p.path(f)
	}
	var body any
	if p.body != nil {
		body = p.body()
	}
	return f.env.Do(e.Method, "/api"+path, body, h)
}

// gqlError returns the first GraphQL error's message and statusCode.
func gqlError(t *testing.T, res *apptest.Response) (string, int) {
	t.Helper()
	var out struct {
		Errors []struct {
			Message    string `json:"message"`
			Extensions struct {
				StatusCode int `json:"statusCode"`
			} `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(res.Body, &out); err != nil {
		t.Fatalf("graphql body %s: %v", res.Body, err)
	}
	if len(out.Errors) == 0 {
		return "", 0
	}
	return out.Errors[0].Message, out.Errors[0].Extensions.StatusCode
}

// expect checks a REST envelope or a GraphQL error against status and message.
func expect(t *testing.T, e tenancy.Entry, res *apptest.Response, status int, msg string) {
	t.Helper()
	if !e.IsGraphQL() {
		apptest.ExpectError(t, res, status, msg)
		return
	}
	if res.Status != http.StatusOK && res.Status != status {
		t.Fatalf("graphql HTTP status = %d, want %d; body %s", res.Status, status, res.Body)
	}
	gotMsg, gotStatus := gqlError(t, res)
	if gotStatus != status || gotMsg != msg {
		t.Fatalf("graphql error = %d %q, want %d %q; body %s", gotStatus, gotMsg, status, msg, res.Body)
	}
}

// TestAuthorizationMatrix walks every line of the matrix: without
// credentials, with a key lacking the permission, as another tenant, and
// allowed.
func TestAuthorizationMatrix(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := &fixture{env: env, a: env.Bootstrap("Acme"), b: env.Bootstrap("Beta")}
		f.aToken, f.bToken = env.Login(f.a.Email), env.Login(f.b.Email)
		p, err := env.App.DB.Client.Project.Get(viewer.SystemContext(context.Background()), f.a.ProjectID)
		if err != nil {
			t.Fatal(err)
		}
		f.aRoot = *p.RootAudienceID
		f.aUser = env.CreateUser(f.a.TenantID, "vito", auth.RoleViewer).ID
		bProject, err := project.Create(viewer.SystemContext(context.Background()), env.App.DB.Client, f.b.TenantID, "Extra", false, uuid.Nil)
		if err != nil {
			t.Fatal(err)
		}

		aHeaders := apptest.JWT(f.aToken, f.a.TenantID, uuid.Nil)
		for _, c := range []struct {
			path string
			body map[string]any
			dst  *string
		}{
			{"/api/operators", map[string]any{"type": "SALESMAN", "name": "Probe"}, &f.aOperator},
			{"/api/routes", map[string]any{"code": "PROBE", "name": "Probe"}, &f.aRoute},
			{"/api/supervisors", map[string]any{"name": "Probe"}, &f.aSupervisor},
		} {
			res := env.Do("POST", c.path, c.body, aHeaders)
			if res.Status != 201 {
				t.Fatalf("fixture %s: %d %s", c.path, res.Status, res.Body)
			}
			*c.dst = res.Map(t)["id"].(string)
		}
		if res := env.Do("POST", "/api/routes/"+f.aRoute+"/operators", map[string]any{"operator_id": f.aOperator}, aHeaders); res.Status != 201 {
			t.Fatalf("fixture link: %d %s", res.Status, res.Body)
		}

		for _, e := range tenancy.Matrix {
			if e.Method == "GET" && e.Path == "/openapi.yaml" || e.Scope == tenancy.Public && !e.IsGraphQL() {
				continue // public routes have their own tests (auth_test.go, openapi_test.go)
			}
			pr, ok := probes[e.Key()]
			if !ok {
				t.Fatalf("no probe for %s: add one to probes", e.Key())
			}
			t.Run(e.Key(), func(t *testing.T) {
				_, f.aKey = func() (string, uuid.UUID) {
					plain, k := env.CreateKey(f.a.TenantID, f.a.UserID, uuid.Nil, auth.PermProjectView)
					return plain, k.ID
				}()
				withProject := func(h apptest.Headers, pid uuid.UUID) apptest.Headers {
					if e.Scope == tenancy.ProjectScoped {
						return h.With("x-project-id", pid.String())
					}
					return h
				}

				// 1. No credentials.
				expect(t, e, f.call(e, pr, nil), 400, "Missing required header: x-tenant-id")
				expect(t, e, f.call(e, pr, apptest.Headers{"x-tenant-id": f.a.TenantID.String()}), 401, "Unauthorized")

				// 2. A key without the permission.
				if e.Permission != "" {
					other := auth.PermProjectView
					if e.Permission == other {
						other = auth.PermUserView
					}
					plain, _ := env.CreateKey(f.a.TenantID, f.a.UserID, uuid.Nil, other)
					expect(t, e, f.call(e, pr, withProject(apptest.Key(plain), f.a.ProjectID)), 403, "Required permissions: "+e.Permission)
				}

				// 3. Another tenant's super_admin.
				bh := withProject(apptest.JWT(f.bToken, f.b.TenantID, uuid.Nil), f.b.ProjectID)
				if pr.crossCode != 0 {
					expect(t, e, f.call(e, pr, bh), pr.crossCode, pr.crossMsg)
				} else if res := f.call(e, pr, bh); strings.Contains(string(res.Body), f.a.TenantID.String()) && e.Path != "/tenant/mine" ||
					strings.Contains(string(res.Body), f.a.ProjectID.String()) || strings.Contains(string(res.Body), f.aRoot.String()) {
					t.Fatalf("tenant B saw tenant A's ids: %s", res.Body)
				}
				_ = bProject

				// 4. Allowed: tenant A's super_admin.
				res := f.call(e, pr, withProject(apptest.JWT(f.aToken, f.a.TenantID, uuid.Nil), f.a.ProjectID))
				if res.Status == 401 || res.Status == 403 || res.Status >= 500 {
					t.Fatalf("allowed call: %d %s", res.Status, res.Body)
				}
				if e.IsGraphQL() {
					if msg, status := gqlError(t, res); status != 0 {
						t.Fatalf("allowed call: graphql error %d %q", status, msg)
					}
				}
			})
		}
	})
}

// cmIDs is a commerce of tenant A with one address, one user and one contact.
type cmIDs struct{ commerce, address, user, contact string }

// cmA creates a fresh commerce tree in tenant A (each probe call gets its own,
// so DELETE and the allowed call never collide).
func cmA(f *fixture) cmIDs {
	ctx := viewer.SystemContext(context.Background())
	c, tid := f.env.App.DB.Client, f.a.TenantID
	co := c.Commerce.Create().SetTenantID(tid).SetName(unique("C")).SaveX(ctx)
	ad := c.CommerceAddress.Create().SetTenantID(tid).SetCommerceID(co.ID).SetSource("RETEN").SetIsPrimary(true).SaveX(ctx)
	u := c.CommerceUser.Create().SetTenantID(tid).SetCommerceID(co.ID).SaveX(ctx)
	ct := c.CommerceContact.Create().SetTenantID(tid).SetCommerceUserID(u.ID).SetContactType("OTHER").SetValue("x").
		SetSource("RETEN").SetIsPrimary(true).SaveX(ctx)
	return cmIDs{co.ID.String(), ad.ID.String(), u.ID.String(), ct.ID.String()}
}

// datasetProbes: the tenant's dataset and its catalog (tenant-level). A
// tenant-B call answers B's own dataset, or 404 when B has none.
var datasetProbes = map[string]probe{
	"GET /tenant-dataset": {path: func(f *fixture) string { f.datasetA(); return "/tenant-dataset" }},
	"PUT /tenant-dataset": {body: func() any {
		return map[string]any{"engine": "bigquery", "bigqueryProject": "acme-probe", "bigqueryDataset": "events"}
	}},
	"GET /tenant-dataset/catalog": {path: func(f *fixture) string { f.datasetA(); return "/tenant-dataset/catalog" }},
	"PUT /tenant-dataset/catalog": {path: func(f *fixture) string { f.datasetA(); return "/tenant-dataset/catalog" },
		body: func() any {
			return map[string]any{"tables": []any{map[string]any{"name": "t", "columns": []any{map[string]any{"name": "id", "type": "STRING"}}}}}
		}},
	"Query.tenantDataset": {query: `{ tenantDataset { id engine tables { name } } }`,
		vars: func(f *fixture) map[string]any { f.datasetA(); return nil }},
	"Mutation.setTenantDataset": {query: `mutation { setTenantDataset(input: {engine: bigquery, bigqueryProject: "acme-probe", bigqueryDataset: "events"}) { id } }`},
	"Mutation.setTenantDatasetCatalog": {query: `mutation { setTenantDatasetCatalog(input: {tables: [{name: "t", columns: [{name: "id", type: STRING}]}]}) { id } }`,
		vars: func(f *fixture) map[string]any { f.datasetA(); return nil }},
}

func init() { maps.Copy(probes, datasetProbes) }

// datasetA gives tenant A a (bigquery) dataset unless it has one.
func (f *fixture) datasetA() {
	ctx := viewer.NewContext(context.Background(), &viewer.Viewer{UserID: f.a.UserID, TenantID: f.a.TenantID,
		Roles: []string{auth.RoleSuperAdmin}, Permissions: auth.PermissionsOf([]string{auth.RoleSuperAdmin})})
	_, err := f.env.App.Dataset.Get(ctx)
	if dataset.NotConfigured(err) {
		_, _, err = f.env.App.Dataset.Set(ctx, dataset.ConfigInput{Engine: dataset.EngineBigQuery,
			BigqueryProject: "acme-probe", BigqueryDataset: "events"})
	}
	if err != nil {
		panic(err)
	}
}

// eventFilterProbes: event filters (project-scoped). Tenant A's demo
// dataset is (re)configured by auReady wherever an allowed call needs it;
// tenant B has no dataset, so its calls that name no filter answer 404.
var eventFilterProbes = map[string]probe{
	"GET /event-criterias": {},
	"POST /event-criterias": {path: func(f *fixture) string { f.auReady(); return "/event-criterias" },
		body: func() any { return map[string]any{"name": unique("EF"), "queryBlocks": efProbeBlocks()} }},
	"GET /event-criterias/tables": {path: func(f *fixture) string { f.auReady(); return "/event-criterias/tables" }},
	"GET /event-criterias/tables/{tableName}/columns": {path: func(f *fixture) string {
		f.auReady()
		return "/event-criterias/tables/events/columns"
	}},
	"POST /event-criterias/generate-sql": {path: func(f *fixture) string { f.auReady(); return "/event-criterias/generate-sql" },
		body: func() any { return map[string]any{"queryBlocks": efProbeBlocks(), "format": "literal"} }},
	"POST /event-criterias/validate-from-body": {path: func(f *fixture) string { f.auReady(); return "/event-criterias/validate-from-body" },
		body: func() any { return map[string]any{"queryBlocks": efProbeBlocks()} }},
	"POST /event-criterias/preview-from-body": {path: func(f *fixture) string { f.auReady(); return "/event-criterias/preview-from-body?limit=2" },
		body: func() any { return map[string]any{"queryBlocks": efProbeBlocks()} }},
	"GET /event-criterias/{id}": {path: func(f *fixture) string { return "/event-criterias/" + f.efFilter() },
		crossCode: 404, crossMsg: "Event criteria not found"},
	"PATCH /event-criterias/{id}": {path: func(f *fixture) string { return "/event-criterias/" + f.efFilter() },
		body: func() any { return map[string]any{"name": unique("EF"), "queryBlocks": efProbeBlocks()} }, crossCode: 404, crossMsg: "Event criteria not found"},
	"DELETE /event-criterias/{id}": {path: func(f *fixture) string { return "/event-criterias/" + f.efFilter() },
		crossCode: 404, crossMsg: "Event criteria not found"},
	"GET /event-criterias/{id}/sql": {path: func(f *fixture) string { return "/event-criterias/" + f.efFilter() + "/sql" },
		crossCode: 404, crossMsg: "Event criteria not found"},
	"POST /event-criterias/{id}/preview": {path: func(f *fixture) string { return "/event-criterias/" + f.efFilter() + "/preview" },
		crossCode: 404, crossMsg: "Event criteria not found"},

	// GraphQL: list answers select projectID, so tenant B seeing A's rows fails the probe.
	"Query.eventFilters": {query: `{ eventFilters { totalCount edges { node { id projectID conditionCount queryBlocks { id where } } } } }`,
		vars: func(f *fixture) map[string]any { f.efFilter(); return nil }},
	"Query.eventFilter": {query: `query($id: ID!) { eventFilter(id: $id) { id conditionCount queryBlocks { from select } } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.efFilter()} }, crossCode: 404, crossMsg: "Event criteria not found"},
	"Query.eventFilterTables": {query: `{ eventFilterTables { name purpose } }`,
		vars: func(f *fixture) map[string]any { f.auReady(); return nil }},
	"Query.eventFilterColumns": {query: `{ eventFilterColumns(table: "events") { table columns { name } semiJoins { name } } }`,
		vars: func(f *fixture) map[string]any { f.auReady(); return nil }},
	"Query.eventFilterSQL": {query: `query($id: ID!) { eventFilterSQL(id: $id) { query } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.efFilter()} }, crossCode: 404, crossMsg: "Event criteria not found"},
	"Query.generateEventFilterSQL": {query: `query($b: [Map!]!) { generateEventFilterSQL(queryBlocks: $b) { query params types } }`,
		vars: func(f *fixture) map[string]any { f.auReady(); return map[string]any{"b": efProbeBlocks()} }},
	"Query.validateEventFilter": {query: `query($b: [Map!]!) { validateEventFilter(queryBlocks: $b) { valid } }`,
		vars: func(f *fixture) map[string]any { f.auReady(); return map[string]any{"b": efProbeBlocks()} }},
	"Query.previewEventFilter": {query: `query($id: ID!) { previewEventFilter(id: $id, limit: 2) { columns rows rowCount } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.efFilter()} }, crossCode: 404, crossMsg: "Event criteria not found"},
	"Mutation.createEventFilter": {query: `mutation($n: String!, $b: [Map!]!) { createEventFilter(input: {name: $n, queryBlocks: $b}) { id } }`,
		vars: func(f *fixture) map[string]any {
			f.auReady()
			return map[string]any{"n": unique("EF"), "b": efProbeBlocks()}
		}},
	"Mutation.updateEventFilter": {query: `mutation($id: ID!, $n: String!) { updateEventFilter(id: $id, input: {name: $n}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.efFilter(), "n": unique("EF")} }, crossCode: 404, crossMsg: "Event criteria not found"},
	"Mutation.deleteEventFilter": {query: `mutation($id: ID!) { deleteEventFilter(id: $id) }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.efFilter()} }, crossCode: 404, crossMsg: "Event criteria not found"},
}

func init() { maps.Copy(probes, eventFilterProbes) }

// efProbeBlocks is a valid event filter definition over the demo catalog.
func efProbeBlocks() []any {
	return []any{map[string]any{"order": 0, "setOperator": nil, "from": map[string]any{"table": "events"},
		"select": map[string]any{"items": []any{map[string]any{"kind": "column", "column": map[string]any{"table": "events", "column": "event_id"}}}},
		"where": map[string]any{"kind": "predicate", "column": map[string]any{"table": "events", "column": "event_name"},
			"comparisonOperator": "EQUALS", "value": "purchase"}}}
}

// efFilter creates a live event filter of tenant A's main project (each
// probe call gets its own, over tenant A's demo dataset) and returns its id.
func (f *fixture) efFilter() string {
	f.auReady()
	res := f.env.Do("POST", "/api/event-criterias", map[string]any{"name": unique("EF"), "queryBlocks": efProbeBlocks()},
		apptest.JWT(f.aToken, f.a.TenantID, f.a.ProjectID))
	if res.Status != 201 {
		panic(fmt.Sprintf("event filter fixture: %d %s", res.Status, res.Body))
	}
	var out struct{ ID string }
	if err := json.Unmarshal(res.Body, &out); err != nil {
		panic(err)
	}
	return out.ID
}
