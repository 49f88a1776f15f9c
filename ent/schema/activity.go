package schema

import (
	"encoding/json"
	"time"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/google/uuid"
)

// Activity is a task or message generated for a commerce.
type Activity struct{ ent.Schema }

// Mixin of the Activity.
func (Activity) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}}
}

// Fields of the Activity.
func (Activity) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("commerce_id", uuid.UUID{}).Comment("The commerce the activity is for (REST `commerceAssignment.commerceId`)."),
		field.UUID("operator_id", uuid.UUID{}).Comment("The operator assigned to the activity; null when unassigned.").Optional().Nillable(),
		field.UUID("route_id", uuid.UUID{}).Comment("The route the activity belongs to; null when none.").Optional().Nillable(),
		// The AGC that generated the activity, if any (plain column: AGCs are archived, not deleted).
		field.UUID("activity_generation_config_id", uuid.UUID{}).Comment("The AGC that generated the activity; null when it was created directly.").Optional().Nillable(),
		field.Enum("type").Comment("TASK (performed by an operator, answered by a result) or MESSAGE (sent through a channel).").Annotations(activityTypeDoc).Values("TASK", "MESSAGE"),
		field.Enum("channel").Comment("The channel through which the activity is carried out or delivered.").Annotations(channelDoc).Values("SALESMAN", "CALLCENTER", "WHATSAPP", "EMAIL", "SMS", "PUSH"),
		field.Enum("status").Comment("Current status in the activity status machine.").Annotations(activityStatusDoc).
			Values("READY", "UNRESOLVED", "DISPATCHED", "COMPLETED", "CANCELED", "FAILED", "RETRYING").
			Default("READY").
			Annotations(entgql.OrderField("STATUS")),
		field.Time("scheduled_at").Comment("When the activity is planned; its day (in the tenant's time zone) decides the day cutoff that closes it.").
			Annotations(entgql.OrderField("SCHEDULED_AT")),
		field.String("provider_activity_id").Comment("The activity's id at the dispatch provider or integrator; null until known. Unique in the tenant.").Optional().Nillable(),
		field.String("title").Comment("Short title; empty when none.").Optional(),
		field.Text("description").Comment("Free-text description; empty when none.").Optional(),
		field.String("reason_code").Comment("Code of a tenant activity reason config explaining why the activity exists; empty when none.").Optional(),
		field.Int("dispatch_attempts").Comment("Dispatch attempts made within the current retry budget.").Default(0).NonNegative(),
		field.Time("next_dispatch_at").Comment("When a RETRYING task may be dispatched again; null otherwise.").Optional().Nillable(),
		field.Time("closed_at").Comment("When the day cutoff closed the activity; null while not closed by it.").Optional().Nillable(),
		field.Time("expires_at").Comment("When a still open activity is canceled (a generation rule's expiresAfterDays); null: never.").Optional().Nillable().Immutable(),
		field.UUID("created_by", uuid.UUID{}).Comment("The user (or API key owner) who created the activity; null for the system.").Optional().Nillable().Immutable(),
	}
}

// Edges of the Activity.
func (Activity) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("commerce", Commerce.Type).Comment("The commerce the activity is for.").Field("commerce_id").Unique().Required(),
		edge.To("operator", Operator.Type).Comment("The assigned operator; null when unassigned.").Field("operator_id").Unique(),
		edge.To("route", Route.Type).Comment("The route; null when none.").Field("route_id").Unique(),
		edge.From("status_events", ActivityStatusEvent.Type).Comment("The activity's audit trail, one entry per status transition.").Ref("activity"),
		edge.From("attributes", ActivityAttribute.Type).Comment("Key-value pairs attached at creation.").Ref("activity"),
		// At most one result per activity: the result holds the foreign key,
		// which ent makes UNIQUE for this 1:1 edge (NULL for standalone results).
		edge.To("result", ActivityResult.Type).Comment("The activity's result; null until one is submitted (at most one per activity).").Unique(),
	}
}

