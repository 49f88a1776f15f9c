package rest_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/retentionstatusconfig"
	"github.com/reten-io/reten/internal/apptest"
)

// agcFix is a tenant with retention status configs and a JWT in its main project.
type agcFix struct {
	env    *apptest.Env
	tenant apptest.Tenant
	h      apptest.Headers
	token  string
	status map[string]uuid.UUID
	// onDemo makes the pillars read the demo dataset's transactions (for
	// tenants with a dataset, whose sources are checked).
	onDemo bool
}

func newAGCFix(t *testing.T, env *apptest.Env, name string) *agcFix {
	t.Helper()
	tn := env.Bootstrap(name)
	f := &agcFix{env: env, tenant: tn, token: env.Login(tn.Email), status: map[string]uuid.UUID{}}
	f.h = apptest.JWT(f.token, tn.TenantID, tn.ProjectID)
	for _, s := range []struct{ code, stage string }{
		{"new", "ACTIVATION"}, {"activated", "ACTIVATION"}, {"low", "ENGAGEMENT"}, {"high", "ENGAGEMENT"},
		{"at_risk", "RESURRECTION"}, {"dormant", "RESURRECTION"},
	} {
		f.status[s.code] = env.App.DB.Client.RetentionStatusConfig.Create().SetTenantID(tn.TenantID).
			SetCode(s.code).SetLabel(s.code).SetStage(retentionstatusconfig.Stage(s.stage)).SaveX(sys).ID
	}
	f.status["retired"] = env.App.DB.Client.RetentionStatusConfig.Create().SetTenantID(tn.TenantID).
		SetCode("retired").SetLabel("retired").SetStage(retentionstatusconfig.StageRESURRECTION).SetIsActive(false).SaveX(sys).ID
	return f
}

func (f *agcFix) createBody(name string) map[string]any {
	b := f.ordersBody(name)
	if f.onDemo {
		for _, p := range []string{"activation", "engagement", "resurrection"} {
			pillar := b[p].(map[string]any)
			pillar["source_table"], pillar["date_column"], pillar["source_columns"] = "transactions", "transacted_at", []string{"transaction_id"}
		}
	}
	return b
}

func (f *agcFix) ordersBody(name string) map[string]any {
	return map[string]any{
		"name": name, "description": "Retail lifecycle",
		"activation": map[string]any{"name": "Act", "description": "first orders", "source_table": "orders",
			"source_columns": []string{"order_id"}, "date_column": "order_date", "aggregation_method": "nunique",
			"moments": []any{
				map[string]any{"status_code": "activated", "user_retention_status_config_id": f.status["activated"], "min_actions": 2, "window_days": 60, "priority": 2},
				map[string]any{"status_code": "new", "user_retention_status_config_id": f.status["new"], "min_actions": 1, "window_days": 30, "time_window": 90, "priority": 1},
			}},
		"engagement": map[string]any{"name": "Eng", "source_table": "orders", "date_column": "order_date",
			"engagement_window_days": 90, "min_lifetime_actions_for_engaged": 3, "counting_method": "nunique",
			"levels": []any{
				map[string]any{"status_code": "high", "user_retention_status_config_id": f.status["high"], "label": "Alto", "min_threshold": 6, "order": 2},
				map[string]any{"status_code": "low", "user_retention_status_config_id": f.status["low"], "label": "Bajo", "min_threshold": 0, "max_threshold": 5, "order": 1},
			}},
		"resurrection": map[string]any{"name": "Res", "source_table": "orders", "source_columns": []string{"order_id", "amount"},
			"date_column": "order_date",
			"thresholds": []any{
				map[string]any{"status_code": "at_risk", "user_retention_status_config_id": f.status["at_risk"], "label": "En riesgo", "threshold_days": 30, "order": 1},
				map[string]any{"status_code": "dormant", "user_retention_status_config_id": f.status["dormant"], "label": "Dormido", "threshold_days": 60, "order": 2},
			}},
	}
}

func (f *agcFix) create(t *testing.T, name string) map[string]any {
	t.Helper()
	res := f.env.Do("POST", "/api/activity-generation-configs", f.createBody(name), f.h)
	if res.Status != 201 {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	return res.Map(t)
}

func (f *agcFix) get(t *testing.T, id any) map[string]any {
	t.Helper()
	res := f.env.Do("GET", fmt.Sprintf("/api/activity-generation-configs/%v", id), nil, f.h)
	if res.Status != 200 {
		t.Fatalf("get: %d %s", res.Status, res.Body)
	}
	return res.Map(t)
}

func keys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

func obj(m map[string]any, k string) map[string]any { return m[k].(map[string]any) }

func arr(m map[string]any, k string) []map[string]any {
	var out []map[string]any
	for _, x := range m[k].([]any) {
		out = append(out, x.(map[string]any))
	}
	return out
}

func expectKeys(t *testing.T, what string, m map[string]any, want ...string) {
	t.Helper()
	slices.Sort(want)
	if got := keys(m); !slices.Equal(got, want) {
		t.Fatalf("%s keys = %v\nwant %v", what, got, want)
	}
}

func expectJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	norm := func(v any) string {
		raw, _ := json.Marshal(v)
		var x any
		_ = json.Unmarshal(raw, &x)
		out, _ := json.Marshal(x)
		return string(out)
	}
	g, w := norm(got), norm(want)
	if g != w {
		t.Fatalf("%s = %s\nwant %s", what, g, w)
	}
}

