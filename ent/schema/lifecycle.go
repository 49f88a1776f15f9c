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

// RetentionStatusConfig is a tenant's catalog entry for a retention state code.
type RetentionStatusConfig struct{ ent.Schema }

// Mixin of the RetentionStatusConfig.
func (RetentionStatusConfig) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the RetentionStatusConfig.
func (RetentionStatusConfig) Fields() []ent.Field {
	return []ent.Field{
		field.String("code").NotEmpty().
			Annotations(entgql.OrderField("CODE")),
		field.String("label").NotEmpty(),
		field.Enum("stage").Values("ACTIVATION", "ENGAGEMENT", "RESURRECTION"),
		field.Bool("is_active").Default(true),
		field.String("description").Optional(),
	}
}

// Indexes of the RetentionStatusConfig.
func (RetentionStatusConfig) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("tenant_id", "code").Unique(),
	}
}

// Annotations of the RetentionStatusConfig.
func (RetentionStatusConfig) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField("retentionStatusConfigs")}
}

// ActivityReasonConfig is a tenant's catalog entry for an activity reason code.
type ActivityReasonConfig struct{ ent.Schema }

// Mixin of the ActivityReasonConfig.
func (ActivityReasonConfig) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the ActivityReasonConfig.
func (ActivityReasonConfig) Fields() []ent.Field {
	return []ent.Field{
		field.String("code").NotEmpty().
			Annotations(entgql.OrderField("CODE")),
		field.String("label").NotEmpty(),
		field.Bool("is_active").Default(true),
	}
}

// Indexes of the ActivityReasonConfig.
func (ActivityReasonConfig) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("tenant_id", "code").Unique(),
	}
}

// Annotations of the ActivityReasonConfig.
func (ActivityReasonConfig) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField("activityReasonConfigs")}
}

// ActivityGenerationConfig (AGC) groups the three lifecycle pillars of a project.
type ActivityGenerationConfig struct{ ent.Schema }

// Mixin of the ActivityGenerationConfig.
func (ActivityGenerationConfig) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}, ArchiveMixin{}}
}

// Fields of the ActivityGenerationConfig.
func (ActivityGenerationConfig) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.String("description").Default(""),
		// audience_id is the AGC's own audience; null means the project's root audience applies.
		field.UUID("audience_id", uuid.UUID{}).Optional().Nillable(),
		field.Enum("status").Values("draft", "active", "paused").Default("draft").
			Annotations(entgql.OrderField("STATUS")),
		// config_hashes holds one hash per pillar ("activation", "engagement",
		// "resurrection"), recomputed by the service after lifecycle edits.
		field.JSON("config_hashes", map[string]string{}).Optional().
			Annotations(entgql.Skip()),
		field.UUID("updated_by", uuid.UUID{}).Optional().Nillable(),
	}
}

// Edges of the ActivityGenerationConfig.
func (ActivityGenerationConfig) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("audience", Audience.Type).Field("audience_id").Unique(),
		// 1:1 pillars: each pillar holds the foreign key, and ent makes that
		// column UNIQUE (one pillar of each kind per AGC). Purging the AGC
		// removes them.
		edge.To("activation_config", ActivationConfig.Type).Unique().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("engagement_config", EngagementConfig.Type).Unique().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("resurrection_config", ResurrectionConfig.Type).Unique().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		// Millions of rows per AGC: read through the commerceLifecycleSnapshots
		// connection (filter activityGenerationConfigID), never as a plain list.
		edge.From("lifecycle_snapshots", CommerceLifecycleSnapshot.Type).Ref("activity_generation_config").
			Annotations(entgql.Skip(entgql.SkipAll)),
	}
}

// Indexes of the ActivityGenerationConfig.
func (ActivityGenerationConfig) Indexes() []ent.Index {
	return []ent.Index{
		// Name is unique within the project among live AGCs.
		index.Fields("project_id", "name").Unique().
			Annotations(entsql.IndexWhere("archived_at IS NULL")),
		index.Fields("audience_id"),
	}
}

