package tenancy

import "github.com/reten-io/reten/internal/auth"

// activityMatrix: activities, their tasks and the commands of the status
// machine (all project-scoped).
var activityMatrix = []Entry{
	{"GET", "/activities", ProjectScoped, auth.PermActivityView},
	{"POST", "/activities", ProjectScoped, auth.PermActivityCreate},
	{"GET", "/activities/{id}", ProjectScoped, auth.PermActivityView},
	{"GET", "/activities/{id}/status-events", ProjectScoped, auth.PermActivityView},
	{"GET", "/activities/{id}/attributes", ProjectScoped, auth.PermActivityView},
	{"POST", "/activities/{id}/cancel", ProjectScoped, auth.PermActivityCancel},
	{"POST", "/activities/{id}/resolution-events", ProjectScoped, auth.PermActivityDispatch},
	{"GET", "/activities/tasks", ProjectScoped, auth.PermActivityView},
	{"GET", "/activities/tasks/{id}", ProjectScoped, auth.PermActivityView},
	{"POST", "/activities/tasks/{id}/dispatch", ProjectScoped, auth.PermActivityDispatch},
	{"POST", "/activities/tasks/{id}/force-retry-dispatch", ProjectScoped, auth.PermActivityForceRetryDispatch},
	// GraphQL: the same scopes and permissions as the REST routes.
	{"Query", "activities", ProjectScoped, auth.PermActivityView},
	{"Mutation", "createActivity", ProjectScoped, auth.PermActivityCreate},
	{"Mutation", "cancelActivity", ProjectScoped, auth.PermActivityCancel},
	{"Mutation", "recordActivityResolutionEvent", ProjectScoped, auth.PermActivityDispatch},
	{"Mutation", "dispatchTask", ProjectScoped, auth.PermActivityDispatch},
	{"Mutation", "forceRetryTaskDispatch", ProjectScoped, auth.PermActivityForceRetryDispatch},
}