func TestAGCCreateGetList(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAGCFix(t, env, "Acme")
		got := f.create(t, "Retail")
		root := rootAudience(t, env, f.tenant.ProjectID)
		expectKeys(t, "agc", got, "id", "projectId", "name", "description", "audienceId", "effectiveAudienceId",
			"configHashes", "status", "updatedBy", "createdAt", "updatedAt", "activationConfig", "engagementConfig", "resurrectionConfig")
		id := got["id"].(string)
		expectJSON(t, "metadata", []any{got["projectId"], got["name"], got["description"], got["audienceId"], got["effectiveAudienceId"], got["status"], got["updatedBy"]},
			[]any{f.tenant.ProjectID, "Retail", "Retail lifecycle", nil, root, "draft", f.tenant.UserID})
		hashes := obj(got, "configHashes")
		expectKeys(t, "configHashes", hashes, "activation", "engagement", "resurrection")
		for k, v := range hashes {
			if s, _ := v.(string); len(s) != 64 {
				t.Fatalf("hash %s = %v", k, v)
			}
		}

		act := obj(got, "activationConfig")
		expectKeys(t, "activationConfig", act, "id", "name", "description", "sourceTable", "sourceColumns", "dateColumn",
			"activityGenerationConfigId", "aggregationMethod", "isActive", "updatedBy", "createdAt", "updatedAt", "activationMoments")
		expectJSON(t, "activation", []any{act["name"], act["description"], act["sourceTable"], act["sourceColumns"], act["dateColumn"], act["activityGenerationConfigId"], act["aggregationMethod"], act["isActive"], act["updatedBy"]},
			[]any{"Act", "first orders", "orders", []string{"order_id"}, "order_date", id, "nunique", true, f.tenant.UserID})
		ms := arr(act, "activationMoments")
		expectKeys(t, "moment", ms[0], "id", "activationConfigId", "statusCode", "userRetentionStatusConfigId", "minActions",
			"windowDays", "timeWindow", "priority", "isActive", "createdAt", "updatedAt")
		// Ordered by priority.
		expectJSON(t, "moments", []any{ms[0]["statusCode"], ms[0]["userRetentionStatusConfigId"], ms[0]["minActions"], ms[0]["windowDays"], ms[0]["timeWindow"], ms[0]["priority"], ms[0]["activationConfigId"],
			ms[1]["statusCode"], ms[1]["timeWindow"], ms[1]["priority"]},
			[]any{"new", f.status["new"], 1, 30, 90, 1, act["id"], "activated", nil, 2})

		eng := obj(got, "engagementConfig")
		expectKeys(t, "engagementConfig", eng, "id", "name", "description", "sourceTable", "sourceColumns", "dateColumn",
			"activityGenerationConfigId", "engagementWindowDays", "minLifetimeActionsForEngaged", "countingMethod",
			"isActive", "updatedBy", "createdAt", "updatedAt", "engagementLevels")
		expectJSON(t, "engagement", []any{eng["description"], eng["sourceColumns"], eng["engagementWindowDays"], eng["minLifetimeActionsForEngaged"], eng["countingMethod"]},
			[]any{nil, []string{}, 90, 3, "nunique"})
		ls := arr(eng, "engagementLevels")
		expectKeys(t, "level", ls[0], "id", "engagementConfigId", "statusCode", "userRetentionStatusConfigId", "label",
			"minThreshold", "maxThreshold", "order", "isActive", "createdAt", "updatedAt")
		expectJSON(t, "levels", []any{ls[0]["statusCode"], ls[0]["label"], ls[0]["minThreshold"], ls[0]["maxThreshold"], ls[0]["order"], ls[0]["engagementConfigId"], ls[1]["statusCode"], ls[1]["maxThreshold"]},
			[]any{"low", "Bajo", 0, 5, 1, eng["id"], "high", nil})

		res := obj(got, "resurrectionConfig")
		expectKeys(t, "resurrectionConfig", res, "id", "name", "description", "sourceTable", "sourceColumns", "dateColumn",
			"activityGenerationConfigId", "isActive", "updatedBy", "createdAt", "updatedAt", "resurrectionThresholds")
		ts := arr(res, "resurrectionThresholds")
		expectKeys(t, "threshold", ts[0], "id", "resurrectionConfigId", "statusCode", "userRetentionStatusConfigId", "label",
			"thresholdDays", "order", "isActive", "createdAt", "updatedAt")
		expectJSON(t, "thresholds", []any{ts[0]["statusCode"], ts[0]["thresholdDays"], ts[0]["resurrectionConfigId"], ts[1]["statusCode"], res["sourceColumns"]},
			[]any{"at_risk", 30, res["id"], "dormant", []string{"order_id", "amount"}})

		// GET /:id answers the same document.
		expectJSON(t, "GET /:id", f.get(t, id), got)

		// The list: id, name, description, status, audiences and hashes.
		lr := env.Do("GET", "/api/activity-generation-configs", nil, f.h)
		if lr.Status != 200 {
			t.Fatalf("list: %d %s", lr.Status, lr.Body)
		}
		var list []map[string]any
		lr.JSON(t, &list)
		if len(list) != 1 {
			t.Fatalf("list = %s", lr.Body)
		}
		expectKeys(t, "list item", list[0], "id", "name", "description", "status", "audienceId", "effectiveAudienceId",
			"configHashes", "createdAt", "updatedAt")
		expectJSON(t, "list item", []any{list[0]["id"], list[0]["name"], list[0]["audienceId"], list[0]["effectiveAudienceId"], list[0]["configHashes"]},
			[]any{id, "Retail", nil, root, hashes})
	})
}

