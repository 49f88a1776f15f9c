package app_test

import (
	"context"
	"maps"
	"time"

	entact "github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/internal/viewer"
)

// activityProbes: activities (project-scoped). Each probe that names an
// activity gets a fresh tenant-A task (actA), so commands never collide.
var activityProbes = map[string]probe{
	"GET /activities": {},
	"POST /activities": {path: func(f *fixture) string { actProbeCommerce = f.commerceA(); return "/activities" },
		body: func() any {
			return map[string]any{"commerce_id": actProbeCommerce, "type": "TASK", "channel": "SMS", "scheduled_at": "2030-01-01T00:00:00Z"}
		}},
	"GET /activities/{id}":               {id: (*fixture).actA, crossCode: 404, crossMsg: "Activity not found"},
	"GET /activities/{id}/status-events": {id: (*fixture).actA, crossCode: 404, crossMsg: "Activity not found"},
	"GET /activities/{id}/attributes":    {id: (*fixture).actA, crossCode: 404, crossMsg: "Activity not found"},
	"POST /activities/{id}/cancel":       {id: (*fixture).actA, crossCode: 404, crossMsg: "Activity not found"},
	"POST /activities/{id}/resolution-events": {id: (*fixture).actA,
		body: func() any { return map[string]any{"event_type": "RESOLUTION_FAILED"} }, crossCode: 404, crossMsg: "Activity not found"},
	"GET /activities/tasks":      {},
	"GET /activities/tasks/{id}": {id: (*fixture).actA, crossCode: 404, crossMsg: "Activity not found"},
	// Tenant A has no dispatch config: the allowed call answers 422.
	"POST /activities/tasks/{id}/dispatch":             {id: (*fixture).actA, crossCode: 404, crossMsg: "Activity not found"},
	"POST /activities/tasks/{id}/force-retry-dispatch": {id: (*fixture).actA, crossCode: 404, crossMsg: "Activity not found"},

	"Query.activities": {query: `{ activities { totalCount edges { node { id projectID tenantID commerce { name } } } } }`,
		vars: func(f *fixture) map[string]any { f.actA(); return nil }},
	"Mutation.createActivity": {query: `mutation($c: ID!) { createActivity(input: {commerceID: $c, type: TASK, channel: SMS,
		scheduledAt: "2030-01-01T00:00:00Z", attributes: [{key: "k", value: "v"}]}) { id status } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"c": f.commerceA()} }},
	"Mutation.cancelActivity": {query: `mutation($id: ID!) { cancelActivity(id: $id, reason: "x") { status } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.actA()} }, crossCode: 404, crossMsg: "Activity not found"},
	"Mutation.recordActivityResolutionEvent": {query: `mutation($id: ID!) { recordActivityResolutionEvent(id: $id, eventType: RESOLUTION_FAILED) { status } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.actA()} }, crossCode: 404, crossMsg: "Activity not found"},
	// The allowed dispatch calls answer a GraphQL error (422, 409), which the
	// walk rejects: they run against tenant A's log provider (actDispatchable).
	"Mutation.dispatchTask": {query: `mutation($id: ID!) { dispatchTask(id: $id) { status } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.actDispatchable("")} }, crossCode: 404, crossMsg: "Activity not found"},
	"Mutation.forceRetryTaskDispatch": {query: `mutation($id: ID!) { forceRetryTaskDispatch(id: $id) { status } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.actDispatchable("RETRYING")} }, crossCode: 404, crossMsg: "Activity not found"},
}

func init() { maps.Copy(probes, activityProbes) }

var (
	// actProbeCommerce is the tenant-A commerce of the next POST /activities probe.
	actProbeCommerce string
	// actLogReady marks the fixtures whose tenant A dispatches SMS through a log provider.
	actLogReady = map[*fixture]bool{}
)

// commerceA creates a live commerce of tenant A.
func (f *fixture) commerceA() string {
	return f.env.App.DB.Client.Commerce.Create().SetTenantID(f.a.TenantID).SetName(unique("C")).
		SaveX(viewer.SystemContext(context.Background())).ID.String()
}

// actA creates a READY task of tenant A's main project.
func (f *fixture) actA() string { return f.actIn("READY", "SMS") }

func (f *fixture) actIn(status, channel string) string {
	c := f.env.App.DB.Client
	ctx := viewer.SystemContext(context.Background())
	com := c.Commerce.Create().SetTenantID(f.a.TenantID).SetName(unique("C")).SaveX(ctx)
	a := c.Activity.Create().SetTenantID(f.a.TenantID).SetProjectID(f.a.ProjectID).SetCommerceID(com.ID).
		SetType("TASK").SetChannel(entact.Channel(channel)).SetStatus(entact.Status(status)).SetScheduledAt(time.Now()).SaveX(ctx)
	return a.ID.String()
}

// actDispatchable is a PUSH task (READY, or the given status) that tenant A
// dispatches through a log provider (the dispatch probes own the SMS config).
func (f *fixture) actDispatchable(status string) string {
	if !actLogReady[f] {
		c := f.env.App.DB.Client
		ctx := viewer.SystemContext(context.Background())
		p := c.DispatchProvider.Create().SetTenantID(f.a.TenantID).SetName(unique("P")).SetChannel("PUSH").SetKind("log").SaveX(ctx)
		c.DispatchConfig.Create().SetTenantID(f.a.TenantID).SetProjectID(f.a.ProjectID).SetChannel("PUSH").SetProviderID(p.ID).SaveX(ctx)
		actLogReady[f] = true
	}
	if status == "" {
		status = "READY"
	}
	return f.actIn(status, "PUSH")
}
