package graph_test

import (
	"testing"

	"github.com/reten-io/reten/internal/apptest"
)

func TestTaskResultTypeConfigsOverGraphQL(t *testing.T) {
	each(t, newOrgSetup, func(t *testing.T, env *apptest.Env, s orgSetup) {
		const fields = `code isActive polarity requiresFutureScheduledAt isDefault`
		list := gqlOK(t, env, s.viewer, `{ taskResultTypeConfigs { code label isDefault updatedAt } }`, nil)
		items, _ := list["taskResultTypeConfigs"].([]any)
		if len(items) != 10 || str(t, items, 0, "code") != "success" || str(t, items, 0, "label") != "Éxito" ||
			get(t, items, 9, "isDefault") != true || get(t, items, 9, "updatedAt") != nil {
			t.Fatalf("list = %v", list)
		}
		expectData(t, env.GraphQL(`mutation { setTaskResultTypeConfig(input: {code: other, isActive: false, polarity: POSITIVE, requiresFutureScheduledAt: true}) { `+fields+` } }`, nil, s.h),
			M{"setTaskResultTypeConfig": M{"code": "other", "isActive": false, "polarity": "POSITIVE", "requiresFutureScheduledAt": true, "isDefault": false}})
		// code is an enum of the catalog: the schema refuses other values.
		expectVariableInvalid(t, env.GraphQL(`mutation($in: TaskResultTypeConfigInput!) { setTaskResultTypeConfig(input: $in) { code } }`,
			M{"in": M{"code": "nope", "isActive": true, "polarity": "POSITIVE", "requiresFutureScheduledAt": false}}, s.h),
			L{"in", "code"}, "nope is not a valid TaskResultTypeCode")
		expectFieldError(t, env.GraphQL(`mutation { setTaskResultTypeConfig(input: {code: other, isActive: true, polarity: POSITIVE, requiresFutureScheduledAt: false}) { code } }`, nil, s.viewer),
			"setTaskResultTypeConfig", "Required permissions: result-type-config:manage", "FORBIDDEN", 403)

		// Bulk: all or none.
		expectInvalid(t, env.GraphQL(`mutation { setTaskResultTypeConfigs(items: [{code: success, isActive: false, polarity: NEGATIVE, requiresFutureScheduledAt: false},
			{code: success, isActive: true, polarity: NEGATIVE, requiresFutureScheduledAt: false}]) { code } }`, nil, s.h),
			"setTaskResultTypeConfigs", `items.1.code "success" duplicates items.0.code`)
		expectInvalid(t, env.GraphQL(`mutation { setTaskResultTypeConfigs(items: []) { code } }`, nil, s.h),
			"setTaskResultTypeConfigs", "items must contain at least 1 elements")
		out := gqlOK(t, env, s.h, `mutation { setTaskResultTypeConfigs(items: [{code: no_answer, isActive: false, polarity: NEGATIVE, requiresFutureScheduledAt: false}]) { `+fields+` } }`, nil)
		got, _ := out["setTaskResultTypeConfigs"].([]any)
		if len(got) != 10 || get(t, got, 0, "isDefault") != true || get(t, got, 7, "code") != "no_answer" || get(t, got, 7, "isActive") != false ||
			get(t, got, 9, "isActive") != false {
			t.Fatalf("bulk = %v", out)
		}
		// Tenant B keeps its defaults.
		b := gqlOK(t, env, s.bh, `{ taskResultTypeConfigs { isDefault } }`, nil)
		for _, it := range b["taskResultTypeConfigs"].([]any) {
			if it.(map[string]any)["isDefault"] != true {
				t.Fatalf("tenant B = %v", b)
			}
		}
	})
}

func TestTenantSettingsOverGraphQL(t *testing.T) {
	each(t, newOrgSetup, func(t *testing.T, env *apptest.Env, s orgSetup) {
		expectData(t, env.GraphQL(`{ tenantSettings { timeZone dayCutoff } }`, nil, s.viewer),
			M{"tenantSettings": M{"timeZone": "UTC", "dayCutoff": "23:59"}})
		expectData(t, env.GraphQL(`mutation { updateTenantSettings(input: {timeZone: "Europe/Madrid", dayCutoff: "18:30"}) { timeZone dayCutoff } }`, nil, s.h),
			M{"updateTenantSettings": M{"timeZone": "Europe/Madrid", "dayCutoff": "18:30"}})
		expectInvalid(t, env.GraphQL(`mutation { updateTenantSettings(input: {timeZone: "Nowhere", dayCutoff: "7pm"}) { timeZone } }`, nil, s.h),
			"updateTenantSettings", "timeZone must be a valid IANA time zone", "dayCutoff must be a time of day in HH:MM format")
		expectFieldError(t, env.GraphQL(`mutation { updateTenantSettings(input: {dayCutoff: "20:00"}) { timeZone } }`, nil, s.viewer),
			"updateTenantSettings", "Required permissions: tenant-settings:manage", "FORBIDDEN", 403)
		expectData(t, env.GraphQL(`{ tenantSettings { timeZone dayCutoff } }`, nil, s.viewer),
			M{"tenantSettings": M{"timeZone": "Europe/Madrid", "dayCutoff": "18:30"}})
		expectData(t, env.GraphQL(`{ tenantSettings { timeZone dayCutoff } }`, nil, s.bh),
			M{"tenantSettings": M{"timeZone": "UTC", "dayCutoff": "23:59"}})
		// The daily lifecycle run time: set, refused when malformed or both
		// set and cleared, cleared.
		expectData(t, env.GraphQL(`mutation { updateTenantSettings(input: {lifecycleRunTime: "06:30"}) { lifecycleRunTime } }`, nil, s.h),
			M{"updateTenantSettings": M{"lifecycleRunTime": "06:30"}})
		expectInvalid(t, env.GraphQL(`mutation { updateTenantSettings(input: {lifecycleRunTime: "6h"}) { lifecycleRunTime } }`, nil, s.h),
			"updateTenantSettings", "lifecycleRunTime must be a time of day in HH:MM format or null")
		expectInvalid(t, env.GraphQL(`mutation { updateTenantSettings(input: {lifecycleRunTime: "07:00", clearLifecycleRunTime: true}) { lifecycleRunTime } }`, nil, s.h),
			"updateTenantSettings", "lifecycleRunTime and clearLifecycleRunTime cannot be sent together")
		expectData(t, env.GraphQL(`mutation { updateTenantSettings(input: {clearLifecycleRunTime: true}) { lifecycleRunTime } }`, nil, s.h),
			M{"updateTenantSettings": M{"lifecycleRunTime": nil}})
	})
}
