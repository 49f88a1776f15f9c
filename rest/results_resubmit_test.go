package rest_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/activityresult"
	"github.com/reten-io/reten/internal/apptest"
)

const (
	msgTerminalToCanceled = "Result in status COMPLETED is terminal and cannot change to CANCELED; send hard_override to force it"
	resOlderOccurredAt    = "2020-01-01T00:00:00Z"
)

func msgStale(updatedAt any) string {
	return "occurred_at must be later than the result's last update (" + updatedAt.(string) + ")"
}

// gqlMsgStale is msgStale as GraphQL says it (its input member names).
func gqlMsgStale(updatedAt any) string {
	return "occurredAt must be later than the result's last update (" + updatedAt.(string) + ")"
}

// TestResultResubmissionGuards: submitting again for an activity that has a
// result updates it through the guards of PATCH, on the project route and
// the integration route: the temporal guard always, the result status
// machine unless hard_override. A refused resubmission changes nothing.
func TestResultResubmissionGuards(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		for _, route := range []struct {
			path string
			h    apptest.Headers
		}{{resultsPath, f.h}, {integrationResultsPath, f.th}} {
			id := f.task(resScheduledAt)
			first := actOK(t, env.Do("POST", route.path, linked(id, "COMPLETED", "success"), route.h), 201)

			older := linked(id, "COMPLETED", "other")
			older["occurred_at"] = resOlderOccurredAt
			apptest.ExpectError(t, env.Do("POST", route.path, older, route.h), 409, msgStale(first["updatedAt"]))
			// The temporal guard holds with hard_override, at the instant of the last update too.
			older["hard_override"] = true
			apptest.ExpectError(t, env.Do("POST", route.path, older, route.h), 409, msgStale(first["updatedAt"]))
			older["occurred_at"] = first["updatedAt"]
			apptest.ExpectError(t, env.Do("POST", route.path, older, route.h), 409, msgStale(first["updatedAt"]))

			// COMPLETED is terminal: CANCELED needs hard_override; the same status is accepted.
			cancel := linked(id, "CANCELED", "success")
			cancel["occurred_at"] = "2030-05-01T13:00:00Z"
			apptest.ExpectError(t, env.Do("POST", route.path, cancel, route.h), 409, msgTerminalToCanceled)
			stored := env.App.DB.Client.ActivityResult.GetX(sys, uuid.MustParse(first["id"].(string)))
			if stored.ResultStatus != activityresult.ResultStatusCOMPLETED || stored.ResultCode != "success" ||
				stored.OccurredAt.UTC().Format("2006-01-02T15:04:05Z") != resOccurredAt || f.status(id) != "COMPLETED" {
				t.Fatalf("%s: a refused resubmission changed the result: %+v (activity %s)", route.path, stored, f.status(id))
			}
			same := linked(id, "COMPLETED", "b2b_purchase")
			same["occurred_at"] = "2030-05-01T13:00:00Z"
			s := actOK(t, env.Do("POST", route.path, same, route.h), 201)
			if s["id"] != first["id"] || s["resultStatus"] != "COMPLETED" || s["taskDetails"].(map[string]any)["result"] != "b2b_purchase" {
				t.Fatalf("%s: same-status resubmission: %v", route.path, s)
			}
			cancel["occurred_at"] = "2030-05-01T14:00:00Z"
			cancel["hard_override"] = true
			c := actOK(t, env.Do("POST", route.path, cancel, route.h), 201)
			if c["id"] != first["id"] || c["resultStatus"] != "CANCELED" || c["hardOverride"] != true || f.status(id) != "CANCELED" {
				t.Fatalf("%s: forced resubmission: %v (activity %s)", route.path, c, f.status(id))
			}
			want := "[CREATED:null>READY COMPLETED:READY>COMPLETED COMPLETED:COMPLETED>COMPLETED CANCELED:COMPLETED>CANCELED]"
			if got := actEvents(t, env, id, f.h); fmtS(got) != want {
				t.Fatalf("%s: events %v, want %s", route.path, got, want)
			}
		}

		// From PENDING any status is accepted, after the temporal guard.
		id := f.task(resScheduledAt)
		first := actOK(t, env.Do("POST", resultsPath, linked(id, "PENDING", "success"), f.h), 201)
		older := linked(id, "NOT_EXECUTED", "success")
		older["occurred_at"] = resOlderOccurredAt
		apptest.ExpectError(t, env.Do("POST", resultsPath, older, f.h), 409, msgStale(first["updatedAt"]))
		if f.status(id) != "READY" {
			t.Fatal("a refused resubmission moved the activity")
		}
		later := linked(id, "NOT_EXECUTED", "success")
		later["occurred_at"] = "2030-05-01T13:00:00Z"
		if r := actOK(t, env.Do("POST", resultsPath, later, f.h), 201); r["id"] != first["id"] || r["resultStatus"] != "NOT_EXECUTED" || f.status(id) != "FAILED" {
			t.Fatalf("PENDING -> NOT_EXECUTED: %v", r)
		}

		// An idempotent retry replays the first answer; it is not a resubmission.
		keyed := f.task(resScheduledAt)
		h := f.h.With("Idempotency-Key", "resubmit-key-1")
		body := linked(keyed, "COMPLETED", "success")
		body["occurred_at"] = resOlderOccurredAt
		one := env.Do("POST", resultsPath, body, h)
		two := env.Do("POST", resultsPath, body, h)
		if one.Status != 201 || two.Status != 201 || string(one.Body) != string(two.Body) || two.Header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("idempotent retry: %d %s / %d %s", one.Status, one.Body, two.Status, two.Body)
		}
		apptest.ExpectError(t, env.Do("POST", resultsPath, body, f.h), 409, msgStale(one.Map(t)["updatedAt"]))
	})
}