// Annotations of the ActivityGenerationConfig.
func (ActivityGenerationConfig) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField("activityGenerationConfigs")}
}

// ActivationConfig is the activation pillar of an AGC (exactly one per AGC).
type ActivationConfig struct{ ent.Schema }

// Mixin of the ActivationConfig.
func (ActivationConfig) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}, ArchiveMixin{}}
}

// Fields of the ActivationConfig.
func (ActivationConfig) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("activity_generation_config_id", uuid.UUID{}).Immutable(),
		field.String("name").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.String("description").Optional().Nillable(),
		field.String("source_table"),
		field.Strings("source_columns").Optional(),
		field.String("date_column"),
		field.Enum("aggregation_method").Values("nunique", "count", "sum", "active_weeks"),
		field.Bool("is_active").Default(true),
		field.UUID("updated_by", uuid.UUID{}).Optional().Nillable(),
	}
}

// Edges of the ActivationConfig.
func (ActivationConfig) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("activity_generation_config", ActivityGenerationConfig.Type).
			Ref("activation_config").Field("activity_generation_config_id").
			Unique().Required().Immutable(),
		edge.From("activation_moments", ActivationMoment.Type).Ref("activation_config"),
	}
}

// Annotations of the ActivationConfig.
func (ActivationConfig) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// ActivationMoment is one rule of the activation pillar (lower priority wins).
type ActivationMoment struct{ ent.Schema }

// Mixin of the ActivationMoment.
func (ActivationMoment) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}}
}

// Fields of the ActivationMoment.
func (ActivationMoment) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("activation_config_id", uuid.UUID{}).Immutable(),
		field.String("status_code").NotEmpty(),
		field.UUID("user_retention_status_config_id", uuid.UUID{}),
		field.Int("min_actions").Optional().Nillable(),
		// window_days is the rolling window in days.
		field.Int("window_days").Optional().Nillable(),
		// time_window is an optional bound in days.
		field.Int("time_window").Optional().Nillable(),
		field.Int("priority").Default(0).
			Annotations(entgql.OrderField("PRIORITY")),
		field.Bool("is_active").Default(true),
	}
}

// Edges of the ActivationMoment.
func (ActivationMoment) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("activation_config", ActivationConfig.Type).Field("activation_config_id").
			Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("user_retention_status_config", RetentionStatusConfig.Type).
			Field("user_retention_status_config_id").Unique().Required(),
	}
}

// Indexes of the ActivationMoment.
func (ActivationMoment) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("activation_config_id", "priority"),
		index.Fields("user_retention_status_config_id"),
	}
}

// Annotations of the ActivationMoment.
func (ActivationMoment) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// EngagementConfig is the engagement pillar of an AGC (exactly one per AGC).
type EngagementConfig struct{ ent.Schema }

// Mixin of the EngagementConfig.
func (EngagementConfig) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}, ArchiveMixin{}}
}

// Fields of the EngagementConfig.
func (EngagementConfig) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("activity_generation_config_id", uuid.UUID{}).Immutable(),
		field.String("name").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.String("description").Optional().Nillable(),
		field.String("source_table"),
		field.Strings("source_columns").Optional(),
		field.String("date_column"),
		field.Int("engagement_window_days").Positive(),
		field.Int("min_lifetime_actions_for_engaged").NonNegative(),
		field.String("counting_method"),
		field.Bool("is_active").Default(true),
		field.UUID("updated_by", uuid.UUID{}).Optional().Nillable(),
	}
}

// Edges of the EngagementConfig.
func (EngagementConfig) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("activity_generation_config", ActivityGenerationConfig.Type).
			Ref("engagement_config").Field("activity_generation_config_id").
			Unique().Required().Immutable(),
		edge.From("engagement_levels", EngagementLevel.Type).Ref("engagement_config"),
	}
}

