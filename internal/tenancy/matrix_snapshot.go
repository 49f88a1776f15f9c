package tenancy

import "github.com/reten-io/reten/internal/auth"

// snapshotMatrix: commerce lifecycle snapshots (tenant-level; x-project-id is ignored).
var snapshotMatrix = []Entry{
	{"GET", "/commerce-lifecycle-snapshots", TenantLevel, auth.PermSnapshotView},
	{"GET", "/commerce-lifecycle-snapshots/{commerceIdentifier}", TenantLevel, auth.PermSnapshotView},
	{"POST", "/commerce-lifecycle-snapshots/batch-lookup", TenantLevel, auth.PermSnapshotView},
	{"PUT", "/commerce-lifecycle-snapshots", TenantLevel, auth.PermSnapshotCreate},
	{"POST", "/commerce-lifecycle-snapshots/batch-upsert", TenantLevel, auth.PermSnapshotCreate},

	// GraphQL: the same scope and permissions as the REST routes.
	{"Query", "commerceLifecycleSnapshots", TenantLevel, auth.PermSnapshotView},
	{"Query", "commerceLifecycleSnapshotsByCommerce", TenantLevel, auth.PermSnapshotView},
	{"Query", "commerceLifecycleSnapshotsBatchLookup", TenantLevel, auth.PermSnapshotView},
	{"Mutation", "upsertCommerceLifecycleSnapshot", TenantLevel, auth.PermSnapshotCreate},
	{"Mutation", "batchUpsertCommerceLifecycleSnapshots", TenantLevel, auth.PermSnapshotCreate},
}