func TestAGCCreateValidation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAGCFix(t, env, "Acme")
		post := func(b any) *apptest.Response { return env.Do("POST", "/api/activity-generation-configs", b, f.h) }

		apptest.ExpectError(t, post(map[string]any{"name": "", "project_id": "x"}), 400, []string{"property project_id should not exist"})
		apptest.ExpectError(t, post(map[string]any{"name": ""}), 400, []string{
			"name should not be empty", "activation should not be empty",
			"engagement should not be empty", "resurrection should not be empty"})

		b := f.createBody("X")
		act := b["activation"].(map[string]any)
		act["id"] = uuid.NewString()
		act["aggregation_method"] = "median"
		act["moments"].([]any)[0].(map[string]any)["id"] = uuid.NewString()
		act["moments"].([]any)[1].(map[string]any)["priority"] = "first"
		delete(b["engagement"].(map[string]any), "counting_method")
		apptest.ExpectError(t, post(b), 400, []string{
			"activation.property id should not exist",
			"activation.moments.0.property id should not exist",
			"activation.moments.1.priority must be an integer number",
		})
		delete(act, "id")
		delete(act["moments"].([]any)[0].(map[string]any), "id")
		act["moments"].([]any)[1].(map[string]any)["priority"] = 1
		apptest.ExpectError(t, post(b), 400, []string{
			"activation.aggregation_method must be one of the following values: nunique, count, sum, active_weeks",
			"engagement.counting_method should not be empty",
		})

		// Status config references: code mismatch, inactive, another tenant's.
		beta := newAGCFix(t, env, "Beta")
		for _, c := range []struct {
			code string
			id   uuid.UUID
		}{{"new", f.status["activated"]}, {"retired", f.status["retired"]}, {"new", beta.status["new"]}} {
			b := f.createBody("X")
			m := b["activation"].(map[string]any)["moments"].([]any)[1].(map[string]any)
			m["status_code"], m["user_retention_status_config_id"] = c.code, c.id
			apptest.ExpectError(t, post(b), 400, []string{fmt.Sprintf(
				`activation.moments.1.user_retention_status_config_id must reference an active retention status config with code %q`, c.code)})
		}

		// Audience of another project.
		other := secondProject(t, env, f.tenant.TenantID, "Ventas")
		b = f.createBody("X")
		b["audience_id"] = *other.RootAudienceID
		apptest.ExpectError(t, post(b), 400, "La audiencia no existe en este proyecto.")

		// Own audience of the project.
		b = f.createBody("Own")
		b["audience_id"] = rootAudience(t, env, f.tenant.ProjectID)
		if res := post(b); res.Status != 201 || res.Map(t)["audienceId"] != b["audience_id"].(uuid.UUID).String() {
			t.Fatalf("own audience: %d %s", res.Status, res.Body)
		}

		// Duplicate name in the project; nothing partial was stored by failures.
		f.create(t, "Dup")
		apptest.ExpectError(t, post(f.createBody("Dup")), 409, `An activity generation config with name "Dup" already exists`)
		if n := env.App.DB.Client.ActivationConfig.Query().CountX(sys); n != 2 {
			t.Fatalf("activation configs = %d, want 2", n)
		}
		// The same name in another project is fine.
		h2 := apptest.JWT(f.token, f.tenant.TenantID, other.ID)
		if res := env.Do("POST", "/api/activity-generation-configs", f.createBody("Dup"), h2); res.Status != 201 {
			t.Fatalf("other project: %d %s", res.Status, res.Body)
		}
	})
}