// Indexes of the Activity.
func (Activity) Indexes() []ent.Index {
	return []ent.Index{
		// The lists, by scheduled_at: a project's (all, or one documented
		// filter), and the tasks of every project of the tenant. title and
		// commerce_id follow the sort columns so that search (title or
		// commerce name) is answered from the index alone as well. The
		// task lists (type TASK) take every other filter from the columns
		// that follow the sort columns of theirs, so that their counts too
		// read the index only.
		listIndex("tenant_id", "project_id", "scheduled_at", "id", "title", "commerce_id"),
		listIndex("tenant_id", "project_id", "status", "scheduled_at", "id"),
		listIndex("tenant_id", "project_id", "type", "scheduled_at", "id", "status", "channel", "commerce_id", "title"),
		listIndex("tenant_id", "project_id", "channel", "scheduled_at", "id"),
		listIndex("tenant_id", "project_id", "commerce_id", "scheduled_at", "id"),
		listIndex("tenant_id", "type", "scheduled_at", "id", "status", "channel", "commerce_id", "title"),
		index.Fields("tenant_id", "provider_activity_id").Unique().
			Annotations(entsql.IndexWhere("provider_activity_id IS NOT NULL")),
		// Cross-tenant sweeps: dispatch retries and the end-of-day auto-close.
		index.Fields("status", "next_dispatch_at"),
		index.Fields("status", "scheduled_at"),
		index.Fields("status", "expires_at"),
		index.Fields("commerce_id"),
		index.Fields("operator_id"),
		index.Fields("route_id"),
	}
}

// Annotations of the Activity.
func (Activity) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A task or message generated for a commerce (REST `/api/activities`); its status moves through the activity status machine, and every transition records an ActivityStatusEvent."), entgql.RelayConnection()}
}

// ActivityStatusEvent is one entry of an activity's audit trail (append-only).
type ActivityStatusEvent struct{ ent.Schema }

// Mixin of the ActivityStatusEvent.
func (ActivityStatusEvent) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}}
}

// Fields of the ActivityStatusEvent.
func (ActivityStatusEvent) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("activity_id", uuid.UUID{}).Comment("The activity the event belongs to.").Immutable(),
		field.Enum("event_type").Comment("What happened.").Annotations(statusEventTypeDoc).
			Values(
				"CREATED",
				"CREATION_FAILED",
				"DISPATCH_ATTEMPT",
				"DISPATCH_SUCCESS",
				"DISPATCH_FAILED",
				"COMPLETED",
				"CANCELED",
				"FAILED",
				"RESOLUTION_FAILED",
				"RESOLUTION_RETRY_SUCCESS",
				"RESOLUTION_RETRY_FAILED",
			).
			Immutable(),
		field.Enum("from_status").Comment("Status before the event; null on creation.").Annotations(activityStatusDoc).
			Values("READY", "UNRESOLVED", "DISPATCHED", "COMPLETED", "CANCELED", "FAILED", "RETRYING").
			Optional().Nillable().Immutable(),
		field.Enum("to_status").Comment("Status after the event.").Annotations(activityStatusDoc).
			Values("READY", "UNRESOLVED", "DISPATCHED", "COMPLETED", "CANCELED", "FAILED", "RETRYING").
			Immutable(),
		field.Time("occurred_at").Comment("When the event happened.").Default(time.Now).Immutable().
			Annotations(entgql.OrderField("OCCURRED_AT")),
		field.UUID("actor_id", uuid.UUID{}).Comment("The user (or API key owner) that caused the event; null for the system.").Optional().Nillable().Immutable(),
		field.JSON("detail", map[string]any{}).Optional().Immutable().
			Annotations(entgql.Skip()),
	}
}

// Edges of the ActivityStatusEvent.
func (ActivityStatusEvent) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("activity", Activity.Type).Comment("The activity the event belongs to.").Field("activity_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the ActivityStatusEvent.
func (ActivityStatusEvent) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("activity_id", "occurred_at"),
	}
}

// Annotations of the ActivityStatusEvent.
func (ActivityStatusEvent) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("One entry of an activity's audit trail (append-only): a status transition and what caused it."), entgql.RelayConnection()}
}

// ActivityAttribute is a key-value pair attached to an activity at creation.
type ActivityAttribute struct{ ent.Schema }

// Mixin of the ActivityAttribute.
func (ActivityAttribute) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}}
}

// Fields of the ActivityAttribute.
func (ActivityAttribute) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("activity_id", uuid.UUID{}).Comment("The activity the attribute belongs to.").Immutable(),
		field.String("key").Comment("Attribute key, 1 to 255 characters, unique per activity.").NotEmpty().
			Annotations(entgql.OrderField("KEY")),
		field.Text("value").Comment("Attribute value."),
	}
}

