package tenancy

import "github.com/reten-io/reten/internal/auth"

// integrationMatrix: the project-optional routes of the integration API
// (SPEC.md "Integration API"; the tenant-level ones are with their domains).
var integrationMatrix = []Entry{
	{"GET", "/integration/activities/tasks", ProjectOptional, auth.PermActivityView},
	{"POST", "/integration/activity-results/tasks", ProjectOptional, auth.PermActivityResultSubmit},
	// GraphQL: the same scopes and permissions.
	{"Query", "integrationTasks", ProjectOptional, auth.PermActivityView},
	{"Mutation", "submitIntegrationActivityResult", ProjectOptional, auth.PermActivityResultSubmit},
}
