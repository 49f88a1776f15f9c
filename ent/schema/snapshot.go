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
		field.UUID("commerce_id", uuid.UUID{}).Immutable(),
		// external_id is the commerce code, denormalized at upsert; null when the commerce has none.
		field.String("external_id").Optional().Nillable(),
		field.UUID("activity_generation_config_id", uuid.UUID{}).Immutable(),
		// code is the raw retention state code (a tenant retention status config code).
		field.String("code").NotEmpty().
			Annotations(entgql.OrderField("CODE")),
		field.String("label"),
		field.Enum("stage").Values("ACTIVATION", "ENGAGEMENT", "RESURRECTION"),
		// last_computed_at is supplied by the caller on every upsert.
		field.Time("last_computed_at").
			Annotations(entgql.OrderField("LAST_COMPUTED_AT")),
		// state_changed_at is managed by the service: it moves only when (stage, code) changes.
		field.Time("state_changed_at").
			Annotations(entgql.OrderField("STATE_CHANGED_AT")),
	}
}

// Edges of the CommerceLifecycleSnapshot.
func (CommerceLifecycleSnapshot) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("commerce", Commerce.Type).Field("commerce_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("activity_generation_config", ActivityGenerationConfig.Type).
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
	return []schema.Annotation{entgql.RelayConnection()}
}
