package rest_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/viewer"
)

const (
	msgState       = "La actividad no está en un estado válido para registrar resultado."
	msgDayClosed   = "La actividad corresponde a un día ya cerrado y no admite registrar resultado."
	msgInactive    = "El tipo de resultado seleccionado no está activo."
	msgFutureReq   = "Este tipo de resultado requiere una fecha comprometida."
	msgFuturePast  = "La fecha programada no puede ser en el pasado."
	msgStatusEnum  = "status must be one of the following values: PENDING, COMPLETED, NOT_EXECUTED, CANCELED, TRANSFERRED"
	msgCommerceExt = "commerce_external_id should not be empty when activity_id is absent"
	resultsPath    = "/api/activity-results/tasks"
	resOccurredAt  = "2030-05-01T12:00:00Z"
	resScheduledAt = "2030-05-01T10:00:00Z"
)

// resFixture is a tenant with its main project, a commerce and helpers.
type resFixture struct {
	t      *testing.T
	env    *apptest.Env
	ten    apptest.Tenant
	h, th  apptest.Headers
	shopID string
}

func newResFixture(t *testing.T, env *apptest.Env, name string) *resFixture {
	ten := env.Bootstrap(name)
	tok := env.Login(ten.Email)
	f := &resFixture{t: t, env: env, ten: ten, h: apptest.JWT(tok, ten.TenantID, ten.ProjectID), th: apptest.JWT(tok, ten.TenantID, uuid.Nil)}
	f.shopID = actOK(t, env.Do("POST", "/api/commerces", map[string]any{"name": "Shop", "external_id": "EXT-" + name}, f.th), 201)["id"].(string)
	return f
}

// task creates a READY task of the main project scheduled at scheduledAt.
func (f *resFixture) task(scheduledAt string) string {
	f.t.Helper()
	return actOK(f.t, f.env.Do("POST", "/api/activities", map[string]any{"commerce_id": f.shopID, "type": "TASK", "channel": "SMS",
		"scheduled_at": scheduledAt}, f.h), 201)["id"].(string)
}

func (f *resFixture) status(id string) string {
	f.t.Helper()
	return actOK(f.t, f.env.Do("GET", "/api/activities/"+id, nil, f.h), 200)["status"].(string)
}

func linked(activityID, status, code string) map[string]any {
	return map[string]any{"activity_id": activityID, "occurred_at": resOccurredAt, "status": status,
		"task_result": map[string]any{"result": code, "comment": "ok", "contact_type": "OUTBOUND"}}
}

