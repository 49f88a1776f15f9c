package auth

import "slices"

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

	PermResultTypeView   = "result-type-config:view"   // designed
	PermResultTypeManage = "result-type-config:manage" // designed

	PermUserView   = "user:view"
	PermUserUpdate = "user:update"

	PermProjectView   = "project:view"
	PermProjectCreate = "project:create" // designed
	PermProjectUpdate = "project:update"

	PermTenantManage = "tenant:manage" // designed; super_admin only

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
	PermLifecycleConfigView, PermLifecycleConfigDelete,
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
	PermResultTypeView, PermResultTypeManage,
	PermUserView, PermUserUpdate,
	PermProjectView, PermProjectCreate, PermProjectUpdate,
	PermTenantManage,
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
