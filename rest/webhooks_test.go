package rest_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/outbound"
	"github.com/reten-io/reten/internal/webhook"
)

// whRequest is one request a receiver got.
type whRequest struct {
	path   string
	header http.Header
	body   []byte
}

// whReceiver is a local (loopback) webhook receiver answering status with
// the body "answered <status>".
type whReceiver struct {
	srv    *httptest.Server
	status atomic.Int32
	mu     sync.Mutex
	got    []whRequest
}

func newWHReceiver(t *testing.T, status int) *whReceiver {
	t.Helper()
	r := &whReceiver{}
	r.status.Store(int32(status))
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, whRequest{req.URL.Path, req.Header.Clone(), b})
		r.mu.Unlock()
		s := int(r.status.Load())
		w.WriteHeader(s)
		fmt.Fprintf(w, "answered %d", s)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *whReceiver) url(path string) string { return r.srv.URL + path }

// take returns the requests received since the last take.
func (r *whReceiver) take() []whRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.got
	r.got = nil
	return out
}

// eachWebhookEnv runs fn on every database with RETEN_OUTBOUND_ALLOW naming
// the allowed receivers' host:port (each receiver emptied first).
func eachWebhookEnv(t *testing.T, allowed []*whReceiver, fn func(t *testing.T, env *apptest.Env)) {
	t.Helper()
	var entries []string
	for _, r := range allowed {
		entries = append(entries, r.srv.Listener.Addr().String())
	}
	allow, err := outbound.ParseAllowlist(strings.Join(entries, ","))
	if err != nil {
		t.Fatal(err)
	}
	apptest.EachWith(t, func(c *app.Config) { c.OutboundAllow = allow }, func(t *testing.T, env *apptest.Env) {
		for _, r := range allowed {
			r.take()
		}
		fn(t, env)
	})
}

// whVerify verifies a received request with the Standard Webhooks reference
// library and secret.
func whVerify(t *testing.T, secret string, r whRequest) error {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatalf("secret %q: %v", secret, err)
	}
	return wh.Verify(r.body, r.header)
}

// whPost sends a request that must answer status and returns its object.
func whPost(t *testing.T, env *apptest.Env, method, path string, body any, h apptest.Headers, status int) map[string]any {
	t.Helper()
	return actOK(t, env.Do(method, path, body, h), status)
}

// whEndpoint creates an endpoint of url subscribed to types; it returns its
// creation answer (with the secret).
func whEndpoint(t *testing.T, env *apptest.Env, h apptest.Headers, url string, types ...string) map[string]any {
	t.Helper()
	return whPost(t, env, "POST", "/api/webhook-endpoints", map[string]any{"url": url, "event_types": types}, h, 201)
}

// whSame asserts that got is exactly want (as JSON).
func whSame(t *testing.T, got, want any) {
	t.Helper()
	foExpect(t, &apptest.Response{Status: 200, Body: foMustJSON(t, got)}, 200, want)
}

// whTime parses an instant of a response.
func whTime(t *testing.T, v any) time.Time {
	t.Helper()
	s, _ := v.(string)
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("instant %v: %v", v, err)
	}
	return at
}

// without is m without the keys.
func whWithout(m map[string]any, keys ...string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if !slices.Contains(keys, k) {
			out[k] = v
		}
	}
	return out
}

