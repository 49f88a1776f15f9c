package tenancy

import "github.com/reten-io/reten/internal/auth"

// fieldOrgMatrix: operators, routes, route-operator links, supervisors; their sync and batch upserts.
var fieldOrgMatrix = []Entry{
	// REST: operators (tenant-level).
	{"GET", "/operators", TenantLevel, auth.PermOperatorView},
	{"POST", "/operators", TenantLevel, auth.PermOperatorManage},
	{"POST", "/operators/sync", TenantLevel, auth.PermOperatorSync},
	{"GET", "/operators/{id}", TenantLevel, auth.PermOperatorView},
	{"PATCH", "/operators/{id}", TenantLevel, auth.PermOperatorManage},
	{"DELETE", "/operators/{id}", TenantLevel, auth.PermOperatorDelete},
	{"POST", "/integration/operators/batch-upsert", TenantLevel, auth.PermOperatorBatchUpsert},
	// REST: routes and their operator links (tenant-level).
	{"GET", "/routes", TenantLevel, auth.PermRouteView},
	{"POST", "/routes", TenantLevel, auth.PermRouteManage},
	{"GET", "/routes/{id}", TenantLevel, auth.PermRouteView},
	{"PATCH", "/routes/{id}", TenantLevel, auth.PermRouteManage},
	{"DELETE", "/routes/{id}", TenantLevel, auth.PermRouteDelete},
	{"POST", "/routes/{id}/operators", TenantLevel, auth.PermRouteManage},
	{"DELETE", "/routes/{id}/operators/{opId}", TenantLevel, auth.PermRouteManage},
	{"POST", "/integration/routes/batch-upsert", TenantLevel, auth.PermRouteBatchUpsert},
	// REST: supervisors (tenant-level).
	{"GET", "/supervisors", TenantLevel, auth.PermSupervisorView},
	{"POST", "/supervisors", TenantLevel, auth.PermSupervisorManage},
	{"GET", "/supervisors/{id}", TenantLevel, auth.PermSupervisorView},
	{"PATCH", "/supervisors/{id}", TenantLevel, auth.PermSupervisorManage},
	{"DELETE", "/supervisors/{id}", TenantLevel, auth.PermSupervisorDelete},
	// GraphQL (same permissions as the REST routes they mirror).
	{"Query", "operators", TenantLevel, auth.PermOperatorView},
	{"Query", "routes", TenantLevel, auth.PermRouteView},
	{"Query", "supervisors", TenantLevel, auth.PermSupervisorView},
	{"Mutation", "createOperator", TenantLevel, auth.PermOperatorManage},
	{"Mutation", "updateOperator", TenantLevel, auth.PermOperatorManage},
	{"Mutation", "deleteOperator", TenantLevel, auth.PermOperatorDelete},
	{"Mutation", "syncOperators", TenantLevel, auth.PermOperatorSync},
	{"Mutation", "batchUpsertOperators", TenantLevel, auth.PermOperatorBatchUpsert},
	{"Mutation", "createRoute", TenantLevel, auth.PermRouteManage},
	{"Mutation", "updateRoute", TenantLevel, auth.PermRouteManage},
	{"Mutation", "deleteRoute", TenantLevel, auth.PermRouteDelete},
	{"Mutation", "linkRouteOperator", TenantLevel, auth.PermRouteManage},
	{"Mutation", "unlinkRouteOperator", TenantLevel, auth.PermRouteManage},
	{"Mutation", "batchUpsertRoutes", TenantLevel, auth.PermRouteBatchUpsert},
	{"Mutation", "createSupervisor", TenantLevel, auth.PermSupervisorManage},
	{"Mutation", "updateSupervisor", TenantLevel, auth.PermSupervisorManage},
	{"Mutation", "deleteSupervisor", TenantLevel, auth.PermSupervisorDelete},
}
