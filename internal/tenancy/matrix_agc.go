package tenancy

import "github.com/reten-io/reten/internal/auth"

// agcMatrix: activity generation configs, lifecycle pillars and defaults.
var agcMatrix = []Entry{
	// REST: activity generation configs (project-scoped).
	{"GET", "/activity-generation-configs", ProjectScoped, auth.PermAGCView},
	{"POST", "/activity-generation-configs", ProjectScoped, auth.PermAGCCreate},
	{"GET", "/activity-generation-configs/{id}", ProjectScoped, auth.PermAGCView},
	{"PATCH", "/activity-generation-configs/{id}", ProjectScoped, auth.PermAGCUpdate},
	{"DELETE", "/activity-generation-configs/{id}", ProjectScoped, auth.PermAGCDelete},
	{"PUT", "/activity-generation-configs/{id}/lifecycle", ProjectScoped, auth.PermAGCUpdate},
	{"POST", "/activity-generation-configs/{id}/publish", ProjectScoped, auth.PermAGCUpdate},
	{"POST", "/activity-generation-configs/{id}/pause", ProjectScoped, auth.PermAGCUpdate},
	// REST: the lifecycle engine.
	{"GET", "/activity-generation-configs/{id}/lifecycle-sql", ProjectScoped, auth.PermLifecycleRunView},
	{"GET", "/activity-generation-configs/{id}/lifecycle-explain", ProjectScoped, auth.PermLifecycleRunView},
	{"POST", "/activity-generation-configs/{id}/lifecycle-runs", ProjectScoped, auth.PermLifecycleRunCreate},
	{"GET", "/activity-generation-configs/{id}/lifecycle-runs", ProjectScoped, auth.PermLifecycleRunView},
	{"GET", "/lifecycle-runs/{runId}", ProjectScoped, auth.PermLifecycleRunView},
	// REST: lifecycle pillars (read-only, project-scoped).
	{"GET", "/activation-configs", ProjectScoped, auth.PermLifecycleConfigView},
	{"GET", "/activation-configs/{id}", ProjectScoped, auth.PermLifecycleConfigView},
	{"GET", "/engagement-configs", ProjectScoped, auth.PermLifecycleConfigView},
	{"GET", "/engagement-configs/{id}", ProjectScoped, auth.PermLifecycleConfigView},
	{"GET", "/resurrection-configs", ProjectScoped, auth.PermLifecycleConfigView},
	{"GET", "/resurrection-configs/{id}", ProjectScoped, auth.PermLifecycleConfigView},
	// REST: lifecycle defaults (tenant-level).
	{"GET", "/lifecycle-defaults", TenantLevel, auth.PermAGCView},

	// GraphQL: the same scopes and permissions as the REST routes.
	{"Query", "activityGenerationConfigs", ProjectScoped, auth.PermAGCView},
	{"Query", "lifecycleDefaults", TenantLevel, auth.PermAGCView},
	{"Mutation", "createActivityGenerationConfig", ProjectScoped, auth.PermAGCCreate},
	{"Mutation", "updateActivityGenerationConfig", ProjectScoped, auth.PermAGCUpdate},
	{"Mutation", "replaceActivityGenerationConfigLifecycle", ProjectScoped, auth.PermAGCUpdate},
	{"Mutation", "publishActivityGenerationConfig", ProjectScoped, auth.PermAGCUpdate},
	{"Mutation", "pauseActivityGenerationConfig", ProjectScoped, auth.PermAGCUpdate},
	{"Mutation", "archiveActivityGenerationConfig", ProjectScoped, auth.PermAGCDelete},
	{"Query", "lifecycleSQL", ProjectScoped, auth.PermLifecycleRunView},
	{"Query", "lifecycleExplain", ProjectScoped, auth.PermLifecycleRunView},
	{"Query", "lifecycleRuns", ProjectScoped, auth.PermLifecycleRunView},
	{"Mutation", "startLifecycleRun", ProjectScoped, auth.PermLifecycleRunCreate},
}
