package rest_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/reten-io/reten/internal/apptest"
)

// TestDispatchLinksTheProviderReference: a successful dispatch stores the
// provider's reference as providerActivityId, which results link by; a
// reference that already names another task is not linked twice.
func TestDispatchLinksTheProviderReference(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		var ref atomic.Value
		ref.Store("ext-1")
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte(`{"id":"` + ref.Load().(string) + `"}`))
		}))
		defer srv.Close()
		env.App.Dispatch.SetWebhookClient(srv.Client())
		hook := actOK(t, env.Do("POST", "/api/dispatch-providers", map[string]any{"name": "Hook", "channel": "SMS", "kind": "webhook",
			"settings": map[string]any{"url": srv.URL}}, f.th), 201)["id"].(string)
		actOK(t, env.Do("PUT", "/api/projects/"+f.ten.ProjectID.String()+"/dispatch-configs/SMS", map[string]any{"provider_id": hook}, f.th), 201)

		first := f.task(resScheduledAt)
		if got := actOK(t, env.Do("POST", "/api/activities/tasks/"+first+"/dispatch", nil, f.h), 200); got["status"] != "DISPATCHED" ||
			got["providerActivityId"] != "ext-1" {
			t.Fatalf("dispatched: %v", got)
		}
		// The provider answers the same reference for another task: kept on the event only.
		second := f.task(resScheduledAt)
		if got := actOK(t, env.Do("POST", "/api/activities/tasks/"+second+"/dispatch", nil, f.h), 200); got["status"] != "DISPATCHED" ||
			got["providerActivityId"] != nil {
			t.Fatalf("duplicate reference: %v", got)
		}
		events := env.Do("GET", "/api/activities/"+second+"/status-events", nil, f.h)
		if events.Status != 200 || !strings.Contains(string(events.Body), `"providerRef":"ext-1"`) {
			t.Fatalf("events: %d %s", events.Status, events.Body)
		}

		// A result reported by the provider's id links the task.
		res := actOK(t, env.Do("POST", resultsPath, map[string]any{"provider_activity_id": "ext-1", "commerce_external_id": "EXT-Acme",
			"occurred_at": resOccurredAt, "status": "COMPLETED", "task_result": map[string]any{"result": "success"}}, f.h), 201)
		if res["activityId"] != first || res["source"] != "RETEN_ACTIVITY" || f.status(first) != "COMPLETED" || f.status(second) != "DISPATCHED" {
			t.Fatalf("linked result: %v", res)
		}
	})
}
