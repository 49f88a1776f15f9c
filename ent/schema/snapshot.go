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
)

// CommerceLifecycleSnapshot is the current retention state of a commerce under one AGC.
type CommerceLifecycleSnapshot struct{ ent.Schema }

// Mixin of the CommerceLifecycleSnapshot (tenant-level: never narrowed by project).
func (CommerceLifecycleSnapshot) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the CommerceLifecycleSnapshot.
func (CommerceLifecycleSnapshot) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("commerce_id", uuid.UUID{}).Comment("The commerce (REST `commerce_id`).").Immutable(),
		field.String("external_id").Comment("Commerce code in the caller's system, denormalized at upsert; null when the commerce has none.").Optional().Nillable(),
		field.UUID("activity_generation_config_id", uuid.UUID{}).Comment("The AGC under which the state was computed.").Immutable(),
		field.String("code").Comment("Raw retention state code; corresponds to a tenant retention status config.").NotEmpty().
			Annotations(entgql.OrderField("CODE")),
		field.String("label").Comment("Display label, derived from the code's config."),
		field.Enum("stage").Comment("The lifecycle pillar of the state.").Annotations(stageDoc).Values("ACTIVATION", "ENGAGEMENT", "RESURRECTION"),
		field.Time("last_computed_at").Comment("When the engine computed the state; supplied by the caller on every upsert.").
			Annotations(entgql.OrderField("LAST_COMPUTED_AT")),
		field.Time("state_changed_at").Comment("When (stage, code) last changed; managed by the service.").
			Annotations(entgql.OrderField("STATE_CHANGED_AT")),
		// prior_stage and prior_code are the state the last update replaced,
		// set by the upsert's conflict clause from the locked row: RETURNING
		// then tells a change of state exactly, so the transition is appended
		// in the same statement whatever writer raced it.
		field.String("prior_stage").Optional().Nillable().Annotations(entgql.Skip()),
		field.String("prior_code").Optional().Nillable().Annotations(entgql.Skip()),
	}
}

// Edges of the CommerceLifecycleSnapshot.
func (CommerceLifecycleSnapshot) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("commerce", Commerce.Type).Comment("The commerce.").Field("commerce_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("activity_generation_config", ActivityGenerationConfig.Type).Comment("The AGC under which the state was computed.").
			Field("activity_generation_config_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the CommerceLifecycleSnapshot.
func (CommerceLifecycleSnapshot) Indexes() []ent.Index {
	return []ent.Index{
		// The state is unique per (commerce, AGC); upserts conflict on it.
		index.Fields("commerce_id", "activity_generation_config_id").Unique(),
		// The list sorts by (state_changed_at, id) under each documented
		// filter: every index ends in both, so no plan needs a sort node.
		index.Fields("tenant_id", "state_changed_at", "id"),
		index.Fields("tenant_id", "code", "state_changed_at", "id"),
		index.Fields("tenant_id", "stage", "state_changed_at", "id"),
		index.Fields("tenant_id", "activity_generation_config_id", "state_changed_at", "id"),
		index.Fields("tenant_id", "external_id"),
	}
}

// Annotations of the CommerceLifecycleSnapshot.
func (CommerceLifecycleSnapshot) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("The current retention state of a commerce under one AGC (REST `/api/commerce-lifecycle-snapshots`, snake_case there), written by an external computation engine. Unique per (commerce, AGC); the (stage, code) pair is the visible state."), entgql.RelayConnection()}
}
