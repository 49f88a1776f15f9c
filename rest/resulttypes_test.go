package rest_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/viewer"
)

// Messages of the result type config and tenant settings routes.
const (
	msgRTNotFound      = "Task result type not found"
	msgRTIsActive      = "is_active must be a boolean value"
	msgRTPolarity      = "polarity must be one of the following values: POSITIVE, NEGATIVE"
	msgRTRequiresDate  = "requires_future_scheduled_at must be a boolean value"
	msgRTNeedManage    = "Required permissions: result-type-config:manage"
	msgRTNeedView      = "Required permissions: result-type-config:view"
	msgRTCodes         = "success, not_home, is_closed, no_interest, rescheduled, wrong_address, b2b_purchase, no_answer, callback_requested, other"
	msgSettingsNeedMgm = "Required permissions: tenant-settings:manage"
)

var rtCodes = []string{"success", "not_home", "is_closed", "no_interest", "rescheduled", "wrong_address", "b2b_purchase",
	"no_answer", "callback_requested", "other"}

type rtConfig struct {
	Code                      string     `json:"code"`
	Label                     string     `json:"label"`
	IsActive                  bool       `json:"isActive"`
	Polarity                  string     `json:"polarity"`
	RequiresFutureScheduledAt bool       `json:"requiresFutureScheduledAt"`
	IsDefault                 bool       `json:"isDefault"`
	UpdatedAt                 *time.Time `json:"updatedAt"`
}

func rtList(t *testing.T, env *apptest.Env, path string, h apptest.Headers) []rtConfig {
	t.Helper()
	res := env.Do("GET", path, nil, h)
	if res.Status != 200 {
		t.Fatalf("GET %s: %d %s", path, res.Status, res.Body)
	}
	var out []rtConfig
	res.JSON(t, &out)
	return out
}

func rtCodesOf(cs []rtConfig) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Code
	}
	return out
}

func rtByCode(cs []rtConfig, code string) rtConfig {
	for _, c := range cs {
		if c.Code == code {
			return c
		}
	}
	return rtConfig{}
}

func TestResultTypeConfigDefaults(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		ce := newCatalogEnv(t, env)
		all := rtList(t, env, "/api/task-result-type-configs", ce.viewer)
		if !slices.Equal(rtCodesOf(all), rtCodes) {
			t.Fatalf("codes = %v", rtCodesOf(all))
		}
		for _, c := range all {
			wantDate := c.Code == "rescheduled" || c.Code == "callback_requested"
			wantPol := "NEGATIVE"
			if slices.Contains([]string{"success", "rescheduled", "b2b_purchase", "callback_requested"}, c.Code) {
				wantPol = "POSITIVE"
			}
			if !c.IsActive || !c.IsDefault || c.UpdatedAt != nil || c.Label == "" || c.Polarity != wantPol || c.RequiresFutureScheduledAt != wantDate {
				t.Fatalf("default %+v", c)
			}
		}
		if c := rtByCode(all, "success"); c.Label != "Éxito" {
			t.Fatalf("success = %+v", c)
		}
		// The integration read lists every type while all are active, with what an integrator needs.
		res := env.Do("GET", "/api/integration/task-result-type-configs", nil, ce.a)
		var integ []map[string]any
		res.JSON(t, &integ)
		if res.Status != 200 || len(integ) != 10 || len(integ[4]) != 4 || integ[4]["code"] != "rescheduled" ||
			integ[4]["polarity"] != "POSITIVE" || integ[4]["requiresFutureScheduledAt"] != true || integ[4]["label"] != "Reagendado" {
			t.Fatalf("integration = %d %s", res.Status, res.Body)
		}
	})
}

