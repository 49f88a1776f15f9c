package auth

import "slices"

// This file is the single source of truth for authorization: the permission
// catalog, the roles, their hierarchy and the role -> permission map.

// The permission catalog: every permission SPEC.md names, plus one name per
// route whose permission SPEC.md does not show (marked "designed"). This file
// is the single source of truth; routes, roles, keys and 403 messages use
// these constants.
const (
	PermAPIKeyManage = "api-key:manage"

	PermActivityView               = "activity:view"
	PermActivityCreate             = "activity:create"
	PermActivityForceRetryDispatch = "activity:force-retry-dispatch"
	PermActivityDispatch           = "activity:dispatch" // designed
	PermActivityCancel             = "activity:cancel"   // designed
	PermActivityResultSubmit       = "activity-result:submit"
	PermActivityResultView         = "activity-result:view" // designed
	PermActivityConfigManage       = "activity-config:manage"

	PermAGCView   = "activity-generation-config:view"
	PermAGCCreate = "activity-generation-config:create"
	PermAGCUpdate = "activity-generation-config:update"
	PermAGCDelete = "activity-generation-config:delete"

	PermLifecycleConfigView   = "lifecycle-config:view"
	PermLifecycleConfigDelete = "lifecycle-config:delete"
	// PermLifecycleRunView reads what the lifecycle engine computes and how
	// (its classification statement); designed.
	PermLifecycleRunView = "lifecycle-run:view"
	// PermLifecycleRunCreate starts lifecycle engine runs; designed.
	PermLifecycleRunCreate = "lifecycle-run:create"
	// PermGenerationRuleView reads the activity generation rules of AGCs;
	// PermGenerationRuleManage creates, updates and deletes them; designed.
	PermGenerationRuleView   = "generation-rule:view"
	PermGenerationRuleManage = "generation-rule:manage"

	PermAudienceView    = "audience-criteria:view"
	PermAudienceCreate  = "audience-criteria:create" // designed
	PermAudienceUpdate  = "audience-criteria:update" // designed
	PermAudienceDelete  = "audience-criteria:delete"
	PermAudienceViewSQL = "audience-criteria:view-sql" // designed

	PermEventCriteriaView    = "event-criteria:view"
	PermEventCriteriaCreate  = "event-criteria:create"
	PermEventCriteriaUpdate  = "event-criteria:update"
	PermEventCriteriaDelete  = "event-criteria:delete"
	PermEventCriteriaViewSQL = "event-criteria:view-sql"

	PermDatasetView   = "dataset:view"   // designed
	PermDatasetManage = "dataset:manage" // designed

	PermSnapshotView   = "commerce-lifecycle-snapshot:view"
	PermSnapshotCreate = "commerce-lifecycle-snapshot:create"

	PermCommerceView        = "commerce:view" // designed
	PermCommerceManage      = "commerce:manage"
	PermCommerceDelete      = "commerce:delete"
	PermCommerceBatchUpsert = "commerce:batch-upsert"

	PermOperatorView        = "operator:view" // designed
	PermOperatorManage      = "operator:manage"
	PermOperatorSync        = "operator:sync" // designed (SPEC.md legacy name SYNC_OPERATORS)
	PermOperatorDelete      = "operator:delete"
	PermOperatorBatchUpsert = "operator:batch-upsert"

	PermRouteView        = "route:view" // designed
	PermRouteManage      = "route:manage"
	PermRouteDelete      = "route:delete"
	PermRouteBatchUpsert = "route:batch-upsert"

	PermSupervisorView   = "supervisor:view"   // designed
	PermSupervisorManage = "supervisor:manage" // designed
	PermSupervisorDelete = "supervisor:delete"

	PermDispatchView   = "dispatch:view"   // designed
	PermDispatchManage = "dispatch:manage" // designed

	// PermWebhookView reads the tenant's webhook endpoints and their
	// deliveries; PermWebhookManage creates, changes, deletes, pings them,
	// rotates their secrets and replays deliveries; designed.
	PermWebhookView   = "webhook:view"
	PermWebhookManage = "webhook:manage"

	PermResultTypeView   = "result-type-config:view"   // designed
	PermResultTypeManage = "result-type-config:manage" // designed

	PermUserView   = "user:view"
	PermUserUpdate = "user:update"

	PermProjectView   = "project:view"
	PermProjectCreate = "project:create" // designed
	PermProjectUpdate = "project:update"

	PermTenantManage = "tenant:manage" // designed; super_admin only
	// PermTenantSettingsManage changes the viewer's tenant day settings (time
	// zone and day cutoff); designed, super_admin and admin.
	PermTenantSettingsManage = "tenant-settings:manage"

	PermTrashView           = "trash:view"    // designed: view and restore
	PermTrashRestore        = "trash:restore" // designed
	PermTrashPurge          = "trash:purge"   // designed; super_admin only
	PermTrashManageSettings = "trash:manage-settings"
)

