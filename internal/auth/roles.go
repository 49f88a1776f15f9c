package auth

import "slices"

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
	PermActivityView, PermActivityResultView, PermAGCView, PermLifecycleConfigView, PermAudienceView,
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
		PermAGCCreate, PermAGCUpdate,
		PermAudienceCreate, PermAudienceUpdate, PermAudienceDelete, PermAudienceViewSQL,
		PermEventCriteriaCreate, PermEventCriteriaUpdate, PermEventCriteriaDelete, PermEventCriteriaViewSQL,
		PermDatasetManage,
		PermSnapshotCreate,
		PermCommerceManage, PermCommerceBatchUpsert,
		PermOperatorManage, PermOperatorSync, PermOperatorBatchUpsert,
		PermRouteManage, PermRouteBatchUpsert,
		PermSupervisorManage,
		PermDispatchManage, PermResultTypeManage,
		PermTrashView,
	)...),
	RoleSupervisor: sortedUnique(
		PermActivityView, PermActivityCreate, PermActivityDispatch, PermActivityCancel,
		PermActivityForceRetryDispatch, PermActivityResultSubmit, PermActivityResultView,
		PermCommerceView, PermOperatorView, PermOperatorManage, PermRouteView, PermRouteManage,
		PermSupervisorView, PermSnapshotView, PermAGCView, PermLifecycleConfigView,
		PermProjectView, PermUserView,
	),
	RoleOperator: sortedUnique(
		PermActivityView, PermActivityResultSubmit, PermActivityResultView,
		PermCommerceView, PermRouteView, PermProjectView,
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
