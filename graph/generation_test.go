package graph_test

import (
	"testing"

	"github.com/reten-io/reten/internal/apptest"
)

const ruleFields = `name trigger stage statusCode dwellDays type channel reasonCode titleTemplate instructionsTemplate
	attributes { key value } offsetDays timeOfDay skipWeekends expiresAfterDays assignment operatorType targetRole isActive priority`

// TestGenerationRulesOverGraphQL: create, list, update and delete an AGC's
// generation rules through GraphQL, with the service's rules and messages
// named by the GraphQL fields, the clear flags and the project scope.
func TestGenerationRulesOverGraphQL(t *testing.T) {
	each(t, newAGCSetup, func(t *testing.T, env *apptest.Env, s agcSetup) {
		agcID := s.createAGC(t, env, "Retail")
		gqlOK(t, env, s.h, `mutation { createActivityReasonConfig(input: {code: "reactivation", label: "Reactivación"}) { id } }`, nil)
		const create = `mutation($a: ID!, $in: CreateGenerationRuleInput!) { createGenerationRule(activityGenerationConfigID: $a, input: $in) { id ` + ruleFields + ` } }`
		in := M{"name": "WhatsApp", "trigger": "DWELL", "dwellDays": 3, "stage": "ACTIVATION", "statusCode": "new", "type": "MESSAGE",
			"channel": "WHATSAPP", "reasonCode": "reactivation", "titleTemplate": "Hola {{.commerce.name}}",
			"attributes": L{M{"key": "b", "value": "2"}, M{"key": "a", "value": "1"}}, "expiresAfterDays": 7}
		out := get(t, gqlOK(t, env, s.ph, create, M{"a": agcID, "in": in}), "createGenerationRule").(M)
		id := str(t, out, "id")
		delete(out, "id")
		want := M{"name": "WhatsApp", "trigger": "DWELL", "stage": "ACTIVATION", "statusCode": "new", "dwellDays": 3.0, "type": "MESSAGE",
			"channel": "WHATSAPP", "reasonCode": "reactivation", "titleTemplate": "Hola {{.commerce.name}}", "instructionsTemplate": "",
			"attributes": L{M{"key": "a", "value": "1"}, M{"key": "b", "value": "2"}}, "offsetDays": 0.0, "timeOfDay": "09:00",
			"skipWeekends": false, "expiresAfterDays": 7.0, "assignment": nil, "operatorType": nil, "targetRole": "OWNER", "isActive": true,
			"priority": 100.0}
		if canon(t, out) != canon(t, want) {
			t.Fatalf("created = %s\nwant      %s", canon(t, out), canon(t, want))
		}

		// Messages name the GraphQL fields.
		bad := M{"name": "Tarea", "trigger": "ENTER", "stage": "RESURRECTION", "statusCode": "new", "type": "TASK", "channel": "EMAIL",
			"reasonCode": "reactivation", "titleTemplate": "{{.commerce.nombre}}", "timeOfDay": "9h"}
		expectInvalid(t, env.GraphQL(create, M{"a": agcID, "in": bad}, s.ph), "createGenerationRule",
			"channel must be one of the following values for a TASK: SALESMAN, CALLCENTER",
			"titleTemplate names an unknown placeholder {{.commerce.nombre}}; known placeholders: commerce.name, commerce.external_id, commerce.segment, state.stage, state.code, state.label, state.entered_at, state.days_in_state, metrics.lifetime_actions, metrics.activation, metrics.engagement, metrics.days_since_last_row",
			"timeOfDay must be a time of day HH:MM (00:00 to 23:59)")

		const update = `mutation($id: ID!, $in: UpdateGenerationRuleInput!) { updateGenerationRule(id: $id, input: $in) { expiresAfterDays priority name } }`
		expectData(t, env.GraphQL(update, M{"id": id, "in": M{"clearExpiresAfterDays": true, "priority": 5}}, s.ph),
			M{"updateGenerationRule": M{"expiresAfterDays": nil, "priority": 5, "name": "WhatsApp"}})
		expectInvalid(t, env.GraphQL(update, M{"id": id, "in": M{"expiresAfterDays": 3, "clearExpiresAfterDays": true}}, s.ph),
			"updateGenerationRule", "expiresAfterDays and clearExpiresAfterDays cannot be sent together")

		const list = `query($a: ID!) { generationRules(activityGenerationConfigID: $a) { totalCount edges { node { name priority } } } }`
		expectData(t, env.GraphQL(list, M{"a": agcID}, s.ph), M{"generationRules": M{"totalCount": 1, "edges": L{M{"node": M{"name": "WhatsApp", "priority": 5}}}}})
		// Beta's project cannot see Acme's AGC or rule.
		expectFieldError(t, env.GraphQL(list, M{"a": agcID}, s.bph), "generationRules", "Activity generation config "+agcID+" not found", "NOT_FOUND", 404)
		expectFieldError(t, env.GraphQL(update, M{"id": id, "in": M{"priority": 1}}, s.bph), "updateGenerationRule", "Generation rule not found", "NOT_FOUND", 404)

		expectData(t, env.GraphQL(`mutation($id: ID!) { deleteGenerationRule(id: $id) }`, M{"id": id}, s.ph), M{"deleteGenerationRule": true})
		expectData(t, env.GraphQL(list, M{"a": agcID}, s.ph), M{"generationRules": M{"totalCount": 0, "edges": L{}}})
	})
}

