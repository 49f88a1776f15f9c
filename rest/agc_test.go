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
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/internal/apptest"
)

// agcFix is a tenant with retention status configs and a JWT in its main project.
type agcFix struct {
	env    *apptest.Env
	tenant apptest.Tenant
	h      apptest.Headers
	token  string
	status map[string]uuid.UUID
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

// lifecycle sends PUT /lifecycle.
func (f *agcFix) lifecycle(id any, b any) *apptest.Response {
	return f.env.Do("PUT", fmt.Sprintf("/api/activity-generation-configs/%v/lifecycle", id), b, f.h)
}

func TestAGCLifecycleReconciliation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAGCFix(t, env, "Acme")
		created := f.create(t, "Retail")
		id := created["id"]
		act := obj(created, "activationConfig")
		ms := arr(act, "activationMoments") // [new (prio 1), activated (prio 2)]
		eng := obj(created, "engagementConfig")
		levels := arr(eng, "engagementLevels")
		res0 := obj(created, "resurrectionConfig")

		// Update "new" in place, delete "activated" (absent), insert one; engagement fields only (levels untouched).
		res := f.lifecycle(id, map[string]any{
			"activation": map[string]any{"date_column": "created_at", "moments": []any{
				map[string]any{"id": ms[0]["id"], "status_code": "new", "user_retention_status_config_id": f.status["new"], "min_actions": 5, "priority": 3},
				map[string]any{"status_code": "activated", "user_retention_status_config_id": f.status["activated"], "priority": 4},
			}},
			"engagement": map[string]any{"counting_method": "count"},
		})
		if res.Status != 200 || len(res.Body) != 0 {
			t.Fatalf("lifecycle: %d %q", res.Status, res.Body)
		}
		got := f.get(t, id)
		a := obj(got, "activationConfig")
		nm := arr(a, "activationMoments")
		if a["id"] != act["id"] || a["dateColumn"] != "created_at" || a["sourceTable"] != "orders" || len(nm) != 2 {
			t.Fatalf("activation = %v", a)
		}
		expectJSON(t, "moments", []any{nm[0]["id"], nm[0]["minActions"], nm[0]["windowDays"], nm[0]["timeWindow"], nm[0]["priority"], nm[1]["statusCode"], nm[1]["priority"]},
			[]any{ms[0]["id"], 5, nil, nil, 3, "activated", 4})
		if nm[1]["id"] == ms[1]["id"] {
			t.Fatal("the absent moment was not deleted")
		}
		e := obj(got, "engagementConfig")
		if e["id"] != eng["id"] || e["countingMethod"] != "count" {
			t.Fatalf("engagement = %v", e)
		}
		expectJSON(t, "levels untouched", e["engagementLevels"], eng["engagementLevels"])
		expectJSON(t, "resurrection untouched", obj(got, "resurrectionConfig"), res0)

		// A pillar carrying an id.
		apptest.ExpectError(t, f.lifecycle(id, map[string]any{"resurrection": map[string]any{"id": res0["id"], "name": "R"}}), 400,
			[]string{"resurrection.property id should not exist"})
		// A child id of another pillar (an engagement level's id as a moment id), and of another AGC.
		other := f.create(t, "Other")
		foreign := arr(obj(other, "activationConfig"), "activationMoments")[0]["id"]
		for _, cid := range []any{levels[0]["id"], foreign} {
			apptest.ExpectError(t, f.lifecycle(id, map[string]any{"activation": map[string]any{"moments": []any{
				map[string]any{"id": cid, "status_code": "new", "user_retention_status_config_id": f.status["new"], "priority": 1},
			}}}), 400, []string{fmt.Sprintf("activation.moments.0.id %v does not belong to this activation config", cid)})
		}
		apptest.ExpectError(t, f.lifecycle(id, map[string]any{"engagement": map[string]any{"engagement_window_days": 0, "name": ""}, "x": 1}), 400,
			[]string{"property x should not exist"})
		apptest.ExpectError(t, f.lifecycle(id, map[string]any{"engagement": map[string]any{"engagement_window_days": 0, "name": ""}}), 400,
			[]string{"engagement.name should not be empty", "engagement.engagement_window_days must be a positive number"})
		// Unknown AGC and another project's.
		missing := uuid.New()
		apptest.ExpectError(t, f.lifecycle(missing, map[string]any{}), 404, fmt.Sprintf("Activity generation config %s not found", missing))
		// Nothing of the rejected edits was applied.
		expectJSON(t, "after rejections", f.get(t, id)["activationConfig"], got["activationConfig"])

		// Levels: empty array deletes them all; thresholds: replace one.
		ts := arr(res0, "resurrectionThresholds")
		res = f.lifecycle(id, map[string]any{"engagement": map[string]any{"levels": []any{}},
			"resurrection": map[string]any{"thresholds": []any{
				map[string]any{"id": ts[1]["id"], "status_code": "dormant", "user_retention_status_config_id": f.status["dormant"], "label": "Zzz", "threshold_days": 75, "order": 1},
			}}})
		if res.Status != 200 {
			t.Fatalf("lifecycle 2: %d %s", res.Status, res.Body)
		}
		got = f.get(t, id)
		if n := len(arr(obj(got, "engagementConfig"), "engagementLevels")); n != 0 {
			t.Fatalf("levels = %d", n)
		}
		nt := arr(obj(got, "resurrectionConfig"), "resurrectionThresholds")
		expectJSON(t, "thresholds", []any{len(nt), nt[0]["id"], nt[0]["label"], nt[0]["thresholdDays"]}, []any{1, ts[1]["id"], "Zzz", 75})
	})
}

