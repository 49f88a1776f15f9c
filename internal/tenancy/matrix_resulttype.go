package tenancy

import "github.com/reten-io/reten/internal/auth"

// resultTypeMatrix: the result type configs of the tenant and its day
// settings (time zone and day cutoff), all tenant-level.
var resultTypeMatrix = []Entry{
	// REST: result type configs (designed; SPEC.md names only the integration read).
	{"GET", "/task-result-type-configs", TenantLevel, auth.PermResultTypeView},
	{"PUT", "/task-result-type-configs", TenantLevel, auth.PermResultTypeManage},
	{"PUT", "/task-result-type-configs/{code}", TenantLevel, auth.PermResultTypeManage},
	{"GET", "/integration/task-result-type-configs", TenantLevel, auth.PermResultTypeView},
	// REST: day settings. Reading needs membership only: every operator may
	// need to know when the day closes.
	{"GET", "/tenant-settings", TenantLevel, ""},
	{"PATCH", "/tenant-settings", TenantLevel, auth.PermTenantSettingsManage},
	// GraphQL (same permissions as the REST routes they mirror).
	{"Query", "taskResultTypeConfigs", TenantLevel, auth.PermResultTypeView},
	{"Mutation", "setTaskResultTypeConfig", TenantLevel, auth.PermResultTypeManage},
	{"Mutation", "setTaskResultTypeConfigs", TenantLevel, auth.PermResultTypeManage},
	{"Query", "tenantSettings", TenantLevel, ""},
	{"Mutation", "updateTenantSettings", TenantLevel, auth.PermTenantSettingsManage},
}