// Catalog lists every permission, sorted.
var Catalog = sortedUnique(
	PermAPIKeyManage,
	PermActivityView, PermActivityCreate, PermActivityForceRetryDispatch, PermActivityDispatch,
	PermActivityCancel, PermActivityResultSubmit, PermActivityResultView, PermActivityConfigManage,
	PermAGCView, PermAGCCreate, PermAGCUpdate, PermAGCDelete,
	PermLifecycleConfigView, PermLifecycleConfigDelete, PermLifecycleRunView, PermLifecycleRunCreate,
	PermGenerationRuleView, PermGenerationRuleManage,
	PermAudienceView, PermAudienceCreate, PermAudienceUpdate, PermAudienceDelete, PermAudienceViewSQL,
	PermEventCriteriaView, PermEventCriteriaCreate, PermEventCriteriaUpdate, PermEventCriteriaDelete,
	PermEventCriteriaViewSQL,
	PermDatasetView, PermDatasetManage,
	PermSnapshotView, PermSnapshotCreate,
	PermCommerceView, PermCommerceManage, PermCommerceDelete, PermCommerceBatchUpsert,
	PermOperatorView, PermOperatorManage, PermOperatorSync, PermOperatorDelete, PermOperatorBatchUpsert,
	PermRouteView, PermRouteManage, PermRouteDelete, PermRouteBatchUpsert,
	PermSupervisorView, PermSupervisorManage, PermSupervisorDelete,
	PermDispatchView, PermDispatchManage,
	PermWebhookView, PermWebhookManage,
	PermResultTypeView, PermResultTypeManage,
	PermUserView, PermUserUpdate,
	PermProjectView, PermProjectCreate, PermProjectUpdate,
	PermTenantManage, PermTenantSettingsManage,
	PermTrashView, PermTrashRestore, PermTrashPurge, PermTrashManageSettings,
)

// IsPermission reports whether name is in the catalog.
func IsPermission(name string) bool {
	_, ok := slices.BinarySearch(Catalog, name)
	return ok
}

func sortedUnique(items ...string) []string {
	out := slices.Clone(items)
	slices.Sort(out)
	return slices.Compact(out)
}

// Role names, highest first in Hierarchy.
const (
	RoleSuperAdmin = "super_admin"
	RoleAdmin      = "admin"
	RoleFDE        = "fde"
	RoleSupervisor = "supervisor"
	RoleOperator   = "operator"
	RoleViewer     = "viewer"
)

// Hierarchy orders the roles, highest first. A user manages only users whose
// highest role is strictly lower than their own.
var Hierarchy = []string{RoleSuperAdmin, RoleAdmin, RoleFDE, RoleSupervisor, RoleOperator, RoleViewer}

// Rank returns the position of role in Hierarchy (0 is highest), or -1.
func Rank(role string) int { return slices.Index(Hierarchy, role) }

// HighestRank returns the best (lowest) rank among roles, or len(Hierarchy) when none is known.
func HighestRank(roles []string) int {
	best := len(Hierarchy)
	for _, r := range roles {
		if k := Rank(r); k >= 0 && k < best {
			best = k
		}
	}
	return best
}

// viewPermissions are the read-only permissions: the viewer role holds exactly these.
var viewPermissions = []string{
	PermActivityView, PermActivityResultView, PermAGCView, PermLifecycleConfigView, PermLifecycleRunView, PermGenerationRuleView, PermAudienceView,
	PermEventCriteriaView, PermDatasetView, PermSnapshotView, PermCommerceView, PermOperatorView,
	PermRouteView, PermSupervisorView, PermDispatchView, PermResultTypeView, PermUserView,
	PermProjectView,
}

// superAdminOnly are held by super_admin and by no other role.
var superAdminOnly = []string{PermTenantManage, PermTrashPurge}

// rolePermissions is the role -> permission map. Each role holds an explicit
// list; a higher role does not inherit a lower one (supervisor holds
// activity:force-retry-dispatch, fde does not).
var rolePermissions = map[string][]string{
	RoleSuperAdmin: Catalog,
	RoleAdmin:      without(Catalog, superAdminOnly...),
	RoleFDE: sortedUnique(append(slices.Clone(viewPermissions),
		PermAPIKeyManage,
		PermActivityCreate, PermActivityDispatch, PermActivityCancel, PermActivityResultSubmit,
		PermActivityConfigManage,
		PermAGCCreate, PermAGCUpdate, PermLifecycleRunCreate, PermGenerationRuleManage,
		PermAudienceCreate, PermAudienceUpdate, PermAudienceDelete, PermAudienceViewSQL,
		PermEventCriteriaCreate, PermEventCriteriaUpdate, PermEventCriteriaDelete, PermEventCriteriaViewSQL,
		PermDatasetManage,
		PermSnapshotCreate,
		PermCommerceManage, PermCommerceBatchUpsert,
		PermOperatorManage, PermOperatorSync, PermOperatorBatchUpsert,
		PermRouteManage, PermRouteBatchUpsert,
		PermSupervisorManage,
		PermDispatchManage, PermResultTypeManage,
		// Webhook endpoints are integration work; their URLs may carry
		// tokens, so viewers do not read them.
		PermWebhookView, PermWebhookManage,
		PermTrashView,
	)...),
	RoleSupervisor: sortedUnique(
		PermActivityView, PermActivityCreate, PermActivityDispatch, PermActivityCancel,
		PermActivityForceRetryDispatch, PermActivityResultSubmit, PermActivityResultView,
		PermCommerceView, PermOperatorView, PermOperatorManage, PermRouteView, PermRouteManage,
		PermSupervisorView, PermSnapshotView, PermAGCView, PermLifecycleConfigView, PermGenerationRuleView,
		PermProjectView, PermUserView,
		PermResultTypeView, // submits results: reads the active result types
	),
	RoleOperator: sortedUnique(
		PermActivityView, PermActivityResultSubmit, PermActivityResultView,
		PermCommerceView, PermRouteView, PermProjectView,
		PermResultTypeView, // submits results: reads the active result types
	),
	RoleViewer: sortedUnique(viewPermissions...),
}

// IsRole reports whether name is a role.
func IsRole(name string) bool { return Rank(name) >= 0 }

// PermissionsOf returns the union of the permissions of roles, sorted.
func PermissionsOf(roles []string) []string {
	var all []string
	for _, r := range roles {
		all = append(all, rolePermissions[r]...)
	}
	return sortedUnique(all...)
}

func without(list []string, drop ...string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(p string) bool { return slices.Contains(drop, p) })
}
