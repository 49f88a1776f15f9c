package graph_test

import (
	"net/http"
	"testing"

	"github.com/reten-io/reten/internal/apptest"
)

func TestFieldOrgOverGraphQL(t *testing.T) {
	each(t, newOrgSetup, func(t *testing.T, env *apptest.Env, s orgSetup) {
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