// Edges of the ActivityAttribute.
func (ActivityAttribute) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("activity", Activity.Type).Comment("The activity the attribute belongs to.").Field("activity_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the ActivityAttribute.
func (ActivityAttribute) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("activity_id", "key").Unique(),
	}
}

// Annotations of the ActivityAttribute.
func (ActivityAttribute) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A key-value pair attached to an activity at creation."), entgql.RelayConnection()}
}

// ActivityResult is the outcome reported for an activity, or a standalone result.
type ActivityResult struct{ ent.Schema }

// Mixin of the ActivityResult.
func (ActivityResult) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Policy of the ActivityResult: narrowed to the active project like every
// project-owned entity (its project_id stays a plain column, nullable for
// safety). The tenant-level results sync reads every project through its
// access (tenancy.Access.TenantWide), whatever project a GraphQL request names.
func (ActivityResult) Policy() ent.Policy { return projectPolicy() }

// Fields of the ActivityResult.
func (ActivityResult) Fields() []ent.Field {
	return []ent.Field{
		// project_id is the project of the linked activity, or the request's
		// project for a standalone result (plain column, nullable for safety).
		field.UUID("project_id", uuid.UUID{}).Comment("The project of the linked activity, or the request's project for a standalone result.").Optional().Nillable(),
		field.UUID("activity_id", uuid.UUID{}).Comment("The linked activity; null for a standalone result.").Optional().Nillable(),
		field.UUID("commerce_id", uuid.UUID{}).Comment("The linked activity's commerce, or the tenant's commerce with commerceExternalID; null when no commerce has that external id.").Optional().Nillable(),
		field.String("commerce_external_id").Comment("Commerce code in the caller's system, as submitted (required for a standalone result); null when not sent.").Optional().Nillable(),
		field.String("provider_activity_id").Comment("The activity's id at the provider or integrator, as submitted; null when not sent.").Optional().Nillable(),
		field.Enum("source").Comment("RETEN_ACTIVITY when the result is linked to an activity of the service, STANDALONE otherwise.").Annotations(resultSourceDoc).Values("RETEN_ACTIVITY", "STANDALONE"),
		field.Enum("result_status").Comment("Status of the result in the result status machine; every status but PENDING is terminal.").Annotations(resultStatusDoc).Values("PENDING", "COMPLETED", "NOT_EXECUTED", "CANCELED", "TRANSFERRED").
			Annotations(entgql.OrderField("RESULT_STATUS")),
		field.String("external_status").Comment("The status as named by the integrator, stored as sent; null when not sent.").Optional().Nillable(),
		field.Time("occurred_at").Comment("When the outcome happened, as reported; an update must carry a later instant than the stored result's updatedAt.").
			Annotations(entgql.OrderField("OCCURRED_AT")),
		field.String("result_code").Comment("Result type code (REST `taskDetails.result`), active for the tenant.").NotEmpty().
			Annotations(entgql.Type("TaskResultTypeCode")),
		field.Text("comment").Comment("Free-text comment (REST `taskDetails.comment`); null when none.").Optional().Nillable(),
		field.Enum("contact_type").Comment("Who initiated the contact (REST `taskDetails.contactType`); null when not sent.").Annotations(contactDirectionDoc).Values("INBOUND", "OUTBOUND").Optional().Nillable(),
		field.String("operator_external_id").Comment("The operator's code in the caller's system, as submitted; null when not sent.").Optional().Nillable(),
		field.Time("future_scheduled_at").Comment("Suggested follow-up date, required by some result types; null when none.").Optional().Nillable(),
		field.JSON("payload", map[string]any{}).Comment("Free-form JSON object submitted with the outcome (REST `taskDetails.payload`); null when none.").Optional().
			Annotations(entgql.Type("Map")),
		// raw_payload is stored exactly as sent.
		field.JSON("raw_payload", json.RawMessage{}).Comment("The submission's raw payload, returned exactly as sent; null when none.").Optional().
			Annotations(entgql.Type("JSON")),
		field.Bool("hard_override").Comment("Whether the last submission skipped the result status machine.").Default(false),
		field.UUID("submitted_by", uuid.UUID{}).Comment("The user (or API key owner) who submitted the result; null for the system.").Optional().Nillable(),
	}
}

// Edges of the ActivityResult.
func (ActivityResult) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("activity", Activity.Type).Comment("The linked activity; null for a standalone result.").Ref("result").Field("activity_id").Unique(),
		edge.To("commerce", Commerce.Type).Comment("The result's commerce; null when unresolved.").Field("commerce_id").Unique(),
	}
}