// TestResultResubmissionGuardsGraphQL: the GraphQL submission applies the
// same guards (one service).
func TestResultResubmissionGuardsGraphQL(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		id := f.task(resScheduledAt)
		first := actOK(t, env.Do("POST", resultsPath, linked(id, "COMPLETED", "success"), f.h), 201)
		const submit = `mutation($a: ID!, $at: Time!, $s: ActivityResultResultStatus!, $o: Boolean) {
			submitActivityResult(input: {activityID: $a, occurredAt: $at, resultStatus: $s, hardOverride: $o, resultCode: success}) { id resultStatus } }`
		expectGraphQLError(t, env.GraphQL(submit, map[string]any{"a": id, "at": resOlderOccurredAt, "s": "COMPLETED"}, f.h),
			"CONFLICT", gqlMsgStale(first["updatedAt"]))
		expectGraphQLError(t, env.GraphQL(submit, map[string]any{"a": id, "at": "2030-05-01T13:00:00Z", "s": "CANCELED"}, f.h),
			"CONFLICT", "Result in status COMPLETED is terminal and cannot change to CANCELED; send hardOverride to force it")
		ok := env.GraphQL(submit, map[string]any{"a": id, "at": "2030-05-01T13:00:00Z", "s": "CANCELED", "o": true}, f.h)
		var out struct {
			Data struct {
				Submit struct{ ID, ResultStatus string } `json:"submitActivityResult"`
			} `json:"data"`
		}
		ok.JSON(t, &out)
		if out.Data.Submit.ID != first["id"] || out.Data.Submit.ResultStatus != "CANCELED" || f.status(id) != "CANCELED" {
			t.Fatalf("forced resubmission: %s", ok.Body)
		}
	})
}

