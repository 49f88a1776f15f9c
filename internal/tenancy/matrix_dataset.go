package tenancy

import "github.com/reten-io/reten/internal/auth"

// datasetMatrix: the tenant's dataset configuration and its catalog.
var datasetMatrix = []Entry{
	{"GET", "/tenant-dataset", TenantLevel, auth.PermDatasetView},
	{"PUT", "/tenant-dataset", TenantLevel, auth.PermDatasetManage},
	{"GET", "/tenant-dataset/catalog", TenantLevel, auth.PermDatasetView},
	{"PUT", "/tenant-dataset/catalog", TenantLevel, auth.PermDatasetManage},
	// GraphQL (same permissions as the REST routes they mirror).
	{"Query", "tenantDataset", TenantLevel, auth.PermDatasetView},
	{"Mutation", "setTenantDataset", TenantLevel, auth.PermDatasetManage},
	{"Mutation", "setTenantDatasetCatalog", TenantLevel, auth.PermDatasetManage},
}
