package graph_test

import (
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
)

func TestActivityReasonConfigsOverGraphQL(t *testing.T) {
	each(t, newOrgSetup, func(t *testing.T, env *apptest.Env, s orgSetup) {
		const fields = `code label isActive`
		created := gqlOK(t, env, s.h, `mutation { createActivityReasonConfig(input: {code: " zeta ", label: " Zeta "}) { id `+fields+` } }`, nil)
		zeta := str(t, created, "createActivityReasonConfig", "id")
		if canon(t, M{"code": "zeta", "label": "Zeta", "isActive": true}) != canon(t, M{"code": get(t, created, "createActivityReasonConfig", "code"),
			"label": get(t, created, "createActivityReasonConfig", "label"), "isActive": get(t, created, "createActivityReasonConfig", "isActive")}) {
			t.Fatalf("created = %v", created)
		}
		expectFieldError(t, env.GraphQL(`mutation { createActivityReasonConfig(input: {code: "zeta", label: "Otra"}) { id } }`, nil, s.h),
			"createActivityReasonConfig", `An activity reason config with code "zeta" already exists`, "CONFLICT", 409)
		expectInvalid(t, env.GraphQL(`mutation { createActivityReasonConfig(input: {code: " ", label: ""}) { id } }`, nil, s.h),
			"createActivityReasonConfig", "code should not be empty", "label should not be empty")
		expectFieldError(t, env.GraphQL(`mutation { createActivityReasonConfig(input: {code: "v", label: "V"}) { id } }`, nil, s.viewer),
			"createActivityReasonConfig", "Required permissions: activity-config:manage", "FORBIDDEN", 403)

		// Bulk: created in order; atomic on a catalog duplicate; a request duplicate names its index.
		expectData(t, env.GraphQL(`mutation { bulkCreateActivityReasonConfigs(items: [{code: "b", label: "B"}, {code: "a", label: "A"}]) { `+fields+` } }`, nil, s.h),
			M{"bulkCreateActivityReasonConfigs": L{M{"code": "b", "label": "B", "isActive": true}, M{"code": "a", "label": "A", "isActive": true}}})
		expectFieldError(t, env.GraphQL(`mutation { bulkCreateActivityReasonConfigs(items: [{code: "c", label: "C"}, {code: "zeta", label: "Z"}]) { id } }`, nil, s.h),
			"bulkCreateActivityReasonConfigs", `An activity reason config with code "zeta" already exists`, "CONFLICT", 409)
		expectInvalid(t, env.GraphQL(`mutation { bulkCreateActivityReasonConfigs(items: [{code: "c", label: "C"}, {code: "c", label: "C"}, {code: "", label: "D"}]) { id } }`, nil, s.h),
			"bulkCreateActivityReasonConfigs", `items.1.code "c" duplicates items.0.code`, "items.2.code should not be empty")
		expectInvalid(t, env.GraphQL(`mutation { bulkCreateActivityReasonConfigs(items: []) { id } }`, nil, s.h),
			"bulkCreateActivityReasonConfigs", "items must contain at least 1 elements")
		const list = `{ activityReasonConfigs(orderBy: {field: CODE}) { totalCount edges { node { code isActive } } } }`
		expectData(t, env.GraphQL(list, nil, s.viewer), M{"activityReasonConfigs": M{"totalCount": 3, "edges": L{
			M{"node": M{"code": "a", "isActive": true}}, M{"node": M{"code": "b", "isActive": true}}, M{"node": M{"code": "zeta", "isActive": true}}}}})

		// Update and deactivate; another tenant gets 404 and sees nothing.
		expectData(t, env.GraphQL(`mutation($id: ID!) { updateActivityReasonConfig(id: $id, input: {label: "Zeta 2"}) { `+fields+` } }`, M{"id": zeta}, s.h),
			M{"updateActivityReasonConfig": M{"code": "zeta", "label": "Zeta 2", "isActive": true}})
		expectInvalid(t, env.GraphQL(`mutation($id: ID!) { updateActivityReasonConfig(id: $id, input: {label: " "}) { id } }`, M{"id": zeta}, s.h),
			"updateActivityReasonConfig", "label should not be empty")
		expectData(t, env.GraphQL(`mutation($id: ID!) { deactivateActivityReasonConfig(id: $id) { `+fields+` } }`, M{"id": zeta}, s.h),
			M{"deactivateActivityReasonConfig": M{"code": "zeta", "label": "Zeta 2", "isActive": false}})
		expectData(t, env.GraphQL(`{ activityReasonConfigs(where: {isActive: false}) { totalCount edges { node { code } } } }`, nil, s.h),
			M{"activityReasonConfigs": M{"totalCount": 1, "edges": L{M{"node": M{"code": "zeta"}}}}})
		expectFieldError(t, env.GraphQL(`mutation($id: ID!) { updateActivityReasonConfig(id: $id, input: {isActive: true}) { id } }`, M{"id": zeta}, s.bh),
			"updateActivityReasonConfig", "Activity reason config not found", "NOT_FOUND", 404)
		expectFieldError(t, env.GraphQL(`mutation($id: ID!) { deactivateActivityReasonConfig(id: $id) { id } }`, M{"id": zeta}, s.bh),
			"deactivateActivityReasonConfig", "Activity reason config not found", "NOT_FOUND", 404)
		expectData(t, env.GraphQL(list, nil, s.bh), M{"activityReasonConfigs": M{"totalCount": 0, "edges": L{}}})
		expectFieldError(t, env.GraphQL(`mutation($id: ID!) { deactivateActivityReasonConfig(id: $id) { id } }`, M{"id": uuid.NewString()}, s.h),
			"deactivateActivityReasonConfig", "Activity reason config not found", "NOT_FOUND", 404)

		// Defaults: ten, never persisted.
		d := gqlOK(t, env, s.viewer, `{ activityReasonDefaults { code label } }`, nil)
		defs, _ := d["activityReasonDefaults"].([]any)
		if len(defs) != 10 || str(t, defs, 0, "code") != "no_stock" || str(t, defs, 0, "label") != "Sin stock" {
			t.Fatalf("defaults = %v", d)
		}
		expectData(t, env.GraphQL(`{ activityReasonConfigs { totalCount } }`, nil, s.h), M{"activityReasonConfigs": M{"totalCount": 3}})
	})
}