func TestAGCPatch(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAGCFix(t, env, "Acme")
		created := f.create(t, "Retail")
		f.create(t, "Taken")
		id := created["id"].(string)
		path := "/api/activity-generation-configs/" + id
		patch := func(b any) *apptest.Response { return env.Do("PATCH", path, b, f.h) }

		editor := env.CreateUser(f.tenant.TenantID, "adam", "admin")
		eh := apptest.JWT(env.Login("adam"), f.tenant.TenantID, f.tenant.ProjectID)
		res := env.Do("PATCH", path, map[string]any{"name": "Retail 2", "description": "new"}, eh)
		if res.Status != 200 {
			t.Fatalf("patch: %d %s", res.Status, res.Body)
		}
		got := res.Map(t)
		expectKeys(t, "patch response", got, "id", "projectId", "name", "description", "audienceId", "status", "updatedBy",
			"createdAt", "updatedAt", "activationConfig", "engagementConfig", "resurrectionConfig")
		expectJSON(t, "patched", []any{got["name"], got["description"], got["updatedBy"], got["activationConfig"]},
			[]any{"Retail 2", "new", editor.ID, created["activationConfig"]})

		apptest.ExpectError(t, patch(map[string]any{"name": ""}), 400, []string{"name should not be empty"})
		apptest.ExpectError(t, patch(map[string]any{"name": 3}), 400, []string{"name must be a string"})
		apptest.ExpectError(t, patch(map[string]any{"projectId": f.tenant.ProjectID, "status": "active", "activation": map[string]any{},
			"engagement": nil, "resurrection": nil}), 400, []string{
			"property activation should not exist", "property engagement should not exist", "property projectId should not exist",
			"property resurrection should not exist", "property status should not exist"})
		apptest.ExpectError(t, patch(map[string]any{"audience_id": "nope"}), 400, []string{"audience_id must be a UUID"})
		apptest.ExpectError(t, env.Do("PATCH", "/api/activity-generation-configs/nope", map[string]any{}, f.h), 400, "Validation failed (uuid is expected)")
		apptest.ExpectError(t, patch(map[string]any{"name": "Taken"}), 409, `An activity generation config with name "Taken" already exists`)

		// audience_id: an audience of another project, then its own, then null.
		other := secondProject(t, env, f.tenant.TenantID, "Ventas")
		apptest.ExpectError(t, patch(map[string]any{"audience_id": other.RootAudienceID}), 400, "La audiencia no existe en este proyecto.")
		root := rootAudience(t, env, f.tenant.ProjectID)
		own := env.App.DB.Client.Audience.Create().SetTenantID(f.tenant.TenantID).SetProjectID(f.tenant.ProjectID).SetName("VIP").SaveX(sys)
		if res := patch(map[string]any{"audience_id": own.ID}); res.Status != 200 || res.Map(t)["audienceId"] != own.ID.String() {
			t.Fatalf("set audience: %d %s", res.Status, res.Body)
		}
		if g := f.get(t, id); g["effectiveAudienceId"] != own.ID.String() {
			t.Fatalf("effective = %v", g["effectiveAudienceId"])
		}
		// Omitted keeps it.
		if res := patch(map[string]any{"description": "x"}); res.Map(t)["audienceId"] != own.ID.String() {
			t.Fatalf("omitted audience: %s", res.Body)
		}
		if res := patch(map[string]any{"audience_id": nil}); res.Status != 200 || res.Map(t)["audienceId"] != nil {
			t.Fatalf("clear audience: %d %s", res.Status, res.Body)
		}
		if g := f.get(t, id); g["effectiveAudienceId"] != root.String() || g["audienceId"] != nil {
			t.Fatalf("after clear: %v %v", g["audienceId"], g["effectiveAudienceId"])
		}

		// Another project's AGC and another tenant's: 404.
		h2 := apptest.JWT(f.token, f.tenant.TenantID, other.ID)
		msg := "Activity generation config " + id + " not found"
		apptest.ExpectError(t, env.Do("PATCH", path, map[string]any{"name": "Y"}, h2), 404, msg)
		beta := newAGCFix(t, env, "Beta")
		apptest.ExpectError(t, env.Do("PATCH", path, map[string]any{"name": "Y"}, beta.h), 404, msg)
		apptest.ExpectError(t, env.Do("GET", path, nil, h2), 404, msg)
		apptest.ExpectError(t, env.Do("GET", path, nil, beta.h), 404, msg)
		if res := env.Do("GET", "/api/activity-generation-configs", nil, beta.h); strings.TrimSpace(string(res.Body)) != "[]" {
			t.Fatalf("beta list = %s", res.Body)
		}
	})
}
