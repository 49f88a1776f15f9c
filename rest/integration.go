package rest

import "net/http"

// integrationHandlers maps the project-optional REST lines of
// tenancy.integrationMatrix to their handlers (SPEC.md "Integration API").
// The other integration routes (result type configs, batch upserts) are
// tenant-level and live with their domains.
func (a *api) integrationHandlers() map[string]handler {
	return map[string]handler{
		"GET /integration/activities/tasks":        a.listIntegrationTasks,
		"POST /integration/activity-results/tasks": a.submitIntegrationResult,
	}
}

// listIntegrationTasks is GET /api/activities/tasks without a required
// project: the tasks of x-project-id's project (or a project key's), else of
// every project of the tenant.
func (a *api) listIntegrationTasks(w http.ResponseWriter, r *http.Request) error {
	return a.activityPage(w, r, a.Activities.ListTasksAnyProject)
}

// submitIntegrationResult is POST /api/activity-results/tasks without a
// required project: a result takes its activity's project.
func (a *api) submitIntegrationResult(w http.ResponseWriter, r *http.Request) error {
	return a.submitResultWith(w, r, a.Results.SubmitAnyProject)
}
