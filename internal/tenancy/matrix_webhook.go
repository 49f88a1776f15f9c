package tenancy

import "github.com/reten-io/reten/internal/auth"

// webhookMatrix: the tenant's webhook endpoints and their deliveries
// (tenant-level, docs/webhooks.md).
var webhookMatrix = []Entry{
	{"POST", "/webhook-endpoints", TenantLevel, auth.PermWebhookManage},
	{"GET", "/webhook-endpoints", TenantLevel, auth.PermWebhookView},
	{"GET", "/webhook-endpoints/{id}", TenantLevel, auth.PermWebhookView},
	{"PATCH", "/webhook-endpoints/{id}", TenantLevel, auth.PermWebhookManage},
	{"DELETE", "/webhook-endpoints/{id}", TenantLevel, auth.PermWebhookManage},
	{"POST", "/webhook-endpoints/{id}/rotate-secret", TenantLevel, auth.PermWebhookManage},
	{"POST", "/webhook-endpoints/{id}/ping", TenantLevel, auth.PermWebhookManage},
	{"GET", "/webhook-endpoints/{id}/deliveries", TenantLevel, auth.PermWebhookView},
	{"POST", "/webhook-deliveries/{deliveryId}/replay", TenantLevel, auth.PermWebhookManage},

	// GraphQL: the same scope and permissions as the REST routes.
	{"Query", "webhookEndpoints", TenantLevel, auth.PermWebhookView},
	{"Query", "webhookDeliveries", TenantLevel, auth.PermWebhookView},
	{"Mutation", "createWebhookEndpoint", TenantLevel, auth.PermWebhookManage},
	{"Mutation", "updateWebhookEndpoint", TenantLevel, auth.PermWebhookManage},
	{"Mutation", "deleteWebhookEndpoint", TenantLevel, auth.PermWebhookManage},
	{"Mutation", "rotateWebhookEndpointSecret", TenantLevel, auth.PermWebhookManage},
	{"Mutation", "pingWebhookEndpoint", TenantLevel, auth.PermWebhookManage},
	{"Mutation", "replayWebhookDelivery", TenantLevel, auth.PermWebhookManage},
}