func TestResultTypeConfigPut(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		ce := newCatalogEnv(t, env)
		put := func(code string, body any, h apptest.Headers) *apptest.Response {
			return env.Do("PUT", "/api/task-result-type-configs/"+code, body, h)
		}
		res := put("no_answer", map[string]any{"is_active": false, "polarity": "NEGATIVE", "requires_future_scheduled_at": true}, ce.a)
		var got rtConfig
		res.JSON(t, &got)
		if res.Status != 200 || got.Code != "no_answer" || got.Label != "No contesta" || got.IsActive || got.Polarity != "NEGATIVE" ||
			!got.RequiresFutureScheduledAt || got.IsDefault || got.UpdatedAt == nil {
			t.Fatalf("PUT = %d %s", res.Status, res.Body)
		}
		first := *got.UpdatedAt
		// A second PUT of the same code updates the same config.
		res = put("no_answer", map[string]any{"is_active": true, "polarity": "POSITIVE", "requires_future_scheduled_at": false}, ce.a)
		res.JSON(t, &got)
		if res.Status != 200 || !got.IsActive || got.Polarity != "POSITIVE" || got.RequiresFutureScheduledAt || got.UpdatedAt.Before(first) {
			t.Fatalf("PUT again = %d %s", res.Status, res.Body)
		}
		res = put("success", map[string]any{"is_active": false, "polarity": "POSITIVE", "requires_future_scheduled_at": false}, ce.a)
		if res.Status != 200 {
			t.Fatalf("PUT success: %d %s", res.Status, res.Body)
		}
		all := rtList(t, env, "/api/task-result-type-configs", ce.viewer)
		if c := rtByCode(all, "no_answer"); c.IsDefault || !c.IsActive || c.Polarity != "POSITIVE" {
			t.Fatalf("listed no_answer = %+v", c)
		}
		if c := rtByCode(all, "success"); c.IsDefault || c.IsActive {
			t.Fatalf("listed success = %+v", c)
		}
		if c := rtByCode(all, "other"); !c.IsDefault {
			t.Fatalf("listed other = %+v", c)
		}
		if n := env.App.DB.Client.TenantResultTypeConfig.Query().CountX(viewer.SystemContext(context.Background())); n != 2 {
			t.Fatalf("rows = %d, want 2", n)
		}
		// The integration read drops the inactive type.
		integ := rtList(t, env, "/api/integration/task-result-type-configs", ce.a)
		if len(integ) != 9 || slices.Contains(rtCodesOf(integ), "success") || integ[0].Code != "not_home" {
			t.Fatalf("integration = %v", rtCodesOf(integ))
		}
		// Another tenant keeps its defaults.
		for _, c := range rtList(t, env, "/api/task-result-type-configs", ce.b) {
			if !c.IsDefault || !c.IsActive {
				t.Fatalf("tenant B sees %+v", c)
			}
		}

		// Validation: every broken rule, unknown members, unknown code, permission.
		for _, c := range []struct {
			name string
			code string
			body any
			h    apptest.Headers
			st   int
			msg  any
		}{
			{"empty body", "other", nil, ce.a, 400, []string{msgRTIsActive, msgRTPolarity, msgRTRequiresDate}},
			{"wrong types", "other", map[string]any{"is_active": "yes", "polarity": 1, "requires_future_scheduled_at": "no"}, ce.a, 400,
				[]string{msgRTIsActive, msgRTPolarity, msgRTRequiresDate}},
			{"bad polarity", "other", map[string]any{"is_active": true, "polarity": "positive", "requires_future_scheduled_at": false}, ce.a, 400,
				[]string{msgRTPolarity}},
			{"unknown member", "other", map[string]any{"is_active": true, "polarity": "POSITIVE", "requires_future_scheduled_at": false, "label": "X"}, ce.a, 400,
				[]string{"property label should not exist"}},
			{"unknown code", "closed_forever", map[string]any{"is_active": true, "polarity": "POSITIVE", "requires_future_scheduled_at": false}, ce.a, 404, msgRTNotFound},
			{"viewer", "other", map[string]any{"is_active": true, "polarity": "POSITIVE", "requires_future_scheduled_at": false}, ce.viewer, 403, msgRTNeedManage},
		} {
			t.Run(c.name, func(t *testing.T) { apptest.ExpectError(t, put(c.code, c.body, c.h), c.st, c.msg) })
		}
		if c := rtByCode(rtList(t, env, "/api/task-result-type-configs", ce.a), "other"); !c.IsDefault {
			t.Fatalf("a rejected PUT wrote: %+v", c)
		}
	})
}