func TestResultValidationAndCheckOrder(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		apptest.ExpectError(t, env.Do("POST", resultsPath, map[string]any{}, f.h), 400, []string{
			"occurred_at should not be empty", msgStatusEnum,
			"commerce_external_id should not be empty when activity_id is absent", "task_result should not be empty"})
		apptest.ExpectError(t, env.Do("POST", resultsPath, map[string]any{"activity_id": "nope", "occurred_at": "yesterday",
			"status": "DONE", "foo": 1, "task_result": map[string]any{"result": "success", "contact_type": "PHONE", "extra": 1}}, f.h), 400, []string{
			"property foo should not exist", "activity_id must be a UUID", "occurred_at must be a valid ISO 8601 date string",
			"property task_result.extra should not exist", msgStatusEnum,
			"task_result.contact_type must be one of the following values: INBOUND, OUTBOUND"})
		apptest.ExpectError(t, env.Do("POST", resultsPath, map[string]any{"commerce_external_id": "X", "occurred_at": resOccurredAt,
			"status": "PENDING", "hard_override": "yes", "raw_payload": 3, "task_result": map[string]any{
				"future_scheduled_at": "tomorrow", "payload": []int{1}}}, f.h), 400, []string{
			"hard_override must be a boolean value", "raw_payload must be an object",
			"task_result.future_scheduled_at must be a valid ISO 8601 date string", "task_result.payload must be an object",
			"task_result.result should not be empty"})
		apptest.ExpectError(t, env.Do("POST", resultsPath, map[string]any{"commerce_external_id": "X", "occurred_at": resOccurredAt,
			"status": "PENDING", "task_result": "success"}, f.h), 400, []string{"task_result must be an object"})

		// Check order: project, then permission, then body.
		bad := map[string]any{"foo": 1}
		apptest.ExpectError(t, env.Do("POST", resultsPath, bad, f.th), 400, "Falta el header obligatorio x-project-id.")
		apptest.ExpectError(t, env.Do("POST", resultsPath, bad, f.th.With("x-project-id", "zzz")), 400, "El header x-project-id debe ser un UUID válido.")
		apptest.ExpectError(t, env.Do("POST", resultsPath, bad, f.th.With("x-project-id", uuid.NewString())), 404, "El proyecto no existe.")
		plain, _ := env.CreateKey(f.ten.TenantID, f.ten.UserID, uuid.Nil, auth.PermActivityView)
		apptest.ExpectError(t, env.Do("POST", resultsPath, bad, apptest.Key(plain)), 400, "Falta el header obligatorio x-project-id.")
		apptest.ExpectError(t, env.Do("POST", resultsPath, bad, apptest.Key(plain).With("x-project-id", f.ten.ProjectID.String())),
			403, "Required permissions: activity-result:submit")
		apptest.ExpectError(t, env.Do("PATCH", resultsPath+"/"+uuid.NewString(), bad, apptest.Key(plain).With("x-project-id", f.ten.ProjectID.String())),
			403, "Required permissions: activity-result:submit")
		// A key with the permission reaches the body rules.
		ok, _ := env.CreateKey(f.ten.TenantID, f.ten.UserID, f.ten.ProjectID, auth.PermActivityResultSubmit)
		apptest.ExpectError(t, env.Do("POST", resultsPath, bad, apptest.Key(ok)), 400, []string{"property foo should not exist",
			"occurred_at should not be empty", msgStatusEnum, "commerce_external_id should not be empty when activity_id is absent",
			"task_result should not be empty"})
		res := actOK(t, env.Do("POST", resultsPath, linked(f.task(resScheduledAt), "PENDING", "success"), apptest.Key(ok)), 201)
		if res["resultStatus"] != "PENDING" {
			t.Fatalf("key submission: %v", res)
		}

		// PATCH body rules.
		apptest.ExpectError(t, env.Do("PATCH", resultsPath+"/"+uuid.NewString(), map[string]any{"activity_id": uuid.NewString(),
			"status": "X", "task_result": map[string]any{"result": ""}}, f.h), 400, []string{"property activity_id should not exist",
			"occurred_at should not be empty", msgStatusEnum, "task_result.result should not be empty"})
		apptest.ExpectError(t, env.Do("PATCH", resultsPath+"/nope", map[string]any{}, f.h), 400, "Validation failed (uuid is expected)")
	})
}

