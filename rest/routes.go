package rest

import (
	"context"
	"net/http"

	"github.com/google/uuid"
	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/generation"
	"github.com/reten-io/reten/internal/paging"
)

// handlers maps each REST line of tenancy.Matrix ("METHOD /path"), the only
// statement of a route's permission and scope, to its handler. Most routes
// are one of the shapes of handlers.go over a service method; the others
// are methods of api in their domain's file.
func (a *api) handlers() map[string]handler {
	return map[string]handler{
		// Identity: auth, tenants, projects, API keys, users.
		"GET /openapi.yaml":              a.openAPI,
		"POST /auth/login":               a.login,
		"POST /auth/refresh":             a.refresh,
		"POST /auth/logout":              a.logout,
		"POST /auth/register":            decoded(http.StatusCreated, registerBody, a.Users.Register, presentUser),
		"GET /tenant/mine":               all(a.Tenants.Mine, presentTenant),
		"GET /tenants":                   all(a.Tenants.List, presentTenant),
		"POST /tenants":                  decoded(http.StatusCreated, tenantBody, a.Tenants.Create, presentTenant),
		"PATCH /tenants/{id}":            update(tenantBody, a.Tenants.Update, presentTenant),
		"GET /projects":                  all(a.Projects.List, presentProject),
		"POST /projects":                 decoded(http.StatusCreated, projectNameBody, a.Projects.New, presentProject),
		"PATCH /projects/{id}":           update(projectNameBody, a.Projects.Rename, presentProject),
		"POST /api-keys":                 decoded(http.StatusCreated, apiKeyBody, a.APIKeys.Create, presentCreatedAPIKey),
		"GET /api-keys":                  pages(a.APIKeys.List, presentAPIKey),
		"GET /api-keys/{id}":             byID(a.APIKeys.Get, presentAPIKey),
		"DELETE /api-keys/{id}":          removeByID(discard(a.APIKeys.Revoke)),
		"PUT /api-keys/{id}/permissions": update(permissionsBody, a.APIKeys.SetPermissions, presentAPIKey),
		"GET /users":                     pages(a.Users.List, presentUser),
		"GET /users/{id}":                byID(a.Users.Get, presentUser),
		"PATCH /users/{id}":              update(userPatchBody, a.Users.Update, presentUser),
		"PUT /user/{id}/roles":           update(rolesBody, a.setUserRoles, same),
		"GET /tenant-settings":           one(a.TenantSettings.Get, same),

		// Webhook endpoints (tenant-level) and their deliveries.
		"POST /webhook-endpoints":                      decoded(http.StatusCreated, webhookEndpointBody, a.Webhooks.CreateEndpoint, presentWebhookSecret),
		"GET /webhook-endpoints":                       pages(a.Webhooks.ListEndpoints, presentWebhookEndpoint),
		"GET /webhook-endpoints/{id}":                  byID(a.Webhooks.GetEndpoint, presentWebhookEndpoint),
		"PATCH /webhook-endpoints/{id}":                update(webhookEndpointBody, a.Webhooks.UpdateEndpoint, presentWebhookEndpoint),
		"DELETE /webhook-endpoints/{id}":               removeByID(a.Webhooks.DeleteEndpoint),
		"POST /webhook-endpoints/{id}/rotate-secret":   update(rotateSecretBody, a.Webhooks.RotateSecret, presentWebhookSecret),
		"POST /webhook-endpoints/{id}/ping":            byID(a.Webhooks.Ping, presentWebhookDelivery),
		"GET /webhook-endpoints/{id}/deliveries":       a.webhookDeliveries,
		"POST /webhook-deliveries/{deliveryId}/replay": route(http.StatusAccepted, deliveryParam, noBody, a.replayDelivery, presentWebhookDelivery),
		"PATCH /tenant-settings":                       decoded(http.StatusOK, tenantSettingsBody, a.TenantSettings.Update, same),

		// Commerces, their addresses, users, roles and contacts.
		"GET /commerces":                                                       paged(commerceFilter, a.Commerces.List, presentCommerce),
		"POST /commerces":                                                      decoded(http.StatusCreated, commerceBody, a.Commerces.Create, presentCommerce),
		"GET /commerces/{id}":                                                  byID(a.Commerces.Get, presentCommerceDetail),
		"PATCH /commerces/{id}":                                                update(commercePatchBody, a.Commerces.Update, presentCommerce),
		"DELETE /commerces/{id}":                                               removeByID(a.Commerces.Delete),
		"GET /commerces/{id}/addresses":                                        pagesUnder(idParam, a.commerceAddresses, presentCommerceAddress),
		"POST /commerces/{id}/addresses":                                       withID(http.StatusCreated, addressBody, a.Commerces.CreateAddress, presentCommerceAddress),
		"PATCH /commerces/{id}/addresses/{addressId}":                          route(http.StatusOK, addressPath, addressPatchBody, a.updateCommerceAddress, presentCommerceAddress),
		"POST /commerces/{id}/addresses/{addressId}/set-primary":               route(http.StatusOK, addressPath, noBody, a.setPrimaryCommerceAddress, presentCommerceAddress),
		"GET /commerces/{id}/routes":                                           byID(a.Commerces.Routes, presentCommerceRoutes),
		"PUT /commerces/{id}/routes":                                           update(commerceRoutesBody, a.Commerces.SetRoutes, presentCommerceRoutes),
		"GET /commerces/{id}/users":                                            pagesUnder(idParam, a.commerceUsers, presentCommerceUser),
		"POST /commerces/{id}/users":                                           withID(http.StatusCreated, commerceUserBody, a.Commerces.CreateUser, presentCommerceUser),
		"PATCH /commerces/{id}/users/{userId}":                                 route(http.StatusOK, userPath, commerceUserPatchBody, a.updateCommerceUser, presentCommerceUser),
		"POST /commerces/{id}/users/{userId}/roles":                            route(http.StatusCreated, userPath, roleBody, a.addCommerceUserRole, presentCommerceUser),
		"DELETE /commerces/{id}/users/{userId}/roles/{role}":                   a.removeCommerceUserRole,
		"POST /commerces/{id}/users/{userId}/contacts":                         route(http.StatusCreated, userPath, contactBody, a.createCommerceContact, presentCommerceContact),
		"PATCH /commerces/{id}/users/{userId}/contacts/{contactId}":            route(http.StatusOK, contactPath, contactPatchBody, a.updateCommerceContact, presentCommerceContact),
		"POST /commerces/{id}/users/{userId}/contacts/{contactId}/set-primary": route(http.StatusOK, contactPath, noBody, a.setPrimaryCommerceContact, presentCommerceContact),
		"POST /integration/commerces/batch-upsert":                             decoded(http.StatusCreated, commerceBatchBody, a.Commerces.BatchUpsert, presentCommerceBatch),

		// Field organisation: operators, routes and their links, supervisors.
		"GET /operators":                           paged(operatorFilter, a.FieldOrg.ListOperators, presentOperator),
		"POST /operators":                          decoded(http.StatusCreated, operatorBody, a.FieldOrg.CreateOperator, presentOperator),
		"POST /operators/sync":                     decoded(http.StatusCreated, operatorItemsBody(false), a.FieldOrg.SyncOperators, presentSync),
		"GET /operators/{id}":                      byID(a.FieldOrg.GetOperator, presentOperator),
		"PATCH /operators/{id}":                    update(operatorPatchBody, a.FieldOrg.UpdateOperator, presentOperator),
		"DELETE /operators/{id}":                   removeByID(a.FieldOrg.DeleteOperator),
		"POST /integration/operators/batch-upsert": decoded(http.StatusCreated, operatorItemsBody(true), a.FieldOrg.BatchUpsertOperators, presentFOBatch),
		"GET /routes":                              paged(routeFilter, a.FieldOrg.ListRoutes, presentRoute),
		"POST /routes":                             decoded(http.StatusCreated, routeBody, a.FieldOrg.CreateRoute, presentRoute),
		"GET /routes/{id}":                         byID(a.FieldOrg.GetRoute, presentRouteDetail),
		"PATCH /routes/{id}":                       update(routePatchBody, a.FieldOrg.UpdateRoute, presentRoute),
		"DELETE /routes/{id}":                      removeByID(a.FieldOrg.DeleteRoute),
		"POST /routes/{id}/operators":              withID(http.StatusCreated, linkBody, a.FieldOrg.AddRouteOperator, presentRouteLink),
		"DELETE /routes/{id}/operators/{opId}":     removed(linkPath, a.removeRouteOperator),
		"POST /integration/routes/batch-upsert":    decoded(http.StatusCreated, routeItemsBody, a.FieldOrg.BatchUpsertRoutes, presentFOBatch),
		"GET /supervisors":                         paged(supervisorFilter, a.FieldOrg.ListSupervisors, presentSupervisor),
		"POST /supervisors":                        decoded(http.StatusCreated, supervisorBody, a.FieldOrg.CreateSupervisor, presentSupervisor),
		"GET /supervisors/{id}":                    byID(a.FieldOrg.GetSupervisor, presentSupervisor),
		"PATCH /supervisors/{id}":                  update(supervisorPatchBody, a.FieldOrg.UpdateSupervisor, presentSupervisor),
		"DELETE /supervisors/{id}":                 removeByID(a.FieldOrg.DeleteSupervisor),

		// Trash.
		"GET /trash":               paged(trashFilter, a.Trash.List, presentTrash),
		"GET /trash/settings":      one(a.Trash.Settings, presentTrashSettings),
		"PATCH /trash/settings":    decoded(http.StatusOK, trashSettingsBody, a.Trash.UpdateSettings, presentTrashSettings),
		"GET /trash/{id}":          byID(a.Trash.Get, presentTrash),
		"POST /trash/{id}/restore": byID(a.Trash.Restore, presentTrash),
		"DELETE /trash/{id}":       removeByID(a.Trash.Purge),

		// Dispatch providers, channel definitions and project configs.
		"POST /dispatch-providers":                                                  decoded(http.StatusCreated, providerBody, a.Dispatch.CreateProvider, presentDispatchProvider),
		"GET /dispatch-providers":                                                   paged(providerFilter, a.Dispatch.ListProviders, presentDispatchProvider),
		"GET /dispatch-providers/{id}":                                              byID(a.Dispatch.GetProvider, presentDispatchProvider),
		"PATCH /dispatch-providers/{id}":                                            update(providerPatchBody, a.Dispatch.UpdateProvider, presentDispatchProvider),
		"DELETE /dispatch-providers/{id}":                                           removeByID(a.Dispatch.DeleteProvider),
		"POST /dispatch-providers/{providerId}/channel-definitions":                 route(http.StatusCreated, providerPath, channelDefinitionBody, a.createChannelDefinition, presentChannelDefinition),
		"GET /dispatch-providers/{providerId}/channel-definitions":                  pagesUnder(providerPath, a.channelDefinitions, presentChannelDefinition),
		"PATCH /dispatch-providers/{providerId}/channel-definitions/{definitionId}": route(http.StatusOK, definitionPath, channelDefinitionBody, a.updateChannelDefinition, presentChannelDefinition),
		"GET /projects/{projectId}/dispatch-configs":                                pagesUnder(projectPath, a.dispatchConfigs, presentDispatchConfig),
		"PUT /projects/{projectId}/dispatch-configs/{channel}":                      a.putDispatchConfig,

		// Activity reason and retention status configs.
		"GET /activity-reason-configs":          all(a.Catalog.ListReasons, presentReasonConfig),
		"GET /activity-reason-configs/defaults": one(a.Catalog.ReasonDefaults, same),
		"POST /activity-reason-configs":         decoded(http.StatusCreated, reasonBody, a.Catalog.CreateReason, presentReasonConfig),
		"POST /activity-reason-configs/bulk":    decoded(http.StatusCreated, reasonItemsBody, a.Catalog.BulkCreateReasons, each(presentReasonConfig)),
		"PATCH /activity-reason-configs/{id}":   update(reasonPatchBody, a.Catalog.UpdateReason, presentReasonConfig),
		"DELETE /activity-reason-configs/{id}":  removeByID(discard(a.Catalog.DeactivateReason)),
		"GET /retention-status-configs":         a.listStatusConfigs,
		"GET /retention-status-configs/{id}":    byID(a.Catalog.GetStatus, presentStatusConfig),
		"POST /retention-status-configs":        decoded(http.StatusCreated, statusBody, a.Catalog.CreateStatus, presentStatusConfig),
		"PATCH /retention-status-configs/{id}":  update(statusPatchBody, a.Catalog.UpdateStatus, presentStatusConfig),
		"DELETE /retention-status-configs/{id}": removeByID(discard(a.Catalog.DeactivateStatus)),

		// Activity generation configs and their lifecycle pillars.
		"GET /activity-generation-configs":                      all(a.AGCs.List, presentAGCListItem),
		"POST /activity-generation-configs":                     decoded(http.StatusCreated, agcBody, a.AGCs.Create, presentAGCDetail),
		"GET /activity-generation-configs/{id}":                 byID(a.AGCs.Get, presentAGCDetail),
		"PATCH /activity-generation-configs/{id}":               update(agcPatchBody, a.AGCs.Update, presentAGC),
		"DELETE /activity-generation-configs/{id}":              removeByID(a.AGCs.Delete),
		"PUT /activity-generation-configs/{id}/lifecycle":       a.replaceLifecycle,
		"POST /activity-generation-configs/{id}/publish":        byID(a.AGCs.Publish, presentAGCDetail),
		"POST /activity-generation-configs/{id}/pause":          byID(a.AGCs.Pause, presentAGCDetail),
		"GET /activity-generation-configs/{id}/lifecycle-sql":   a.lifecycleSQL(),
		"POST /activity-generation-configs/{id}/lifecycle-runs": a.startLifecycleRun(),
		"GET /activity-generation-configs/{id}/lifecycle-runs":  a.lifecycleRuns(),
		"GET /lifecycle-runs/{runId}":                           a.lifecycleRun(),
		// Activity generation rules (docs/generation.md).
		"POST /activity-generation-configs/{id}/generation-rules": withID(http.StatusCreated, ruleBody, a.Rules.CreateRule, presentRule),
		"GET /activity-generation-configs/{id}/generation-rules": pagesUnder(idParam, func(ctx context.Context, ids []uuid.UUID, p paging.Page) (*paging.List[*ent.GenerationRule], error) {
			return a.Rules.ListRules(ctx, ids[0], p)
		}, presentRule),
		"GET /generation-rules/{ruleId}": route(http.StatusOK, ruleParam, noBody, func(ctx context.Context, ids []uuid.UUID, _ struct{}) (*ent.GenerationRule, error) {
			return a.Rules.GetRule(ctx, ids[0])
		}, presentRule),
		"PATCH /generation-rules/{ruleId}": route(http.StatusOK, ruleParam, ruleBody, func(ctx context.Context, ids []uuid.UUID, in generation.RuleFields) (*ent.GenerationRule, error) {
			return a.Rules.UpdateRule(ctx, ids[0], in)
		}, presentRule),
		"GET /generation-policy":                                    one(a.Rules.Policy, presentGenerationPolicy),
		"PUT /generation-policy":                                    decoded(http.StatusOK, generationPolicyBody, a.Rules.SetPolicy, presentGenerationPolicy),
		"GET /activity-generation-configs/{id}/generation-settings": byID(a.Rules.Settings, presentGenerationSettings),
		"PUT /activity-generation-configs/{id}/generation-settings": update(generationSettingsBody, a.Rules.SetSettings, presentGenerationSettings),
		"DELETE /generation-rules/{ruleId}":                         removed(ruleParam, func(ctx context.Context, ids []uuid.UUID) error { return a.Rules.DeleteRule(ctx, ids[0]) }),
		"GET /activation-configs":                                   all(a.AGCs.ListActivations, presentActivation),
		"GET /activation-configs/{id}":                              byID(a.AGCs.GetActivation, presentActivation),
		"GET /engagement-configs":                                   all(a.AGCs.ListEngagements, presentEngagement),
		"GET /engagement-configs/{id}":                              byID(a.AGCs.GetEngagement, presentEngagement),
		"GET /resurrection-configs":                                 all(a.AGCs.ListResurrections, presentResurrection),
		"GET /resurrection-configs/{id}":                            byID(a.AGCs.GetResurrection, presentResurrection),
		"GET /lifecycle-defaults":                                   one(a.AGCs.LifecycleDefaults, same),

		// Activity generation decisions (docs/generation.md), per AGC and per commerce.
		"GET /activity-generation-configs/{id}/generation-decisions": decisionPage(true, a.Rules.ListDecisions),
		"GET /commerces/{id}/generation-decisions":                   decisionPage(false, a.Rules.CommerceDecisions),
		"POST /activity-generation-configs/{id}/generation-preview":  byID(a.Generator.Preview, presentPreview),
		"GET /activity-generation-configs/{id}/uplift":               a.upliftReport,
		"GET /activity-generation-configs/{id}/uplift.csv":           a.upliftCSV,

		// One commerce's lifecycle state, explained.
		"GET /activity-generation-configs/{id}/lifecycle-explain": a.lifecycleExplain(),

		// Commerce lifecycle snapshots.
		"GET /commerce-lifecycle-snapshots":                              a.listSnapshots(),
		"GET /commerce-lifecycle-snapshots/{commerceIdentifier}":         a.snapshotsOfCommerce,
		"POST /commerce-lifecycle-snapshots/batch-lookup":                decoded(http.StatusOK, lookupBody, a.Snapshots.BatchLookup, presentLookup),
		"PUT /commerce-lifecycle-snapshots":                              a.upsertSnapshot,
		"POST /commerce-lifecycle-snapshots/batch-upsert":                a.batchUpsertSnapshots,
		"GET /commerce-lifecycle-snapshots/{commerceIdentifier}/history": a.transitionHistory(),
		"GET /commerce-lifecycle-transitions":                            a.listTransitions(),

		// The tenant's dataset and its catalog.
		"GET /tenant-dataset":         one(a.Dataset.Get, presentDataset),
		"PUT /tenant-dataset":         a.putDataset,
		"GET /tenant-dataset/catalog": one(a.Dataset.GetCatalog, presentDatasetCatalog),
		"PUT /tenant-dataset/catalog": decoded(http.StatusOK, catalogBody, a.Dataset.SetCatalog, presentDatasetCatalog),

		// Event filters (chi matches the static segments before {id}).
		"GET /event-criterias":                            a.listEventFilters(),
		"POST /event-criterias":                           decoded(http.StatusCreated, eventFilterBody, a.EventFilters.Create, presentEventFilter),
		"GET /event-criterias/tables":                     all(a.EventFilters.Tables, presentEFTable),
		"GET /event-criterias/tables/{tableName}/columns": columnsOf(a.EventFilters.Columns, presentEFColumns),
		"POST /event-criterias/generate-sql":              generateSQL(blocksOf, a.EventFilters.GenerateSQL, "queryBlocks"),
		"POST /event-criterias/validate-from-body":        decoded(http.StatusCreated, blocksBody, a.EventFilters.ValidateBody, same),
		"POST /event-criterias/preview-from-body":         previewBody(blocksBody, a.EventFilters.PreviewBody),
		"GET /event-criterias/{id}":                       byID(a.EventFilters.Get, presentEventFilter),
		"PATCH /event-criterias/{id}":                     update(eventFilterPatchBody, a.EventFilters.Update, presentEventFilter),
		"DELETE /event-criterias/{id}":                    removeByID(a.EventFilters.Delete),
		"GET /event-criterias/{id}/sql":                   sqlOf(a.EventFilters.SQL),
		"POST /event-criterias/{id}/preview":              previewStored(a.EventFilters.Preview),

		// Audiences (chi matches the static segments before {id}).
		"GET /audience-criterias":                            paged(search, a.Audiences.List, presentAudienceItem),
		"POST /audience-criterias":                           decoded(http.StatusCreated, audienceBody, a.Audiences.Create, presentAudience),
		"GET /audience-criterias/tables":                     all(a.Audiences.Tables, presentAudienceTable),
		"GET /audience-criterias/tables/{tableName}/columns": columnsOf(a.Audiences.Columns, presentAudienceColumns),
		"POST /audience-criterias/generate-sql":              generateSQL(readDefinition, a.Audiences.GenerateSQL, "queryBlocks", "compositions"),
		"POST /audience-criterias/validate-from-body":        decoded(http.StatusCreated, definitionBody, a.Audiences.Validate, same),
		"POST /audience-criterias/preview-from-body":         previewBody(definitionBody, a.Audiences.PreviewBody),
		"GET /audience-criterias/{id}":                       byID(a.Audiences.Get, presentAudience),
		"PATCH /audience-criterias/{id}":                     update(audiencePatchBody, a.Audiences.Update, presentAudience),
		"DELETE /audience-criterias/{id}":                    removeByID(a.Audiences.Delete),
		"GET /audience-criterias/{id}/sql":                   sqlOf(a.Audiences.SQL),
		"POST /audience-criterias/{id}/preview":              previewStored(a.Audiences.Preview),
		"POST /audience-criterias/{id}/preview-change":       withID(http.StatusCreated, changeBody, a.Audiences.MembershipChange, same),

		// Result type configs.
		"GET /task-result-type-configs":             all(a.ResultTypes.List, presentResultTypeConfig),
		"PUT /task-result-type-configs":             decoded(http.StatusOK, resultTypeItemsBody, a.ResultTypes.PutBulk, each(presentResultTypeConfig)),
		"PUT /task-result-type-configs/{code}":      a.putResultTypeConfig,
		"GET /integration/task-result-type-configs": all(a.ResultTypes.Integration, presentIntegrationResultType),

		// Activities, their tasks and the status machine's commands.
		"GET /activities":                                  activityPage(a.Activities.List),
		"POST /activities":                                 a.createActivity,
		"GET /activities/{id}":                             byID(a.Activities.Get, presentActivityDetail),
		"GET /activities/{id}/status-events":               byID(a.Activities.StatusEvents, each(presentStatusEvent)),
		"GET /activities/{id}/attributes":                  byID(a.Activities.Attributes, each(presentAttribute)),
		"POST /activities/{id}/cancel":                     update(reasonOnlyBody, a.Activities.Cancel, presentActivityDetail),
		"POST /activities/{id}/resolution-events":          a.activityResolutionEvent,
		"GET /activities/tasks":                            activityPage(a.Activities.ListTasks),
		"GET /activities/tasks/{id}":                       byID(a.Activities.GetTask, presentActivityDetail),
		"POST /activities/tasks/{id}/dispatch":             byID(a.Activities.Dispatch, presentActivityDetail),
		"POST /activities/tasks/{id}/force-retry-dispatch": byID(a.Activities.ForceRetryDispatch, presentActivityDetail),

		// Activity results.
		"POST /activity-results/tasks":       a.submitResult,
		"PATCH /activity-results/tasks/{id}": a.updateResult,
		"GET /activity-results/tasks/sync":   a.syncResults,

		// Integration routes with an optional project (SPEC.md "Integration
		// API"): the tasks of x-project-id's project (or a project key's),
		// else of every project of the tenant; a result takes its activity's
		// project.
		"GET /integration/activities/tasks":        activityPage(a.Activities.ListTasksAnyProject),
		"POST /integration/activity-results/tasks": a.submitIntegrationResult,
	}
}