// TestGenerationPolicyOverGraphQL: the policy and an AGC's settings read
// and written through GraphQL, with messages naming the GraphQL fields.
func TestGenerationPolicyOverGraphQL(t *testing.T) {
	each(t, newAGCSetup, func(t *testing.T, env *apptest.Env, s agcSetup) {
		agcID := s.createAGC(t, env, "Retail")
		expectData(t, env.GraphQL(`{ generationPolicy { maxPerCommerce windowDays minGapDays controlPercent saltChangedAt } }`, nil, s.ph),
			M{"generationPolicy": M{"maxPerCommerce": 3, "windowDays": 7, "minGapDays": 1, "controlPercent": 0, "saltChangedAt": nil}})
		const setPolicy = `mutation($in: GenerationPolicyInput!) { updateGenerationPolicy(input: $in) { maxPerCommerce controlPercent } }`
		expectData(t, env.GraphQL(setPolicy, M{"in": M{"maxPerCommerce": 1, "windowDays": 30, "minGapDays": 2, "controlPercent": 5}}, s.ph),
			M{"updateGenerationPolicy": M{"maxPerCommerce": 1, "controlPercent": 5}})
		expectInvalid(t, env.GraphQL(setPolicy, M{"in": M{"maxPerCommerce": 1, "windowDays": 30, "minGapDays": 2, "controlPercent": 70}}, s.ph),
			"updateGenerationPolicy", "controlPercent must be an integer from 0 to 50")
		const setSettings = `mutation($a: ID!, $in: GenerationSettingsInput!) { updateGenerationSettings(activityGenerationConfigID: $a, input: $in) { holdoutPercent } }`
		expectData(t, env.GraphQL(setSettings, M{"a": agcID, "in": M{"holdoutPercent": 15}}, s.ph), M{"updateGenerationSettings": M{"holdoutPercent": 15}})
		expectData(t, env.GraphQL(`query($a: ID!) { generationSettings(activityGenerationConfigID: $a) { holdoutPercent activityGenerationConfigID } }`, M{"a": agcID}, s.ph),
			M{"generationSettings": M{"holdoutPercent": 15, "activityGenerationConfigID": agcID}})
		expectFieldError(t, env.GraphQL(setSettings, M{"a": agcID, "in": M{"holdoutPercent": 1}}, s.bph), "updateGenerationSettings",
			"Activity generation config "+agcID+" not found", "NOT_FOUND", 404)
	})
}