// TestResultUnmatchedActivityIsStandalone: an activity_id that matches no
// task of the project (unknown, another project's, another tenant's, a
// message) makes a STANDALONE result with its commerce reference, never a
// link, and the other task is untouched.
func TestResultUnmatchedActivityIsStandalone(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newIntFixture(t, env)
		main := f.ten.ProjectID.String()
		for _, id := range []string{uuid.NewString(), f.secondTask, f.otherTask, f.msg} {
			body := linked(id, "COMPLETED", "success")
			apptest.ExpectError(t, env.Do("POST", resultsPath, body, f.h), 400, []string{msgCommerceExt})
			body["commerce_external_id"] = ""
			apptest.ExpectError(t, env.Do("POST", resultsPath, body, f.h), 400, []string{msgCommerceExt})
			body["commerce_external_id"] = "EXT-Acme"
			r := actOK(t, env.Do("POST", resultsPath, body, f.h), 201)
			if r["source"] != "STANDALONE" || r["activityId"] != nil || r["projectId"] != main || r["commerceId"] != f.shopID ||
				r["commerceExternalId"] != "EXT-Acme" || r["resultStatus"] != "COMPLETED" {
				t.Fatalf("activity_id %s: %v", id, r)
			}
			// Integration route with the project header: the same.
			r = actOK(t, env.Do("POST", integrationResultsPath, body, f.h), 201)
			if r["source"] != "STANDALONE" || r["activityId"] != nil || r["projectId"] != main {
				t.Fatalf("integration, activity_id %s: %v", id, r)
			}
		}
		// Another tenant's task never links, and stays as it was.
		if n := env.App.DB.Client.ActivityResult.Query().Where(activityresult.ActivityID(uuid.MustParse(f.otherTask))).CountX(sys); n != 0 {
			t.Fatalf("another tenant's task got %d results", n)
		}
		if st := env.App.DB.Client.Activity.GetX(sys, uuid.MustParse(f.otherTask)).Status; st != "READY" {
			t.Fatalf("another tenant's task is %s", st)
		}
		if st := f.status(f.mainTask); st != "READY" {
			t.Fatalf("main task is %s", st)
		}

		// Without a project, an activity_id matching nothing of the tenant is
		// a standalone result that needs both a commerce reference and a project.
		for _, id := range []string{uuid.NewString(), f.otherTask, f.msg} {
			body := linked(id, "COMPLETED", "success")
			apptest.ExpectError(t, env.Do("POST", integrationResultsPath, body, f.th), 400, []string{msgCommerceExt})
			body["commerce_external_id"] = "EXT-Acme"
			apptest.ExpectError(t, env.Do("POST", integrationResultsPath, body, f.th), 400, msgNeedsProject)
		}

		// GraphQL: the same rule.
		const submit = `mutation($a: ID!, $c: String) { submitActivityResult(input: {activityID: $a, commerceExternalID: $c,
			occurredAt: "2030-05-01T12:00:00Z", resultStatus: COMPLETED, resultCode: success}) { source activityID commerceExternalID } }`
		expectGraphQLError(t, env.GraphQL(submit, map[string]any{"a": f.otherTask}, f.h), "BAD_REQUEST",
			"commerceExternalID should not be empty when activityID is absent")
		res := env.GraphQL(submit, map[string]any{"a": f.otherTask, "c": "EXT-Acme"}, f.h)
		var out struct {
			Data struct {
				Submit struct {
					Source             string
					ActivityID         *string
					CommerceExternalID string
				} `json:"submitActivityResult"`
			} `json:"data"`
		}
		res.JSON(t, &out)
		if s := out.Data.Submit; s.Source != "STANDALONE" || s.ActivityID != nil || s.CommerceExternalID != "EXT-Acme" {
			t.Fatalf("graphql standalone: %s", res.Body)
		}
	})
}

// expectGraphQLError asserts a GraphQL answer with data null and one error
// with exactly message and extensions.code.
func expectGraphQLError(t *testing.T, res *apptest.Response, code, message string) map[string]any {
	t.Helper()
	var out struct {
		Data   map[string]any
		Errors []struct {
			Message    string
			Extensions map[string]any
		}
	}
	res.JSON(t, &out)
	if res.Status != 200 || out.Data != nil || len(out.Errors) != 1 || out.Errors[0].Message != message ||
		out.Errors[0].Extensions["code"] != code {
		t.Fatalf("graphql answer %d %s, want one error %s %q", res.Status, res.Body, code, message)
	}
	return out.Errors[0].Extensions
}