func TestResultTypeConfigBulk(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		ce := newCatalogEnv(t, env)
		item := func(code string, active bool) map[string]any {
			return map[string]any{"code": code, "is_active": active, "polarity": "NEGATIVE", "requires_future_scheduled_at": false}
		}
		bulk := func(body any, h apptest.Headers) *apptest.Response {
			return env.Do("PUT", "/api/task-result-type-configs", body, h)
		}
		res := bulk(map[string]any{"items": []any{item("other", false), item("rescheduled", true)}}, ce.a)
		var got []rtConfig
		res.JSON(t, &got)
		if res.Status != 200 || !slices.Equal(rtCodesOf(got), rtCodes) {
			t.Fatalf("bulk = %d %s", res.Status, res.Body)
		}
		if c := rtByCode(got, "other"); c.IsActive || c.IsDefault {
			t.Fatalf("other = %+v", c)
		}
		if c := rtByCode(got, "rescheduled"); !c.IsActive || c.IsDefault || c.Polarity != "NEGATIVE" || c.RequiresFutureScheduledAt {
			t.Fatalf("rescheduled = %+v", c)
		}
		before := env.Do("GET", "/api/task-result-type-configs", nil, ce.a).Body

		// Atomic: a valid first item is not written when a later one is broken.
		eleven := make([]any, 11)
		for i := range eleven {
			eleven[i] = item(rtCodes[i%10], true)
		}
		for _, c := range []struct {
			name string
			body any
			msg  []string
		}{
			{"unknown code after a valid item", map[string]any{"items": []any{item("success", false), item("nope", true)}},
				[]string{"items.1.code must be one of the following values: " + msgRTCodes}},
			{"duplicate code", map[string]any{"items": []any{item("success", false), item("other", true), item("success", true)}},
				[]string{`items.2.code "success" duplicates items.0.code`}},
			{"broken fields", map[string]any{"items": []any{item("success", false), map[string]any{"code": "other", "polarity": "X"}}},
				[]string{"items.1." + msgRTIsActive, "items.1." + msgRTPolarity, "items.1." + msgRTRequiresDate}},
			// Decoding rules (unknown members, JSON types) answer before the catalog rules.
			{"unknown member", map[string]any{"items": []any{item("success", false), map[string]any{"code": "other", "polarity": "X", "extra": 1}}},
				[]string{"items.1.property extra should not exist"}},
			{"item not an object", map[string]any{"items": []any{item("success", false), "other"}}, []string{"items.1 must be an object"}},
			{"no items", map[string]any{"items": []any{}}, []string{"items must contain at least 1 elements"}},
			{"items missing", map[string]any{}, []string{"items must contain at least 1 elements"}},
			{"items not an array", map[string]any{"items": "success"}, []string{"items must be an array"}},
			{"too many", map[string]any{"items": eleven}, []string{"items must contain no more than 10 elements", `items.10.code "success" duplicates items.0.code`}},
		} {
			t.Run(c.name, func(t *testing.T) { apptest.ExpectError(t, bulk(c.body, ce.a), 400, c.msg) })
		}
		if after := env.Do("GET", "/api/task-result-type-configs", nil, ce.a).Body; string(after) != string(before) {
			t.Fatalf("a rejected bulk wrote:\n%s\n%s", before, after)
		}
		apptest.ExpectError(t, bulk(map[string]any{"items": []any{item("success", false)}}, ce.viewer), 403, msgRTNeedManage)
		for _, c := range rtList(t, env, "/api/task-result-type-configs", ce.b) {
			if !c.IsDefault {
				t.Fatalf("tenant B sees %+v", c)
			}
		}
	})
}

