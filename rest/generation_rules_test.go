package rest_test

import (
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

// ruleBody is a valid TASK rule under the agcFix statuses, with overrides.
func ruleBody(over map[string]any) map[string]any {
	b := map[string]any{"name": "Visita en riesgo", "trigger": "ENTER", "stage": "RESURRECTION", "status_code": "at_risk",
		"type": "TASK", "channel": "SALESMAN", "reason_code": "reactivation",
		"title_template": "Visitar {{.commerce.name}} ({{.state.label}})"}
	for k, v := range over {
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
	}
	return b
}

// TestGenerationRules: create, get, list, update and delete (into the
// trash) an AGC's generation rules, with every documented default, the
// exact validation messages, the project scope and the permissions.
func TestGenerationRules(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAGCFix(t, env, "Acme")
		agcID := f.create(t, "Retail")["id"].(string)
		res := env.Do("POST", "/api/activity-reason-configs", map[string]any{"code": "reactivation", "label": "Reactivación"}, f.h)
		if res.Status != 201 {
			t.Fatalf("reason config: %d %s", res.Status, res.Body)
		}
		base := "/api/activity-generation-configs/" + agcID + "/generation-rules"

		res = env.Do("POST", base, ruleBody(nil), f.h)
		if res.Status != 201 {
			t.Fatalf("create: %d %s", res.Status, res.Body)
		}
		task := res.Map(t)
		id := task["id"].(string)
		want := map[string]any{"id": id, "activityGenerationConfigId": agcID, "name": "Visita en riesgo", "trigger": "ENTER",
			"stage": "RESURRECTION", "statusCode": "at_risk", "dwellDays": nil, "type": "TASK", "channel": "SALESMAN",
			"reasonCode": "reactivation", "titleTemplate": "Visitar {{.commerce.name}} ({{.state.label}})", "instructionsTemplate": "",
			"attributes": map[string]any{}, "offsetDays": 0, "timeOfDay": "09:00", "skipWeekends": false, "expiresAfterDays": nil,
			"assignment": "ROUTE_LEAD", "operatorType": nil, "targetRole": nil, "isActive": true, "priority": 100,
			"createdAt": task["createdAt"], "updatedAt": task["updatedAt"]}
		foExpect(t, res, 201, want)
		foExpect(t, env.Do("GET", "/api/generation-rules/"+id, nil, f.h), 200, want)

		// A MESSAGE rule with every member.
		res = env.Do("POST", base, ruleBody(map[string]any{"name": "WhatsApp nuevos", "trigger": "DWELL", "dwell_days": 3,
			"stage": "ACTIVATION", "status_code": "new", "type": "MESSAGE", "channel": "WHATSAPP",
			"instructions_template": "Hola {{.commerce.name}}, llevas {{.state.days_in_state}} días", "attributes": map[string]any{"campaña": "bienvenida"},
			"offset_days": 1, "time_of_day": "10:30", "skip_weekends": true, "expires_after_days": 7, "priority": 10}), f.h)
		if res.Status != 201 {
			t.Fatalf("create message: %d %s", res.Status, res.Body)
		}
		msg := res.Map(t)
		if msg["targetRole"] != "OWNER" || msg["assignment"] != nil || msg["dwellDays"] != float64(3) || msg["timeOfDay"] != "10:30" {
			t.Fatalf("message rule = %v", msg)
		}
		// The list: by priority.
		list := env.Do("GET", base, nil, f.h).Map(t)
		if data := list["data"].([]any); len(data) != 2 || data[0].(map[string]any)["name"] != "WhatsApp nuevos" ||
			data[1].(map[string]any)["name"] != "Visita en riesgo" || list["meta"].(map[string]any)["total"] != float64(2) {
			t.Fatalf("list = %v", list)
		}

		for _, c := range []struct {
			name   string
			body   map[string]any
			status int
			msgs   any
		}{
			{"empty", map[string]any{}, 400, []string{"name should not be empty", "trigger must be one of the following values: ENTER, DWELL",
				"stage must be one of the following values: ACTIVATION, ENGAGEMENT, RESURRECTION", "status_code should not be empty",
				"type must be one of the following values: TASK, MESSAGE", "reason_code should not be empty", "title_template should not be empty"}},
			{"dwell without days", ruleBody(map[string]any{"trigger": "DWELL"}), 400, []string{"dwell_days must be an integer from 1 to 3650 when trigger is DWELL"}},
			{"enter with days", ruleBody(map[string]any{"dwell_days": 2}), 400, []string{"dwell_days must be null when trigger is ENTER"}},
			{"task on whatsapp", ruleBody(map[string]any{"channel": "WHATSAPP", "target_role": "OWNER"}), 400,
				[]string{"channel must be one of the following values for a TASK: SALESMAN, CALLCENTER", "target_role must be null for a TASK"}},
			{"message with assignment", ruleBody(map[string]any{"type": "MESSAGE", "channel": "SMS", "assignment": "ROUTE_LEAD"}), 400,
				[]string{"assignment must be null for a MESSAGE"}},
			{"operator type without round robin", ruleBody(map[string]any{"operator_type": "SALESMAN"}), 400,
				[]string{"operator_type must be null unless assignment is ROUTE_MEMBERS_ROUND_ROBIN"}},
			{"unknown placeholder", ruleBody(map[string]any{"title_template": "Hola {{.commerce.nombre}}"}), 400,
				[]string{"title_template names an unknown placeholder {{.commerce.nombre}}; known placeholders: commerce.name, commerce.external_id, commerce.segment, state.stage, state.code, state.label, state.entered_at, state.days_in_state, metrics.lifetime_actions, metrics.activation, metrics.engagement, metrics.days_since_last_row"}},
			{"template logic", ruleBody(map[string]any{"instructions_template": "{{if .commerce.name}}x{{end}}"}), 400,
				[]string{"instructions_template may hold only text and placeholders such as {{.commerce.name}}"}},
			{"broken template", ruleBody(map[string]any{"title_template": "Hola {{.commerce.name"}), 400,
				[]string{"title_template is not a valid template: title_template:1: unclosed action"}},
			{"numbers and time", ruleBody(map[string]any{"offset_days": 400, "time_of_day": "25:00", "expires_after_days": 0, "priority": -1}), 400,
				[]string{"offset_days must be an integer from 0 to 365", "time_of_day must be a time of day HH:MM (00:00 to 23:59)",
					"expires_after_days must be null or an integer from 1 to 365", "priority must be an integer from 0 to 1000"}},
			{"wrong types", ruleBody(map[string]any{"name": 5, "dwell_days": "2", "attributes": map[string]any{"a": 1}}), 400,
				[]string{"name must be a string", "dwell_days must be an integer number", "attributes must be an object whose values are strings"}},
			{"unknown member", ruleBody(map[string]any{"when": "now"}), 400, []string{"property when should not exist"}},
			// References: the status config must be active and of the stage; the reason active.
			{"status of another stage", ruleBody(map[string]any{"status_code": "new"}), 400,
				[]string{`status_code "new" is not an active retention status config of stage RESURRECTION`}},
			{"inactive status and unknown reason", ruleBody(map[string]any{"status_code": "retired", "reason_code": "nope"}), 400,
				[]string{`status_code "retired" is not an active retention status config of stage RESURRECTION`,
					`reason_code "nope" is not an active activity reason config`}},
			{"name taken", ruleBody(nil), 409, `A generation rule named "Visita en riesgo" already exists in this activity generation config`},
		} {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("POST", base, c.body, f.h), c.status, c.msgs)
			})
		}

		// PATCH: absent keeps, null clears, a change of type resets the other type's members.
		res = env.Do("PATCH", "/api/generation-rules/"+id, map[string]any{"type": "MESSAGE", "channel": "EMAIL", "expires_after_days": 5}, f.h)
		got := res.Map(t)
		if res.Status != 200 || got["type"] != "MESSAGE" || got["assignment"] != nil || got["targetRole"] != "OWNER" ||
			got["expiresAfterDays"] != float64(5) || got["name"] != "Visita en riesgo" {
			t.Fatalf("patch to MESSAGE: %d %v", res.Status, got)
		}
		got = env.Do("PATCH", "/api/generation-rules/"+id, map[string]any{"expires_after_days": nil, "attributes": map[string]any{"k": "v"}}, f.h).Map(t)
		if got["expiresAfterDays"] != nil || got["attributes"].(map[string]any)["k"] != "v" {
			t.Fatalf("patch clearing expiry: %v", got)
		}
		apptest.ExpectError(t, env.Do("PATCH", "/api/generation-rules/"+id, map[string]any{"name": "WhatsApp nuevos"}, f.h), 409,
			`A generation rule named "WhatsApp nuevos" already exists in this activity generation config`)
		apptest.ExpectError(t, env.Do("PATCH", "/api/generation-rules/"+id, map[string]any{"trigger": nil}, f.h), 400, []string{"trigger must not be null"})

		// Scope: another project's (or tenant's) AGC and rule are not found.
		other := newAGCFix(t, env, "Beta")
		apptest.ExpectError(t, env.Do("GET", "/api/generation-rules/"+id, nil, other.h), 404, "Generation rule not found")
		apptest.ExpectError(t, env.Do("POST", base, ruleBody(nil), other.h), 404, "Activity generation config "+agcID+" not found")
		apptest.ExpectError(t, env.Do("GET", base, nil, other.h), 404, "Activity generation config "+agcID+" not found")
		apptest.ExpectError(t, env.Do("GET", "/api/generation-rules/"+uuid.NewString(), nil, f.h), 404, "Generation rule not found")

		// Permissions: a supervisor reads rules, does not change them.
		env.CreateUser(f.tenant.TenantID, "sam", auth.RoleSupervisor)
		sup := apptest.JWT(env.Login("sam"), f.tenant.TenantID, f.tenant.ProjectID)
		if res := env.Do("GET", base, nil, sup); res.Status != 200 {
			t.Fatalf("supervisor list: %d %s", res.Status, res.Body)
		}
		apptest.ExpectError(t, env.Do("DELETE", "/api/generation-rules/"+id, nil, sup), 403, "Required permissions: generation-rule:manage")

		// DELETE moves it to the trash: gone from reads, the name reusable.
		foExpect(t, env.Do("DELETE", "/api/generation-rules/"+id, nil, f.h), 204, nil)
		apptest.ExpectError(t, env.Do("GET", "/api/generation-rules/"+id, nil, f.h), 404, "Generation rule not found")
		if n := env.Do("GET", base, nil, f.h).Map(t)["meta"].(map[string]any)["total"]; n != float64(1) {
			t.Fatalf("after delete: %v rules", n)
		}
		if res := env.Do("POST", base, ruleBody(nil), f.h); res.Status != 201 {
			t.Fatalf("reusing the name of a rule in the trash: %d %s", res.Status, res.Body)
		}
		trash := env.Do("GET", "/api/trash", nil, f.h).Map(t)["data"].([]any)
		if len(trash) != 1 || trash[0].(map[string]any)["kind"] != "GENERATION_RULE" || trash[0].(map[string]any)["label"] != "Visita en riesgo" {
			t.Fatalf("trash = %v", trash)
		}
	})
}

