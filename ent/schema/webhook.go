package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/gqldoc"
)

// WebhookEndpoint is a tenant's receiver of signed outbound events
// (Standard Webhooks; REST `/api/webhook-endpoints`, docs/webhooks.md).
// DELETE removes it with its deliveries.
type WebhookEndpoint struct{ ent.Schema }

// Mixin of the WebhookEndpoint.
func (WebhookEndpoint) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the WebhookEndpoint.
func (WebhookEndpoint) Fields() []ent.Field {
	return []ent.Field{
		field.String("url").Comment("Where the events are POSTed: an https URL (http only for a host:port the deployment's RETEN_OUTBOUND_ALLOW names).").
			NotEmpty().Annotations(entgql.OrderField("URL")),
		field.String("description").Comment("What the endpoint is for; empty for none.").Default(""),
		field.Strings("event_types").Comment("The event types the endpoint receives (docs/webhooks.md).").
			Annotations(entgql.Type("[String!]")),
		field.Bool("is_active").Comment("Whether events are delivered to it. The service turns it off after a run of failures (disabledAt, disabledReason); turning it on again resumes the pending deliveries.").Default(true),
		field.Bytes("secret_encrypted").Comment("The signing secret, encrypted at rest; shown once, at creation and rotation.").
			Sensitive().Annotations(entgql.Skip()),
		field.Bytes("previous_secret_encrypted").Comment("The secret a rotation replaced, still signing until previousSecretExpiresAt.").
			Optional().Nillable().Sensitive().Annotations(entgql.Skip()),
		field.Time("previous_secret_expires_at").Comment("Until when deliveries are also signed with the previous secret (the rotation's overlap); null when there is none.").
			Optional().Nillable(),
		field.Int("failure_count").Comment("Failed delivery attempts since the last successful one.").Default(0),
		field.Time("failing_since").Comment("When the current run of failed attempts began; null after a success.").Optional().Nillable(),
		field.Time("disabled_at").Comment("When the service turned the endpoint off after a run of failures; null otherwise.").Optional().Nillable(),
		field.String("disabled_reason").Comment("Why the service turned the endpoint off; null otherwise.").Optional().Nillable(),
		field.UUID("created_by", uuid.UUID{}).Comment("The user who created the endpoint (for an API key, its owner).").Optional().Nillable().Immutable(),
	}
}

// Edges of the WebhookEndpoint.
func (WebhookEndpoint) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("deliveries", WebhookDelivery.Type).Ref("endpoint").Comment("The deliveries to the endpoint.").
			Annotations(entgql.Skip()),
	}
}

// Indexes of the WebhookEndpoint.
func (WebhookEndpoint) Indexes() []ent.Index {
	return []ent.Index{index.Fields("tenant_id", "created_at", "id")}
}

// Annotations of the WebhookEndpoint.
func (WebhookEndpoint) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A receiver of the tenant's signed outbound events (Standard Webhooks; REST `/api/webhook-endpoints`; docs/webhooks.md)."),
		entgql.RelayConnection(), entgql.Skip(entgql.SkipMutationCreateInput, entgql.SkipMutationUpdateInput)}
}

// WebhookEvent is one outbound event: written in the transaction of the
// change that causes it, when an active endpoint of the tenant subscribes
// to its type; its id is the webhook-id of every delivery of it. Internal:
// deliveries show it.
type WebhookEvent struct{ ent.Schema }

// Mixin of the WebhookEvent.
func (WebhookEvent) Mixin() []ent.Mixin {
	return []ent.Mixin{TenantLogMixin{}}
}

// Fields of the WebhookEvent.
func (WebhookEvent) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("id", uuid.UUID{}).Comment("The event's id: the webhook-id header.").Immutable(),
		field.String("type").Comment("The event type.").Immutable(),
		field.Text("payload").Comment("The JSON body every delivery sends, byte for byte.").Immutable(),
		field.Time("created_at").Comment("When the event happened.").Immutable(),
	}
}

// Indexes of the WebhookEvent.
func (WebhookEvent) Indexes() []ent.Index {
	return []ent.Index{index.Fields("created_at", "id")}
}

// Annotations of the WebhookEvent.
func (WebhookEvent) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("An outbound webhook event (internal)."), entgql.Skip(entgql.SkipAll)}
}

// WebhookDelivery is the delivery of one event to one endpoint: retried
// with exponential backoff until it succeeds or runs out of attempts.
type WebhookDelivery struct{ ent.Schema }

// Mixin of the WebhookDelivery.
func (WebhookDelivery) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TenantLogMixin{}}
}