// Annotations of the EngagementConfig.
func (EngagementConfig) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// EngagementLevel is one band of the engagement pillar.
type EngagementLevel struct{ ent.Schema }

// Mixin of the EngagementLevel.
func (EngagementLevel) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}}
}

// Fields of the EngagementLevel.
func (EngagementLevel) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("engagement_config_id", uuid.UUID{}).Immutable(),
		field.String("status_code").NotEmpty(),
		field.UUID("user_retention_status_config_id", uuid.UUID{}),
		field.String("label"),
		field.Int("min_threshold"),
		field.Int("max_threshold").Optional().Nillable(),
		// "order" is a reserved word in SQL; the column is sort_order.
		field.Int("order").StorageKey("sort_order").Default(0),
		field.Bool("is_active").Default(true),
	}
}

// Edges of the EngagementLevel.
func (EngagementLevel) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("engagement_config", EngagementConfig.Type).Field("engagement_config_id").
			Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("user_retention_status_config", RetentionStatusConfig.Type).
			Field("user_retention_status_config_id").Unique().Required(),
	}
}

// Indexes of the EngagementLevel.
func (EngagementLevel) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("engagement_config_id", "order"),
		index.Fields("user_retention_status_config_id"),
	}
}

// Annotations of the EngagementLevel.
func (EngagementLevel) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// ResurrectionConfig is the resurrection pillar of an AGC (exactly one per AGC).
type ResurrectionConfig struct{ ent.Schema }

// Mixin of the ResurrectionConfig.
func (ResurrectionConfig) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}, ArchiveMixin{}}
}

// Fields of the ResurrectionConfig.
func (ResurrectionConfig) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("activity_generation_config_id", uuid.UUID{}).Immutable(),
		field.String("name").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.String("description").Optional().Nillable(),
		field.String("source_table"),
		field.Strings("source_columns").Optional(),
		field.String("date_column"),
		field.Bool("is_active").Default(true),
		field.UUID("updated_by", uuid.UUID{}).Optional().Nillable(),
	}
}

// Edges of the ResurrectionConfig.
func (ResurrectionConfig) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("activity_generation_config", ActivityGenerationConfig.Type).
			Ref("resurrection_config").Field("activity_generation_config_id").
			Unique().Required().Immutable(),
		edge.From("resurrection_thresholds", ResurrectionThreshold.Type).Ref("resurrection_config"),
	}
}

// Annotations of the ResurrectionConfig.
func (ResurrectionConfig) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// ResurrectionThreshold is one inactivity threshold of the resurrection pillar.
type ResurrectionThreshold struct{ ent.Schema }

// Mixin of the ResurrectionThreshold.
func (ResurrectionThreshold) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}}
}

// Fields of the ResurrectionThreshold.
func (ResurrectionThreshold) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("resurrection_config_id", uuid.UUID{}).Immutable(),
		field.String("status_code").NotEmpty(),
		field.UUID("user_retention_status_config_id", uuid.UUID{}),
		field.String("label"),
		field.Int("threshold_days").NonNegative(),
		// "order" is a reserved word in SQL; the column is sort_order.
		field.Int("order").StorageKey("sort_order").Default(0),
		field.Bool("is_active").Default(true),
	}
}

// Edges of the ResurrectionThreshold.
func (ResurrectionThreshold) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("resurrection_config", ResurrectionConfig.Type).Field("resurrection_config_id").
			Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("user_retention_status_config", RetentionStatusConfig.Type).
			Field("user_retention_status_config_id").Unique().Required(),
	}
}

// Indexes of the ResurrectionThreshold.
func (ResurrectionThreshold) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("resurrection_config_id", "order"),
		index.Fields("user_retention_status_config_id"),
	}
}

// Annotations of the ResurrectionThreshold.
func (ResurrectionThreshold) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