func TestAGCLifecycleAtomic(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAGCFix(t, env, "Acme")
		created := f.create(t, "Retail")
		id := created["id"]
		ms := arr(obj(created, "activationConfig"), "activationMoments")
		// Pillar field change, then an update in place and an insert that are
		// valid and written, then a third child that is invalid: all rolled back.
		res := f.lifecycle(id, map[string]any{
			"activation": map[string]any{"name": "Changed", "moments": []any{
				map[string]any{"id": ms[0]["id"], "status_code": "new", "user_retention_status_config_id": f.status["new"], "min_actions": 9, "priority": 1},
				map[string]any{"status_code": "activated", "user_retention_status_config_id": f.status["activated"], "priority": 7},
				map[string]any{"status_code": "retired", "user_retention_status_config_id": f.status["retired"], "priority": 8},
			}},
		})
		apptest.ExpectError(t, res, 400, []string{
			`activation.moments.2.user_retention_status_config_id must reference an active retention status config with code "retired"`})
		expectJSON(t, "after rollback", f.get(t, id), created)
	})
}

func TestAGCConfigHashes(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAGCFix(t, env, "Acme")
		created := f.create(t, "Retail")
		id := created["id"]
		h0 := obj(created, "configHashes")
		expectJSON(t, "stable across reads", obj(f.get(t, id), "configHashes"), h0)

		// The same semantic content in another AGC (other names, children sent
		// in another order) hashes the same.
		b := f.createBody("Twin")
		b["activation"].(map[string]any)["name"] = "Other name"
		slices.Reverse(b["resurrection"].(map[string]any)["thresholds"].([]any))
		res := env.Do("POST", "/api/activity-generation-configs", b, f.h)
		expectJSON(t, "twin hashes", obj(res.Map(t), "configHashes"), h0)

		// Name, description and label edits change nothing.
		if res := env.Do("PATCH", fmt.Sprintf("/api/activity-generation-configs/%v", id), map[string]any{"name": "Renamed"}, f.h); res.Status != 200 {
			t.Fatalf("patch: %d %s", res.Status, res.Body)
		}
		ts := arr(obj(created, "resurrectionConfig"), "resurrectionThresholds")
		thresholds := func(days any, label string) []any {
			return []any{
				map[string]any{"id": ts[0]["id"], "status_code": "at_risk", "user_retention_status_config_id": f.status["at_risk"], "label": label, "threshold_days": days, "order": 1},
				map[string]any{"id": ts[1]["id"], "status_code": "dormant", "user_retention_status_config_id": f.status["dormant"], "label": "Dormido", "threshold_days": 60, "order": 2},
			}
		}
		if res := f.lifecycle(id, map[string]any{"activation": map[string]any{"name": "N", "description": "D"},
			"resurrection": map[string]any{"name": "R2", "thresholds": thresholds(30, "Otra etiqueta")}}); res.Status != 200 {
			t.Fatalf("lifecycle: %d %s", res.Status, res.Body)
		}
		expectJSON(t, "after name-only edits", obj(f.get(t, id), "configHashes"), h0)

		// A threshold change changes the resurrection hash only.
		if res := f.lifecycle(id, map[string]any{"resurrection": map[string]any{"thresholds": thresholds(31, "Otra etiqueta")}}); res.Status != 200 {
			t.Fatalf("lifecycle: %d %s", res.Status, res.Body)
		}
		h1 := obj(f.get(t, id), "configHashes")
		if h1["resurrection"] == h0["resurrection"] || h1["activation"] != h0["activation"] || h1["engagement"] != h0["engagement"] {
			t.Fatalf("hashes %v -> %v", h0, h1)
		}
		// Back to the original content, back to the original hash.
		if res := f.lifecycle(id, map[string]any{"resurrection": map[string]any{"thresholds": thresholds(30, "x")}}); res.Status != 200 {
			t.Fatalf("lifecycle: %d %s", res.Status, res.Body)
		}
		expectJSON(t, "restored", obj(f.get(t, id), "configHashes"), h0)
		// A source column change changes the engagement hash.
		if res := f.lifecycle(id, map[string]any{"engagement": map[string]any{"source_columns": []string{"x"}}}); res.Status != 200 {
			t.Fatalf("lifecycle: %d %s", res.Status, res.Body)
		}
		if h := obj(f.get(t, id), "configHashes"); h["engagement"] == h0["engagement"] {
			t.Fatal("engagement hash unchanged")
		}
	})
}

