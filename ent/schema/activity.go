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
		field.UUID("commerce_id", uuid.UUID{}),
		field.UUID("operator_id", uuid.UUID{}).Optional().Nillable(),
		field.UUID("route_id", uuid.UUID{}).Optional().Nillable(),
		// The AGC that generated the activity, if any (plain column: AGCs are archived, not deleted).
		field.UUID("activity_generation_config_id", uuid.UUID{}).Optional().Nillable(),
		field.Enum("type").Values("TASK", "MESSAGE"),
		field.Enum("channel").Values("SALESMAN", "CALLCENTER", "WHATSAPP", "EMAIL", "SMS", "PUSH"),
		field.Enum("status").
			Values("READY", "UNRESOLVED", "DISPATCHED", "COMPLETED", "CANCELED", "FAILED", "RETRYING").
			Default("READY").
			Annotations(entgql.OrderField("STATUS")),
		field.Time("scheduled_at").
			Annotations(entgql.OrderField("SCHEDULED_AT")),
		// provider_activity_id is the activity's id at the dispatch provider / integrator.
		field.String("provider_activity_id").Optional().Nillable(),
		field.String("title").Optional(),
		field.Text("description").Optional(),
		// reason_code refers to a tenant activity reason config code.
		field.String("reason_code").Optional(),
		field.Int("dispatch_attempts").Default(0).NonNegative(),
		field.Time("next_dispatch_at").Optional().Nillable(),
		field.Time("closed_at").Optional().Nillable(),
		field.UUID("created_by", uuid.UUID{}).Optional().Nillable().Immutable(),
	}
}

// Edges of the Activity.
func (Activity) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("commerce", Commerce.Type).Field("commerce_id").Unique().Required(),
		edge.To("operator", Operator.Type).Field("operator_id").Unique(),
		edge.To("route", Route.Type).Field("route_id").Unique(),
		edge.From("status_events", ActivityStatusEvent.Type).Ref("activity"),
		edge.From("attributes", ActivityAttribute.Type).Ref("activity"),
		// At most one result per activity: the result holds the foreign key,
		// which ent makes UNIQUE for this 1:1 edge (NULL for standalone results).
		edge.To("result", ActivityResult.Type).Unique(),
	}
}

// Indexes of the Activity.
func (Activity) Indexes() []ent.Index {
	return []ent.Index{
		// The lists, by scheduled_at: a project's (all, or one documented
		// filter), and the tasks of every project of the tenant. title and
		// commerce_id follow the sort columns so that search (title or
		// commerce name) is answered from the index alone as well.
		listIndex("tenant_id", "project_id", "scheduled_at", "id", "title", "commerce_id"),
		listIndex("tenant_id", "project_id", "status", "scheduled_at", "id"),
		listIndex("tenant_id", "project_id", "type", "scheduled_at", "id"),
		listIndex("tenant_id", "project_id", "channel", "scheduled_at", "id"),
		listIndex("tenant_id", "project_id", "commerce_id", "scheduled_at", "id"),
		listIndex("tenant_id", "type", "scheduled_at", "id"),
		index.Fields("tenant_id", "provider_activity_id").Unique().
			Annotations(entsql.IndexWhere("provider_activity_id IS NOT NULL")),
		// Cross-tenant sweeps: dispatch retries and the end-of-day auto-close.
		index.Fields("status", "next_dispatch_at"),
		index.Fields("status", "scheduled_at"),
		index.Fields("commerce_id"),
		index.Fields("operator_id"),
		index.Fields("route_id"),
	}
}

// Annotations of the Activity.
func (Activity) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
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
		field.UUID("activity_id", uuid.UUID{}).Immutable(),
		field.Enum("event_type").
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
		// from_status is null on creation.
		field.Enum("from_status").
			Values("READY", "UNRESOLVED", "DISPATCHED", "COMPLETED", "CANCELED", "FAILED", "RETRYING").
			Optional().Nillable().Immutable(),
		field.Enum("to_status").
			Values("READY", "UNRESOLVED", "DISPATCHED", "COMPLETED", "CANCELED", "FAILED", "RETRYING").
			Immutable(),
		field.Time("occurred_at").Default(time.Now).Immutable().
			Annotations(entgql.OrderField("OCCURRED_AT")),
		// actor_id is the user (or API key owner) that caused the event; null for the system.
		field.UUID("actor_id", uuid.UUID{}).Optional().Nillable().Immutable(),
		field.JSON("detail", map[string]any{}).Optional().Immutable().
			Annotations(entgql.Skip()),
	}
}

