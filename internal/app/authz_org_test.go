package app_test

import (
	"context"
	"maps"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/viewer"
)

// orgProbes: commerces with their addresses, users and contacts (each
// probe creates its own tenant-A commerce tree with cmA) and the field
// organisation (operators, routes, supervisors), REST and GraphQL.
var orgProbes = map[string]probe{
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
	"GET /commerces/{id}/routes": {path: func(f *fixture) string { return "/commerces/" + cmA(f).commerce + "/routes" },
		crossCode: 404, crossMsg: "Commerce not found"},
	"PUT /commerces/{id}/routes": {path: func(f *fixture) string { return "/commerces/" + cmA(f).commerce + "/routes" },
		body: func() any { return map[string]any{"route_codes": []string{}} }, crossCode: 404, crossMsg: "Commerce not found"},
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

	// GraphQL org data: mutations on records use fresh tenant-A records (the
	// REST probes above archive aOperator, aRoute and aSupervisor).
	"Query.commerces": {query: `{ commerces { totalCount } }`},
	"Mutation.createCommerce": {query: `mutation($n: String!) { createCommerce(input: {name: $n}) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"n": unique("C")} }},
	"Mutation.updateCommerce": {query: `mutation($id: ID!) { updateCommerce(id: $id, input: {name: "X"}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": cmA(f).commerce} }, crossCode: 404, crossMsg: "Commerce not found"},
	"Mutation.setCommerceRoutes": {query: `mutation($id: ID!) { setCommerceRoutes(id: $id, routeCodes: []) { id } }`,
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
}

func init() { maps.Copy(probes, orgProbes) }

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
