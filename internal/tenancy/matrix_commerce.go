package tenancy

import "github.com/reten-io/reten/internal/auth"

// commerceMatrix: commerces with their addresses, users, roles and contacts; commerce batch upsert.
var commerceMatrix = []Entry{
	// REST: commerces (tenant-level).
	{"GET", "/commerces", TenantLevel, auth.PermCommerceView},
	{"POST", "/commerces", TenantLevel, auth.PermCommerceManage},
	{"GET", "/commerces/{id}", TenantLevel, auth.PermCommerceView},
	{"PATCH", "/commerces/{id}", TenantLevel, auth.PermCommerceManage},
	{"DELETE", "/commerces/{id}", TenantLevel, auth.PermCommerceDelete},
	// REST: commerce addresses.
	{"GET", "/commerces/{id}/addresses", TenantLevel, auth.PermCommerceView},
	{"POST", "/commerces/{id}/addresses", TenantLevel, auth.PermCommerceManage},
	{"PATCH", "/commerces/{id}/addresses/{addressId}", TenantLevel, auth.PermCommerceManage},
	{"POST", "/commerces/{id}/addresses/{addressId}/set-primary", TenantLevel, auth.PermCommerceManage},
	// REST: commerce users, their roles and contacts.
	{"GET", "/commerces/{id}/routes", TenantLevel, auth.PermCommerceView},
	{"PUT", "/commerces/{id}/routes", TenantLevel, auth.PermCommerceManage},
	{"GET", "/commerces/{id}/users", TenantLevel, auth.PermCommerceView},
	{"POST", "/commerces/{id}/users", TenantLevel, auth.PermCommerceManage},
	{"PATCH", "/commerces/{id}/users/{userId}", TenantLevel, auth.PermCommerceManage},
	{"POST", "/commerces/{id}/users/{userId}/roles", TenantLevel, auth.PermCommerceManage},
	{"DELETE", "/commerces/{id}/users/{userId}/roles/{role}", TenantLevel, auth.PermCommerceManage},
	{"POST", "/commerces/{id}/users/{userId}/contacts", TenantLevel, auth.PermCommerceManage},
	{"PATCH", "/commerces/{id}/users/{userId}/contacts/{contactId}", TenantLevel, auth.PermCommerceManage},
	{"POST", "/commerces/{id}/users/{userId}/contacts/{contactId}/set-primary", TenantLevel, auth.PermCommerceManage},
	// REST: integrators' batch upsert (tenant-level; API key or JWT).
	{"POST", "/integration/commerces/batch-upsert", TenantLevel, auth.PermCommerceBatchUpsert},
	// GraphQL (same permissions as the REST routes they mirror).
	{"Query", "commerces", TenantLevel, auth.PermCommerceView},
	{"Mutation", "createCommerce", TenantLevel, auth.PermCommerceManage},
	{"Mutation", "updateCommerce", TenantLevel, auth.PermCommerceManage},
	{"Mutation", "setCommerceRoutes", TenantLevel, auth.PermCommerceManage},
	{"Mutation", "deleteCommerce", TenantLevel, auth.PermCommerceDelete},
	{"Mutation", "addCommerceAddress", TenantLevel, auth.PermCommerceManage},
	{"Mutation", "updateCommerceAddress", TenantLevel, auth.PermCommerceManage},
	{"Mutation", "setPrimaryCommerceAddress", TenantLevel, auth.PermCommerceManage},
	{"Mutation", "createCommerceUser", TenantLevel, auth.PermCommerceManage},
	{"Mutation", "updateCommerceUser", TenantLevel, auth.PermCommerceManage},
	{"Mutation", "addCommerceUserRole", TenantLevel, auth.PermCommerceManage},
	{"Mutation", "removeCommerceUserRole", TenantLevel, auth.PermCommerceManage},
	{"Mutation", "addCommerceContact", TenantLevel, auth.PermCommerceManage},
	{"Mutation", "updateCommerceContact", TenantLevel, auth.PermCommerceManage},
	{"Mutation", "setPrimaryCommerceContact", TenantLevel, auth.PermCommerceManage},
	{"Mutation", "batchUpsertCommerces", TenantLevel, auth.PermCommerceBatchUpsert},
}