func TestResultTypeConfigPermissions(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		ta := env.Bootstrap("Acme")
		op := env.CreateUser(ta.TenantID, "oscar", auth.RoleOperator)
		sup := env.CreateUser(ta.TenantID, "sara", auth.RoleSupervisor)
		fde := env.CreateUser(ta.TenantID, "fede", auth.RoleFDE)
		_ = op
		_ = sup
		for _, name := range []string{"oscar", "sara", "fede"} {
			h := apptest.JWT(env.Login(name), ta.TenantID, uuid.Nil)
			if len(rtList(t, env, "/api/task-result-type-configs", h)) != 10 || len(rtList(t, env, "/api/integration/task-result-type-configs", h)) != 10 {
				t.Fatalf("%s cannot read the result types", name)
			}
		}
		fh := apptest.JWT(env.Login("fede"), ta.TenantID, uuid.Nil)
		if res := env.Do("PUT", "/api/task-result-type-configs/other",
			map[string]any{"is_active": false, "polarity": "NEGATIVE", "requires_future_scheduled_at": false}, fh); res.Status != 200 {
			t.Fatalf("fde PUT: %d %s", res.Status, res.Body)
		}
		oh := apptest.JWT(env.Login("oscar"), ta.TenantID, uuid.Nil)
		apptest.ExpectError(t, env.Do("PUT", "/api/task-result-type-configs/other",
			map[string]any{"is_active": true, "polarity": "NEGATIVE", "requires_future_scheduled_at": false}, oh), 403, msgRTNeedManage)

		// An integration key reads the active types with result-type-config:view.
		plain, _ := env.CreateKey(ta.TenantID, ta.UserID, uuid.Nil, auth.PermResultTypeView, auth.PermActivityResultSubmit)
		if got := rtList(t, env, "/api/integration/task-result-type-configs", apptest.Key(plain)); len(got) != 9 {
			t.Fatalf("key read %d types", len(got))
		}
		other, _ := env.CreateKey(ta.TenantID, ta.UserID, uuid.Nil, auth.PermActivityResultSubmit)
		apptest.ExpectError(t, env.Do("GET", "/api/integration/task-result-type-configs", nil, apptest.Key(other)), 403, msgRTNeedView)
		_ = fde
	})
}

