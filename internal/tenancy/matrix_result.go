package tenancy

import "github.com/reten-io/reten/internal/auth"

// resultMatrix: activity result submission and update (project-scoped) and
// the integrators' change feed (tenant-level: every project of the tenant).
var resultMatrix = []Entry{
	{"POST", "/activity-results/tasks", ProjectScoped, auth.PermActivityResultSubmit},
	{"PATCH", "/activity-results/tasks/{id}", ProjectScoped, auth.PermActivityResultSubmit},
	{"GET", "/activity-results/tasks/sync", TenantLevel, auth.PermActivityResultView},
	// GraphQL: the same scopes and permission as the REST routes.
	{"Query", "activityResultsSync", TenantLevel, auth.PermActivityResultView},
	{"Mutation", "submitActivityResult", ProjectScoped, auth.PermActivityResultSubmit},
	{"Mutation", "updateActivityResult", ProjectScoped, auth.PermActivityResultSubmit},
}