// TestWebhookEndpointsCRUD: create (the secret shown once, the exact
// JSON), get, list with paging, PATCH (turning a service-disabled endpoint
// on clears the disabling), DELETE; another tenant's endpoint is 404 on
// every route and never listed.
func TestWebhookEndpointsCRUD(t *testing.T) {
	rcv := newWHReceiver(t, 200)
	eachWebhookEnv(t, []*whReceiver{rcv}, func(t *testing.T, env *apptest.Env) {
		w := newFOWorld(env)
		before := time.Now().Add(-time.Second)
		res := env.Do("POST", "/api/webhook-endpoints", map[string]any{"url": rcv.url("/hook"), "description": "CRM",
			"event_types": []string{webhook.TypeDecisionRecorded, webhook.TypeActivityStatusChanged}}, w.ha)
		got := actOK(t, res, 201)
		id, secret := got["id"].(string), got["secret"].(string)
		want := map[string]any{"id": id, "url": rcv.url("/hook"), "description": "CRM",
			"eventTypes": []string{webhook.TypeDecisionRecorded, webhook.TypeActivityStatusChanged}, "isActive": true,
			"disabledAt": nil, "disabledReason": nil, "failureCount": 0, "failingSince": nil, "previousSecretExpiresAt": nil,
			"createdAt": got["createdAt"], "updatedAt": got["updatedAt"], "secret": secret}
		foExpect(t, res, 201, want)
		key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
		if !strings.HasPrefix(secret, "whsec_") || err != nil || len(key) != 24 {
			t.Fatalf("secret %q: want whsec_ and the base64 of 24 bytes (%v)", secret, err)
		}
		// The two stamps come from two clock reads (the house's time mixin).
		if at := whTime(t, got["createdAt"]); at.Before(before) || at.After(time.Now().Add(time.Second)) ||
			whTime(t, got["updatedAt"]).Sub(at) > time.Millisecond {
			t.Fatalf("stamps %v %v", got["createdAt"], got["updatedAt"])
		}
		stored := env.App.DB.Client.WebhookEndpoint.GetX(sys, uuid.MustParse(id))
		if strings.Contains(string(stored.SecretEncrypted), secret) || strings.Contains(string(stored.SecretEncrypted), string(key)) {
			t.Fatal("the secret is stored in clear")
		}
		shown := whWithout(want, "secret")
		foExpect(t, env.Do("GET", "/api/webhook-endpoints/"+id, nil, w.ha), 200, shown)

		// Defaults: description "", is_active as sent.
		off := whPost(t, env, "POST", "/api/webhook-endpoints", map[string]any{"url": "https://hooks.example.com/reten", "description": nil,
			"event_types": webhook.EventTypes, "is_active": false}, w.ha, 201)
		if off["description"] != "" || off["isActive"] != false || len(off["eventTypes"].([]any)) != 5 {
			t.Fatalf("defaults: %v", off)
		}
		third := whWithout(whEndpoint(t, env, w.ha, "https://hooks.example.com/third", webhook.TypeLifecycleRunFinished), "secret")
		offShown := whWithout(off, "secret")

		// The list: oldest first, paged; per_page at most 100.
		page := func(p, per, total int, items ...any) map[string]any {
			return map[string]any{"data": append([]any{}, items...), "meta": map[string]any{"page": p, "limit": per, "total": total,
				"totalPages": (total + per - 1) / per}}
		}
		foExpect(t, env.Do("GET", "/api/webhook-endpoints", nil, w.ha), 200, page(1, 25, 3, shown, offShown, third))
		foExpect(t, env.Do("GET", "/api/webhook-endpoints?per_page=2&page=2", nil, w.ha), 200, page(2, 2, 3, third))
		apptest.ExpectError(t, env.Do("GET", "/api/webhook-endpoints?per_page=101", nil, w.ha), 400, []string{"per_page must not be greater than 100"})
		apptest.ExpectError(t, env.Do("GET", "/api/webhook-endpoints?per_page=0&page=x", nil, w.ha), 400,
			[]string{"page must be an integer number", "per_page must not be less than 1"})

		// Another tenant: an empty list, and 404 on every route of A's endpoint.
		foExpect(t, env.Do("GET", "/api/webhook-endpoints", nil, w.hb), 200, page(1, 25, 0))
		bOwn := whEndpoint(t, env, w.hb, "https://hooks.example.com/beta", webhook.TypeDecisionRecorded)
		if l := env.Do("GET", "/api/webhook-endpoints", nil, w.hb).Map(t); l["meta"].(map[string]any)["total"] != 1.0 ||
			l["data"].([]any)[0].(map[string]any)["id"] != bOwn["id"] {
			t.Fatalf("Beta's list: %v", l)
		}
		for _, c := range []struct {
			method, path string
			body         any
		}{
			{"GET", "", nil}, {"PATCH", "", map[string]any{"description": "x"}}, {"DELETE", "", nil},
			{"POST", "/rotate-secret", map[string]any{}}, {"POST", "/ping", nil}, {"GET", "/deliveries", nil},
		} {
			apptest.ExpectError(t, env.Do(c.method, "/api/webhook-endpoints/"+id+c.path, c.body, w.hb), 404, webhook.MsgEndpointNotFound)
			apptest.ExpectError(t, env.Do(c.method, "/api/webhook-endpoints/"+uuid.NewString()+c.path, c.body, w.ha), 404, webhook.MsgEndpointNotFound)
			apptest.ExpectError(t, env.Do(c.method, "/api/webhook-endpoints/nope"+c.path, c.body, w.ha), 400, "Validation failed (uuid is expected)")
		}
		if len(rcv.take()) != 0 {
			t.Fatal("a refused ping reached the receiver")
		}
		foExpect(t, env.Do("GET", "/api/webhook-endpoints/"+id, nil, w.ha), 200, shown) // untouched

		// An API key: webhook:manage creates (recorded as by the key's
		// owner, as everywhere: tenancy.Actor), webhook:view only reads.
		manage, _ := env.CreateKey(w.a.TenantID, w.a.UserID, uuid.Nil, auth.PermWebhookManage)
		viewOnly, _ := env.CreateKey(w.a.TenantID, w.a.UserID, uuid.Nil, auth.PermWebhookView)
		byKey := whEndpoint(t, env, apptest.Key(manage), "https://hooks.example.com/key", webhook.TypeDecisionRecorded)["id"].(string)
		if e := env.App.DB.Client.WebhookEndpoint.GetX(sys, uuid.MustParse(byKey)); e.CreatedBy == nil || *e.CreatedBy != w.a.UserID ||
			stored.CreatedBy == nil || *stored.CreatedBy != w.a.UserID {
			t.Fatalf("createdBy: by key %v, by the admin %v", e.CreatedBy, stored.CreatedBy)
		}
		apptest.ExpectError(t, env.Do("POST", "/api/webhook-endpoints", map[string]any{}, apptest.Key(viewOnly)), 403,
			"Required permissions: webhook:manage")
		foExpect(t, env.Do("GET", "/api/webhook-endpoints/"+id, nil, apptest.Key(viewOnly)), 200, shown)
		foExpect(t, env.Do("DELETE", "/api/webhook-endpoints/"+byKey, nil, apptest.Key(manage)), 204, nil)

		// PATCH: absent keeps, null description clears.
		p := actOK(t, env.Do("PATCH", "/api/webhook-endpoints/"+id, map[string]any{"description": nil,
			"event_types": []string{webhook.TypeLifecycleStateChanged}}, w.ha), 200)
		want = whWithout(shown)
		want["description"], want["eventTypes"], want["updatedAt"] = "", []string{webhook.TypeLifecycleStateChanged}, p["updatedAt"]
		whSame(t, p, want)
		if !whTime(t, p["updatedAt"]).After(whTime(t, p["createdAt"])) {
			t.Fatalf("updatedAt %v did not move", p["updatedAt"])
		}

		// An endpoint the service turned off after failures, turned on again.
		offID := uuid.MustParse(offShown["id"].(string))
		at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		env.App.DB.Client.WebhookEndpoint.UpdateOneID(offID).SetDisabledAt(at).SetDisabledReason(webhook.DisabledFailing).
			SetFailureCount(20).SetFailingSince(at.Add(-24 * time.Hour)).ExecX(sys)
		g := actOK(t, env.Do("GET", "/api/webhook-endpoints/"+offID.String(), nil, w.ha), 200)
		if g["disabledReason"] != webhook.DisabledFailing || g["failureCount"] != 20.0 || !whTime(t, g["disabledAt"]).Equal(at) {
			t.Fatalf("disabled endpoint %v", g)
		}
		p = actOK(t, env.Do("PATCH", "/api/webhook-endpoints/"+offID.String(), map[string]any{"is_active": true}, w.ha), 200)
		want = whWithout(offShown)
		want["isActive"], want["updatedAt"] = true, p["updatedAt"]
		whSame(t, p, want)

		// DELETE: 204 with no body, then 404 everywhere.
		foExpect(t, env.Do("DELETE", "/api/webhook-endpoints/"+id, nil, w.ha), 204, nil)
		apptest.ExpectError(t, env.Do("GET", "/api/webhook-endpoints/"+id, nil, w.ha), 404, webhook.MsgEndpointNotFound)
		apptest.ExpectError(t, env.Do("DELETE", "/api/webhook-endpoints/"+id, nil, w.ha), 404, webhook.MsgEndpointNotFound)
		foExpect(t, env.Do("GET", "/api/webhook-endpoints", nil, w.ha), 200, page(1, 25, 2, want, third))
	})
}