func TestTenantSettings(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		ce := newCatalogEnv(t, env)
		settings := func(h apptest.Headers) map[string]any {
			t.Helper()
			res := env.Do("GET", "/api/tenant-settings", nil, h)
			if res.Status != 200 {
				t.Fatalf("GET settings: %d %s", res.Status, res.Body)
			}
			return res.Map(t)
		}
		if got := settings(ce.viewer); len(got) != 3 || got["lifecycleRunTime"] != nil || got["timeZone"] != "UTC" || got["dayCutoff"] != "23:59" {
			t.Fatalf("defaults = %v", got)
		}
		patch := func(body any, h apptest.Headers) *apptest.Response {
			return env.Do("PATCH", "/api/tenant-settings", body, h)
		}
		res := patch(map[string]any{"time_zone": "America/Guayaquil", "day_cutoff": "18:00"}, ce.a)
		if got := res.Map(t); res.Status != 200 || got["timeZone"] != "America/Guayaquil" || got["dayCutoff"] != "18:00" {
			t.Fatalf("PATCH = %d %s", res.Status, res.Body)
		}
		res = patch(map[string]any{"day_cutoff": "00:00"}, ce.a)
		if got := res.Map(t); res.Status != 200 || got["timeZone"] != "America/Guayaquil" || got["dayCutoff"] != "00:00" {
			t.Fatalf("PATCH cutoff only = %d %s", res.Status, res.Body)
		}
		if got := settings(ce.viewer); got["timeZone"] != "America/Guayaquil" || got["dayCutoff"] != "00:00" {
			t.Fatalf("after PATCH = %v", got)
		}
		if got := settings(ce.b); got["timeZone"] != "UTC" || got["dayCutoff"] != "23:59" {
			t.Fatalf("tenant B = %v", got)
		}
		for _, c := range []struct {
			name string
			body any
			h    apptest.Headers
			st   int
			msg  any
		}{
			{"unknown zone", map[string]any{"time_zone": "Mars/Olympus"}, ce.a, 400, []string{msgTimeZone}},
			{"empty zone", map[string]any{"time_zone": ""}, ce.a, 400, []string{msgTimeZone}},
			{"Local", map[string]any{"time_zone": "Local"}, ce.a, 400, []string{msgTimeZone}},
			{"zone not a string", map[string]any{"time_zone": 5}, ce.a, 400, []string{msgTimeZone}},
			{"24:00", map[string]any{"day_cutoff": "24:00"}, ce.a, 400, []string{msgDayCutoff}},
			{"no leading zero", map[string]any{"day_cutoff": "9:30"}, ce.a, 400, []string{msgDayCutoff}},
			{"seconds", map[string]any{"day_cutoff": "23:59:59"}, ce.a, 400, []string{msgDayCutoff}},
			{"both", map[string]any{"time_zone": "X", "day_cutoff": "x"}, ce.a, 400, []string{msgTimeZone, msgDayCutoff}},
			{"unknown member", map[string]any{"name": "X"}, ce.a, 400, []string{"property name should not exist"}},
			{"viewer", map[string]any{"day_cutoff": "20:00"}, ce.viewer, 403, msgSettingsNeedMgm},
		} {
			t.Run(c.name, func(t *testing.T) { apptest.ExpectError(t, patch(c.body, c.h), c.st, c.msg) })
		}
		if got := settings(ce.a); got["timeZone"] != "America/Guayaquil" || got["dayCutoff"] != "00:00" {
			t.Fatalf("a rejected PATCH wrote: %v", got)
		}
		// fde does not hold tenant-settings:manage; admin does; a key with it may change them.
		env.CreateUser(ce.aTenantID, "fede", auth.RoleFDE)
		env.CreateUser(ce.aTenantID, "ada", auth.RoleAdmin)
		apptest.ExpectError(t, patch(map[string]any{"day_cutoff": "20:00"}, apptest.JWT(env.Login("fede"), ce.aTenantID, uuid.Nil)), 403, msgSettingsNeedMgm)
		if res := patch(map[string]any{"day_cutoff": "20:00"}, apptest.JWT(env.Login("ada"), ce.aTenantID, uuid.Nil)); res.Status != 200 {
			t.Fatalf("admin PATCH: %d %s", res.Status, res.Body)
		}
		sa := env.App.DB.Client.Membership.Query().AllX(viewer.SystemContext(context.Background()))
		var owner uuid.UUID
		for _, m := range sa {
			if m.TenantID == ce.aTenantID && slices.Contains(m.Roles, auth.RoleSuperAdmin) {
				owner = m.UserID
			}
		}
		plain, _ := env.CreateKey(ce.aTenantID, owner, uuid.Nil, auth.PermTenantSettingsManage)
		if res := patch(map[string]any{"time_zone": "Asia/Tokyo"}, apptest.Key(plain)); res.Status != 200 || res.Map(t)["timeZone"] != "Asia/Tokyo" {
			t.Fatalf("key PATCH: %d %s", res.Status, res.Body)
		}
		if got := settings(apptest.Key(plain)); got["timeZone"] != "Asia/Tokyo" || got["dayCutoff"] != "20:00" {
			t.Fatalf("key GET = %v", got)
		}
	})
}