func TestAGCPublishPauseDelete(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAGCFix(t, env, "Acme")
		created := f.create(t, "Retail")
		id := created["id"].(string)
		path := "/api/activity-generation-configs/" + id
		move := func(op string, want string) {
			t.Helper()
			res := env.Do("POST", path+"/"+op, nil, f.h)
			if res.Status != 200 || res.Map(t)["status"] != want {
				t.Fatalf("%s: %d %s", op, res.Status, res.Body)
			}
		}
		apptest.ExpectError(t, env.Do("POST", path+"/pause", nil, f.h), 409,
			"Activity generation config "+id+" cannot be paused: only an active config can be paused (status is draft)")
		move("publish", "active")
		apptest.ExpectError(t, env.Do("POST", path+"/publish", nil, f.h), 409, "Activity generation config "+id+" is already active")
		move("pause", "paused")
		apptest.ExpectError(t, env.Do("POST", path+"/pause", nil, f.h), 409,
			"Activity generation config "+id+" cannot be paused: only an active config can be paused (status is paused)")
		move("publish", "active")
		beta := newAGCFix(t, env, "Beta")
		apptest.ExpectError(t, env.Do("POST", path+"/pause", nil, beta.h), 404, "Activity generation config "+id+" not found")

		// Delete archives the AGC and its pillars and records it in the trash.
		apptest.ExpectError(t, env.Do("DELETE", path, nil, beta.h), 404, "Activity generation config "+id+" not found")
		if res := env.Do("DELETE", path, nil, f.h); res.Status != 204 {
			t.Fatalf("delete: %d %s", res.Status, res.Body)
		}
		apptest.ExpectError(t, env.Do("GET", path, nil, f.h), 404, "Activity generation config "+id+" not found")
		actID := obj(created, "activationConfig")["id"].(string)
		apptest.ExpectError(t, env.Do("GET", "/api/activation-configs/"+actID, nil, f.h), 404, "Activation config not found")
		if res := env.Do("GET", "/api/engagement-configs", nil, f.h); strings.TrimSpace(string(res.Body)) != "[]" {
			t.Fatalf("engagement list = %s", res.Body)
		}
		rec := env.App.DB.Client.TrashRecord.Query().Where(trashrecord.RecordID(uuid.MustParse(id))).OnlyX(sys)
		if rec.Kind != trashrecord.KindACTIVITY_GENERATION_CONFIG || rec.Label != "Retail" {
			t.Fatalf("trash record = %+v", rec)
		}
		// The name is free again.
		f.create(t, "Retail")
	})
}

func TestLifecyclePillarRoutes(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAGCFix(t, env, "Acme")
		created := f.create(t, "Retail")
		other := secondProject(t, env, f.tenant.TenantID, "Ventas")
		h2 := apptest.JWT(f.token, f.tenant.TenantID, other.ID)
		for _, c := range []struct{ route, key, msg string }{
			{"activation-configs", "activationConfig", "Activation config not found"},
			{"engagement-configs", "engagementConfig", "Engagement config not found"},
			{"resurrection-configs", "resurrectionConfig", "Resurrection config not found"},
		} {
			want := obj(created, c.key)
			res := env.Do("GET", "/api/"+c.route, nil, f.h)
			expectJSON(t, c.route, json.RawMessage(res.Body), []any{want})
			res = env.Do("GET", "/api/"+c.route+"/"+want["id"].(string), nil, f.h)
			expectJSON(t, c.route+"/id", json.RawMessage(res.Body), want)
			apptest.ExpectError(t, env.Do("GET", "/api/"+c.route+"/"+want["id"].(string), nil, h2), 404, c.msg)
			if res := env.Do("GET", "/api/"+c.route, nil, h2); strings.TrimSpace(string(res.Body)) != "[]" {
				t.Fatalf("other project %s = %s", c.route, res.Body)
			}
			apptest.ExpectError(t, env.Do("GET", "/api/"+c.route, nil, apptest.JWT(f.token, f.tenant.TenantID, uuid.Nil)), 400,
				"Falta el header obligatorio x-project-id.")
		}

		// Lifecycle defaults: tenant-level, snake_case.
		res := env.Do("GET", "/api/lifecycle-defaults", nil, apptest.JWT(f.token, f.tenant.TenantID, uuid.Nil))
		if res.Status != 200 {
			t.Fatalf("defaults: %d %s", res.Status, res.Body)
		}
		d := res.Map(t)
		expectKeys(t, "defaults", d, "activation", "engagement", "resurrection")
		expectKeys(t, "defaults.activation", obj(d, "activation"), "name", "source_table", "source_columns", "date_column", "aggregation_method", "moments")
		expectKeys(t, "defaults moment", arr(obj(d, "activation"), "moments")[0], "status_code", "min_actions", "window_days", "time_window", "priority")
		expectKeys(t, "defaults level", arr(obj(d, "engagement"), "levels")[0], "status_code", "label", "min_threshold", "max_threshold", "order")
		expectKeys(t, "defaults threshold", arr(obj(d, "resurrection"), "thresholds")[0], "status_code", "label", "threshold_days", "order")
	})
}