// Fields of the WebhookDelivery.
func (WebhookDelivery) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("endpoint_id", uuid.UUID{}).Comment("The endpoint.").Immutable(),
		field.UUID("event_id", uuid.UUID{}).Comment("The event delivered: the webhook-id header.").Immutable(),
		field.String("event_type").Comment("The event's type.").Immutable(),
		field.Enum("status").Comment("Where the delivery stands.").Annotations(deliveryStatusDoc).
			Values("PENDING", "SUCCEEDED", "FAILED").Default("PENDING"),
		field.Int("attempts").Comment("Attempts made so far.").Default(0),
		// GraphQL serves it by hand: null once the delivery is settled.
		field.Time("next_attempt_at").Comment("When the next attempt is due (PENDING), or the claim's lease while one runs.").
			Annotations(entgql.Skip()),
		field.Time("last_attempt_at").Comment("When the last attempt ended; null before the first.").Optional().Nillable(),
		field.Int("last_status_code").Comment("The HTTP status of the last attempt; null before it or when no answer came.").Optional().Nillable(),
		field.String("last_error").Comment("Why the last attempt failed; null when it succeeded or before it.").Optional().Nillable(),
		field.UUID("replay_of", uuid.UUID{}).Comment("The delivery this one replays; null for the first delivery of the event.").Optional().Nillable().Immutable(),
		field.Time("created_at").Comment("When the delivery was queued.").Immutable().
			Annotations(entgql.OrderField("CREATED_AT")),
		field.Time("updated_at").Comment("When the delivery last changed."),
	}
}

// Edges of the WebhookDelivery.
func (WebhookDelivery) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("endpoint", WebhookEndpoint.Type).Comment("The endpoint.").Field("endpoint_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.To("event", WebhookEvent.Type).Comment("The event.").Field("event_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.From("attempt_log", WebhookAttempt.Type).Ref("delivery").Comment("The attempts, oldest first.").
			Annotations(entgql.Skip()),
	}
}

// Indexes of the WebhookDelivery.
func (WebhookDelivery) Indexes() []ent.Index {
	return []ent.Index{
		// The endpoint's list and the tenant's (GraphQL), newest first.
		listIndex("tenant_id", "endpoint_id", "created_at", "id", "status", "event_type"),
		index.Fields("tenant_id", "created_at", "id"),
		// The job's claim: due pending deliveries, oldest due first.
		index.Fields("next_attempt_at").Annotations(entsql.IndexWhere("status = 'PENDING'")),
		index.Fields("event_id"),
	}
}

// Annotations of the WebhookDelivery.
func (WebhookDelivery) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("The delivery of one event to one webhook endpoint (REST `/api/webhook-endpoints/:id/deliveries`; docs/webhooks.md)."),
		entgql.RelayConnection(), entgql.Skip(entgql.SkipMutationCreateInput, entgql.SkipMutationUpdateInput, entgql.SkipWhereInput)}
}

var deliveryStatusDoc = gqldoc.Enum("Where a webhook delivery stands.", map[string]string{
	"PENDING":   "Not delivered yet: an attempt is due at nextAttemptAt (or running).",
	"SUCCEEDED": "The endpoint answered 2xx.",
	"FAILED":    "Every attempt failed (or, for a ping, the one attempt).",
})

// WebhookAttempt records one attempt of a delivery: status, latency, error.
type WebhookAttempt struct{ ent.Schema }

// Mixin of the WebhookAttempt.
func (WebhookAttempt) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TenantLogMixin{}}
}

// Fields of the WebhookAttempt.
func (WebhookAttempt) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("delivery_id", uuid.UUID{}).Comment("The delivery.").Immutable(),
		field.Int("number").Comment("The attempt's number, from 1.").Immutable(),
		field.Time("attempted_at").Comment("When the attempt started.").Immutable(),
		field.Int("latency_ms").Comment("How long the attempt took, in milliseconds.").Immutable(),
		field.Int("status_code").Comment("The HTTP status the endpoint answered; null when no answer came.").Optional().Nillable().Immutable(),
		field.String("error").Comment("Why the attempt failed; null when it succeeded.").Optional().Nillable().Immutable(),
		field.String("response_body").Comment("The first 1,024 bytes of the endpoint's answer.").Default("").Immutable(),
	}
}

// Edges of the WebhookAttempt.
func (WebhookAttempt) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("delivery", WebhookDelivery.Type).Comment("The delivery.").Field("delivery_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
	}
}

// Indexes of the WebhookAttempt.
func (WebhookAttempt) Indexes() []ent.Index {
	return []ent.Index{index.Fields("delivery_id", "number")}
}

// Annotations of the WebhookAttempt.
func (WebhookAttempt) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("One attempt of a webhook delivery."), entgql.Skip(entgql.SkipAll)}
}
