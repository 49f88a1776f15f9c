package graph_test

import (
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

// TestCommerceRoutesOverGraphQL: setCommerceRoutes replaces a commerce's
// route assignments (as PUT /api/commerces/{id}/routes) and Commerce.routes
// reads them, with the GraphQL member names in the messages, tenancy and
// the permissions of both sides.
func TestCommerceRoutesOverGraphQL(t *testing.T) {
	each(t, newOrgSetup, func(t *testing.T, env *apptest.Env, s orgSetup) {
		id := func(h apptest.Headers, path string, body M) string {
			res := env.Do("POST", path, body, h)
			if res.Status != 201 {
				t.Fatalf("POST %s: %d %s", path, res.Status, res.Body)
			}
			return res.Map(t)["id"].(string)
		}
		shop := id(s.h, "/api/commerces", M{"name": "Almacén"})
		foreign := id(s.bh, "/api/commerces", M{"name": "Beta"})
		id(s.h, "/api/routes", M{"code": "N-1", "name": "Norte"})
		id(s.h, "/api/routes", M{"code": "S-1", "name": "Sur"})
		id(s.bh, "/api/routes", M{"code": "B-1", "name": "Beta"})
		const set = `mutation($id: ID!, $codes: [String!]!) { setCommerceRoutes(id: $id, routeCodes: $codes) { name routes { code name isActive } } }`
		const read = `query($id: ID!) { node(id: $id) { ... on Commerce { routes { code } } } }`

		expectData(t, env.GraphQL(read, M{"id": shop}, s.h), M{"node": M{"routes": L{}}})
		expectData(t, env.GraphQL(set, M{"id": shop, "codes": L{"S-1", "N-1"}}, s.h), M{"setCommerceRoutes": M{"name": "Almacén",
			"routes": L{M{"code": "N-1", "name": "Norte", "isActive": true}, M{"code": "S-1", "name": "Sur", "isActive": true}}}})
		expectData(t, env.GraphQL(read, M{"id": shop}, s.viewer), M{"node": M{"routes": L{M{"code": "N-1"}, M{"code": "S-1"}}}})

		expectInvalid(t, env.GraphQL(set, M{"id": shop, "codes": L{"N-1", " ", "N-1"}}, s.h), "setCommerceRoutes",
			"each value in routeCodes should not be empty", "All routeCodes's elements must be unique")
		expectInvalid(t, env.GraphQL(set, M{"id": shop, "codes": L{"B-1"}}, s.h), "setCommerceRoutes",
			"routeCodes names routes that do not exist: B-1")
		expectFieldError(t, env.GraphQL(set, M{"id": foreign, "codes": L{}}, s.h), "setCommerceRoutes", "Commerce not found", "NOT_FOUND", 404)
		expectFieldError(t, env.GraphQL(set, M{"id": shop, "codes": L{}}, s.viewer), "setCommerceRoutes",
			"Required permissions: commerce:manage", "FORBIDDEN", 403)
		// Reading routes needs route:view besides commerce:view.
		plain, _ := env.CreateKey(s.acme.TenantID, s.acme.UserID, uuid.Nil, auth.PermCommerceView)
		expectBody(t, env.GraphQL(read, M{"id": shop}, apptest.Key(plain)), 200, M{"data": M{"node": nil}, "errors": L{
			fieldError(L{"node", "routes"}, "Required permissions: route:view", "FORBIDDEN", 403)}})
		// Unchanged after the refusals; [] removes every assignment.
		expectData(t, env.GraphQL(read, M{"id": shop}, s.h), M{"node": M{"routes": L{M{"code": "N-1"}, M{"code": "S-1"}}}})
		expectData(t, env.GraphQL(set, M{"id": shop, "codes": L{}}, s.h), M{"setCommerceRoutes": M{"name": "Almacén", "routes": L{}}})

		// batchUpsertCommerces: routeCodes replaces the assignments when sent.
		expectData(t, env.GraphQL(`mutation { batchUpsertCommerces(items: [
			{externalID: "R-1", name: "Con rutas", routeCodes: ["S-1"]},
			{externalID: "R-2", name: "Mal", routeCodes: ["S-1", "S-1"]},
			{externalID: "R-3", name: "Sin rutas"}
		]) { created errors { index messages } } }`, nil, s.h), M{"batchUpsertCommerces": M{"created": 2,
			// Item messages keep the REST member names, as every batch item message does.
			"errors": L{M{"index": 1, "messages": L{"All route_codes's elements must be unique"}}}}})
		expectData(t, env.GraphQL(`{ commerces(orderBy: {field: EXTERNAL_ID}, where: {externalIDHasPrefix: "R-"}) { edges { node { externalID routes { code } } } } }`, nil, s.h),
			M{"commerces": M{"edges": L{M{"node": M{"externalID": "R-1", "routes": L{M{"code": "S-1"}}}},
				M{"node": M{"externalID": "R-3", "routes": L{}}}}}})
	})
}