func TestResultLinkingAndParentTransitions(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		cases := []struct{ status, to, events string }{
			{"COMPLETED", "COMPLETED", "[CREATED:null>READY COMPLETED:READY>COMPLETED]"},
			{"TRANSFERRED", "COMPLETED", "[CREATED:null>READY COMPLETED:READY>COMPLETED]"},
			{"NOT_EXECUTED", "FAILED", "[CREATED:null>READY FAILED:READY>FAILED]"},
			{"CANCELED", "CANCELED", "[CREATED:null>READY CANCELED:READY>CANCELED]"},
			{"PENDING", "READY", "[CREATED:null>READY]"},
		}
		for _, c := range cases {
			id := f.task(resScheduledAt)
			body := linked(id, c.status, "success")
			body["external_status"] = "ext-" + c.status
			body["raw_payload"] = map[string]any{"b": 1, "a": []any{"x"}}
			r := actOK(t, env.Do("POST", resultsPath, body, f.h), 201)
			td := r["taskDetails"].(map[string]any)
			if r["activityId"] != id || r["source"] != "RETEN_ACTIVITY" || r["resultStatus"] != c.status || r["occurredAt"] != resOccurredAt ||
				td["result"] != "success" || td["comment"] != "ok" || td["contactType"] != "OUTBOUND" || r["externalStatus"] != "ext-"+c.status ||
				r["commerceId"] != f.shopID || r["createdAt"] == nil || r["updatedAt"] == nil {
				t.Fatalf("%s: result %v", c.status, r)
			}
			if got := f.status(id); got != c.to {
				t.Fatalf("%s: activity status %s, want %s", c.status, got, c.to)
			}
			if got := actEvents(t, env, id, f.h); fmtS(got) != c.events {
				t.Fatalf("%s: events %v, want %s", c.status, got, c.events)
			}
		}

		// Resubmission for a COMPLETED activity updates its one result
		// (a terminal status changes with hard_override only).
		id := f.task(resScheduledAt)
		first := actOK(t, env.Do("POST", resultsPath, linked(id, "COMPLETED", "success"), f.h), 201)
		again := linked(id, "TRANSFERRED", "b2b_purchase")
		again["occurred_at"] = "2030-05-01T13:00:00Z"
		again["hard_override"] = true
		second := actOK(t, env.Do("POST", resultsPath, again, f.h), 201)
		if second["id"] != first["id"] || second["resultStatus"] != "TRANSFERRED" || second["taskDetails"].(map[string]any)["result"] != "b2b_purchase" ||
			second["occurredAt"] != "2030-05-01T13:00:00Z" {
			t.Fatalf("resubmission: %v vs %v", second, first)
		}
		n, err := env.App.DB.Client.ActivityResult.Query().Count(viewer.SystemContext(context.Background()))
		if err != nil || n != len(cases)+1 {
			t.Fatalf("results stored: %d %v", n, err)
		}
		if got := actEvents(t, env, id, f.h); fmtS(got) != "[CREATED:null>READY COMPLETED:READY>COMPLETED COMPLETED:COMPLETED>COMPLETED]" {
			t.Fatalf("resubmission events: %v", got)
		}

		// Linking by provider_activity_id.
		pid := f.task(resScheduledAt)
		env.App.DB.Client.Activity.UpdateOneID(uuid.MustParse(pid)).SetProviderActivityID("PROV-1").
			ExecX(viewer.SystemContext(context.Background()))
		r := actOK(t, env.Do("POST", resultsPath, map[string]any{"provider_activity_id": "PROV-1", "commerce_external_id": "EXT-Acme",
			"occurred_at": resOccurredAt, "status": "COMPLETED", "task_result": map[string]any{"result": "success"}}, f.h), 201)
		if r["activityId"] != pid || r["source"] != "RETEN_ACTIVITY" || r["providerActivityId"] != "PROV-1" || f.status(pid) != "COMPLETED" {
			t.Fatalf("provider link: %v", r)
		}

		// Standalone: unknown provider id, known commerce; unknown commerce keeps the reference only.
		s := actOK(t, env.Do("POST", resultsPath, map[string]any{"provider_activity_id": "PROV-X", "commerce_external_id": "EXT-Acme",
			"occurred_at": resOccurredAt, "status": "COMPLETED", "raw_payload": map[string]any{"k": "v"},
			"task_result": map[string]any{"result": "other", "operator_external_id": "OP-1", "payload": map[string]any{"x": 1.0}}}, f.h), 201)
		std := s["taskDetails"].(map[string]any)
		if s["source"] != "STANDALONE" || s["activityId"] != nil || s["commerceId"] != f.shopID || s["commerceExternalId"] != "EXT-Acme" ||
			s["projectId"] != f.ten.ProjectID.String() || std["operatorExternalId"] != "OP-1" || std["payload"].(map[string]any)["x"] != 1.0 ||
			s["rawPayload"].(map[string]any)["k"] != "v" {
			t.Fatalf("standalone: %v", s)
		}
		u := actOK(t, env.Do("POST", resultsPath, map[string]any{"commerce_external_id": "UNKNOWN", "occurred_at": resOccurredAt,
			"status": "PENDING", "task_result": map[string]any{"result": "other"}}, f.h), 201)
		if u["source"] != "STANDALONE" || u["commerceId"] != nil || u["commerceExternalId"] != "UNKNOWN" {
			t.Fatalf("standalone unknown commerce: %v", u)
		}
	})
}

func fmtS(s []string) string {
	out := "["
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out + "]"
}

