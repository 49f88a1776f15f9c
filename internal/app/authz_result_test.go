package app_test

import (
	"context"
	"maps"
	"strings"
	"time"

	"github.com/google/uuid"

	entres "github.com/reten-io/reten/ent/activityresult"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/viewer"
)

// resultProbes: activity result submission and update (project-scoped). The
// path of each call creates fresh tenant-A data so calls never collide; the
// body then names it (path runs before body on every call).
var resultProbes = map[string]probe{
	"POST /activity-results/tasks": {path: func(f *fixture) string { resProbeActivity = f.actA(); return "/activity-results/tasks" },
		body: func() any {
			return map[string]any{"activity_id": resProbeActivity, "commerce_external_id": "EXT-PROBE", "occurred_at": "2030-01-01T00:00:00Z",
				"status": "PENDING", "task_result": map[string]any{"result": "success"}}
		}}, // tenant B: A's activity matches nothing, a standalone result of B's own
	"PATCH /activity-results/tasks/{id}": {id: (*fixture).resultA,
		body: func() any {
			return map[string]any{"occurred_at": "2099-01-01T00:00:00Z", "status": "COMPLETED"}
		}, crossCode: 404, crossMsg: "Activity result not found"},
	"GET /activity-results/tasks/sync": {},

	"Mutation.submitActivityResult": {query: `mutation($a: ID!) { submitActivityResult(input: {activityID: $a, commerceExternalID: "EXT-PROBE",
		occurredAt: "2030-01-01T00:00:00Z", resultStatus: PENDING, resultCode: success}) { id source resultStatus } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"a": f.actA()} }},
	"Mutation.updateActivityResult": {query: `mutation($id: ID!) { updateActivityResult(id: $id, input: {occurredAt: "2099-01-01T00:00:00Z",
		resultStatus: COMPLETED}) { id resultStatus } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.resultA()} }, crossCode: 404, crossMsg: "Activity result not found"},

	"Query.activityResultsSync": {query: `{ activityResultsSync(limit: 10) { results { id projectID } nextCursor hasMore } }`,
		vars: func(f *fixture) map[string]any { f.resultA(); return nil }},

	// The integration API (project-optional): the probes send no x-project-id,
	// so a list covers the tenant and a result takes its activity's project.
	"GET /integration/activities/tasks": {path: func(f *fixture) string { f.actA(); return "/integration/activities/tasks" }},
	"POST /integration/activity-results/tasks": {path: func(f *fixture) string {
		resProbeActivity = f.actA()
		return "/integration/activity-results/tasks"
	},
		body: func() any {
			return map[string]any{"activity_id": resProbeActivity, "commerce_external_id": "EXT-PROBE", "occurred_at": "2030-01-01T00:00:00Z",
				"status": "PENDING", "task_result": map[string]any{"result": "success"}}
		}, crossCode: 400, crossMsg: tenancy.MsgResultNeedsProject}, // tenant B without a project: a standalone result needs one
	"Query.integrationTasks": {query: `{ integrationTasks { totalCount edges { node { id projectID tenantID } } } }`,
		vars: func(f *fixture) map[string]any { f.actA(); return nil }},
	"Mutation.submitIntegrationActivityResult": {query: `mutation($a: ID!) { submitIntegrationActivityResult(input: {activityID: $a,
		commerceExternalID: "EXT-PROBE", occurredAt: "2030-01-01T00:00:00Z", resultStatus: PENDING, resultCode: success}) { id projectID resultStatus } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"a": f.actA()} }, crossCode: 400,
		crossMsg: strings.Replace(tenancy.MsgResultNeedsProject, "activity_id", "activityID", 1)}, // GraphQL names its input fields
}

func init() { maps.Copy(probes, resultProbes) }

// resProbeActivity is the tenant-A task of the next POST result probe.
var resProbeActivity string

// resultA stores a PENDING result of a fresh tenant-A task.
func (f *fixture) resultA() string {
	ctx := viewer.SystemContext(context.Background())
	act := uuid.MustParse(f.actA())
	pid := f.a.ProjectID
	r := f.env.App.DB.Client.ActivityResult.Create().SetTenantID(f.a.TenantID).SetProjectID(pid).SetActivityID(act).
		SetSource(entres.SourceRETEN_ACTIVITY).SetResultStatus(entres.ResultStatusPENDING).SetOccurredAt(time.Now()).
		SetResultCode("success").SaveX(ctx)
	return r.ID.String()
}
