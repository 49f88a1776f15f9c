package app_test

import "maps"

// resultTypeProbes: result type configs and the tenant day settings. The
// configs are per tenant by code, so another tenant writes its own (no
// cross-tenant 404): the walk checks it never sees tenant A's ids.
var resultTypeProbes = map[string]probe{
	"GET /task-result-type-configs": {},
	"PUT /task-result-type-configs": {body: func() any {
		return map[string]any{"items": []any{map[string]any{"code": "other", "is_active": true, "polarity": "NEGATIVE",
			"requires_future_scheduled_at": false}}}
	}},
	"PUT /task-result-type-configs/{code}": {path: func(*fixture) string { return "/task-result-type-configs/no_answer" },
		body: func() any {
			return map[string]any{"is_active": true, "polarity": "NEGATIVE", "requires_future_scheduled_at": false}
		}},
	"GET /integration/task-result-type-configs": {},
	"GET /tenant-settings":                      {},
	"PATCH /tenant-settings":                    {body: func() any { return map[string]any{"day_cutoff": "23:59"} }},
	"Query.taskResultTypeConfigs":               {query: `{ taskResultTypeConfigs { code isActive } }`},
	"Mutation.setTaskResultTypeConfig": {query: `mutation { setTaskResultTypeConfig(input: {code: other, isActive: true,
		polarity: NEGATIVE, requiresFutureScheduledAt: false}) { code } }`},
	"Mutation.setTaskResultTypeConfigs": {query: `mutation { setTaskResultTypeConfigs(items: [{code: other, isActive: true,
		polarity: NEGATIVE, requiresFutureScheduledAt: false}]) { code } }`},
	"Query.tenantSettings":          {query: `{ tenantSettings { timeZone dayCutoff } }`},
	"Mutation.updateTenantSettings": {query: `mutation { updateTenantSettings(input: {dayCutoff: "23:59"}) { dayCutoff } }`},
}

func init() { maps.Copy(probes, resultTypeProbes) }
