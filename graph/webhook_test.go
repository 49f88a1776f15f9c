package graph_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/outbound"
	"github.com/reten-io/reten/internal/webhook"
)

const (
	whEndpointFields = `id tenantID url description eventTypes isActive previousSecretExpiresAt failureCount failingSince disabledAt disabledReason createdBy`
	whDeliveryFields = `id endpointID eventID eventType status attempts lastAttemptAt lastStatusCode lastError replayOf nextAttemptAt payload
		attemptLog { number attemptedAt latencyMs statusCode error responseBody }`
	whCreate = `mutation($in: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $in) { endpoint { ` + whEndpointFields + ` } secret } }`
	whUpdate = `mutation($id: ID!, $in: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(id: $id, input: $in) { ` + whEndpointFields + ` } }`
	whRotate = `mutation($id: ID!, $m: Int) { rotateWebhookEndpointSecret(id: $id, overlapMinutes: $m) { endpoint { id previousSecretExpiresAt } secret } }`
	whPing   = `mutation($id: ID!) { pingWebhookEndpoint(id: $id) { ` + whDeliveryFields + ` } }`
	whReplay = `mutation($id: ID!) { replayWebhookDelivery(id: $id) { ` + whDeliveryFields + ` } }`
	whDelete = `mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }`
	whList   = `query($e: ID, $s: WebhookDeliveryStatus, $t: String, $first: Int) { webhookDeliveries(endpointID: $e, status: $s, eventType: $t, first: $first) {
		totalCount edges { node { ` + whDeliveryFields + ` } } } }`
)

// gqlReceiver is a local webhook receiver answering status.
type gqlReceiver struct {
	srv    *httptest.Server
	status atomic.Int32
	mu     sync.Mutex
	got    []*http.Request
	bodies [][]byte
}

