package rest_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/dispatch"
	"github.com/reten-io/reten/internal/viewer"
)

func TestDispatchConfigs(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme, beta := env.Bootstrap("Acme"), env.Bootstrap("Beta")
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		bh := apptest.JWT(env.Login(beta.Email), beta.TenantID, uuid.Nil)
		wa := dispatchOK(t, env.Do("POST", "/api/dispatch-providers", map[string]any{"name": "WA", "channel": "WHATSAPP", "kind": "log"}, h), 201)["id"].(string)
		wa2 := dispatchOK(t, env.Do("POST", "/api/dispatch-providers", map[string]any{"name": "WA2", "channel": "WHATSAPP", "kind": "log"}, h), 201)["id"].(string)
		email := dispatchOK(t, env.Do("POST", "/api/dispatch-providers", map[string]any{"name": "Mail", "channel": "EMAIL", "kind": "log"}, h), 201)["id"].(string)
		def := dispatchOK(t, env.Do("POST", "/api/dispatch-providers/"+wa+"/channel-definitions", map[string]any{"name": "d"}, h), 201)["id"].(string)
		def2 := dispatchOK(t, env.Do("POST", "/api/dispatch-providers/"+wa2+"/channel-definitions", map[string]any{"name": "d"}, h), 201)["id"].(string)
		bProvider := dispatchOK(t, env.Do("POST", "/api/dispatch-providers", map[string]any{"name": "B", "channel": "WHATSAPP", "kind": "log"}, bh), 201)["id"].(string)
		pid := acme.ProjectID.String()
		base := "/api/projects/" + pid + "/dispatch-configs"

		created := dispatchOK(t, env.Do("PUT", base+"/WHATSAPP", map[string]any{"provider_id": wa}, h), 201)
		sameMap(t, withoutVolatile(created), map[string]any{"projectId": pid, "channel": "WHATSAPP", "providerId": wa,
			"channelDefinitionId": nil, "maxAttempts": 3, "retryBackoffSeconds": 300, "isActive": true})
		upd := dispatchOK(t, env.Do("PUT", base+"/WHATSAPP", map[string]any{"provider_id": wa, "channel_definition_id": def,
			"max_attempts": 10, "retry_backoff_seconds": 0, "is_active": false}, h), 200)
		sameMap(t, withoutVolatile(upd), map[string]any{"projectId": pid, "channel": "WHATSAPP", "providerId": wa,
			"channelDefinitionId": def, "maxAttempts": 10, "retryBackoffSeconds": 0, "isActive": false})
		if upd["id"] != created["id"] {
			t.Fatalf("PUT created another config: %v vs %v", upd["id"], created["id"])
		}
		// PUT replaces: omitted fields return to their defaults.
		upd = dispatchOK(t, env.Do("PUT", base+"/WHATSAPP", map[string]any{"provider_id": wa2}, h), 200)
		sameMap(t, withoutVolatile(upd), map[string]any{"projectId": pid, "channel": "WHATSAPP", "providerId": wa2,
			"channelDefinitionId": nil, "maxAttempts": 3, "retryBackoffSeconds": 300, "isActive": true})
		mail := dispatchOK(t, env.Do("PUT", base+"/EMAIL", map[string]any{"provider_id": email, "max_attempts": 1}, h), 201)

		list := dispatchOK(t, env.Do("GET", base, nil, h), 200)
		sameMap(t, list, map[string]any{"data": []any{mail, upd}, "meta": map[string]any{"page": 1, "limit": 25, "total": 2, "totalPages": 1}})
		// Another project of the tenant has none.
		ventas := secondProject(t, env, acme.TenantID, "Ventas")
		sameMap(t, dispatchOK(t, env.Do("GET", "/api/projects/"+ventas.ID.String()+"/dispatch-configs", nil, h), 200),
			map[string]any{"data": []any{}, "meta": map[string]any{"page": 1, "limit": 25, "total": 0, "totalPages": 0}})

		cases := []struct {
			name   string
			path   string
			body   any
			status int
			msg    any
		}{
			{"no provider", base + "/WHATSAPP", map[string]any{}, 400, []string{"provider_id should not be empty"}},
			{"bad channel", base + "/FAX", map[string]any{"provider_id": wa}, 400, []string{msgDispatchChannel}},
			{"types", base + "/WHATSAPP", map[string]any{"provider_id": "x", "channel_definition_id": 1, "max_attempts": "3",
				"retry_backoff_seconds": 1.5, "is_active": 1}, 400, []string{"provider_id must be a UUID", "channel_definition_id must be a UUID",
				"max_attempts must be an integer number", "retry_backoff_seconds must be an integer number", "is_active must be a boolean value"}},
			{"ranges", base + "/WHATSAPP", map[string]any{"provider_id": wa, "max_attempts": 0, "retry_backoff_seconds": -1}, 400,
				[]string{"max_attempts must not be less than 1", "retry_backoff_seconds must not be less than 0"}},
			{"too many attempts", base + "/WHATSAPP", map[string]any{"provider_id": wa, "max_attempts": 11}, 400,
				[]string{"max_attempts must not be greater than 10"}},
			{"unknown field", base + "/WHATSAPP", map[string]any{"provider_id": wa, "channel": "SMS"}, 400, []string{"property channel should not exist"}},
			{"project not uuid", "/api/projects/x/dispatch-configs/WHATSAPP", map[string]any{"provider_id": wa}, 400, "Validation failed (uuid is expected)"},
			{"unknown project", "/api/projects/" + uuid.NewString() + "/dispatch-configs/WHATSAPP", map[string]any{"provider_id": wa}, 404, "El proyecto no existe."},
			{"other tenant's project", "/api/projects/" + beta.ProjectID.String() + "/dispatch-configs/WHATSAPP", map[string]any{"provider_id": wa}, 404, "El proyecto no existe."},
			{"unknown provider", base + "/WHATSAPP", map[string]any{"provider_id": uuid.NewString()}, 404, "Dispatch provider not found"},
			{"other tenant's provider", base + "/WHATSAPP", map[string]any{"provider_id": bProvider}, 404, "Dispatch provider not found"},
			{"provider of another channel", base + "/SMS", map[string]any{"provider_id": wa}, 422, "The dispatch provider serves channel WHATSAPP, not SMS"},
			{"unknown definition", base + "/WHATSAPP", map[string]any{"provider_id": wa, "channel_definition_id": uuid.NewString()}, 404, "Channel definition not found"},
			{"definition of another provider", base + "/WHATSAPP", map[string]any{"provider_id": wa, "channel_definition_id": def2}, 422,
				"The channel definition does not belong to the dispatch provider"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("PUT", c.path, c.body, h), c.status, c.msg)
			})
		}
		// Tenant B sees nothing of A's project.
		apptest.ExpectError(t, env.Do("GET", base, nil, bh), 404, "El proyecto no existe.")
		apptest.ExpectError(t, env.Do("PUT", base+"/WHATSAPP", map[string]any{"provider_id": bProvider}, bh), 404, "El proyecto no existe.")
		apptest.ExpectError(t, env.Do("GET", "/api/projects/x/dispatch-configs", nil, h), 400, "Validation failed (uuid is expected)")

		// A provider in use cannot be deleted; an unused one can.
		apptest.ExpectError(t, env.Do("DELETE", "/api/dispatch-providers/"+wa2, nil, h), 409,
			"The dispatch provider is used by a dispatch config and cannot be deleted")
		if res := env.Do("DELETE", "/api/dispatch-providers/"+wa, nil, h); res.Status != 204 {
			t.Fatalf("delete unused provider: %d %s", res.Status, res.Body)
		}

		// Concurrent PUTs of a new channel converge on one config.
		smsP := dispatchOK(t, env.Do("POST", "/api/dispatch-providers", map[string]any{"name": "S", "channel": "SMS", "kind": "log"}, h), 201)["id"].(string)
		var wg sync.WaitGroup
		statuses := make([]int, 6)
		for i := range statuses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i] = env.Do("PUT", base+"/SMS", map[string]any{"provider_id": smsP}, h).Status
			}()
		}
		wg.Wait()
		createdN := 0
		for _, s := range statuses {
			if s == 201 {
				createdN++
			} else if s != 200 {
				t.Fatalf("concurrent PUT statuses = %v", statuses)
			}
		}
		if createdN != 1 {
			t.Fatalf("concurrent PUT statuses = %v, want exactly one 201", statuses)
		}

		env.CreateUser(acme.TenantID, "vera", auth.RoleViewer)
		vh := apptest.JWT(env.Login("vera"), acme.TenantID, uuid.Nil)
		dispatchOK(t, env.Do("GET", base, nil, vh), 200)
		apptest.ExpectError(t, env.Do("PUT", base+"/WHATSAPP", map[string]any{}, vh), 403, "Required permissions: dispatch:manage")
	})
}

