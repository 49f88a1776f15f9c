package rest_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/internal/apptest"
)

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

// TestAGCStatusStageNameTrimAndPatchOrder: a pillar child must reference a
// status config of its pillar's stage; names are trimmed (so " Foo " and
// "Foo" collide); a null name is empty; another project's AGC answers 404
// whatever the PATCH body says.
func TestAGCStatusStageNameTrimAndPatchOrder(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAGCFix(t, env, "Acme")

		// An engagement status on an activation moment.
		b := f.createBody("Wrong stage")
		moments := b["activation"].(map[string]any)["moments"].([]any)
		moments[0] = map[string]any{"status_code": "low", "user_retention_status_config_id": f.status["low"], "priority": 2}
		apptest.ExpectError(t, env.Do("POST", "/api/activity-generation-configs", b, f.h), 400,
			[]string{`activation.moments.0.user_retention_status_config_id must reference an active retention status config with code "low"`})

		created := f.create(t, "  Retail  ")
		if created["name"] != "Retail" {
			t.Fatalf("name = %q, want it trimmed", created["name"])
		}
		apptest.ExpectError(t, env.Do("POST", "/api/activity-generation-configs", f.createBody("Retail"), f.h), 409,
			`An activity generation config with name "Retail" already exists`)

		path := fmt.Sprintf("/api/activity-generation-configs/%v", created["id"])
		apptest.ExpectError(t, env.Do("PATCH", path, map[string]any{"name": nil}, f.h), 400, []string{"name should not be empty"})

		other := secondProject(t, env, f.tenant.TenantID, "Ventas")
		oh := f.h.With("x-project-id", other.ID.String())
		apptest.ExpectError(t, env.Do("PATCH", path, map[string]any{"name": ""}, oh), 404,
			fmt.Sprintf("Activity generation config %v not found", created["id"]))
	})
}
