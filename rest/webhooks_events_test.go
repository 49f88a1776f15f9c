package rest_test

import (
	"context"
	"encoding/json"
	"sort"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/webhook"
)

// whEvent is an event a receiver got: the endpoint's path, the webhook-id
// and the payload.
type whEvent struct {
	path, id  string
	Type      string         `json:"type"`
	Timestamp string         `json:"timestamp"`
	Data      map[string]any `json:"data"`
}

// whEvents verifies each request with the secret of its path (the
// Standard Webhooks reference library) and decodes it, ordered by path and
// type.
func whEvents(t *testing.T, reqs []whRequest, secrets map[string]string) []whEvent {
	t.Helper()
	out := make([]whEvent, len(reqs))
	for i, r := range reqs {
		secret, ok := secrets[r.path]
		if !ok {
			t.Fatalf("a request reached %s", r.path)
		}
		if err := whVerify(t, secret, r); err != nil {
			t.Fatalf("%s: the reference library refuses %s: %v", r.path, r.body, err)
		}
		var envelope map[string]json.RawMessage
		if err := json.Unmarshal(r.body, &envelope); err != nil || len(envelope) != 3 {
			t.Fatalf("payload %s: want {type, timestamp, data}", r.body)
		}
		e := whEvent{path: r.path, id: r.header.Get("webhook-id")}
		if err := json.Unmarshal(r.body, &e); err != nil {
			t.Fatal(err)
		}
		out[i] = e
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].path != out[j].path {
			return out[i].path < out[j].path
		}
		return out[i].Type < out[j].Type
	})
	return out
}

// whDeliver runs a pass of the delivery job and asserts how many it sent.
func whDeliver(t *testing.T, env *apptest.Env, want int) {
	t.Helper()
	if n, err := env.App.Webhooks.Deliver(context.Background(), time.Now()); err != nil || n != want {
		t.Fatalf("delivered %d (%v), want %d", n, err, want)
	}
}

// whData asserts an event's type, that its timestamp is the instant at,
// and its data member by member; the members named in instants are
// compared as instants.
func whData(t *testing.T, e whEvent, typ string, at any, want map[string]any, instants ...string) {
	t.Helper()
	if e.Type != typ || !whTime(t, e.Timestamp).Equal(whTime(t, at)) {
		t.Fatalf("event %s at %s, want %s at %v", e.Type, e.Timestamp, typ, at)
	}
	got := whWithout(e.Data)
	for _, k := range instants {
		if want[k] != nil && got[k] != nil && whTime(t, got[k]).Equal(whTime(t, want[k])) {
			got[k] = want[k]
		}
	}
	whSame(t, got, want)
}

// whEmptyObject checks that member k of an event's data, an object the
// change left unset, is {} as the REST answers show the same fact (a
// status event's detail, a result's taskDetails.payload); the rest of the
// data is compared with k as {}.
func whEmptyObject(t *testing.T, e whEvent, k string) {
	t.Helper()
	if v, ok := e.Data[k].(map[string]any); !ok || len(v) != 0 {
		t.Errorf("%s: data.%s = %v, want {} as the REST answer shows it", e.Type, k, e.Data[k])
	}
	e.Data[k] = map[string]any{}
}

// whStatusEvents reads an activity's status events.
func whStatusEvents(t *testing.T, env *apptest.Env, id string, h apptest.Headers) []map[string]any {
	t.Helper()
	var evs []map[string]any
	res := env.Do("GET", "/api/activities/"+id+"/status-events", nil, h)
	if res.Status != 200 {
		t.Fatalf("status events: %d %s", res.Status, res.Body)
	}
	res.JSON(t, &evs)
	return evs
}

