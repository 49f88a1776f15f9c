package tenancy

import "github.com/reten-io/reten/internal/auth"

// dispatchMatrix: dispatch providers, channel definitions and dispatch configs.
var dispatchMatrix = []Entry{
	{"POST", "/dispatch-providers", TenantLevel, auth.PermDispatchManage},
	{"GET", "/dispatch-providers", TenantLevel, auth.PermDispatchView},
	{"GET", "/dispatch-providers/{id}", TenantLevel, auth.PermDispatchView},
	{"PATCH", "/dispatch-providers/{id}", TenantLevel, auth.PermDispatchManage},
	{"DELETE", "/dispatch-providers/{id}", TenantLevel, auth.PermDispatchManage},
	{"POST", "/dispatch-providers/{providerId}/channel-definitions", TenantLevel, auth.PermDispatchManage},
	{"GET", "/dispatch-providers/{providerId}/channel-definitions", TenantLevel, auth.PermDispatchView},
	{"PATCH", "/dispatch-providers/{providerId}/channel-definitions/{definitionId}", TenantLevel, auth.PermDispatchManage},
	// Dispatch configs are tenant-level routes naming the project in the path.
	{"GET", "/projects/{projectId}/dispatch-configs", TenantLevel, auth.PermDispatchView},
	{"PUT", "/projects/{projectId}/dispatch-configs/{channel}", TenantLevel, auth.PermDispatchManage},
	// GraphQL (same permissions as the REST routes they mirror).
	{"Query", "dispatchProviders", TenantLevel, auth.PermDispatchView},
	{"Query", "dispatchConfigs", TenantLevel, auth.PermDispatchView},
	{"Mutation", "createDispatchProvider", TenantLevel, auth.PermDispatchManage},
	{"Mutation", "updateDispatchProvider", TenantLevel, auth.PermDispatchManage},
	{"Mutation", "deleteDispatchProvider", TenantLevel, auth.PermDispatchManage},
	{"Mutation", "createChannelDefinition", TenantLevel, auth.PermDispatchManage},
	{"Mutation", "updateChannelDefinition", TenantLevel, auth.PermDispatchManage},
	{"Mutation", "putDispatchConfig", TenantLevel, auth.PermDispatchManage},
}