func newGQLReceiver(t *testing.T) *gqlReceiver {
	r := &gqlReceiver{}
	r.status.Store(http.StatusOK)
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got, r.bodies = append(r.got, req), append(r.bodies, b)
		r.mu.Unlock()
		w.WriteHeader(int(r.status.Load()))
		fmt.Fprintf(w, "answered %d", r.status.Load())
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// take returns the requests and bodies received since the last take.
func (r *gqlReceiver) take() ([]*http.Request, [][]byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	got, bodies := r.got, r.bodies
	r.got, r.bodies = nil, nil
	return got, bodies
}

// eachWebhook runs fn on every database with RETEN_OUTBOUND_ALLOW naming
// the receiver, and Acme's and Beta's admins.
func eachWebhook(t *testing.T, rcv *gqlReceiver, fn func(t *testing.T, env *apptest.Env, s orgSetup)) {
	allow, err := outbound.ParseAllowlist(rcv.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	apptest.EachWith(t, func(c *app.Config) { c.OutboundAllow = allow }, func(t *testing.T, env *apptest.Env) {
		rcv.take()
		fn(t, env, newOrgSetup(t, env))
	})
}

// whCreated creates an endpoint of the receiver and returns it with its secret.
func whCreated(t *testing.T, env *apptest.Env, h apptest.Headers, url string, types ...string) (M, string) {
	t.Helper()
	out := get(t, gqlOK(t, env, h, whCreate, M{"in": M{"url": url, "eventTypes": types}}), "createWebhookEndpoint").(M)
	return out["endpoint"].(M), out["secret"].(string)
}

// TestWebhookEndpointsOverGraphQL: create (the secret in that answer
// only), update, the connection, rotate and delete through GraphQL, with
// the service's messages naming the GraphQL fields; another tenant's
// endpoint is NOT_FOUND everywhere.
func TestWebhookEndpointsOverGraphQL(t *testing.T) {
	rcv := newGQLReceiver(t)
	eachWebhook(t, rcv, func(t *testing.T, env *apptest.Env, s orgSetup) {
		url := rcv.srv.URL + "/hook"
		res := env.GraphQL(whCreate, M{"in": M{"url": url, "description": "CRM", "eventTypes": L{webhook.TypeDecisionRecorded}}}, s.h)
		var body struct {
			Data struct {
				Create struct {
					Endpoint M      `json:"endpoint"`
					Secret   string `json:"secret"`
				} `json:"createWebhookEndpoint"`
			} `json:"data"`
		}
		res.JSON(t, &body)
		ep, secret := body.Data.Create.Endpoint, body.Data.Create.Secret
		id, _ := ep["id"].(string)
		endpoint := M{"id": id, "tenantID": s.acme.TenantID.String(), "url": url, "description": "CRM",
			"eventTypes": L{webhook.TypeDecisionRecorded}, "isActive": true, "previousSecretExpiresAt": nil, "failureCount": 0,
			"failingSince": nil, "disabledAt": nil, "disabledReason": nil, "createdBy": s.acme.UserID.String()}
		expectData(t, res, M{"createWebhookEndpoint": M{"endpoint": endpoint, "secret": secret}})
		if !strings.HasPrefix(secret, "whsec_") || len(secret) != 38 {
			t.Fatalf("secret %q", secret)
		}
		// The secret is no field of an endpoint.
		expectBody(t, env.GraphQL(`{ webhookEndpoints { edges { node { secret } } } }`, nil, s.h), http.StatusUnprocessableEntity,
			M{"data": nil, "errors": L{M{"message": `Cannot query field "secret" on type "WebhookEndpoint".`,
				"locations": L{M{"line": 1, "column": 37}}, "extensions": M{"code": "GRAPHQL_VALIDATION_FAILED"}}}})

		// Messages name the GraphQL fields.
		expectInvalid(t, env.GraphQL(whCreate, M{"in": M{"url": "http://example.com/x", "eventTypes": L{"nope", "nope"}}}, s.h),
			"createWebhookEndpoint", webhook.MsgURLHTTPS,
			"each value in eventTypes must be one of the following values: "+strings.Join(webhook.EventTypes, ", "),
			"All eventTypes's elements must be unique")
		expectInvalid(t, env.GraphQL(whCreate, M{"in": M{"url": "https://10.0.0.1/", "eventTypes": L{}, "description": strings.Repeat("d", 501)}}, s.h),
			"createWebhookEndpoint", webhook.MsgURLPrivate, "eventTypes should not be empty", webhook.MsgDescription)
		expectInvalid(t, env.GraphQL(whUpdate, M{"id": id, "in": M{"url": "ftp://x", "eventTypes": L{}}}, s.h),
			"updateWebhookEndpoint", webhook.MsgURL, "eventTypes should not be empty")
		expectInvalid(t, env.GraphQL(whRotate, M{"id": id, "m": -1}, s.h), "rotateWebhookEndpointSecret", "overlapMinutes must not be less than 0")
		expectInvalid(t, env.GraphQL(whRotate, M{"id": id, "m": 10081}, s.h), "rotateWebhookEndpointSecret", "overlapMinutes must not be greater than 10080")

		// Update: omitted fields keep their value.
		endpoint["description"], endpoint["isActive"], endpoint["eventTypes"] = "", false, L{webhook.TypeLifecycleRunFinished, webhook.TypeDecisionRecorded}
		expectData(t, env.GraphQL(whUpdate, M{"id": id, "in": M{"description": "", "isActive": false,
			"eventTypes": L{webhook.TypeLifecycleRunFinished, webhook.TypeDecisionRecorded}}}, s.h), M{"updateWebhookEndpoint": endpoint})
		endpoint["isActive"] = true
		expectData(t, env.GraphQL(whUpdate, M{"id": id, "in": M{"isActive": true}}, s.h), M{"updateWebhookEndpoint": endpoint})

		// Rotation: a new secret; the replaced one signs for the overlap.
		before := time.Now()
		rot := get(t, gqlOK(t, env, s.h, whRotate, M{"id": id, "m": 60}), "rotateWebhookEndpointSecret").(M)
		until, err := time.Parse(time.RFC3339Nano, str(t, rot, "endpoint", "previousSecretExpiresAt"))
		if err != nil || rot["secret"] == secret || until.Before(before.Add(time.Hour).Truncate(time.Microsecond)) || until.After(time.Now().Add(time.Hour)) {
			t.Fatalf("rotation %v (%v)", rot, err)
		}
		rot = get(t, gqlOK(t, env, s.h, whRotate, M{"id": id}), "rotateWebhookEndpointSecret").(M)
		until, _ = time.Parse(time.RFC3339Nano, str(t, rot, "endpoint", "previousSecretExpiresAt"))
		if d := time.Until(until); d < 1439*time.Minute || d > 1440*time.Minute {
			t.Fatalf("default overlap: expires in %v", d)
		}
		rot = get(t, gqlOK(t, env, s.h, whRotate, M{"id": id, "m": 0}), "rotateWebhookEndpointSecret").(M)
		if canon(t, rot["endpoint"]) != canon(t, M{"id": id, "previousSecretExpiresAt": nil}) {
			t.Fatalf("rotation without overlap %v", rot)
		}

		// The connection: the tenant's endpoints only.
		const list = `{ webhookEndpoints(first: 10, orderBy: {field: CREATED_AT, direction: ASC}) { totalCount edges { node { id url } } } }`
		other, _ := whCreated(t, env, s.h, "https://hooks.example.com/b", webhook.TypeLifecycleRunFinished)
		expectData(t, env.GraphQL(list, nil, s.h), M{"webhookEndpoints": M{"totalCount": 2, "edges": L{
			M{"node": M{"id": id, "url": url}}, M{"node": M{"id": other["id"], "url": "https://hooks.example.com/b"}}}}})
		expectData(t, env.GraphQL(list, nil, s.bh), M{"webhookEndpoints": M{"totalCount": 0, "edges": L{}}})
		expectInvalid(t, env.GraphQL(`{ webhookEndpoints(first: 101) { totalCount } }`, nil, s.h), "webhookEndpoints", "first must not be greater than 100")

		// Another tenant: NOT_FOUND on every field.
		for _, c := range []struct {
			field, query string
			vars         M
		}{
			{"updateWebhookEndpoint", whUpdate, M{"id": id, "in": M{"description": "x"}}},
			{"deleteWebhookEndpoint", whDelete, M{"id": id}},
			{"rotateWebhookEndpointSecret", whRotate, M{"id": id}},
			{"pingWebhookEndpoint", whPing, M{"id": id}},
			{"webhookDeliveries", whList, M{"e": id}},
		} {
			expectFieldError(t, env.GraphQL(c.query, c.vars, s.bh), c.field, webhook.MsgEndpointNotFound, "NOT_FOUND", 404)
		}
		if got, _ := rcv.take(); len(got) != 0 {
			t.Fatal("another tenant's ping reached the receiver")
		}

		expectData(t, env.GraphQL(whDelete, M{"id": id}, s.h), M{"deleteWebhookEndpoint": true})
		expectFieldError(t, env.GraphQL(whDelete, M{"id": id}, s.h), "deleteWebhookEndpoint", webhook.MsgEndpointNotFound, "NOT_FOUND", 404)
		expectData(t, env.GraphQL(list, nil, s.h), M{"webhookEndpoints": M{"totalCount": 1, "edges": L{
			M{"node": M{"id": other["id"], "url": "https://hooks.example.com/b"}}}}})
	})
}

// whNode is a delivery node with its instants and latencies made stable:
// each present one is checked to parse and replaced by "set".
func whNode(t *testing.T, d M) M {
	t.Helper()
	out := M{}
	for k, v := range d {
		out[k] = v
	}
	for _, k := range []string{"lastAttemptAt", "nextAttemptAt"} {
		if v, ok := out[k].(string); ok {
			if _, err := time.Parse(time.RFC3339Nano, v); err != nil {
				t.Fatalf("%s = %q", k, v)
			}
			out[k] = "set"
		}
	}
	log := L{}
	for _, a := range out["attemptLog"].([]any) {
		a := a.(M)
		if _, err := time.Parse(time.RFC3339Nano, a["attemptedAt"].(string)); err != nil || a["latencyMs"].(float64) < 0 {
			t.Fatalf("attempt %v", a)
		}
		log = append(log, M{"number": a["number"], "attemptedAt": "set", "latencyMs": "set", "statusCode": a["statusCode"],
			"error": a["error"], "responseBody": a["responseBody"]})
	}
	out["attemptLog"] = log
	return out
}

// TestWebhookDeliveriesOverGraphQL: a ping to an allowed local receiver,
// verified with the reference library; the deliveries with their attempt
// log, payload and nextAttemptAt, filtered by endpoint, status and event
// type; a replay sent by the job under the same webhook-id; UNPROCESSABLE
// for an endpoint that is off; another tenant's delivery is NOT_FOUND.
func TestWebhookDeliveriesOverGraphQL(t *testing.T) {
	rcv := newGQLReceiver(t)
	eachWebhook(t, rcv, func(t *testing.T, env *apptest.Env, s orgSetup) {
		ep, secret := whCreated(t, env, s.h, rcv.srv.URL+"/hook", webhook.TypeActivityStatusChanged)
		id := ep["id"].(string)
		ok := get(t, gqlOK(t, env, s.h, whPing, M{"id": id}), "pingWebhookEndpoint").(M)
		reqs, bodies := rcv.take()
		if len(reqs) != 1 || reqs[0].Header.Get("webhook-id") != ok["eventID"] || string(bodies[0]) != ok["payload"] {
			t.Fatalf("requests %v %q; ping %v", reqs, bodies, ok)
		}
		wh, err := standardwebhooks.NewWebhook(secret)
		if err != nil {
			t.Fatal(err)
		}
		if err := wh.Verify(bodies[0], reqs[0].Header); err != nil {
			t.Fatalf("the reference library refuses the ping: %v", err)
		}
		if canon(t, ok["payload"]) != canon(t, M{"type": webhook.TypePing, "timestamp": get(t, canonMap(t, ok["payload"].(string)), "timestamp"),
			"data": M{"endpointId": id, "message": "Reten webhook test"}}) {
			t.Fatalf("payload %v", ok["payload"])
		}
		okNode := M{"id": ok["id"], "endpointID": id, "eventID": ok["eventID"], "eventType": webhook.TypePing, "status": "SUCCEEDED",
			"attempts": 1, "lastAttemptAt": "set", "lastStatusCode": 200, "lastError": nil, "replayOf": nil, "nextAttemptAt": nil,
			"payload": ok["payload"], "attemptLog": L{M{"number": 1, "attemptedAt": "set", "latencyMs": "set", "statusCode": 200, "error": nil,
				"responseBody": "answered 200"}}}
		if canon(t, whNode(t, ok)) != canon(t, okNode) {
			t.Fatalf("ping = %s\nwant   %s", canon(t, whNode(t, ok)), canon(t, okNode))
		}
		rcv.status.Store(http.StatusInternalServerError)
		failed := get(t, gqlOK(t, env, s.h, whPing, M{"id": id}), "pingWebhookEndpoint").(M)
		rcv.status.Store(http.StatusOK)
		rcv.take()
		failedNode := M{"id": failed["id"], "endpointID": id, "eventID": failed["eventID"], "eventType": webhook.TypePing, "status": "FAILED",
			"attempts": 1, "lastAttemptAt": "set", "lastStatusCode": 500, "lastError": "the endpoint answered 500", "replayOf": nil,
			"nextAttemptAt": nil, "payload": failed["payload"], "attemptLog": L{M{"number": 1, "attemptedAt": "set", "latencyMs": "set",
				"statusCode": 500, "error": "the endpoint answered 500", "responseBody": "answered 500"}}}
		if canon(t, whNode(t, failed)) != canon(t, failedNode) {
			t.Fatalf("failed ping = %s", canon(t, whNode(t, failed)))
		}

		// The list: newest first, filtered.
		nodes := func(h apptest.Headers, vars M) L {
			t.Helper()
			c := get(t, gqlOK(t, env, h, whList, vars), "webhookDeliveries").(M)
			out := L{}
			for _, e := range c["edges"].([]any) {
				out = append(out, whNode(t, e.(M)["node"].(M)))
			}
			if _, paged := vars["first"]; !paged && int(c["totalCount"].(float64)) != len(out) {
				t.Fatalf("totalCount %v of %d", c["totalCount"], len(out))
			}
			return out
		}
		same := func(got, want L) {
			t.Helper()
			if canon(t, got) != canon(t, want) {
				t.Fatalf("deliveries = %s\nwant         %s", canon(t, got), canon(t, want))
			}
		}
		same(nodes(s.h, M{"e": id}), L{failedNode, okNode})
		same(nodes(s.h, M{"e": id, "s": "FAILED"}), L{failedNode})
		same(nodes(s.h, M{"e": id, "s": "PENDING"}), L{})
		same(nodes(s.h, M{"e": id, "t": webhook.TypePing, "s": "SUCCEEDED"}), L{okNode})
		same(nodes(s.h, M{"t": webhook.TypeActivityStatusChanged}), L{})
		same(nodes(s.h, M{"first": 1}), L{failedNode})
		same(nodes(s.bh, M{}), L{})
		expectInvalid(t, env.GraphQL(whList, M{"e": id, "t": "nope"}, s.h), "webhookDeliveries",
			"eventType must be one of the following values: "+strings.Join(append(webhook.EventTypes[:5:5], webhook.TypePing), ", "))

		// An event's delivery: an activity created through the API.
		hp := s.h.With("x-project-id", s.acme.ProjectID.String())
		shop := get(t, env.Do("POST", "/api/commerces", M{"name": "Kiosko"}, s.h).Map(t), "id")
		if res := env.Do("POST", "/api/activities", M{"commerce_id": shop, "type": "TASK", "channel": "SMS", "scheduled_at": "2030-05-01T10:00:00Z"}, hp); res.Status != 201 {
			t.Fatalf("activity: %d %s", res.Status, res.Body)
		}
		if n, err := env.App.Webhooks.Deliver(context.Background(), time.Now()); err != nil || n != 1 {
			t.Fatalf("delivered %d (%v)", n, err)
		}
		_, bodies = rcv.take()
		event := get(t, gqlOK(t, env, s.h, whList, M{"e": id, "t": webhook.TypeActivityStatusChanged}), "webhookDeliveries", "edges", 0, "node").(M)
		if event["status"] != "SUCCEEDED" || event["payload"] != string(bodies[0]) {
			t.Fatalf("the event's delivery %v", event)
		}

		// Replay: the same event, PENDING, due now; the job sends it.
		again := get(t, gqlOK(t, env, s.h, whReplay, M{"id": event["id"]}), "replayWebhookDelivery").(M)
		same(L{whNode(t, again)}, L{M{"id": again["id"], "endpointID": id, "eventID": event["eventID"], "eventType": webhook.TypeActivityStatusChanged,
			"status": "PENDING", "attempts": 0, "lastAttemptAt": nil, "lastStatusCode": nil, "lastError": nil, "replayOf": event["id"],
			"nextAttemptAt": "set", "payload": event["payload"], "attemptLog": L{}}})
		if n, err := env.App.Webhooks.Deliver(context.Background(), time.Now()); err != nil || n != 1 {
			t.Fatalf("delivered %d (%v)", n, err)
		}
		reqs, bodies = rcv.take()
		if len(reqs) != 1 || reqs[0].Header.Get("webhook-id") != event["eventID"] || string(bodies[0]) != event["payload"] ||
			wh.Verify(bodies[0], reqs[0].Header) != nil {
			t.Fatalf("replayed request %v", reqs)
		}
		if got := nodes(s.h, M{"e": id, "first": 1}); get(t, got, 0, "status") != "SUCCEEDED" || get(t, got, 0, "replayOf") != event["id"] {
			t.Fatalf("the replay after delivery: %v", got)
		}
		// A ping's replay is accepted, and must be sent like any other.
		pingAgain := get(t, gqlOK(t, env, s.h, whReplay, M{"id": ok["id"]}), "replayWebhookDelivery").(M)
		if pingAgain["eventID"] != ok["eventID"] || pingAgain["status"] != "PENDING" {
			t.Fatalf("replay of a ping %v", pingAgain)
		}
		if n, err := env.App.Webhooks.Deliver(context.Background(), time.Now()); err != nil || n != 1 {
			t.Errorf("delivered %d (%v), want the ping's replay: a replayed ping is never sent", n, err)
		}
		rcv.take()

		expectFieldError(t, env.GraphQL(whReplay, M{"id": ok["id"]}, s.bh), "replayWebhookDelivery", webhook.MsgDeliveryNotFound, "NOT_FOUND", 404)
		gqlOK(t, env, s.h, whUpdate, M{"id": id, "in": M{"isActive": false}})
		expectFieldError(t, env.GraphQL(whReplay, M{"id": ok["id"]}, s.h), "replayWebhookDelivery", webhook.MsgReplayInactive,
			"UNPROCESSABLE_ENTITY", 422)
	})
}

// canonMap decodes a JSON object.
func canonMap(t *testing.T, s string) M {
	t.Helper()
	var m M
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return m
}