func TestRetentionStatusConfigsOverGraphQL(t *testing.T) {
	each(t, newOrgSetup, func(t *testing.T, env *apptest.Env, s orgSetup) {
		const fields = `code label stage description isActive`
		created := gqlOK(t, env, s.h, `mutation { createRetentionStatusConfig(input: {code: "engaged", label: "Comprometido", stage: ENGAGEMENT, description: "Compra seguido"}) { id } }`, nil)
		id := str(t, created, "createRetentionStatusConfig", "id")
		expectData(t, env.GraphQL(`mutation { createRetentionStatusConfig(input: {code: "lost", label: "Perdido", stage: RESURRECTION}) { `+fields+` } }`, nil, s.h),
			M{"createRetentionStatusConfig": M{"code": "lost", "label": "Perdido", "stage": "RESURRECTION", "description": "", "isActive": true}})
		expectFieldError(t, env.GraphQL(`mutation { createRetentionStatusConfig(input: {code: "lost", label: "X", stage: ACTIVATION}) { id } }`, nil, s.h),
			"createRetentionStatusConfig", `A retention status config with code "lost" already exists`, "CONFLICT", 409)
		expectInvalid(t, env.GraphQL(`mutation { createRetentionStatusConfig(input: {code: "", label: "X", stage: ACTIVATION}) { id } }`, nil, s.h),
			"createRetentionStatusConfig", "code should not be empty")
		expectFieldError(t, env.GraphQL(`mutation { createRetentionStatusConfig(input: {code: "v", label: "V", stage: ACTIVATION}) { id } }`, nil, s.viewer),
			"createRetentionStatusConfig", "Required permissions: activity-config:manage", "FORBIDDEN", 403)

		expectData(t, env.GraphQL(`mutation($id: ID!) { updateRetentionStatusConfig(id: $id, input: {label: "Fiel", stage: ACTIVATION, description: ""}) { `+fields+` } }`, M{"id": id}, s.h),
			M{"updateRetentionStatusConfig": M{"code": "engaged", "label": "Fiel", "stage": "ACTIVATION", "description": "", "isActive": true}})
		expectData(t, env.GraphQL(`mutation($id: ID!) { deactivateRetentionStatusConfig(id: $id) { code isActive } }`, M{"id": id}, s.h),
			M{"deactivateRetentionStatusConfig": M{"code": "engaged", "isActive": false}})
		expectData(t, env.GraphQL(`{ retentionStatusConfigs(orderBy: {field: CODE}) { totalCount edges { node { code stage isActive } } } }`, nil, s.viewer),
			M{"retentionStatusConfigs": M{"totalCount": 2, "edges": L{
				M{"node": M{"code": "engaged", "stage": "ACTIVATION", "isActive": false}},
				M{"node": M{"code": "lost", "stage": "RESURRECTION", "isActive": true}}}}})
		expectData(t, env.GraphQL(`{ retentionStatusConfigs(where: {stage: RESURRECTION}) { totalCount } }`, nil, s.h),
			M{"retentionStatusConfigs": M{"totalCount": 1}})

		// Another tenant: 404 on A's ids, an empty connection.
		expectFieldError(t, env.GraphQL(`mutation($id: ID!) { updateRetentionStatusConfig(id: $id, input: {label: "B"}) { id } }`, M{"id": id}, s.bh),
			"updateRetentionStatusConfig", "Retention status config not found", "NOT_FOUND", 404)
		expectFieldError(t, env.GraphQL(`mutation($id: ID!) { deactivateRetentionStatusConfig(id: $id) { id } }`, M{"id": id}, s.bh),
			"deactivateRetentionStatusConfig", "Retention status config not found", "NOT_FOUND", 404)
		expectData(t, env.GraphQL(`{ retentionStatusConfigs { totalCount } }`, nil, s.bh), M{"retentionStatusConfigs": M{"totalCount": 0}})
	})
}