// TestWebhookEndpointValidation: every rule of an endpoint's body, each
// message exact, every broken rule of a body in one 400; PATCH applies the
// rules of the members sent.
func TestWebhookEndpointValidation(t *testing.T) {
	rcv, hidden := newWHReceiver(t, 200), newWHReceiver(t, 200)
	eachWebhookEnv(t, []*whReceiver{rcv}, func(t *testing.T, env *apptest.Env) {
		w := newFOWorld(env)
		ok := []string{webhook.TypeDecisionRecorded}
		for _, c := range []struct {
			name string
			body any
			msgs []string
		}{
			{"empty", map[string]any{}, []string{webhook.MsgURL, webhook.MsgEventTypesEmpty}},
			{"not a url, unknown and repeated types", map[string]any{"url": "not a url", "event_types": []string{"nope", "nope"}},
				[]string{webhook.MsgURL, webhook.MsgEventType, webhook.MsgEventTypesUnique}},
			{"relative", map[string]any{"url": "/hooks", "event_types": ok}, []string{webhook.MsgURL}},
			{"ftp", map[string]any{"url": "ftp://example.com/x", "event_types": []string{}}, []string{webhook.MsgURL, webhook.MsgEventTypesEmpty}},
			{"http", map[string]any{"url": "http://example.com/x", "event_types": ok}, []string{webhook.MsgURLHTTPS}},
			{"private", map[string]any{"url": "https://10.1.2.3/x", "event_types": ok}, []string{webhook.MsgURLPrivate}},
			{"metadata over http", map[string]any{"url": "http://169.254.169.254/latest", "event_types": ok},
				[]string{webhook.MsgURLHTTPS, webhook.MsgURLPrivate}},
			{"ipv6 loopback", map[string]any{"url": "https://[::1]:8443/", "event_types": ok}, []string{webhook.MsgURLPrivate}},
			{"loopback not allowed", map[string]any{"url": hidden.url("/x"), "event_types": ok}, []string{webhook.MsgURLHTTPS, webhook.MsgURLPrivate}},
			{"credentials", map[string]any{"url": "https://user:pw@example.com/x", "event_types": ok}, []string{webhook.MsgURLCredentials}},
			{"too long", map[string]any{"url": "https://example.com/" + strings.Repeat("a", 2029), "event_types": ok}, []string{webhook.MsgURLTooLong}},
			{"description", map[string]any{"url": "https://example.com/", "event_types": ok, "description": strings.Repeat("d", 501)},
				[]string{webhook.MsgDescription}},
			{"ping is no subscription", map[string]any{"url": "https://example.com/", "event_types": []string{webhook.TypePing}},
				[]string{webhook.MsgEventType}},
			{"nulls", map[string]any{"url": nil, "event_types": nil, "is_active": nil},
				[]string{"url must not be null", "event_types must not be null", "is_active must not be null"}},
			{"unknown members", map[string]any{"url": "https://example.com/", "event_types": ok, "secret": "whsec_x", "eventTypes": ok},
				[]string{"property eventTypes should not exist", "property secret should not exist"}},
			{"wrong types", map[string]any{"url": 5, "description": true, "event_types": "activity.status_changed", "is_active": "yes"},
				[]string{"url must be a string", "description must be a string", "event_types must be an array of strings",
					"is_active must be a boolean value"}},
			{"numbers in the types", map[string]any{"url": "https://example.com/", "event_types": []any{1}},
				[]string{"event_types must be an array of strings"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("POST", "/api/webhook-endpoints", c.body, w.ha), 400, c.msgs)
			})
		}
		apptest.ExpectError(t, env.Do("POST", "/api/webhook-endpoints", "{", w.ha), 400, "Malformed JSON body")
		if n := env.App.DB.Client.WebhookEndpoint.Query().CountX(sys); n != 0 {
			t.Fatalf("%d endpoints written by refused bodies", n)
		}
		// Exactly 2,048 characters, and http to a host:port the deployment names.
		whEndpoint(t, env, w.ha, "https://example.com/"+strings.Repeat("a", 2028), ok...)
		e := whEndpoint(t, env, w.ha, rcv.url("/hook"), ok...)
		path := "/api/webhook-endpoints/" + e["id"].(string)
		for _, c := range []struct {
			body any
			msgs []string
		}{
			{map[string]any{"url": nil}, []string{"url must not be null"}},
			{map[string]any{"url": "ftp://x", "event_types": []string{}}, []string{webhook.MsgURL, webhook.MsgEventTypesEmpty}},
			{map[string]any{"event_types": nil, "is_active": nil}, []string{"event_types must not be null", "is_active must not be null"}},
			{map[string]any{"url": "https://192.168.1.1/"}, []string{webhook.MsgURLPrivate}},
			{map[string]any{"description": strings.Repeat("é", 501)}, []string{webhook.MsgDescription}},
			{map[string]any{"secret": "x"}, []string{"property secret should not exist"}},
		} {
			apptest.ExpectError(t, env.Do("PATCH", path, c.body, w.ha), 400, c.msgs)
		}
		// 500 characters of any script fit.
		if p := actOK(t, env.Do("PATCH", path, map[string]any{"description": strings.Repeat("é", 500)}, w.ha), 200); p["url"] != rcv.url("/hook") {
			t.Fatalf("patched %v", p)
		}
	})
}