// TestResultResubmissionCheckOrder: a resubmission checks in PATCH's order
// (the update guards, then the result code, then the activity), so the
// stale or terminal resubmission answers what the PATCH making the same
// change answers, though its activity no longer accepts a result or its day
// is closed (which a first submission is told first).
func TestResultResubmissionCheckOrder(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		const later = "2099-01-01T00:00:00Z"
		// resubmit is a submission for the activity id; change the PATCH of the same change.
		resubmit := func(id, status, code, at string, override bool) map[string]any {
			b := linked(id, status, code)
			b["occurred_at"], b["hard_override"] = at, override
			return b
		}
		change := func(status, code, at string, override bool) map[string]any {
			return map[string]any{"occurred_at": at, "status": status, "hard_override": override, "task_result": map[string]any{"result": code}}
		}
		// both: the resubmission and the PATCH answer the same status and body.
		both := func(t *testing.T, id, rid, status, code, at string, override bool, code2 int, message string) {
			t.Helper()
			apptest.ExpectError(t, env.Do("POST", resultsPath, resubmit(id, status, code, at, override), f.h), code2, message)
			apptest.ExpectError(t, env.Do("PATCH", resultsPath+"/"+rid, change(status, code, at, override), f.h), code2, message)
		}

		// A CANCELED activity whose result is CANCELED (PENDING, then a PATCH).
		id := f.task(resScheduledAt)
		rid := actOK(t, env.Do("POST", resultsPath, linked(id, "PENDING", "success"), f.h), 201)["id"].(string)
		c := actOK(t, env.Do("PATCH", resultsPath+"/"+rid, map[string]any{"occurred_at": "2030-05-01T13:00:00Z", "status": "CANCELED"}, f.h), 200)
		if f.status(id) != "CANCELED" {
			t.Fatalf("activity %s", f.status(id))
		}
		// The temporal guard first, with or without hard_override.
		both(t, id, rid, "CANCELED", "success", resOlderOccurredAt, false, 409, msgStale(c["updatedAt"]))
		both(t, id, rid, "COMPLETED", "nope", resOlderOccurredAt, true, 409, msgStale(c["updatedAt"]))
		// Then the result status machine, before the result code.
		both(t, id, rid, "COMPLETED", "nope", later, false, 409,
			"Result in status CANCELED is terminal and cannot change to COMPLETED; send hard_override to force it")
		// Then the result code, before the activity's state.
		both(t, id, rid, "COMPLETED", "nope", later, true, 422, msgInactive)
		// Then the activity's state.
		both(t, id, rid, "COMPLETED", "success", later, true, 422, msgState)
		// A first result for a CANCELED activity is told its state first.
		other := f.task(resScheduledAt)
		actOK(t, env.Do("POST", "/api/activities/"+other+"/cancel", nil, f.h), 200)
		apptest.ExpectError(t, env.Do("POST", resultsPath, linked(other, "COMPLETED", "nope"), f.h), 422, msgState)

		// A closed day: on a resubmission the guards and the result code come
		// first, the day's 422 last (PATCH, a correction, has no day rule).
		var now time.Time
		env.App.Results.SetClock(func() time.Time { return now })
		t.Cleanup(func() { env.App.Results.SetClock(time.Now) })
		now = time.Date(2030, 5, 1, 11, 0, 0, 0, time.UTC)
		day := f.task(resScheduledAt)
		d := actOK(t, env.Do("POST", resultsPath, linked(day, "COMPLETED", "success"), f.h), 201)
		did := d["id"].(string)
		now = time.Date(2030, 5, 3, 12, 0, 0, 0, time.UTC) // 2030-05-01 is closed
		both(t, day, did, "NOT_EXECUTED", "nope", resOlderOccurredAt, false, 409, msgStale(d["updatedAt"]))
		both(t, day, did, "CANCELED", "nope", later, false, 409, msgTerminalToCanceled)
		both(t, day, did, "COMPLETED", "nope", later, false, 422, msgInactive)
		apptest.ExpectError(t, env.Do("POST", resultsPath, resubmit(day, "COMPLETED", "success", later, false), f.h), 422, msgDayClosed)
		// A first result of that day is told the day before the result code.
		apptest.ExpectError(t, env.Do("POST", resultsPath, linked(f.task(resScheduledAt), "COMPLETED", "nope"), f.h), 422, msgDayClosed)
	})
}