func TestDispatcherFor(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		ctx := viewer.NewContext(context.Background(), &viewer.Viewer{TenantID: acme.TenantID, UserID: acme.UserID})
		svc := env.App.Dispatch
		base := "/api/projects/" + acme.ProjectID.String() + "/dispatch-configs"

		if _, _, err := svc.For(ctx, acme.ProjectID, "WHATSAPP"); err == nil || err.Error() != "No active dispatch config for channel WHATSAPP in this project" {
			t.Fatalf("no config: %v", err)
		}

		// The built-in log provider records the dispatch and returns a reference.
		logP := dispatchOK(t, env.Do("POST", "/api/dispatch-providers", map[string]any{"name": "L", "channel": "WHATSAPP", "kind": "log"}, h), 201)["id"].(string)
		dispatchOK(t, env.Do("PUT", base+"/WHATSAPP", map[string]any{"provider_id": logP, "max_attempts": 5}, h), 201)
		d, cfg, err := svc.For(ctx, acme.ProjectID, "WHATSAPP")
		if err != nil || cfg.MaxAttempts != 5 {
			t.Fatalf("For: %v %v", cfg, err)
		}
		ref, err := d.Dispatch(ctx, dispatch.Message{ActivityID: uuid.New(), Recipient: "+5491100000000"})
		if err != nil || !strings.HasPrefix(ref, "log-") {
			t.Fatalf("log dispatch = %q, %v", ref, err)
		}
		// An inactive provider cannot dispatch.
		dispatchOK(t, env.Do("PATCH", "/api/dispatch-providers/"+logP, map[string]any{"is_active": false}, h), 200)
		if _, _, err := svc.For(ctx, acme.ProjectID, "WHATSAPP"); err == nil || err.Error() != "The dispatch provider of this channel is inactive" {
			t.Fatalf("inactive provider: %v", err)
		}

		// The webhook provider POSTs the message with its credentials.
		var (
			mu       sync.Mutex
			gotAuth  string
			gotExtra string
			gotBody  map[string]any
		)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			raw, _ := io.ReadAll(r.Body)
			mu.Lock()
			gotAuth, gotExtra = r.Header.Get("Authorization"), r.Header.Get("X-Extra")
			_ = json.Unmarshal(raw, &gotBody)
			mu.Unlock()
			if strings.Contains(string(raw), "fail") {
				w.WriteHeader(502)
				return
			}
			_, _ = w.Write([]byte(`{"id":"msg-42"}`))
		}))
		defer srv.Close()
		hook := dispatchOK(t, env.Do("POST", "/api/dispatch-providers", map[string]any{"name": "H", "channel": "EMAIL", "kind": "webhook",
			"settings":    map[string]any{"url": srv.URL},
			"credentials": map[string]any{"token": dispatchSecret, "headers": map[string]any{"X-Extra": "yes"}}}, h), 201)["id"].(string)
		def := dispatchOK(t, env.Do("POST", "/api/dispatch-providers/"+hook+"/channel-definitions",
			map[string]any{"name": "promo", "template": "promo-1", "sender": "news@example.test"}, h), 201)["id"].(string)
		dispatchOK(t, env.Do("PUT", base+"/EMAIL", map[string]any{"provider_id": hook, "channel_definition_id": def}, h), 201)
		d, _, err = svc.For(ctx, acme.ProjectID, "EMAIL")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Dispatch(ctx, dispatch.Message{Recipient: "ana@example.test", Body: "hola"}); err == nil ||
			!strings.Contains(err.Error(), "is not a public address") {
			t.Fatalf("webhook to a loopback address: %v", err)
		}
		svc.SetWebhookClient(srv.Client())
		d, _, err = svc.For(ctx, acme.ProjectID, "EMAIL")
		if err != nil {
			t.Fatal(err)
		}
		ref, err = d.Dispatch(ctx, dispatch.Message{Recipient: "ana@example.test", Body: "hola"})
		if err != nil || ref != "msg-42" {
			t.Fatalf("webhook dispatch = %q, %v", ref, err)
		}
		mu.Lock()
		if gotAuth != "Bearer "+dispatchSecret || gotExtra != "yes" || gotBody["template"] != "promo-1" ||
			gotBody["sender"] != "news@example.test" || gotBody["channel"] != "EMAIL" ||
			gotBody["message"].(map[string]any)["recipient"] != "ana@example.test" {
			t.Fatalf("webhook request: auth %q extra %q body %v", gotAuth, gotExtra, gotBody)
		}
		mu.Unlock()
		if _, err := d.Dispatch(ctx, dispatch.Message{Body: "fail"}); err == nil || !strings.Contains(err.Error(), "answered 502") {
			t.Fatalf("failing webhook: %v", err)
		}
	})
}