func TestResult422sAndIsolation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		canceled := f.task(resScheduledAt)
		actOK(t, env.Do("POST", "/api/activities/"+canceled+"/cancel", map[string]any{}, f.h), 200)
		failed := f.task(resScheduledAt)
		actOK(t, env.Do("POST", resultsPath, linked(failed, "NOT_EXECUTED", "success"), f.h), 201)
		unresolved := f.task(resScheduledAt)
		actOK(t, env.Do("POST", "/api/activities/"+unresolved+"/resolution-events", map[string]any{"event_type": "RESOLUTION_FAILED"}, f.h), 200)
		for _, id := range []string{canceled, unresolved} {
			// The state rule comes before the result code rule.
			apptest.ExpectError(t, env.Do("POST", resultsPath, linked(id, "COMPLETED", "nope"), f.h), 422, msgState)
		}
		// A resubmission for the FAILED task is an update of its result, in
		// PATCH's order: the status machine, the result code, then the state.
		apptest.ExpectError(t, env.Do("POST", resultsPath, linked(failed, "COMPLETED", "nope"), f.h), 409,
			"Result in status NOT_EXECUTED is terminal and cannot change to COMPLETED; send hard_override to force it")
		forced := linked(failed, "COMPLETED", "nope")
		forced["hard_override"] = true
		apptest.ExpectError(t, env.Do("POST", resultsPath, forced, f.h), 422, msgInactive)
		forced["task_result"] = map[string]any{"result": "success"}
		apptest.ExpectError(t, env.Do("POST", resultsPath, forced, f.h), 422, msgState)
		if res := env.Do("PUT", "/api/task-result-type-configs/no_answer", map[string]any{"is_active": false, "polarity": "NEGATIVE",
			"requires_future_scheduled_at": false}, f.th); res.Status != 200 {
			t.Fatalf("deactivate: %d %s", res.Status, res.Body)
		}
		ready := f.task(resScheduledAt)
		apptest.ExpectError(t, env.Do("POST", resultsPath, linked(ready, "COMPLETED", "nope"), f.h), 422, msgInactive)
		apptest.ExpectError(t, env.Do("POST", resultsPath, linked(ready, "COMPLETED", "no_answer"), f.h), 422, msgInactive)
		apptest.ExpectError(t, env.Do("POST", resultsPath, linked(ready, "COMPLETED", "rescheduled"), f.h), 422, msgFutureReq)
		past := linked(ready, "COMPLETED", "rescheduled")
		past["task_result"].(map[string]any)["future_scheduled_at"] = "2020-01-01T00:00:00Z"
		apptest.ExpectError(t, env.Do("POST", resultsPath, past, f.h), 422, msgFuturePast)
		if f.status(ready) != "READY" {
			t.Fatal("a refused result changed the activity")
		}
		// Standalone results are exempt from the state rules, not from the result code.
		std := map[string]any{"commerce_external_id": "EXT-Acme", "occurred_at": resOccurredAt, "status": "COMPLETED",
			"task_result": map[string]any{"result": "no_answer"}}
		apptest.ExpectError(t, env.Do("POST", resultsPath, std, f.h), 422, msgInactive)

		// Cross-project and cross-tenant: an activity of another project or
		// tenant matches nothing (a standalone result), a result is not found.
		p2 := actOK(t, env.Do("POST", "/api/projects", map[string]any{"name": "Second"}, f.th), 201)["id"].(string)
		h2 := f.th.With("x-project-id", p2)
		other := actOK(t, env.Do("POST", "/api/activities", map[string]any{"commerce_id": f.shopID, "type": "TASK", "channel": "SMS",
			"scheduled_at": resScheduledAt}, h2), 201)["id"].(string)
		apptest.ExpectError(t, env.Do("POST", resultsPath, linked(other, "COMPLETED", "success"), f.h), 400, []string{msgCommerceExt})
		apptest.ExpectError(t, env.Do("POST", resultsPath, linked(uuid.NewString(), "COMPLETED", "success"), f.h), 400, []string{msgCommerceExt})
		r2 := actOK(t, env.Do("POST", resultsPath, linked(other, "PENDING", "success"), h2), 201)["id"].(string)
		patch := map[string]any{"occurred_at": "2099-01-01T00:00:00Z", "status": "COMPLETED"}
		apptest.ExpectError(t, env.Do("PATCH", resultsPath+"/"+r2, patch, f.h), 404, "Activity result not found")
		beta := newResFixture(t, env, "Beta")
		apptest.ExpectError(t, env.Do("POST", resultsPath, linked(ready, "COMPLETED", "success"), beta.h), 400, []string{msgCommerceExt})
		apptest.ExpectError(t, env.Do("PATCH", resultsPath+"/"+r2, patch, beta.h), 404, "Activity result not found")
		if f.status(ready) != "READY" {
			t.Fatal("another tenant changed the activity")
		}
	})
}