// whPing pings endpoint id and returns the answer (200) with its payload
// as sent.
func whPing(t *testing.T, env *apptest.Env, h apptest.Headers, id string) (map[string]any, json.RawMessage) {
	t.Helper()
	res := env.Do("POST", "/api/webhook-endpoints/"+id+"/ping", nil, h)
	d := actOK(t, res, 200)
	var raw struct {
		Payload json.RawMessage `json:"payload"`
	}
	res.JSON(t, &raw)
	return d, raw.Payload
}

// whRefused asserts a ping delivery refused before connecting.
func whRefused(t *testing.T, d map[string]any) {
	t.Helper()
	msg, _ := d["lastError"].(string)
	as := d["attempts"].([]any)
	if d["status"] != "FAILED" || d["attemptCount"] != 1.0 || d["lastStatusCode"] != nil || !strings.Contains(msg, "is not a public address") ||
		d["nextAttemptAt"] != nil || len(as) != 1 {
		t.Fatalf("refused ping: %v", d)
	}
	a := as[0].(map[string]any)
	if a["statusCode"] != nil || a["error"] != msg || a["responseBody"] != "" || a["number"] != 1.0 {
		t.Fatalf("refused attempt: %v", a)
	}
}

// TestWebhookPing: a ping reaches an allowed local receiver at once, signed
// so that the reference library verifies it with the secret of the
// creation, and answers its delivery; a receiver answering 500 makes a
// FAILED delivery, neither retried nor counted; an address outside the
// allowlist, literal or by name, is refused before any connection.
func TestWebhookPing(t *testing.T) {
	rcv, down, hidden := newWHReceiver(t, 200), newWHReceiver(t, 500), newWHReceiver(t, 200)
	eachWebhookEnv(t, []*whReceiver{rcv, down}, func(t *testing.T, env *apptest.Env) {
		hidden.take()
		w := newFOWorld(env)
		e := whEndpoint(t, env, w.ha, rcv.url("/hook"), webhook.TypeDecisionRecorded)
		id, secret := e["id"].(string), e["secret"].(string)
		before := time.Now().Unix()
		d, payload := whPing(t, env, w.ha, id)
		got := rcv.take()
		if len(got) != 1 {
			t.Fatalf("%d requests, want 1", len(got))
		}
		r := got[0]
		if err := whVerify(t, secret, r); err != nil {
			t.Fatalf("the reference library refuses the ping: %v (headers %v)", err, r.header)
		}
		ts, err := strconv.ParseInt(r.header.Get("webhook-timestamp"), 10, 64)
		if r.path != "/hook" || r.header.Get("Content-Type") != "application/json" || r.header.Get("User-Agent") != webhook.UserAgent ||
			r.header.Get("webhook-id") != d["eventId"] || err != nil || ts < before || ts > time.Now().Unix() ||
			strings.Count(r.header.Get("webhook-signature"), "v1,") != 1 || string(r.body) != string(payload) {
			t.Fatalf("request %s %v %s; payload %s", r.path, r.header, r.body, payload)
		}
		a := d["attempts"].([]any)[0].(map[string]any)
		p := d["payload"].(map[string]any)
		whSame(t, d, map[string]any{"id": d["id"], "endpointId": id, "eventId": r.header.Get("webhook-id"), "eventType": webhook.TypePing,
			"status": "SUCCEEDED", "attemptCount": 1, "nextAttemptAt": nil, "lastAttemptAt": d["lastAttemptAt"], "lastStatusCode": 200,
			"lastError": nil, "replayOf": nil,
			"payload":   map[string]any{"type": webhook.TypePing, "timestamp": p["timestamp"], "data": map[string]any{"endpointId": id, "message": "Reten webhook test"}},
			"attempts":  []any{map[string]any{"number": 1, "attemptedAt": a["attemptedAt"], "latencyMs": a["latencyMs"], "statusCode": 200, "error": nil, "responseBody": "answered 200"}},
			"createdAt": d["createdAt"], "updatedAt": d["updatedAt"]})
		if !whTime(t, p["timestamp"]).Equal(whTime(t, d["createdAt"])) || whTime(t, d["lastAttemptAt"]).Before(whTime(t, a["attemptedAt"])) ||
			a["latencyMs"].(float64) < 0 {
			t.Fatalf("instants of the ping %v", d)
		}
		other, _ := webhook.NewSecret()
		tampered := r
		tampered.body = []byte(strings.Replace(string(r.body), "Reten", "Other", 1))
		if whVerify(t, other, r) == nil || whVerify(t, secret, tampered) == nil {
			t.Fatal("a ping verified with another secret or another body")
		}

		// Even a turned-off endpoint is pinged.
		actOK(t, env.Do("PATCH", "/api/webhook-endpoints/"+id, map[string]any{"is_active": false}, w.ha), 200)
		if d, _ := whPing(t, env, w.ha, id); d["status"] != "SUCCEEDED" || len(rcv.take()) != 1 {
			t.Fatalf("ping of a turned-off endpoint: %v", d)
		}

		// A receiver answering 500: FAILED at once, not retried, not counted.
		bad := whEndpoint(t, env, w.ha, down.url("/down"), webhook.TypeDecisionRecorded)
		d, _ = whPing(t, env, w.ha, bad["id"].(string))
		a = d["attempts"].([]any)[0].(map[string]any)
		if d["status"] != "FAILED" || d["lastStatusCode"] != 500.0 || d["lastError"] != "the endpoint answered 500" || d["nextAttemptAt"] != nil ||
			a["statusCode"] != 500.0 || a["error"] != "the endpoint answered 500" || a["responseBody"] != "answered 500" {
			t.Fatalf("failed ping %v", d)
		}
		if n, err := env.App.Webhooks.Deliver(context.Background(), time.Now().Add(24*time.Hour)); err != nil || n != 0 || len(down.take()) != 1 {
			t.Fatalf("a failed ping was retried: %d, %v", n, err)
		}
		if g := actOK(t, env.Do("GET", "/api/webhook-endpoints/"+bad["id"].(string), nil, w.ha), 200); g["failureCount"] != 0.0 || g["failingSince"] != nil {
			t.Fatalf("a failed ping counted: %v", g)
		}

		// Refused before connecting: a literal loopback address the
		// allowlist does not name (written straight to the database), and a
		// name resolving to one.
		moved := whEndpoint(t, env, w.ha, rcv.url("/moved"), webhook.TypeDecisionRecorded)["id"].(string)
		env.App.DB.Client.WebhookEndpoint.UpdateOneID(uuid.MustParse(moved)).SetURL(hidden.url("/x")).ExecX(sys)
		d, _ = whPing(t, env, w.ha, moved)
		whRefused(t, d)
		env.App.DB.Client.WebhookEndpoint.UpdateOneID(uuid.MustParse(moved)).SetURL("http://127.0.0.1:9/").ExecX(sys)
		d, _ = whPing(t, env, w.ha, moved)
		whRefused(t, d)
		_, port, _ := strings.Cut(hidden.srv.Listener.Addr().String(), ":")
		named := whEndpoint(t, env, w.ha, "https://localhost:"+port+"/x", webhook.TypeDecisionRecorded)["id"].(string)
		d, _ = whPing(t, env, w.ha, named)
		whRefused(t, d)
		if n := len(hidden.take()) + len(rcv.take()) + len(down.take()); n != 0 {
			t.Fatalf("refused pings reached %d servers", n)
		}
	})
}