// TestWebhookActivityAndResultEvents: activity.status_changed (creation,
// result, cancellation) and activity_result.recorded produced by the REST
// flows, recorded only when an active endpoint subscribes, delivered to
// the subscribers of their type only, never to another tenant; a refused
// change records nothing.
func TestWebhookActivityAndResultEvents(t *testing.T) {
	rcv := newWHReceiver(t, 200)
	eachWebhookEnv(t, []*whReceiver{rcv}, func(t *testing.T, env *apptest.Env) {
		f, beta := newResFixture(t, env, "Acme"), newResFixture(t, env, "Beta")
		events := env.App.DB.Client.WebhookEvent
		pid := f.ten.ProjectID.String()

		// An endpoint that is off subscribes to nothing: no event is stored.
		off := whPost(t, env, "POST", "/api/webhook-endpoints", map[string]any{"url": rcv.url("/off"), "event_types": webhook.EventTypes,
			"is_active": false}, f.th, 201)
		early := f.task(resScheduledAt)
		if n := events.Query().CountX(sys); n != 0 {
			t.Fatalf("%d events stored without a subscriber", n)
		}
		all := whEndpoint(t, env, f.th, rcv.url("/all"), webhook.EventTypes...)
		some := whEndpoint(t, env, f.th, rcv.url("/some"), webhook.TypeActivityResultRecorded)
		other := whEndpoint(t, env, beta.th, rcv.url("/beta"), webhook.EventTypes...)
		secrets := map[string]string{"/all": all["secret"].(string), "/some": some["secret"].(string), "/beta": other["secret"].(string),
			"/off": off["secret"].(string)}

		// Creation: CREATED from null, to the endpoint of every type only.
		id := f.task(resScheduledAt)
		whDeliver(t, env, 1)
		got := whEvents(t, rcv.take(), secrets)
		se := whStatusEvents(t, env, id, f.h)
		if len(got) != 1 || got[0].path != "/all" || len(se) != 1 {
			t.Fatalf("events %+v; status events %v", got, se)
		}
		whEmptyObject(t, got[0], "detail")
		whData(t, got[0], webhook.TypeActivityStatusChanged, se[0]["occurredAt"], map[string]any{"activityId": id, "projectId": pid,
			"commerceId": f.shopID, "activityGenerationConfigId": nil, "type": "TASK", "channel": "SMS", "statusEventId": se[0]["id"],
			"eventType": "CREATED", "fromStatus": nil, "toStatus": "READY", "occurredAt": se[0]["occurredAt"], "detail": se[0]["detail"]}, "occurredAt")

		// A result: activity_result.recorded to both endpoints (one event,
		// one webhook-id) and the activity's COMPLETED status event.
		r := actOK(t, env.Do("POST", resultsPath, linked(early, "COMPLETED", "success"), f.h), 201)
		whDeliver(t, env, 3)
		got = whEvents(t, rcv.take(), secrets)
		se = whStatusEvents(t, env, early, f.h)
		if len(got) != 3 || got[0].path != "/all" || got[1].path != "/all" || got[2].path != "/some" || got[1].id != got[2].id || len(se) != 2 {
			t.Fatalf("events %+v; status events %v", got, se)
		}
		td := r["taskDetails"].(map[string]any)
		recorded := map[string]any{"resultId": r["id"], "activityId": early, "projectId": pid, "commerceId": f.shopID,
			"source": "RETEN_ACTIVITY", "resultStatus": "COMPLETED", "resultCode": "success", "comment": "ok", "contactType": "OUTBOUND",
			"operatorExternalId": nil, "futureScheduledAt": nil, "occurredAt": resOccurredAt, "payload": td["payload"], "recordedAt": r["updatedAt"]}
		whEmptyObject(t, got[1], "payload")
		whEmptyObject(t, got[2], "payload")
		whData(t, got[1], webhook.TypeActivityResultRecorded, r["updatedAt"], recorded, "occurredAt", "recordedAt")
		whData(t, got[2], webhook.TypeActivityResultRecorded, r["updatedAt"], recorded, "occurredAt", "recordedAt")
		whData(t, got[0], webhook.TypeActivityStatusChanged, se[1]["occurredAt"], map[string]any{"activityId": early, "projectId": pid,
			"commerceId": f.shopID, "activityGenerationConfigId": nil, "type": "TASK", "channel": "SMS", "statusEventId": se[1]["id"],
			"eventType": "COMPLETED", "fromStatus": "READY", "toStatus": "COMPLETED", "occurredAt": se[1]["occurredAt"],
			"detail": map[string]any{"resultStatus": "COMPLETED"}}, "occurredAt")

		// An update of the result records it again.
		u := actOK(t, env.Do("PATCH", resultsPath+"/"+r["id"].(string), map[string]any{"occurred_at": "2030-05-01T13:00:00Z",
			"status": "COMPLETED", "task_result": map[string]any{"result": "success", "comment": "again"}}, f.h), 200)
		statusEvents := len(whStatusEvents(t, env, early, f.h)) - 2 // those the update wrote
		whDeliver(t, env, 2+statusEvents)
		got = whEvents(t, rcv.take(), secrets)
		results := 0
		for _, e := range got {
			if e.Type != webhook.TypeActivityResultRecorded {
				continue
			}
			results++
			if e.Data["resultId"] != r["id"] || e.Data["comment"] != "again" || e.Data["occurredAt"] != "2030-05-01T13:00:00Z" ||
				!whTime(t, e.Data["recordedAt"]).Equal(whTime(t, u["updatedAt"])) {
				t.Fatalf("updated result event %+v", e)
			}
		}
		if results != 2 {
			t.Fatalf("events of the update %+v, want the result to /all and /some", got)
		}

		// Cancellation with a reason.
		actOK(t, env.Do("POST", "/api/activities/"+id+"/cancel", map[string]any{"reason": "duplicate"}, f.h), 200)
		whDeliver(t, env, 1)
		got = whEvents(t, rcv.take(), secrets)
		se = whStatusEvents(t, env, id, f.h)
		if len(got) != 1 || got[0].path != "/all" || len(se) != 2 {
			t.Fatalf("events %+v; status events %v", got, se)
		}
		whData(t, got[0], webhook.TypeActivityStatusChanged, se[1]["occurredAt"], map[string]any{"activityId": id, "projectId": pid,
			"commerceId": f.shopID, "activityGenerationConfigId": nil, "type": "TASK", "channel": "SMS", "statusEventId": se[1]["id"],
			"eventType": se[1]["eventType"], "fromStatus": "READY", "toStatus": "CANCELED", "occurredAt": se[1]["occurredAt"],
			"detail": map[string]any{"reason": "duplicate"}}, "occurredAt")

		// Refused changes record nothing: a result for the canceled
		// activity and one with a past date (422s of the result's
		// transaction), a second cancel (409).
		ready := f.task(resScheduledAt)
		whDeliver(t, env, 1) // its CREATED
		rcv.take()
		stored := events.Query().CountX(sys)
		apptest.ExpectError(t, env.Do("POST", resultsPath, linked(id, "COMPLETED", "success"), f.h), 422, msgState)
		past := linked(ready, "COMPLETED", "rescheduled")
		past["task_result"].(map[string]any)["future_scheduled_at"] = "2020-01-01T00:00:00Z"
		apptest.ExpectError(t, env.Do("POST", resultsPath, past, f.h), 422, msgFuturePast)
		apptest.ExpectError(t, env.Do("POST", "/api/activities/"+id+"/cancel", nil, f.h), 409, "Activity in status CANCELED does not accept CANCEL")
		if n := events.Query().CountX(sys); n != stored || f.status(ready) != "READY" {
			t.Fatalf("%d events, want %d: a refused change recorded one", n, stored)
		}
		whDeliver(t, env, 0)

		// Beta's events reach Beta's endpoint only.
		bid := beta.task(resScheduledAt)
		whDeliver(t, env, 1)
		got = whEvents(t, rcv.take(), secrets)
		if len(got) != 1 || got[0].path != "/beta" || got[0].Data["activityId"] != bid || got[0].Data["projectId"] != beta.ten.ProjectID.String() {
			t.Fatalf("Beta's events %+v", got)
		}
	})
}