// Edges of the ActivityStatusEvent.
func (ActivityStatusEvent) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("activity", Activity.Type).Field("activity_id").Unique().Required().Immutable().
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
	return []schema.Annotation{entgql.RelayConnection()}
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
		field.UUID("activity_id", uuid.UUID{}).Immutable(),
		field.String("key").NotEmpty().
			Annotations(entgql.OrderField("KEY")),
		field.Text("value"),
	}
}

// Edges of the ActivityAttribute.
func (ActivityAttribute) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("activity", Activity.Type).Field("activity_id").Unique().Required().Immutable().
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
	return []schema.Annotation{entgql.RelayConnection()}
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
		field.UUID("project_id", uuid.UUID{}).Optional().Nillable(),
		field.UUID("activity_id", uuid.UUID{}).Optional().Nillable(),
		field.UUID("commerce_id", uuid.UUID{}).Optional().Nillable(),
		field.String("commerce_external_id").Optional().Nillable(),
		field.String("provider_activity_id").Optional().Nillable(),
		field.Enum("source").Values("RETEN_ACTIVITY", "STANDALONE"),
		field.Enum("result_status").Values("PENDING", "COMPLETED", "NOT_EXECUTED", "CANCELED", "TRANSFERRED").
			Annotations(entgql.OrderField("RESULT_STATUS")),
		field.String("external_status").Optional().Nillable(),
		field.Time("occurred_at").
			Annotations(entgql.OrderField("OCCURRED_AT")),
		// result_code is the result type code (task_result.result).
		field.String("result_code").NotEmpty(),
		field.Text("comment").Optional().Nillable(),
		// contact_type: INBOUND (merchant contacted operator) or OUTBOUND (operator contacted merchant).
		field.Enum("contact_type").Values("INBOUND", "OUTBOUND").Optional().Nillable(),
		field.String("operator_external_id").Optional().Nillable(),
		field.Time("future_scheduled_at").Optional().Nillable(),
		field.JSON("payload", map[string]any{}).Optional().
			Annotations(entgql.Skip()),
		// raw_payload is stored exactly as sent.
		field.JSON("raw_payload", json.RawMessage{}).Optional().
			Annotations(entgql.Skip()),
		field.Bool("hard_override").Default(false),
		field.UUID("submitted_by", uuid.UUID{}).Optional().Nillable(),
	}
}

// Edges of the ActivityResult.
func (ActivityResult) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("activity", Activity.Type).Ref("result").Field("activity_id").Unique(),
		edge.To("commerce", Commerce.Type).Field("commerce_id").Unique(),
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
	return []schema.Annotation{entgql.RelayConnection()}
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
		field.String("code").NotEmpty().
			Annotations(entgql.OrderField("CODE")),
		field.String("label").NotEmpty(),
		field.Bool("requires_future_scheduled_at").Default(false),
		field.Int("sort_order").Default(0).
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
	return []schema.Annotation{entgql.RelayConnection()}
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
		// result_type_code refers to ResultType.code.
		field.String("result_type_code").NotEmpty().
			Annotations(entgql.OrderField("RESULT_TYPE_CODE")),
		field.Bool("is_active").Default(true),
		field.Enum("polarity").Values("POSITIVE", "NEGATIVE"),
		field.Bool("requires_future_scheduled_at").Default(false),
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
	return []schema.Annotation{entgql.RelayConnection()}
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
		field.String("key").NotEmpty().Immutable(),
		field.String("method").NotEmpty().Immutable(),
		field.String("path").NotEmpty().Immutable(),
		// request_hash detects a reused key with a different body.
		field.String("request_hash").Immutable(),
		field.Int("status_code"),
		// response_body may hold data that must not be logged.
		field.Bytes("response_body").Optional().Sensitive().
			Annotations(entgql.Skip()),
		field.Time("expires_at"),
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
	return []schema.Annotation{entgql.RelayConnection()}
}