// TestWebhookRotateSecret: a rotation shows a new secret once; the replaced
// one keeps signing for the overlap (1440 minutes by default, 0 to 10080),
// so that a delivery verifies with either; without overlap only the new
// one signs.
func TestWebhookRotateSecret(t *testing.T) {
	rcv := newWHReceiver(t, 200)
	eachWebhookEnv(t, []*whReceiver{rcv}, func(t *testing.T, env *apptest.Env) {
		w := newFOWorld(env)
		e := whEndpoint(t, env, w.ha, rcv.url("/hook"), webhook.TypeDecisionRecorded)
		id, first := e["id"].(string), e["secret"].(string)
		path := "/api/webhook-endpoints/" + id + "/rotate-secret"
		rotate := func(body any) map[string]any {
			t.Helper()
			before := time.Now()
			r := actOK(t, env.Do("POST", path, body, w.ha), 200)
			want := whWithout(e, "secret")
			want["secret"], want["previousSecretExpiresAt"], want["updatedAt"] = r["secret"], r["previousSecretExpiresAt"], r["updatedAt"]
			whSame(t, r, want)
			if s, _ := r["secret"].(string); !strings.HasPrefix(s, "whsec_") || len(s) != 38 {
				t.Fatalf("secret %v", r["secret"])
			}
			minutes := 1440.0
			if m, ok := body.(map[string]any); ok && m["overlap_minutes"] != nil {
				minutes = float64(m["overlap_minutes"].(int))
			}
			overlap := time.Duration(minutes) * time.Minute
			if minutes == 0 {
				if r["previousSecretExpiresAt"] != nil {
					t.Fatalf("no overlap: %v", r)
				}
			} else if at := whTime(t, r["previousSecretExpiresAt"]); at.Before(before.Add(overlap).Truncate(time.Microsecond)) || at.After(time.Now().Add(overlap)) {
				t.Fatalf("previousSecretExpiresAt %v, want now + %v", at, overlap)
			}
			foExpect(t, env.Do("GET", "/api/webhook-endpoints/"+id, nil, w.ha), 200, whWithout(r, "secret"))
			return r
		}
		signedBy := func(secrets ...string) {
			t.Helper()
			whPing(t, env, w.ha, id)
			got := rcv.take()
			if len(got) != 1 || strings.Count(got[0].header.Get("webhook-signature"), "v1,") != len(secrets) {
				t.Fatalf("requests %v, want one signed %d times", got, len(secrets))
			}
			for _, s := range secrets {
				if err := whVerify(t, s, got[0]); err != nil {
					t.Fatalf("verify with %s: %v", s, err)
				}
			}
		}
		r1 := rotate(nil)
		if r1["secret"] == first {
			t.Fatal("the rotation kept the secret")
		}
		signedBy(r1["secret"].(string), first)
		// Once the overlap has passed, the replaced secret no longer signs.
		env.App.DB.Client.WebhookEndpoint.UpdateOneID(uuid.MustParse(id)).SetPreviousSecretExpiresAt(time.Now().Add(-time.Second)).ExecX(sys)
		signedBy(r1["secret"].(string))
		r2 := rotate(map[string]any{"overlap_minutes": 0})
		signedBy(r2["secret"].(string))
		whPing(t, env, w.ha, id)
		if got := rcv.take(); whVerify(t, r1["secret"].(string), got[0]) == nil || whVerify(t, first, got[0]) == nil {
			t.Fatal("a replaced secret without overlap still signs")
		}
		rotate(map[string]any{"overlap_minutes": 10080})
		rotate(map[string]any{"overlap_minutes": 1})

		for _, c := range []struct {
			body any
			msgs []string
		}{
			{map[string]any{"overlap_minutes": -1}, []string{webhook.MsgOverlapMin}},
			{map[string]any{"overlap_minutes": 10081}, []string{webhook.MsgOverlapMax}},
			{map[string]any{"overlap_minutes": nil}, []string{"overlap_minutes must not be null"}},
			{map[string]any{"overlap_minutes": "60"}, []string{"overlap_minutes must be an integer number"}},
			{map[string]any{"overlap_minutes": 1.5}, []string{"overlap_minutes must be an integer number"}},
			{map[string]any{"overlap": 60}, []string{"property overlap should not exist"}},
		} {
			apptest.ExpectError(t, env.Do("POST", path, c.body, w.ha), 400, c.msgs)
		}
	})
}