// Indexes of the ActivityResult.
func (ActivityResult) Indexes() []ent.Index {
	return []ent.Index{
		// Keyset order of the sync route.
		index.Fields("tenant_id", "updated_at", "id"),
		index.Fields("project_id"),
		index.Fields("commerce_id"),
	}
}

// Annotations of the ActivityResult.
func (ActivityResult) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("The outcome reported for an activity (a task result, REST `/api/activity-results/tasks`), or a standalone result that matches no activity. Submitting a result drives the linked activity's status."), entgql.RelayConnection()}
}

// ResultType is a platform-wide result type code (global catalog, not tenant-owned).
type ResultType struct{ ent.Schema }

// Mixin of the ResultType.
func (ResultType) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}}
}

// Fields of the ResultType.
func (ResultType) Fields() []ent.Field {
	return []ent.Field{
		field.String("code").Comment("Result type code, unique in the catalog.").NotEmpty().
			Annotations(entgql.OrderField("CODE"), entgql.Type("TaskResultTypeCode")),
		field.String("label").Comment("Display label.").NotEmpty(),
		field.Bool("requires_future_scheduled_at").Comment("Whether a result of this type must carry a futureScheduledAt by default.").Default(false),
		field.Int("sort_order").Comment("Position in the catalog (ascending).").Default(0).
			Annotations(entgql.OrderField("SORT_ORDER")),
	}
}

// Indexes of the ResultType.
func (ResultType) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("code").Unique(),
	}
}

// Annotations of the ResultType.
func (ResultType) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A platform-wide result type code (global catalog): success, not_home, is_closed, ..."), entgql.RelayConnection()}
}

// TenantResultTypeConfig is a tenant's activation and classification of a result type.
type TenantResultTypeConfig struct{ ent.Schema }

// Mixin of the TenantResultTypeConfig.
func (TenantResultTypeConfig) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the TenantResultTypeConfig.
func (TenantResultTypeConfig) Fields() []ent.Field {
	return []ent.Field{
		field.String("result_type_code").Comment("The result type code (ResultType.code) configured.").NotEmpty().
			Annotations(entgql.OrderField("RESULT_TYPE_CODE"), entgql.Type("TaskResultTypeCode")),
		field.Bool("is_active").Comment("Whether results of this type are accepted in the tenant.").Default(true),
		field.Enum("polarity").Comment("Whether the tenant counts this result as positive or negative.").Annotations(polarityDoc).Values("POSITIVE", "NEGATIVE"),
		field.Bool("requires_future_scheduled_at").Comment("Whether a result of this type must carry a futureScheduledAt in the tenant.").Default(false),
	}
}

// Indexes of the TenantResultTypeConfig.
func (TenantResultTypeConfig) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("tenant_id", "result_type_code").Unique(),
	}
}

// Annotations of the TenantResultTypeConfig.
func (TenantResultTypeConfig) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A tenant's activation and classification of a result type (REST `/api/task-result-type-configs`)."), entgql.RelayConnection()}
}

// IdempotencyRecord stores the first response of an idempotent request for replay.
type IdempotencyRecord struct{ ent.Schema }

// Mixin of the IdempotencyRecord.
func (IdempotencyRecord) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the IdempotencyRecord.
func (IdempotencyRecord) Fields() []ent.Field {
	return []ent.Field{
		field.String("key").Comment("The Idempotency-Key header value.").NotEmpty().Immutable(),
		field.String("method").Comment("HTTP method of the request.").NotEmpty().Immutable(),
		field.String("path").Comment("Request path.").NotEmpty().Immutable(),
		field.String("request_hash").Comment("Hash of the request body; a reused key with a different body is refused.").Immutable(),
		field.Int("status_code").Comment("HTTP status of the stored response."),
		// response_body may hold data that must not be logged.
		field.Bytes("response_body").Optional().Sensitive().
			Annotations(entgql.Skip()),
		field.Time("expires_at").Comment("When the record is discarded and the key may be reused."),
	}
}

// Indexes of the IdempotencyRecord.
func (IdempotencyRecord) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("tenant_id", "key", "method", "path").Unique(),
		index.Fields("expires_at"),
	}
}

// Annotations of the IdempotencyRecord.
func (IdempotencyRecord) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("The first response to an idempotent request (Idempotency-Key header), kept for replay until it expires."), entgql.RelayConnection()}
}
