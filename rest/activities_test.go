package rest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
)

// actOK asserts the status and returns the JSON object.
func actOK(t *testing.T, res *apptest.Response, status int) map[string]any {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status = %d, want %d; body %s", res.Status, status, res.Body)
	}
	return res.Map(t)
}

// actEvents returns "EVENT:from>to" for each status event of an activity.
func actEvents(t *testing.T, env *apptest.Env, id string, h apptest.Headers) []string {
	t.Helper()
	res := env.Do("GET", "/api/activities/"+id+"/status-events", nil, h)
	if res.Status != 200 {
		t.Fatalf("status events: %d %s", res.Status, res.Body)
	}
	var evs []map[string]any
	res.JSON(t, &evs)
	out := make([]string, len(evs))
	var last time.Time
	for i, e := range evs {
		from := "null"
		if e["fromStatus"] != nil {
			from = e["fromStatus"].(string)
		}
		at, err := time.Parse(time.RFC3339Nano, e["occurredAt"].(string))
		if err != nil || at.Before(last) {
			t.Fatalf("events out of order: %s", res.Body)
		}
		last = at
		out[i] = fmt.Sprintf("%s:%s>%s", e["eventType"], from, e["toStatus"])
	}
	return out
}

func sameStrings(a, b []string) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

func TestActivitiesCreateListAndCommands(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme, beta := env.Bootstrap("Acme"), env.Bootstrap("Beta")
		tok := env.Login(acme.Email)
		h := apptest.JWT(tok, acme.TenantID, acme.ProjectID)
		th := apptest.JWT(tok, acme.TenantID, uuid.Nil)
		shop := actOK(t, env.Do("POST", "/api/commerces", map[string]any{"name": "Panadería Sol"}, th), 201)["id"].(string)
		kiosk := actOK(t, env.Do("POST", "/api/commerces", map[string]any{"name": "Kiosko Luna"}, th), 201)["id"].(string)

		// Creation: READY, full record, attributes, CREATED event with fromStatus null.
		x := actOK(t, env.Do("POST", "/api/activities", map[string]any{"commerce_id": shop, "type": "TASK", "channel": "SMS",
			"scheduled_at": "2030-05-01T10:00:00Z", "title": "Visit", "description": "First visit",
			"attributes": map[string]any{"segment": "gold", "city": "Lima"}}, h), 201)
		id := x["id"].(string)
		if x["status"] != "READY" || x["type"] != "TASK" || x["channel"] != "SMS" || x["scheduledAt"] != "2030-05-01T10:00:00Z" ||
			x["title"] != "Visit" || x["projectId"] != acme.ProjectID.String() || x["dispatchAttempts"] != 0.0 ||
			x["createdBy"] != acme.UserID.String() || x["nextDispatchAt"] != nil {
			t.Fatalf("created activity: %v", x)
		}
		ca := x["commerceAssignment"].(map[string]any)
		if ca["commerceId"] != shop || ca["commerce"].(map[string]any)["name"] != "Panadería Sol" {
			t.Fatalf("commerceAssignment: %v", ca)
		}
		attrs := x["attributes"].([]any)
		if len(attrs) != 2 || attrs[0].(map[string]any)["key"] != "city" || attrs[1].(map[string]any)["value"] != "gold" {
			t.Fatalf("attributes: %v", attrs)
		}
		if got := actEvents(t, env, id, h); !sameStrings(got, []string{"CREATED:null>READY"}) {
			t.Fatalf("events: %v", got)
		}
		var list []map[string]any
		env.Do("GET", "/api/activities/"+id+"/attributes", nil, h).JSON(t, &list)
		if len(list) != 2 || list[0]["key"] != "city" || list[0]["value"] != "Lima" || list[0]["activityId"] != id {
			t.Fatalf("attributes route: %v", list)
		}

		// Creation errors.
		apptest.ExpectError(t, env.Do("POST", "/api/activities", map[string]any{"extra": 1}, h), 400, []string{
			"property extra should not exist", "commerce_id should not be empty", "type should not be empty",
			"channel should not be empty", "scheduled_at should not be empty"})
		apptest.ExpectError(t, env.Do("POST", "/api/activities", map[string]any{"commerce_id": "x", "type": "CALL", "channel": "FAX",
			"scheduled_at": "tomorrow", "attributes": map[string]any{"a": 1}}, h), 400, []string{
			"commerce_id must be a UUID", "scheduled_at must be a valid ISO 8601 date string", "attributes must be an object whose values are strings",
			"commerce_id should not be empty", "type must be one of the following values: TASK, MESSAGE",
			"channel must be one of the following values: SALESMAN, CALLCENTER, WHATSAPP, EMAIL, SMS, PUSH", "scheduled_at should not be empty"})
		// Request bodies are snake_case: the camelCase spelling is an unknown member.
		apptest.ExpectError(t, env.Do("POST", "/api/activities", map[string]any{"commerceId": shop, "type": "TASK", "channel": "SMS",
			"scheduledAt": "2030-05-01T10:00:00Z", "operatorId": uuid.NewString()}, h), 400, []string{
			"property commerceId should not exist", "property operatorId should not exist", "property scheduledAt should not exist",
			"commerce_id should not be empty", "scheduled_at should not be empty"})
		base := map[string]any{"commerce_id": uuid.NewString(), "type": "TASK", "channel": "SMS", "scheduled_at": "2030-05-01T10:00:00Z"}
		apptest.ExpectError(t, env.Do("POST", "/api/activities", base, h), 404, "Commerce not found")
		betaShop := actOK(t, env.Do("POST", "/api/commerces", map[string]any{"name": "B"}, apptest.JWT(env.Login(beta.Email), beta.TenantID, uuid.Nil)), 201)["id"].(string)
		base["commerce_id"] = betaShop
		apptest.ExpectError(t, env.Do("POST", "/api/activities", base, h), 404, "Commerce not found")
		base["commerce_id"], base["operator_id"] = shop, uuid.NewString()
		apptest.ExpectError(t, env.Do("POST", "/api/activities", base, h), 404, "Operator not found")

		// More activities for the filters.
		mk := func(com, typ, ch, at, title string) string {
			return actOK(t, env.Do("POST", "/api/activities", map[string]any{"commerce_id": com, "type": typ, "channel": ch,
				"scheduled_at": at, "title": title}, h), 201)["id"].(string)
		}
		msg := mk(kiosk, "MESSAGE", "WHATSAPP", "2030-05-02T10:00:00Z", "Promo")
		call := mk(kiosk, "TASK", "CALLCENTER", "2030-05-03T10:00:00Z", "Call back")
		ids := func(q string) []string {
			res := env.Do("GET", "/api/activities"+q, nil, h)
			if res.Status != 200 {
				t.Fatalf("list %s: %d %s", q, res.Status, res.Body)
			}
			var page struct {
				Data []map[string]any
				Meta map[string]float64
			}
			res.JSON(t, &page)
			out := []string{}
			for _, d := range page.Data {
				out = append(out, d["id"].(string))
			}
			return append(out, fmt.Sprintf("meta=%v/%v/%v/%v", page.Meta["page"], page.Meta["limit"], page.Meta["total"], page.Meta["totalPages"]))
		}
		for q, exp := range map[string][]string{
			"":                                     {id, msg, call, "meta=1/25/3/1"},
			"?type=MESSAGE":                        {msg, "meta=1/25/1/1"},
			"?channel=CALLCENTER":                  {call, "meta=1/25/1/1"},
			"?status=READY&commerce_id=" + kiosk:   {msg, call, "meta=1/25/2/1"},
			"?status=CANCELED":                     {"meta=1/25/0/0"},
			"?scheduled_from=2030-05-02T10:00:00Z": {msg, call, "meta=1/25/2/1"},
			"?scheduled_to=2030-05-02":             {id, "meta=1/25/1/1"},
			"?search=visit":                        {id, "meta=1/25/1/1"},
			"?search=luna":                         {msg, call, "meta=1/25/2/1"},
			"?per_page=2&page=2":                   {call, "meta=2/2/3/2"},
		} {
			if got := ids(q); !sameStrings(got, exp) {
				t.Fatalf("list %q = %v, want %v", q, got, exp)
			}
		}
		// Each item names its commerce (the list reads the names only).
		var names []any
		for _, d := range actOK(t, env.Do("GET", "/api/activities", nil, h), 200)["data"].([]any) {
			ca := d.(map[string]any)["commerceAssignment"].(map[string]any)
			names = append(names, ca["commerceId"], ca["commerce"].(map[string]any)["name"])
		}
		if want := []any{shop, "Panadería Sol", kiosk, "Kiosko Luna", kiosk, "Kiosko Luna"}; !reflect.DeepEqual(names, want) {
			t.Fatalf("listed commerces %v, want %v", names, want)
		}
		// A deleted (archived) commerce keeps its id on its activities but no
		// longer gives them its name, in the list as in the detail.
		if res := env.Do("DELETE", "/api/commerces/"+kiosk, nil, th); res.Status != 204 {
			t.Fatalf("delete %s: %d %s", kiosk, res.Status, res.Body)
		}
		names = nil
		for _, d := range actOK(t, env.Do("GET", "/api/activities", nil, h), 200)["data"].([]any) {
			ca := d.(map[string]any)["commerceAssignment"].(map[string]any)
			names = append(names, ca["commerceId"], ca["commerce"].(map[string]any)["name"])
		}
		detail := actOK(t, env.Do("GET", "/api/activities/"+msg, nil, h), 200)["commerceAssignment"].(map[string]any)
		if want := []any{shop, "Panadería Sol", kiosk, "", kiosk, ""}; !reflect.DeepEqual(names, want) || detail["commerce"].(map[string]any)["name"] != "" {
			t.Fatalf("listed commerces after deleting %s: %v, detail %v, want %v and no name", kiosk, names, detail, want)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/activities?per_page=101", nil, h), 400, []string{"per_page must not be greater than 100"})
		apptest.ExpectError(t, env.Do("GET", "/api/activities?page=0&status=DONE&type=X&channel=Y&commerce_id=1&scheduled_from=x&scheduled_to=y", nil, h), 400, []string{
			"page must not be less than 1", "commerce_id must be a UUID", "scheduled_from must be a valid ISO 8601 date string",
			"scheduled_to must be a valid ISO 8601 date string",
			"status must be one of the following values: READY, UNRESOLVED, DISPATCHED, COMPLETED, CANCELED, FAILED, RETRYING",
			"type must be one of the following values: TASK, MESSAGE",
			"channel must be one of the following values: SALESMAN, CALLCENTER, WHATSAPP, EMAIL, SMS, PUSH"})

		// Tasks: messages are not tasks.
		res := env.Do("GET", "/api/activities/tasks", nil, h)
		if m := actOK(t, res, 200); m["meta"].(map[string]any)["total"] != 2.0 {
			t.Fatalf("tasks: %s", res.Body)
		}
		if actOK(t, env.Do("GET", "/api/activities/tasks/"+call, nil, h), 200)["id"] != call {
			t.Fatal("task detail")
		}
		apptest.ExpectError(t, env.Do("GET", "/api/activities/tasks/"+msg, nil, h), 404, "Activity not found")
		apptest.ExpectError(t, env.Do("POST", "/api/activities/tasks/"+msg+"/dispatch", nil, h), 404, "Activity not found")

		// Resolution events and cancellation.
		res = env.Do("POST", "/api/activities/"+msg+"/resolution-events", map[string]any{"event_type": "RESOLUTION_RETRY_SUCCESS"}, h)
		apptest.ExpectError(t, res, 409, "Activity in status READY does not accept RESOLUTION_RETRY_SUCCESS")
		apptest.ExpectError(t, env.Do("POST", "/api/activities/"+msg+"/resolution-events", map[string]any{"event_type": "CREATED", "x": 1}, h), 400,
			[]string{"property x should not exist", "event_type must be one of the following values: RESOLUTION_FAILED, RESOLUTION_RETRY_SUCCESS, RESOLUTION_RETRY_FAILED"})
		for _, step := range [][2]string{{"RESOLUTION_FAILED", "UNRESOLVED"}, {"RESOLUTION_RETRY_FAILED", "UNRESOLVED"}, {"RESOLUTION_RETRY_SUCCESS", "READY"}} {
			got := actOK(t, env.Do("POST", "/api/activities/"+msg+"/resolution-events", map[string]any{"event_type": step[0], "detail": map[string]any{"why": "x"}}, h), 200)
			if got["status"] != step[1] {
				t.Fatalf("%s: %v", step[0], got)
			}
		}
		if got := actOK(t, env.Do("POST", "/api/activities/"+msg+"/cancel", map[string]any{"reason": "duplicate"}, h), 200); got["status"] != "CANCELED" {
			t.Fatalf("cancel: %v", got)
		}
		apptest.ExpectError(t, env.Do("POST", "/api/activities/"+msg+"/cancel", nil, h), 409, "Activity in status CANCELED does not accept CANCEL")
		if got := actEvents(t, env, msg, h); !sameStrings(got, []string{"CREATED:null>READY", "RESOLUTION_FAILED:READY>UNRESOLVED",
			"RESOLUTION_RETRY_FAILED:UNRESOLVED>UNRESOLVED", "RESOLUTION_RETRY_SUCCESS:UNRESOLVED>READY", "CANCELED:READY>CANCELED"}) {
			t.Fatalf("events: %v", got)
		}

		// Cross-project and cross-tenant ids are 404.
		other := actOK(t, env.Do("POST", "/api/projects", map[string]any{"name": "Other"}, th), 201)["id"].(string)
		oh := h.With("x-project-id", other)
		bh := apptest.JWT(env.Login(beta.Email), beta.TenantID, beta.ProjectID)
		for _, hh := range []apptest.Headers{oh, bh} {
			for _, p := range []string{"/api/activities/" + id, "/api/activities/" + id + "/status-events", "/api/activities/" + id + "/attributes",
				"/api/activities/tasks/" + id} {
				apptest.ExpectError(t, env.Do("GET", p, nil, hh), 404, "Activity not found")
			}
			for _, p := range []string{"/api/activities/" + id + "/cancel", "/api/activities/tasks/" + id + "/dispatch",
				"/api/activities/tasks/" + id + "/force-retry-dispatch"} {
				apptest.ExpectError(t, env.Do("POST", p, nil, hh), 404, "Activity not found")
			}
			apptest.ExpectError(t, env.Do("POST", "/api/activities/"+id+"/resolution-events", map[string]any{"event_type": "RESOLUTION_FAILED"}, hh), 404, "Activity not found")
			if got := actOK(t, env.Do("GET", "/api/activities", nil, hh), 200)["meta"].(map[string]any)["total"]; got != 0.0 {
				t.Fatalf("another project lists %v activities", got)
			}
		}
	})
}