// TestWebhookGenerationEvents: the generator records, for each transition
// it consumes, commerce_lifecycle.state_changed; for each decision
// generation.decision_recorded; and the created activity's
// activity.status_changed; each to the endpoints of its type.
func TestWebhookGenerationEvents(t *testing.T) {
	rcv := newWHReceiver(t, 200)
	eachWebhookEnv(t, []*whReceiver{rcv}, func(t *testing.T, env *apptest.Env) {
		f, beta := newAGCFix(t, env, "Acme"), newAGCFix(t, env, "Beta")
		th, bth := apptest.JWT(f.token, f.tenant.TenantID, uuid.Nil), apptest.JWT(beta.token, beta.tenant.TenantID, uuid.Nil)
		agc := f.create(t, "Retail")["id"].(string)
		base := "/api/activity-generation-configs/" + agc
		actOK(t, env.Do("POST", base+"/publish", nil, f.h), 200)
		actOK(t, env.Do("POST", "/api/activity-reason-configs", map[string]any{"code": "reactivation", "label": "Reactivación"}, f.h), 201)
		rule := actOK(t, env.Do("POST", base+"/generation-rules", ruleBody(nil), f.h), 201)["id"].(string)
		shop := actOK(t, env.Do("POST", "/api/commerces", map[string]any{"name": "Kiosko"}, th), 201)["id"].(string)
		all := whEndpoint(t, env, th, rcv.url("/all"), webhook.EventTypes...)
		dec := whEndpoint(t, env, th, rcv.url("/decisions"), webhook.TypeDecisionRecorded)
		other := whEndpoint(t, env, bth, rcv.url("/beta"), webhook.EventTypes...)
		secrets := map[string]string{"/all": all["secret"].(string), "/decisions": dec["secret"].(string), "/beta": other["secret"].(string)}
		pid := f.tenant.ProjectID.String()

		enter := func(code, stage string, at time.Time) {
			t.Helper()
			actOK(t, env.Do("PUT", "/api/commerce-lifecycle-snapshots", map[string]any{"commerce_id": shop, "activity_generation_config_id": agc,
				"code": code, "stage": stage, "last_computed_at": at.Format(time.RFC3339Nano)}, th), 200)
		}
		drain := func(now time.Time, want int) {
			t.Helper()
			if n, err := env.App.Generator.Drain(context.Background(), func() time.Time { return now }); err != nil || n != want {
				t.Fatalf("drained %d (%v), want %d", n, err, want)
			}
		}
		entered := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
		enter("at_risk", "RESURRECTION", entered)
		// The snapshot write queues the transition; its event is the generator's.
		if n := env.App.DB.Client.WebhookEvent.Query().CountX(sys); n != 0 {
			t.Fatalf("%d events before generation", n)
		}
		now := time.Now().UTC().Truncate(time.Microsecond)
		drain(now, 1)
		whDeliver(t, env, 4)
		got := whEvents(t, rcv.take(), secrets)
		if len(got) != 4 || got[0].path != "/all" || got[3].path != "/decisions" || got[2].id != got[3].id {
			t.Fatalf("events %+v", got)
		}
		tr := env.App.DB.Client.CommerceLifecycleTransition.Query().OnlyX(sys)
		decisions := actOK(t, env.Do("GET", base+"/generation-decisions", nil, f.h), 200)["data"].([]any)
		if len(decisions) != 1 {
			t.Fatalf("decisions %v", decisions)
		}
		d := decisions[0].(map[string]any)
		act := d["activityId"].(string)
		if d["kind"] != "GENERATED" || d["ruleId"] != rule || d["transitionId"] != tr.ID.String() {
			t.Fatalf("decision %v", d)
		}
		recorded := whWithout(d, "id")
		recorded["decisionId"], recorded["projectId"] = d["id"], pid
		whData(t, got[2], webhook.TypeDecisionRecorded, now.Format(time.RFC3339Nano), recorded, "enteredAt", "decidedAt")
		whData(t, got[3], webhook.TypeDecisionRecorded, now.Format(time.RFC3339Nano), recorded, "enteredAt", "decidedAt")
		whData(t, got[1], webhook.TypeLifecycleStateChanged, tr.CreatedAt.Format(time.RFC3339Nano), map[string]any{"transitionId": tr.ID.String(),
			"commerceId": shop, "activityGenerationConfigId": agc, "fromStage": nil, "fromCode": nil, "toStage": "RESURRECTION",
			"toCode": "at_risk", "stateChangedAt": entered.Format(time.RFC3339), "source": string(tr.Source), "runId": nil}, "stateChangedAt")
		a := actOK(t, env.Do("GET", "/api/activities/"+act, nil, f.h), 200)
		se := whStatusEvents(t, env, act, f.h)
		if len(se) != 1 {
			t.Fatalf("status events of the generated activity %v", se)
		}
		whEmptyObject(t, got[0], "detail")
		whData(t, got[0], webhook.TypeActivityStatusChanged, se[0]["occurredAt"], map[string]any{"activityId": act, "projectId": pid,
			"commerceId": shop, "activityGenerationConfigId": agc, "type": "TASK", "channel": "SALESMAN", "statusEventId": se[0]["id"],
			"eventType": "CREATED", "fromStatus": nil, "toStatus": a["status"], "occurredAt": se[0]["occurredAt"], "detail": se[0]["detail"]}, "occurredAt")

		// Nothing more to consume: no event. A move to a state no rule
		// fires on: its transition only, from the state it left.
		drain(now, 0)
		whDeliver(t, env, 0)
		enter("dormant", "RESURRECTION", entered.Add(time.Minute))
		drain(now.Add(time.Second), 1)
		whDeliver(t, env, 1)
		got = whEvents(t, rcv.take(), secrets)
		if len(got) != 1 || got[0].path != "/all" || got[0].Type != webhook.TypeLifecycleStateChanged || got[0].Data["fromStage"] != "RESURRECTION" ||
			got[0].Data["fromCode"] != "at_risk" || got[0].Data["toCode"] != "dormant" || got[0].Data["transitionId"] == tr.ID.String() {
			t.Fatalf("events %+v", got)
		}
	})
}