func TestResultUpdateGuards(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		id := f.task(resScheduledAt)
		r := actOK(t, env.Do("POST", resultsPath, linked(id, "PENDING", "success"), f.h), 201)
		rid := r["id"].(string)
		path := resultsPath + "/" + rid

		// Temporal guard: occurred_at must be after the stored updatedAt.
		apptest.ExpectError(t, env.Do("PATCH", path, map[string]any{"occurred_at": r["updatedAt"], "status": "COMPLETED"}, f.h), 409,
			"occurred_at must be later than the result's last update ("+r["updatedAt"].(string)+")")
		// PENDING -> COMPLETED syncs the activity.
		u := actOK(t, env.Do("PATCH", path, map[string]any{"occurred_at": "2099-01-01T00:00:00Z", "status": "COMPLETED",
			"task_result": map[string]any{"comment": "done"}}, f.h), 200)
		if u["resultStatus"] != "COMPLETED" || u["taskDetails"].(map[string]any)["comment"] != "done" ||
			u["taskDetails"].(map[string]any)["result"] != "success" || f.status(id) != "COMPLETED" {
			t.Fatalf("update: %v", u)
		}
		// Terminal: a change is 409; the same status is accepted.
		apptest.ExpectError(t, env.Do("PATCH", path, map[string]any{"occurred_at": "2099-01-02T00:00:00Z", "status": "NOT_EXECUTED"}, f.h), 409,
			"Result in status COMPLETED is terminal and cannot change to NOT_EXECUTED; send hard_override to force it")
		same := actOK(t, env.Do("PATCH", path, map[string]any{"occurred_at": "2099-01-02T00:00:00Z", "status": "COMPLETED"}, f.h), 200)
		// The temporal guard holds even with hard_override.
		apptest.ExpectError(t, env.Do("PATCH", path, map[string]any{"occurred_at": "2020-01-01T00:00:00Z", "status": "NOT_EXECUTED",
			"hard_override": true}, f.h), 409, "occurred_at must be later than the result's last update ("+same["updatedAt"].(string)+")")
		// hard_override skips the result machine; the activity follows (COMPLETED -> FAILED).
		o := actOK(t, env.Do("PATCH", path, map[string]any{"occurred_at": "2099-01-03T00:00:00Z", "status": "NOT_EXECUTED",
			"hard_override": true}, f.h), 200)
		if o["resultStatus"] != "NOT_EXECUTED" || o["hardOverride"] != true || o["id"] != rid || f.status(id) != "FAILED" {
			t.Fatalf("hard override: %v", o)
		}
		want := "[CREATED:null>READY COMPLETED:READY>COMPLETED FAILED:COMPLETED>FAILED]"
		if got := actEvents(t, env, id, f.h); fmtS(got) != want {
			t.Fatalf("events %v, want %s", got, want)
		}
		// A FAILED activity accepts no result, even forced.
		apptest.ExpectError(t, env.Do("PATCH", path, map[string]any{"occurred_at": "2099-01-04T00:00:00Z", "status": "COMPLETED",
			"hard_override": true}, f.h), 422, msgState)
		// A new result code is checked as on submission.
		apptest.ExpectError(t, env.Do("PATCH", path, map[string]any{"occurred_at": "2099-01-04T00:00:00Z",
			"task_result": map[string]any{"result": "nope"}}, f.h), 422, msgInactive)
	})
}