// TestWebhookDeliveriesAndReplay: an endpoint's deliveries newest first
// with their payload and attempts, filtered by status and event_type
// (every broken parameter in one 400, before the 404); a replay queues a
// new delivery of the same event (202, replayOf, same webhook-id) that the
// job sends; an endpoint that is off refuses replays with 422.
func TestWebhookDeliveriesAndReplay(t *testing.T) {
	rcv := newWHReceiver(t, 200)
	eachWebhookEnv(t, []*whReceiver{rcv}, func(t *testing.T, env *apptest.Env) {
		w := newFOWorld(env)
		e := whEndpoint(t, env, w.ha, rcv.url("/hook"), webhook.TypeActivityStatusChanged)
		id := e["id"].(string)
		ok, _ := whPing(t, env, w.ha, id)
		rcv.status.Store(503)
		failed, _ := whPing(t, env, w.ha, id)
		rcv.status.Store(200)
		rcv.take()
		base := "/api/webhook-endpoints/" + id + "/deliveries"
		page := func(p, per, total int, items ...any) map[string]any {
			return map[string]any{"data": append([]any{}, items...), "meta": map[string]any{"page": p, "limit": per, "total": total,
				"totalPages": (total + per - 1) / per}}
		}
		foExpect(t, env.Do("GET", base, nil, w.ha), 200, page(1, 25, 2, failed, ok))
		for q, want := range map[string]map[string]any{
			"?status=FAILED":                             page(1, 25, 1, failed),
			"?status=SUCCEEDED":                          page(1, 25, 1, ok),
			"?status=PENDING":                            page(1, 25, 0),
			"?event_type=webhook.ping":                   page(1, 25, 2, failed, ok),
			"?event_type=activity.status_changed":        page(1, 25, 0),
			"?event_type=webhook.ping&status=FAILED":     page(1, 25, 1, failed),
			"?status=&event_type=":                       page(1, 25, 2, failed, ok),
			"?per_page=1&page=2":                         page(2, 1, 2, ok),
			"?per_page=1&page=3&event_type=webhook.ping": page(3, 1, 2),
		} {
			foExpect(t, env.Do("GET", base+q, nil, w.ha), 200, want)
		}
		apptest.ExpectError(t, env.Do("GET", base+"?per_page=101&status=failed&event_type=nope", nil, w.ha), 400,
			[]string{"per_page must not be greater than 100", webhook.MsgStatus, webhook.MsgEventTypeFilter})
		apptest.ExpectError(t, env.Do("GET", base+"?event_type=generation.decision", nil, w.ha), 400, []string{webhook.MsgEventTypeFilter})
		// A broken parameter is a 400 before the endpoint is looked up.
		apptest.ExpectError(t, env.Do("GET", base+"?status=X", nil, w.hb), 400, []string{webhook.MsgStatus})
		apptest.ExpectError(t, env.Do("GET", base, nil, w.hb), 404, webhook.MsgEndpointNotFound)

		// An event's delivery (an activity created through the API).
		hp := w.ha.With("x-project-id", w.a.ProjectID.String())
		shop := actOK(t, env.Do("POST", "/api/commerces", map[string]any{"name": "Kiosko"}, w.ha), 201)["id"]
		actOK(t, env.Do("POST", "/api/activities", map[string]any{"commerce_id": shop, "type": "TASK", "channel": "SMS",
			"scheduled_at": "2030-05-01T10:00:00Z"}, hp), 201)
		whDeliver(t, env, 1)
		first := rcv.take()[0]
		sent := actOK(t, env.Do("GET", base+"?event_type=activity.status_changed", nil, w.ha), 200)["data"].([]any)[0].(map[string]any)
		if sent["status"] != "SUCCEEDED" || sent["eventId"] != first.header.Get("webhook-id") {
			t.Fatalf("the event's delivery %v", sent)
		}

		// Replay: a new PENDING delivery of the same event, due at once,
		// that the job sends under the same webhook-id with the same body.
		before := time.Now()
		replay := func(id string, h apptest.Headers) *apptest.Response {
			return env.Do("POST", "/api/webhook-deliveries/"+id+"/replay", nil, h)
		}
		res := replay(sent["id"].(string), w.ha)
		again := actOK(t, res, 202)
		foExpect(t, res, 202, map[string]any{"id": again["id"], "endpointId": id, "eventId": sent["eventId"],
			"eventType": webhook.TypeActivityStatusChanged, "status": "PENDING", "attemptCount": 0, "nextAttemptAt": again["nextAttemptAt"],
			"lastAttemptAt": nil, "lastStatusCode": nil, "lastError": nil, "replayOf": sent["id"], "payload": sent["payload"],
			"attempts": []any{}, "createdAt": again["createdAt"], "updatedAt": again["updatedAt"]})
		if at := whTime(t, again["nextAttemptAt"]); again["id"] == sent["id"] || at.Before(before.Add(-time.Millisecond)) || at.After(time.Now()) {
			t.Fatalf("replay %v", again)
		}
		whDeliver(t, env, 1)
		got := rcv.take()
		if len(got) != 1 || got[0].header.Get("webhook-id") != sent["eventId"] || string(got[0].body) != string(first.body) {
			t.Fatalf("replayed request %v, want the event's id and body", got)
		}
		if err := whVerify(t, e["secret"].(string), got[0]); err != nil {
			t.Fatal(err)
		}
		list := env.Do("GET", base, nil, w.ha).Map(t)["data"].([]any)
		if d := list[0].(map[string]any); len(list) != 4 || d["id"] != again["id"] || d["status"] != "SUCCEEDED" || d["attemptCount"] != 1.0 ||
			d["nextAttemptAt"] != nil || d["lastStatusCode"] != 200.0 || len(d["attempts"].([]any)) != 1 {
			t.Fatalf("deliveries after the replay: %v", list)
		}

		// A ping's delivery, successful or failed, is replayed too (202):
		// the replay must be sent like any other.
		for _, p := range []map[string]any{ok, failed} {
			r := actOK(t, replay(p["id"].(string), w.ha), 202)
			if r["eventId"] != p["eventId"] || r["replayOf"] != p["id"] || r["status"] != "PENDING" || r["eventType"] != webhook.TypePing {
				t.Fatalf("replay of a ping %v", r)
			}
		}
		if n, err := env.App.Webhooks.Deliver(context.Background(), time.Now()); err != nil || n != 2 {
			t.Errorf("delivered %d replays of pings (%v), want 2: a replayed ping is never sent", n, err)
		}
		rcv.take()

		apptest.ExpectError(t, replay(ok["id"].(string), w.hb), 404, webhook.MsgDeliveryNotFound)
		apptest.ExpectError(t, replay(uuid.NewString(), w.ha), 404, webhook.MsgDeliveryNotFound)
		apptest.ExpectError(t, replay("nope", w.ha), 400, "Validation failed (uuid is expected)")
		actOK(t, env.Do("PATCH", "/api/webhook-endpoints/"+id, map[string]any{"is_active": false}, w.ha), 200)
		apptest.ExpectError(t, replay(sent["id"].(string), w.ha), 422, webhook.MsgReplayInactive)
		apptest.ExpectError(t, replay(ok["id"].(string), w.ha), 422, webhook.MsgReplayInactive)
		// A pending delivery waits while its endpoint is off.
		env.App.DB.Client.WebhookEndpoint.UpdateOneID(uuid.MustParse(id)).SetIsActive(true).ExecX(sys)
		pending := actOK(t, replay(sent["id"].(string), w.ha), 202)
		actOK(t, env.Do("PATCH", "/api/webhook-endpoints/"+id, map[string]any{"is_active": false}, w.ha), 200)
		if n, err := env.App.Webhooks.Deliver(context.Background(), time.Now().Add(time.Hour)); err != nil || n != 0 || len(rcv.take()) != 0 {
			t.Fatalf("delivered %d to an endpoint that is off (%v)", n, err)
		}
		if l := env.Do("GET", base+"?status=PENDING&event_type=activity.status_changed", nil, w.ha).Map(t)["data"].([]any); len(l) != 1 ||
			l[0].(map[string]any)["id"] != pending["id"] {
			t.Fatalf("pending deliveries %v, want the last replay", l)
		}

		// Deleting the endpoint deletes its deliveries and their attempts.
		foExpect(t, env.Do("DELETE", "/api/webhook-endpoints/"+id, nil, w.ha), 204, nil)
		c := env.App.DB.Client
		if d, a := c.WebhookDelivery.Query().CountX(sys), c.WebhookAttempt.Query().CountX(sys); d != 0 || a != 0 {
			t.Fatalf("%d deliveries and %d attempts left by the deleted endpoint", d, a)
		}
		apptest.ExpectError(t, replay(ok["id"].(string), w.ha), 404, webhook.MsgDeliveryNotFound)
	})
}
