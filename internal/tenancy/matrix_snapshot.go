package tenancy

import "github.com/reten-io/reten/internal/auth"

// snapshotMatrix: commerce lifecycle snapshots (tenant-level; x-project-id is ignored).
var snapshotMatrix = []Entry{
	{"GET", "/commerce-lifecycle-snapshots", TenantLevel, auth.PermSnapshotView},
	{"GET", "/commerce-lifecycle-snapshots/{commerceIdentifier}", TenantLevel, auth.PermSnapshotView},
	{"POST", "/commerce-lifecycle-snapshots/batch-lookup", TenantLevel, auth.PermSnapshotView},
	{"PUT", "/commerce-lifecycle-snapshots", TenantLevel, auth.PermSnapshotCreate},
	{"POST", "/commerce-lifecycle-snapshots/batch-upsert", TenantLevel, auth.PermSnapshotCreate},
	// The transition history (the changes of (stage, code) every snapshot write appends).
	{"GET", "/commerce-lifecycle-snapshots/{commerceIdentifier}/history", TenantLevel, auth.PermSnapshotView},
	{"GET", "/commerce-lifecycle-transitions", TenantLevel, auth.PermSnapshotView},

	// GraphQL: the same scope and permissions as the REST routes.
	{"Query", "commerceLifecycleSnapshots", TenantLevel, auth.PermSnapshotView},
	{"Query", "commerceLifecycleSnapshotsByCommerce", TenantLevel, auth.PermSnapshotView},
	{"Query", "commerceLifecycleSnapshotsBatchLookup", TenantLevel, auth.PermSnapshotView},
	{"Mutation", "upsertCommerceLifecycleSnapshot", TenantLevel, auth.PermSnapshotCreate},
	{"Mutation", "batchUpsertCommerceLifecycleSnapshots", TenantLevel, auth.PermSnapshotCreate},
	{"Query", "commerceLifecycleTransitions", TenantLevel, auth.PermSnapshotView},
}