// TestResultDayCutoff runs the day rules around midnight in a non-UTC zone
// with an injected clock: America/Santiago (UTC-3 in March 2030), cutoff 23:00.
func TestResultDayCutoff(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		if res := env.Do("PATCH", "/api/tenant-settings", map[string]any{"time_zone": "America/Santiago", "day_cutoff": "23:00"}, f.th); res.Status != 200 {
			t.Fatalf("settings: %d %s", res.Status, res.Body)
		}
		var now time.Time
		env.App.Results.SetClock(func() time.Time { return now })
		t.Cleanup(func() { env.App.Results.SetClock(time.Now) })
		// Local 2030-03-10 12:00 and 23:30 (already 2030-03-11 in UTC): both days are 03-10,
		// which closes at 23:00 local = 2030-03-11T02:00Z.
		noon := f.task("2030-03-10T15:00:00Z")
		late := f.task("2030-03-11T02:30:00Z")
		next := f.task("2030-03-11T04:00:00Z") // local 2030-03-11 01:00

		now = time.Date(2030, 3, 11, 1, 59, 0, 0, time.UTC) // local 22:59: open
		actOK(t, env.Do("POST", resultsPath, linked(noon, "PENDING", "success"), f.h), 201)
		now = time.Date(2030, 3, 11, 2, 1, 0, 0, time.UTC) // local 23:01: 03-10 is closed
		apptest.ExpectError(t, env.Do("POST", resultsPath, linked(noon, "COMPLETED", "success"), f.h), 422, msgDayClosed)
		apptest.ExpectError(t, env.Do("POST", resultsPath, linked(late, "COMPLETED", "success"), f.h), 422, msgDayClosed)
		// The state rule comes first, the day rule before the result code.
		apptest.ExpectError(t, env.Do("POST", resultsPath, linked(late, "COMPLETED", "nope"), f.h), 422, msgDayClosed)
		actOK(t, env.Do("POST", resultsPath, linked(next, "COMPLETED", "success"), f.h), 201)
		// Standalone results are exempt from the day rule.
		actOK(t, env.Do("POST", resultsPath, map[string]any{"commerce_external_id": "EXT-Acme", "occurred_at": resOccurredAt,
			"status": "COMPLETED", "task_result": map[string]any{"result": "success"}}, f.h), 201)

		// future_scheduled_at: local today (03-10, even an earlier hour) is accepted, 03-09 local is past.
		now = time.Date(2030, 3, 11, 1, 0, 0, 0, time.UTC) // local 2030-03-10 22:00
		fresh := f.task("2030-03-10T20:00:00Z")
		body := linked(fresh, "PENDING", "rescheduled")
		body["task_result"].(map[string]any)["future_scheduled_at"] = "2030-03-10T02:59:00Z" // local 03-09 23:59
		apptest.ExpectError(t, env.Do("POST", resultsPath, body, f.h), 422, msgFuturePast)
		body["task_result"].(map[string]any)["future_scheduled_at"] = "2030-03-10T03:00:00Z" // local 03-10 00:00
		r := actOK(t, env.Do("POST", resultsPath, body, f.h), 201)
		if r["taskDetails"].(map[string]any)["futureScheduledAt"] != "2030-03-10T03:00:00Z" {
			t.Fatalf("future date: %v", r)
		}
	})
}

// TestResultConcurrentFirstSubmissions: first results racing for one task
// take turns on its row; all succeed and the task keeps one result.
func TestResultConcurrentFirstSubmissions(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		id := f.task(resScheduledAt)
		var wg sync.WaitGroup
		codes := make([]int, 6)
		ids := make([]string, 6)
		for i := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res := env.Do("POST", resultsPath, linked(id, "PENDING", "success"), f.h)
				codes[i] = res.Status
				var out map[string]any
				_ = json.Unmarshal(res.Body, &out)
				ids[i], _ = out["id"].(string)
			}()
		}
		wg.Wait()
		for i := range codes {
			if codes[i] != 201 || ids[i] == "" || ids[i] != ids[0] {
				t.Fatalf("submissions: codes %v ids %v", codes, ids)
			}
		}
	})
}
