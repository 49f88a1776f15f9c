package app_test

import (
	"maps"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/webhook"
)

// webhookProbes: the tenant's webhook endpoints and deliveries, and the
// uplift report (project-scoped, like its AGC). The probe endpoint's URL
// is a loopback address no deployment setting allows: a ping is refused
// before any packet is sent.
var webhookProbes = map[string]probe{
	"POST /webhook-endpoints": {body: func() any {
		return map[string]any{"url": "https://hooks.example.com/reten", "event_types": []string{webhook.TypeDecisionRecorded}}
	}},
	"GET /webhook-endpoints":                       {},
	"GET /webhook-endpoints/{id}":                  {id: (*fixture).webhookEndpoint, crossCode: 404, crossMsg: webhook.MsgEndpointNotFound},
	"PATCH /webhook-endpoints/{id}":                {id: (*fixture).webhookEndpoint, body: func() any { return map[string]any{"description": "x"} }, crossCode: 404, crossMsg: webhook.MsgEndpointNotFound},
	"DELETE /webhook-endpoints/{id}":               {id: (*fixture).webhookEndpoint, crossCode: 404, crossMsg: webhook.MsgEndpointNotFound},
	"POST /webhook-endpoints/{id}/rotate-secret":   {id: (*fixture).webhookEndpoint, body: func() any { return map[string]any{} }, crossCode: 404, crossMsg: webhook.MsgEndpointNotFound},
	"POST /webhook-endpoints/{id}/ping":            {id: (*fixture).webhookEndpoint, crossCode: 404, crossMsg: webhook.MsgEndpointNotFound},
	"GET /webhook-endpoints/{id}/deliveries":       {id: (*fixture).webhookEndpoint, crossCode: 404, crossMsg: webhook.MsgEndpointNotFound},
	"POST /webhook-deliveries/{deliveryId}/replay": {path: func(f *fixture) string { return "/webhook-deliveries/" + f.webhookDelivery() + "/replay" }, crossCode: 404, crossMsg: webhook.MsgDeliveryNotFound},
	"Query.webhookEndpoints":                       {query: `{ webhookEndpoints { totalCount } }`},
	"Query.webhookDeliveries": {query: `query($id: ID!) { webhookDeliveries(endpointID: $id) { totalCount } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.webhookEndpoint()} }, crossCode: 404, crossMsg: webhook.MsgEndpointNotFound},
	"Mutation.createWebhookEndpoint": {query: `mutation { createWebhookEndpoint(input: {url: "https://hooks.example.com/r", eventTypes: ["lifecycle_run.finished"]}) { secret } }`},
	"Mutation.updateWebhookEndpoint": {query: `mutation($id: ID!) { updateWebhookEndpoint(id: $id, input: {description: "x"}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.webhookEndpoint()} }, crossCode: 404, crossMsg: webhook.MsgEndpointNotFound},
	"Mutation.deleteWebhookEndpoint": {query: `mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.webhookEndpoint()} }, crossCode: 404, crossMsg: webhook.MsgEndpointNotFound},
	"Mutation.rotateWebhookEndpointSecret": {query: `mutation($id: ID!) { rotateWebhookEndpointSecret(id: $id) { secret } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.webhookEndpoint()} }, crossCode: 404, crossMsg: webhook.MsgEndpointNotFound},
	"Mutation.pingWebhookEndpoint": {query: `mutation($id: ID!) { pingWebhookEndpoint(id: $id) { status } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.webhookEndpoint()} }, crossCode: 404, crossMsg: webhook.MsgEndpointNotFound},
	"Mutation.replayWebhookDelivery": {query: `mutation($id: ID!) { replayWebhookDelivery(id: $id) { status } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.webhookDelivery()} }, crossCode: 404, crossMsg: webhook.MsgDeliveryNotFound},
	// The uplift of an AGC's generated activities: another tenant's AGC is not found.
	"GET /activity-generation-configs/{id}/uplift": {path: func(f *fixture) string {
		return "/activity-generation-configs/" + f.agcFor("rules", "draft").String() + "/uplift"
	}, crossCode: 404, crossMsg: agcMissing("rules")},
	"GET /activity-generation-configs/{id}/uplift.csv": {path: func(f *fixture) string {
		return "/activity-generation-configs/" + f.agcFor("rules", "draft").String() + "/uplift.csv"
	}, crossCode: 404, crossMsg: agcMissing("rules")},
	"Query.upliftReport": {query: `query($id: ID!) { upliftReport(activityGenerationConfigID: $id) { pending } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("rules", "draft")} }, crossCode: 404, crossMsg: agcMissing("rules")},
	"Query.upliftRows": {query: `query($id: ID!) { upliftRows(activityGenerationConfigID: $id) { hasNextPage } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.agcFor("rules", "draft")} }, crossCode: 404, crossMsg: agcMissing("rules")},
}

func init() { maps.Copy(probes, webhookProbes) }

// webhookEndpoint creates an active endpoint of tenant A (loopback port 9,
// which no setting allows) and returns its id.
func (f *fixture) webhookEndpoint() string {
	return f.env.App.DB.Client.WebhookEndpoint.Create().SetTenantID(f.a.TenantID).SetURL("http://127.0.0.1:9/hook").
		SetEventTypes([]string{webhook.TypeDecisionRecorded}).SetSecretEncrypted([]byte("sealed")).SaveX(f.aCtx()).ID.String()
}

// webhookDelivery creates an event of tenant A delivered to a new endpoint
// and returns the delivery's id.
func (f *fixture) webhookDelivery() string {
	c, ctx, now := f.env.App.DB.Client, f.aCtx(), time.Now().UTC()
	ep := uuid.MustParse(f.webhookEndpoint())
	ev := c.WebhookEvent.Create().SetID(webhook.NewID()).SetTenantID(f.a.TenantID).SetType(webhook.TypeDecisionRecorded).
		SetPayload(`{"type":"generation.decision_recorded","timestamp":"2026-11-29T00:00:00Z","data":{}}`).SetCreatedAt(now).SaveX(ctx)
	return c.WebhookDelivery.Create().SetTenantID(f.a.TenantID).SetEndpointID(ep).SetEventID(ev.ID).SetEventType(ev.Type).
		SetStatus("SUCCEEDED").SetNextAttemptAt(now).SetCreatedAt(now).SetUpdatedAt(now).SaveX(ctx).ID.String()
}