// TestWebhookRunFinishedEvent: every finished run, dry or not, records
// lifecycle_run.finished with the run as GET /api/lifecycle-runs/:id shows
// it; an endpoint of that type only receives nothing else (the run's
// transitions, consumed by the generator, store no event).
func TestWebhookRunFinishedEvent(t *testing.T) {
	rcv := newWHReceiver(t, 200)
	eachWebhookEnv(t, []*whReceiver{rcv}, func(t *testing.T, env *apptest.Env) {
		f := newRunFix(t, env, 4)
		runs := whEndpoint(t, env, apptest.JWT(f.token, f.tenant.TenantID, uuid.Nil), rcv.url("/runs"), webhook.TypeLifecycleRunFinished)
		dry := f.run(t, map[string]any{"as_of": "2026-11-01T10:00:00Z", "dry_run": true})
		real := f.run(t, map[string]any{"as_of": "2026-11-01T10:00:00Z"})
		whDeliver(t, env, 2)
		got := whEvents(t, rcv.take(), map[string]string{"/runs": runs["secret"].(string)})
		if len(got) != 2 {
			t.Fatalf("events %+v", got)
		}
		if got[0].Data["runId"] != dry["id"] {
			got[0], got[1] = got[1], got[0]
		}
		for i, run := range []map[string]any{dry, real} {
			whData(t, got[i], webhook.TypeLifecycleRunFinished, run["finishedAt"], map[string]any{"runId": run["id"], "projectId": f.tenant.ProjectID.String(),
				"activityGenerationConfigId": f.agc, "status": "SUCCEEDED", "trigger": "MANUAL", "asOf": run["asOf"], "dryRun": run["dryRun"],
				"startedAt": run["startedAt"], "finishedAt": run["finishedAt"], "counts": run["counts"], "byState": run["byState"], "error": nil},
				"asOf", "startedAt", "finishedAt")
		}
		if real["dryRun"] != false || counts(real)["created"] == 0 {
			t.Fatalf("the run wrote nothing: %v", real)
		}
		if _, err := env.App.Generator.Drain(context.Background(), time.Now); err != nil {
			t.Fatal(err)
		}
		whDeliver(t, env, 0)
		if n := env.App.DB.Client.WebhookEvent.Query().CountX(sys); n != 2 {
			t.Fatalf("%d events stored, want the 2 runs'", n)
		}

		// Failed runs: one abandoned by its replicas (FAILED when claimed
		// again), one whose statement fails on the dataset.
		start := func() string {
			t.Helper()
			return whPost(t, env, "POST", "/api/activity-generation-configs/"+f.agc+"/lifecycle-runs",
				map[string]any{"as_of": "2026-11-02T10:00:00Z"}, f.h, 202)["id"].(string)
		}
		abandoned := start()
		env.App.DB.Client.LifecycleRun.UpdateOneID(uuid.MustParse(abandoned)).SetStatus("RUNNING").SetAttempts(3).SetClaim(uuid.New()).
			SetLeaseUntil(time.Now().Add(-time.Minute)).ExecX(sys)
		if n, err := env.App.Runs.Work(context.Background(), time.Now()); err != nil || n != 0 {
			t.Fatalf("work: %d, %v", n, err)
		}
		if _, err := f.dataset.Exec("DROP TABLE " + f.prefix + "transactions"); err != nil {
			t.Fatal(err)
		}
		broken := start()
		if n, err := env.App.Runs.Work(context.Background(), time.Now()); err != nil || n != 1 {
			t.Fatalf("work: %d, %v", n, err)
		}
		whDeliver(t, env, 2)
		got = whEvents(t, rcv.take(), map[string]string{"/runs": runs["secret"].(string)})
		if len(got) != 2 {
			t.Fatalf("events %+v", got)
		}
		if got[0].Data["runId"] != abandoned {
			got[0], got[1] = got[1], got[0]
		}
		for i, id := range []string{abandoned, broken} {
			run := actOK(t, env.Do("GET", "/api/lifecycle-runs/"+id, nil, f.h), 200)
			if run["status"] != "FAILED" || run["error"] == nil {
				t.Fatalf("run %v", run)
			}
			whData(t, got[i], webhook.TypeLifecycleRunFinished, run["finishedAt"], map[string]any{"runId": id, "projectId": f.tenant.ProjectID.String(),
				"activityGenerationConfigId": f.agc, "status": "FAILED", "trigger": "MANUAL", "asOf": run["asOf"], "dryRun": false,
				"startedAt": run["startedAt"], "finishedAt": run["finishedAt"], "counts": run["counts"], "byState": run["byState"], "error": run["error"]},
				"asOf", "startedAt", "finishedAt")
		}
	})
}