// TestGenerationPolicyAndSettings: the project's policy and an AGC's
// settings start with the defaults, are replaced whole by PUT with exact
// messages, and a reshuffle (only) moves saltChangedAt; another project's
// AGC is not found.
func TestGenerationPolicyAndSettings(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAGCFix(t, env, "Acme")
		agcID := f.create(t, "Retail")["id"].(string)
		pol := env.Do("GET", "/api/generation-policy", nil, f.h).Map(t)
		foExpect(t, env.Do("GET", "/api/generation-policy", nil, f.h), 200, map[string]any{"projectId": f.tenant.ProjectID.String(),
			"maxPerCommerce": 3, "windowDays": 7, "minGapDays": 1, "controlPercent": 0, "saltChangedAt": nil, "updatedBy": nil,
			"updatedAt": pol["updatedAt"]})
		res := env.Do("PUT", "/api/generation-policy", map[string]any{"max_per_commerce": 2, "window_days": 14, "min_gap_days": 0, "control_percent": 10}, f.h)
		got := res.Map(t)
		if res.Status != 200 || got["maxPerCommerce"] != float64(2) || got["windowDays"] != float64(14) || got["minGapDays"] != float64(0) ||
			got["controlPercent"] != float64(10) || got["saltChangedAt"] != nil || got["updatedBy"] != f.tenant.UserID.String() {
			t.Fatalf("PUT policy: %d %v", res.Status, got)
		}
		got = env.Do("PUT", "/api/generation-policy", map[string]any{"max_per_commerce": 2, "window_days": 14, "min_gap_days": 0, "control_percent": 10, "reshuffle": true}, f.h).Map(t)
		if got["saltChangedAt"] == nil {
			t.Fatalf("reshuffle did not record saltChangedAt: %v", got)
		}
		apptest.ExpectError(t, env.Do("PUT", "/api/generation-policy", map[string]any{"max_per_commerce": 0, "window_days": 400, "min_gap_days": -1, "control_percent": 51}, f.h), 400,
			[]string{"max_per_commerce must be an integer from 1 to 100", "window_days must be an integer from 1 to 365",
				"min_gap_days must be an integer from 0 to 365", "control_percent must be an integer from 0 to 50"})
		apptest.ExpectError(t, env.Do("PUT", "/api/generation-policy", map[string]any{"max_per_commerce": 1}, f.h), 400,
			[]string{"window_days must be an integer number", "min_gap_days must be an integer number", "control_percent must be an integer number"})

		path := "/api/activity-generation-configs/" + agcID + "/generation-settings"
		set := env.Do("GET", path, nil, f.h).Map(t)
		if set["holdoutPercent"] != float64(0) || set["activityGenerationConfigId"] != agcID || set["saltChangedAt"] != nil {
			t.Fatalf("default settings = %v", set)
		}
		if got := env.Do("PUT", path, map[string]any{"holdout_percent": 20}, f.h).Map(t); got["holdoutPercent"] != float64(20) || got["saltChangedAt"] != nil {
			t.Fatalf("PUT settings = %v", got)
		}
		apptest.ExpectError(t, env.Do("PUT", path, map[string]any{"holdout_percent": 60}, f.h), 400, []string{"holdout_percent must be an integer from 0 to 50"})
		apptest.ExpectError(t, env.Do("PUT", path, map[string]any{"holdout_percent": 5, "reshuffle": nil}, f.h), 400, []string{"reshuffle must be a boolean value"})
		other := newAGCFix(t, env, "Beta")
		apptest.ExpectError(t, env.Do("GET", path, nil, other.h), 404, "Activity generation config "+agcID+" not found")
		// Beta's policy is its own.
		if got := env.Do("GET", "/api/generation-policy", nil, other.h).Map(t); got["maxPerCommerce"] != float64(3) {
			t.Fatalf("Beta's policy = %v", got)
		}
		env.CreateUser(f.tenant.TenantID, "olga", auth.RoleOperator)
		op := apptest.JWT(env.Login("olga"), f.tenant.TenantID, f.tenant.ProjectID)
		apptest.ExpectError(t, env.Do("GET", "/api/generation-policy", nil, op), 403, "Required permissions: generation-rule:view")
	})
}