func TestActivityDispatch(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		tok := env.Login(acme.Email)
		h := apptest.JWT(tok, acme.TenantID, acme.ProjectID)
		th := apptest.JWT(tok, acme.TenantID, uuid.Nil)
		shop := actOK(t, env.Do("POST", "/api/commerces", map[string]any{"name": "Shop"}, th), 201)["id"].(string)
		task := func(ch string) string {
			return actOK(t, env.Do("POST", "/api/activities", map[string]any{"commerce_id": shop, "type": "TASK", "channel": ch,
				"scheduled_at": "2030-05-01T10:00:00Z", "attributes": map[string]any{"k": "v"}}, h), 201)["id"].(string)
		}
		configs := "/api/projects/" + acme.ProjectID.String() + "/dispatch-configs/"

		// No dispatch config: 422 and nothing changes.
		sms := task("SMS")
		apptest.ExpectError(t, env.Do("POST", "/api/activities/tasks/"+sms+"/dispatch", nil, h), 422, "No active dispatch config for channel SMS in this project")
		if got := actEvents(t, env, sms, h); len(got) != 1 {
			t.Fatalf("events after a refused dispatch: %v", got)
		}

		// The log provider: DISPATCH_ATTEMPT then DISPATCH_SUCCESS.
		logP := actOK(t, env.Do("POST", "/api/dispatch-providers", map[string]any{"name": "Log", "channel": "SMS", "kind": "log"}, th), 201)["id"].(string)
		actOK(t, env.Do("PUT", configs+"SMS", map[string]any{"provider_id": logP}, th), 201)
		got := actOK(t, env.Do("POST", "/api/activities/tasks/"+sms+"/dispatch", nil, h), 200)
		if got["status"] != "DISPATCHED" || got["dispatchAttempts"] != 1.0 || got["nextDispatchAt"] != nil {
			t.Fatalf("dispatched: %v", got)
		}
		if ev := actEvents(t, env, sms, h); !sameStrings(ev, []string{"CREATED:null>READY", "DISPATCH_ATTEMPT:READY>READY", "DISPATCH_SUCCESS:READY>DISPATCHED"}) {
			t.Fatalf("events: %v", ev)
		}
		apptest.ExpectError(t, env.Do("POST", "/api/activities/tasks/"+sms+"/dispatch", nil, h), 409, "Activity in status DISPATCHED does not accept DISPATCH_ATTEMPT")
		apptest.ExpectError(t, env.Do("POST", "/api/activities/tasks/"+sms+"/force-retry-dispatch", nil, h), 409,
			"Activity in status DISPATCHED cannot be retried: only a task in RETRYING, or FAILED by its last dispatch attempt, can be force-retried")

		// A failing webhook: RETRYING with backoff, then FAILED when the attempts are exhausted.
		var failing atomic.Bool
		failing.Store(true)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if failing.Load() {
				w.WriteHeader(500)
				return
			}
			_, _ = w.Write([]byte(`{"id":"ext-1"}`))
		}))
		defer srv.Close()
		env.App.Dispatch.SetWebhookClient(srv.Client())
		hook := actOK(t, env.Do("POST", "/api/dispatch-providers", map[string]any{"name": "Hook", "channel": "EMAIL", "kind": "webhook",
			"settings": map[string]any{"url": srv.URL}}, th), 201)["id"].(string)
		actOK(t, env.Do("PUT", configs+"EMAIL", map[string]any{"provider_id": hook, "max_attempts": 2, "retry_backoff_seconds": 60}, th), 201)
		mail := task("EMAIL")
		now := time.Now()
		env.App.Activities.SetClock(func() time.Time { return now })
		got = actOK(t, env.Do("POST", "/api/activities/tasks/"+mail+"/dispatch", nil, h), 200)
		next, _ := time.Parse(time.RFC3339Nano, fmt.Sprint(got["nextDispatchAt"]))
		if got["status"] != "RETRYING" || got["dispatchAttempts"] != 1.0 || !next.Equal(now.Add(time.Minute).Truncate(time.Microsecond)) {
			t.Fatalf("first failure: %v (next %v, now %v)", got, next, now)
		}
		res := env.Do("POST", "/api/activities/tasks/"+mail+"/dispatch", nil, h)
		apptest.ExpectError(t, res, 409, "The next dispatch attempt of this task is scheduled at "+next.UTC().Format(time.RFC3339)+"; use force-retry-dispatch to retry now")
		env.App.Activities.SetClock(func() time.Time { return now.Add(2 * time.Minute) })
		got = actOK(t, env.Do("POST", "/api/activities/tasks/"+mail+"/dispatch", nil, h), 200)
		if got["status"] != "FAILED" || got["dispatchAttempts"] != 2.0 || got["nextDispatchAt"] != nil {
			t.Fatalf("exhausted: %v", got)
		}
		// Force retry from FAILED-by-dispatch: a fresh budget (attempt 1 of 2 fails -> RETRYING).
		got = actOK(t, env.Do("POST", "/api/activities/tasks/"+mail+"/force-retry-dispatch", nil, h), 200)
		if got["status"] != "RETRYING" || got["dispatchAttempts"] != 1.0 {
			t.Fatalf("forced retry: %v", got)
		}
		failing.Store(false)
		got = actOK(t, env.Do("POST", "/api/activities/tasks/"+mail+"/force-retry-dispatch", nil, h), 200)
		if got["status"] != "DISPATCHED" {
			t.Fatalf("forced retry success: %v", got)
		}
		if ev := actEvents(t, env, mail, h); !sameStrings(ev, []string{"CREATED:null>READY",
			"DISPATCH_ATTEMPT:READY>READY", "DISPATCH_FAILED:READY>RETRYING",
			"DISPATCH_ATTEMPT:RETRYING>RETRYING", "DISPATCH_FAILED:RETRYING>FAILED",
			"DISPATCH_ATTEMPT:FAILED>RETRYING", "DISPATCH_FAILED:RETRYING>RETRYING",
			"DISPATCH_ATTEMPT:RETRYING>RETRYING", "DISPATCH_SUCCESS:RETRYING>DISPATCHED"}) {
			t.Fatalf("events: %v", ev)
		}
		// A task FAILED by something other than dispatch cannot be force-retried.
		other := task("EMAIL")
		env.Do("POST", "/api/activities/"+other+"/cancel", nil, h)
		apptest.ExpectError(t, env.Do("POST", "/api/activities/tasks/"+other+"/force-retry-dispatch", nil, h), 409,
			"Activity in status CANCELED cannot be retried: only a task in RETRYING, or FAILED by its last dispatch attempt, can be force-retried")
	})
}