// TestDispatchKeepsTheChannelRate: a channel definition's rate_per_minute
// bounds the dispatches through it; a refused dispatch answers 429 and
// records nothing; a definition without a rate is not limited.
func TestDispatchKeepsTheChannelRate(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		p := actOK(t, env.Do("POST", "/api/dispatch-providers", map[string]any{"name": "Log", "channel": "SMS", "kind": "log"}, f.th), 201)["id"].(string)
		defs := "/api/dispatch-providers/" + p + "/channel-definitions"
		slow := actOK(t, env.Do("POST", defs, map[string]any{"name": "slow", "rate_per_minute": 2}, f.th), 201)["id"].(string)
		config := "/api/projects/" + f.ten.ProjectID.String() + "/dispatch-configs/SMS"
		actOK(t, env.Do("PUT", config, map[string]any{"provider_id": p, "channel_definition_id": slow}, f.th), 201)

		const msg = "The channel definition allows 2 dispatches per minute; the limit is reached, retry later"
		for i := range 2 {
			if got := actOK(t, env.Do("POST", "/api/activities/tasks/"+f.task(resScheduledAt)+"/dispatch", nil, f.h), 200); got["status"] != "DISPATCHED" {
				t.Fatalf("dispatch %d: %v", i, got)
			}
		}
		third := f.task(resScheduledAt)
		refused := env.Do("POST", "/api/activities/tasks/"+third+"/dispatch", nil, f.h)
		apptest.ExpectError(t, refused, 429, msg)
		if ra := refused.Header.Get("Retry-After"); ra != "60" {
			t.Fatalf("Retry-After %q, want 60 (the rate's window)", ra)
		}
		if st, ev := f.status(third), actEvents(t, env, third, f.h); st != "READY" || !slices.Equal(ev, []string{"CREATED:null>READY"}) {
			t.Fatalf("refused dispatch left %s, %v", st, ev)
		}
		var out struct {
			Errors []struct {
				Message    string
				Extensions map[string]any
			} `json:"errors"`
		}
		env.GraphQL(`mutation($id: ID!) { dispatchTask(id: $id) { status } }`, map[string]any{"id": third}, f.h).JSON(t, &out)
		if len(out.Errors) != 1 || out.Errors[0].Message != msg || out.Errors[0].Extensions["statusCode"] != float64(429) {
			t.Fatalf("graphql: %+v", out)
		}

		// Another definition without a rate: not limited.
		free := actOK(t, env.Do("POST", defs, map[string]any{"name": "free"}, f.th), 201)["id"].(string)
		actOK(t, env.Do("PUT", config, map[string]any{"provider_id": p, "channel_definition_id": free}, f.th), 200)
		for range 3 {
			actOK(t, env.Do("POST", "/api/activities/tasks/"+f.task(resScheduledAt)+"/dispatch", nil, f.h), 200)
		}
	})
}
