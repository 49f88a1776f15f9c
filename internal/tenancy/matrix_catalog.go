package tenancy

import "github.com/reten-io/reten/internal/auth"

// catalogMatrix: retention status configs and activity reason configs.
var catalogMatrix = []Entry{
	// REST: activity reason configs (tenant-level, SPEC.md table).
	{"GET", "/activity-reason-configs", TenantLevel, auth.PermActivityView},
	{"GET", "/activity-reason-configs/defaults", TenantLevel, auth.PermActivityView},
	{"POST", "/activity-reason-configs", TenantLevel, auth.PermActivityConfigManage},
	{"POST", "/activity-reason-configs/bulk", TenantLevel, auth.PermActivityConfigManage},
	{"PATCH", "/activity-reason-configs/{id}", TenantLevel, auth.PermActivityConfigManage},
	{"DELETE", "/activity-reason-configs/{id}", TenantLevel, auth.PermActivityConfigManage},
	// REST: retention status configs (tenant-level, designed).
	{"GET", "/retention-status-configs", TenantLevel, auth.PermAGCView},
	{"GET", "/retention-status-configs/{id}", TenantLevel, auth.PermAGCView},
	{"POST", "/retention-status-configs", TenantLevel, auth.PermActivityConfigManage},
	{"PATCH", "/retention-status-configs/{id}", TenantLevel, auth.PermActivityConfigManage},
	{"DELETE", "/retention-status-configs/{id}", TenantLevel, auth.PermActivityConfigManage},
	// GraphQL (same permissions as the REST routes they mirror).
	{"Query", "activityReasonConfigs", TenantLevel, auth.PermActivityView},
	{"Query", "activityReasonDefaults", TenantLevel, auth.PermActivityView},
	{"Query", "retentionStatusConfigs", TenantLevel, auth.PermAGCView},
	{"Mutation", "createActivityReasonConfig", TenantLevel, auth.PermActivityConfigManage},
	{"Mutation", "bulkCreateActivityReasonConfigs", TenantLevel, auth.PermActivityConfigManage},
	{"Mutation", "updateActivityReasonConfig", TenantLevel, auth.PermActivityConfigManage},
	{"Mutation", "deactivateActivityReasonConfig", TenantLevel, auth.PermActivityConfigManage},
	{"Mutation", "createRetentionStatusConfig", TenantLevel, auth.PermActivityConfigManage},
	{"Mutation", "updateRetentionStatusConfig", TenantLevel, auth.PermActivityConfigManage},
	{"Mutation", "deactivateRetentionStatusConfig", TenantLevel, auth.PermActivityConfigManage},
}
