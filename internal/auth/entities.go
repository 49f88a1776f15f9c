package auth

// viewPermission is the permission needed to read an entity, by ent type
// (and GraphQL object) name; "" means membership of the tenant suffices.
var viewPermission = map[string]string{
	"Tenant": "", "Project": PermProjectView,
	"User": PermUserView, "Membership": PermUserView, "APIKey": PermAPIKeyManage,
	// A query block belongs to an audience or to an event filter: it is read
	// through its owner (whose permission the guard has checked), and node()
	// asks BlockViewPermission.
	"Audience": PermAudienceView, "QueryBlock": "", "AudienceComposition": PermAudienceView,
	"EventFilter":   PermEventCriteriaView,
	"TenantDataset": PermDatasetView, "CatalogTable": PermDatasetView,
	"CatalogColumn": PermDatasetView, "CatalogSemiJoin": PermDatasetView,
	"Commerce": PermCommerceView, "CommerceAddress": PermCommerceView, "CommerceUser": PermCommerceView,
	"CommerceUserRole": PermCommerceView, "CommerceContact": PermCommerceView,
	"Operator": PermOperatorView, "Route": PermRouteView, "RouteOperator": PermRouteView,
	"Supervisor": PermSupervisorView, "SupervisorAssignment": PermSupervisorView,
	"DispatchProvider": PermDispatchView, "ChannelDefinition": PermDispatchView, "DispatchConfig": PermDispatchView,
	"TrashRecord": PermTrashView, "TrashSetting": PermTrashManageSettings,
	"RetentionStatusConfig": PermAGCView, "ActivityReasonConfig": PermActivityView,
	"ActivityGenerationConfig": PermAGCView, "GenerationRule": PermGenerationRuleView,
	"GenerationPolicy": PermGenerationRuleView, "GenerationSettings": PermGenerationRuleView, "GenerationDecision": PermGenerationRuleView,
	"ActivationConfig": PermLifecycleConfigView, "ActivationMoment": PermLifecycleConfigView,
	"EngagementConfig": PermLifecycleConfigView, "EngagementLevel": PermLifecycleConfigView,
	"ResurrectionConfig": PermLifecycleConfigView, "ResurrectionThreshold": PermLifecycleConfigView,
	"CommerceLifecycleSnapshot": PermSnapshotView, "CommerceLifecycleTransition": PermSnapshotView,
	"LifecycleRun": PermLifecycleRunView,
	"Activity":     PermActivityView, "ActivityStatusEvent": PermActivityView, "ActivityAttribute": PermActivityView,
	"ActivityResult": PermActivityResultView,
	"ResultType":     PermResultTypeView, "TenantResultTypeConfig": PermResultTypeView,
	"WebhookEndpoint": PermWebhookView, "WebhookDelivery": PermWebhookView,
}

// ViewPermission returns the permission that reading an entity type needs;
// known is false for types that are not readable entities (fail closed).
func ViewPermission(entityType string) (perm string, known bool) {
	perm, known = viewPermission[entityType]
	return perm, known
}

// BlockViewPermission is the permission reading a query block needs: its
// owner's.
func BlockViewPermission(ownedByAudience bool) string {
	if ownedByAudience {
		return PermAudienceView
	}
	return PermEventCriteriaView
}
