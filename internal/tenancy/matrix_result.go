package tenancy

import "github.com/reten-io/reten/internal/auth"

// resultMatrix: activity result submission and update (project-scoped).
var resultMatrix = []Entry{
	{"POST", "/activity-results/tasks", ProjectScoped, auth.PermActivityResultSubmit},
	{"PATCH", "/activity-results/tasks/{id}", ProjectScoped, auth.PermActivityResultSubmit},
	// GraphQL: the same scopes and permission as the REST routes.
	{"Mutation", "submitActivityResult", ProjectScoped, auth.PermActivityResultSubmit},
	{"Mutation", "updateActivityResult", ProjectScoped, auth.PermActivityResultSubmit},
}
