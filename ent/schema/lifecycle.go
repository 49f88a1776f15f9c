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
		field.String("code").Comment("Retention state code, unique in the tenant.").NotEmpty().
			Annotations(entgql.OrderField("CODE")),
		field.String("label").Comment("Display label; lifecycle snapshots take theirs from it.").NotEmpty(),
		field.Enum("stage").Comment("The lifecycle pillar the code belongs to.").Annotations(stageDoc).Values("ACTIVATION", "ENGAGEMENT", "RESURRECTION"),
		field.Bool("is_active").Comment("Whether the code is active.").Default(true),
		field.String("description").Comment("What the state means; empty when none.").Optional(),
	}
}

// Indexes of the RetentionStatusConfig.
func (RetentionStatusConfig) Indexes() []ent.Index {
	return []ent.Index{
		// The id it includes lets the GraphQL connection count from the
		// index alone (PostgreSQL; SQLite has no INCLUDE).
		index.Fields("tenant_id", "code").Unique().Annotations(entsql.IncludeColumns("id")),
	}
}

// Annotations of the RetentionStatusConfig.
func (RetentionStatusConfig) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A tenant's catalog entry for a retention state code (REST `/api/retention-status-configs`; the codes lifecycle pillars assign and snapshots carry)."), entgql.RelayConnection(), entgql.QueryField("retentionStatusConfigs").Description("The retention status configs of the active tenant (REST `GET /api/retention-status-configs`).")}
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
		field.String("code").Comment("Reason code, unique in the tenant catalog.").NotEmpty().
			Annotations(entgql.OrderField("CODE")),
		field.String("label").Comment("Display label.").NotEmpty(),
		field.Bool("is_active").Comment("Whether the code is active.").Default(true),
	}
}

// Indexes of the ActivityReasonConfig.
func (ActivityReasonConfig) Indexes() []ent.Index {
	return []ent.Index{
		// The id it includes lets the GraphQL connection count from the
		// index alone (PostgreSQL; SQLite has no INCLUDE).
		index.Fields("tenant_id", "code").Unique().Annotations(entsql.IncludeColumns("id")),
	}
}

// Annotations of the ActivityReasonConfig.
func (ActivityReasonConfig) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A tenant's catalog entry for an activity reason code (REST `/api/activity-reason-configs`)."), entgql.RelayConnection(), entgql.QueryField("activityReasonConfigs").Description("The activity reason configs of the active tenant (REST `GET /api/activity-reason-configs`).")}
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
		field.String("name").Comment("AGC name, unique in the project.").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.String("description").Comment("Free-text description; empty when none.").Default(""),
		field.UUID("audience_id", uuid.UUID{}).Comment("The AGC's own audience; null means the project's root audience applies (REST `effectiveAudienceId` resolves it).").Optional().Nillable(),
		field.Enum("status").Comment("Lifecycle status of the AGC.").Annotations(agcStatusDoc).Values("draft", "active", "paused").Default("draft").
			Annotations(entgql.OrderField("STATUS")),
		// config_hashes holds one hash per pillar ("activation", "engagement",
		// "resurrection"), recomputed by the service after lifecycle edits.
		field.JSON("config_hashes", map[string]string{}).Optional().
			Annotations(entgql.Skip()),
		field.UUID("updated_by", uuid.UUID{}).Comment("The user who last changed the AGC; null when never changed by a user.").Optional().Nillable(),
	}
}

// Edges of the ActivityGenerationConfig.
func (ActivityGenerationConfig) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("audience", Audience.Type).Comment("The AGC's own audience; null when the project's root audience applies.").Field("audience_id").Unique(),
		// 1:1 pillars: each pillar holds the foreign key, and ent makes that
		// column UNIQUE (one pillar of each kind per AGC). Purging the AGC
		// removes them.
		edge.To("activation_config", ActivationConfig.Type).Comment("The activation pillar (exactly one per AGC).").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("engagement_config", EngagementConfig.Type).Comment("The engagement pillar (exactly one per AGC).").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("resurrection_config", ResurrectionConfig.Type).Comment("The resurrection pillar (exactly one per AGC).").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		// Millions of rows per AGC: read through the commerceLifecycleSnapshots
		// connection (filter activityGenerationConfigID), never as a plain list.
		edge.From("lifecycle_snapshots", CommerceLifecycleSnapshot.Type).Ref("activity_generation_config").
			Annotations(entgql.Skip(entgql.SkipAll)),
		edge.From("lifecycle_runs", LifecycleRun.Type).Ref("activity_generation_config").
			Annotations(entgql.Skip(entgql.SkipAll)),
		edge.From("generation_rules", GenerationRule.Type).Ref("activity_generation_config").
			Annotations(entgql.Skip(entgql.SkipAll)),
		edge.From("generation_settings", GenerationSettings.Type).Ref("activity_generation_config").
			Annotations(entgql.Skip(entgql.SkipAll)),
	}
}

// Indexes of the ActivityGenerationConfig.
func (ActivityGenerationConfig) Indexes() []ent.Index {
	return []ent.Index{
		// Name is unique within the project among live AGCs.
		// The columns it includes let the GraphQL connection count from
		// the index alone (PostgreSQL; SQLite has no INCLUDE).
		index.Fields("project_id", "name").Unique().
			Annotations(entsql.IndexWhere("archived_at IS NULL"), entsql.IncludeColumns("tenant_id", "id")),
		index.Fields("audience_id"),
	}
}

// Annotations of the ActivityGenerationConfig.
func (ActivityGenerationConfig) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("An activity generation config (AGC, REST `/api/activity-generation-configs`): groups the three lifecycle pillars (activation, engagement, resurrection) that classify each commerce of its audience in the retention cycle. Deleting it moves it to the trash."), entgql.RelayConnection(), entgql.QueryField("activityGenerationConfigs").Description("The AGCs of the active project (REST `GET /api/activity-generation-configs`); archived AGCs are left out.")}
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
		field.UUID("activity_generation_config_id", uuid.UUID{}).Comment("The AGC the pillar belongs to (1:1).").Immutable(),
		field.String("name").Comment("Pillar name.").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.String("description").Comment("Free-text description; null when none.").Optional().Nillable(),
		field.String("source_table").Comment("Catalog table the pillar counts actions in."),
		field.Strings("source_columns").Comment("Columns of the source table the pillar reads; null when none.").Optional(),
		field.String("date_column").Comment("Column of the source table that dates each action."),
		field.Enum("aggregation_method").Comment("How actions are counted against a moment's minActions.").Annotations(aggregationMethodDoc).Values("nunique", "count", "sum", "active_weeks"),
		field.Bool("is_active").Comment("Whether the pillar is active.").Default(true),
		field.UUID("updated_by", uuid.UUID{}).Comment("The user who last changed the pillar; null when never changed by a user.").Optional().Nillable(),
	}
}

// Edges of the ActivationConfig.
func (ActivationConfig) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("activity_generation_config", ActivityGenerationConfig.Type).Comment("The AGC the pillar belongs to.").
			Ref("activation_config").Field("activity_generation_config_id").
			Unique().Required().Immutable(),
		edge.From("activation_moments", ActivationMoment.Type).Comment("The pillar's rules (REST `activationMoments`; the lowest priority that matches wins).").Ref("activation_config"),
	}
}

// Annotations of the ActivationConfig.
func (ActivationConfig) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("The activation pillar of an AGC (exactly one per AGC): classifies new commerces by their first actions, with activation moments."), entgql.RelayConnection()}
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
		field.UUID("activation_config_id", uuid.UUID{}).Comment("The activation pillar the moment belongs to.").Immutable(),
		field.String("status_code").Comment("Retention status code assigned when the rule matches.").NotEmpty(),
		field.UUID("user_retention_status_config_id", uuid.UUID{}).Comment("The tenant retention status config of statusCode."),
		field.Int("min_actions").Comment("Least number of actions for the rule to match; null for no minimum.").Optional().Nillable(),
		field.Int("window_days").Comment("Rolling window in days the actions are counted in; null for no window.").Optional().Nillable(),
		field.Int("time_window").Comment("Optional bound in days; null for none.").Optional().Nillable(),
		field.Int("priority").Comment("Evaluation order; the lowest priority that matches wins.").Default(0).
			Annotations(entgql.OrderField("PRIORITY")),
		field.Bool("is_active").Comment("Whether the rule is evaluated.").Default(true),
	}
}

// Edges of the ActivationMoment.
func (ActivationMoment) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("activation_config", ActivationConfig.Type).Comment("The activation pillar the moment belongs to.").Field("activation_config_id").
			Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("user_retention_status_config", RetentionStatusConfig.Type).Comment("The retention status config assigned.").
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
	return []schema.Annotation{schema.Comment("One rule of the activation pillar: the state a commerce takes when it has enough actions in a window (lower priority wins)."), entgql.RelayConnection()}
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
		field.UUID("activity_generation_config_id", uuid.UUID{}).Comment("The AGC the pillar belongs to (1:1).").Immutable(),
		field.String("name").Comment("Pillar name.").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.String("description").Comment("Free-text description; null when none.").Optional().Nillable(),
		field.String("source_table").Comment("Catalog table the pillar counts actions in."),
		field.Strings("source_columns").Comment("Columns of the source table the pillar reads; null when none.").Optional(),
		field.String("date_column").Comment("Column of the source table that dates each action."),
		field.Int("engagement_window_days").Comment("Window in days the actions are counted in.").Positive(),
		field.Int("min_lifetime_actions_for_engaged").Comment("Least number of lifetime actions before a commerce is classified by engagement.").NonNegative(),
		field.String("counting_method").Comment("How actions are counted in the window."),
		field.Bool("is_active").Comment("Whether the pillar is active.").Default(true),
		field.UUID("updated_by", uuid.UUID{}).Comment("The user who last changed the pillar; null when never changed by a user.").Optional().Nillable(),
	}
}

// Edges of the EngagementConfig.
func (EngagementConfig) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("activity_generation_config", ActivityGenerationConfig.Type).Comment("The AGC the pillar belongs to.").
			Ref("engagement_config").Field("activity_generation_config_id").
			Unique().Required().Immutable(),
		edge.From("engagement_levels", EngagementLevel.Type).Comment("The pillar's bands.").Ref("engagement_config"),
	}
}

// Annotations of the EngagementConfig.
func (EngagementConfig) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("The engagement pillar of an AGC (exactly one per AGC): classifies active commerces by their actions in a window, with engagement levels."), entgql.RelayConnection()}
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
		field.UUID("engagement_config_id", uuid.UUID{}).Comment("The engagement pillar the level belongs to.").Immutable(),
		field.String("status_code").Comment("Retention status code assigned in the band.").NotEmpty(),
		field.UUID("user_retention_status_config_id", uuid.UUID{}).Comment("The tenant retention status config of statusCode."),
		field.String("label").Comment("Display label."),
		field.Int("min_threshold").Comment("Least action count of the band (inclusive)."),
		field.Int("max_threshold").Comment("Greatest action count of the band; null for no upper bound.").Optional().Nillable(),
		// "order" is a reserved word in SQL; the column is sort_order.
		field.Int("order").Comment("Ascending position of the level.").StorageKey("sort_order").Default(0),
		field.Bool("is_active").Comment("Whether the level is evaluated.").Default(true),
	}
}

// Edges of the EngagementLevel.
func (EngagementLevel) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("engagement_config", EngagementConfig.Type).Comment("The engagement pillar the level belongs to.").Field("engagement_config_id").
			Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("user_retention_status_config", RetentionStatusConfig.Type).Comment("The retention status config assigned.").
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
	return []schema.Annotation{schema.Comment("One band of the engagement pillar: the state of commerces whose action count falls between its thresholds."), entgql.RelayConnection()}
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
		field.UUID("activity_generation_config_id", uuid.UUID{}).Comment("The AGC the pillar belongs to (1:1).").Immutable(),
		field.String("name").Comment("Pillar name.").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.String("description").Comment("Free-text description; null when none.").Optional().Nillable(),
		field.String("source_table").Comment("Catalog table the pillar counts actions in."),
		field.Strings("source_columns").Comment("Columns of the source table the pillar reads; null when none.").Optional(),
		field.String("date_column").Comment("Column of the source table that dates each action."),
		field.Bool("is_active").Comment("Whether the pillar is active.").Default(true),
		field.UUID("updated_by", uuid.UUID{}).Comment("The user who last changed the pillar; null when never changed by a user.").Optional().Nillable(),
	}
}

// Edges of the ResurrectionConfig.
func (ResurrectionConfig) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("activity_generation_config", ActivityGenerationConfig.Type).Comment("The AGC the pillar belongs to.").
			Ref("resurrection_config").Field("activity_generation_config_id").
			Unique().Required().Immutable(),
		edge.From("resurrection_thresholds", ResurrectionThreshold.Type).Comment("The pillar's inactivity thresholds.").Ref("resurrection_config"),
	}
}

// Annotations of the ResurrectionConfig.
func (ResurrectionConfig) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("The resurrection pillar of an AGC (exactly one per AGC): classifies inactive commerces by days without actions, with thresholds."), entgql.RelayConnection()}
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
		field.UUID("resurrection_config_id", uuid.UUID{}).Comment("The resurrection pillar the threshold belongs to.").Immutable(),
		field.String("status_code").Comment("Retention status code assigned past the threshold.").NotEmpty(),
		field.UUID("user_retention_status_config_id", uuid.UUID{}).Comment("The tenant retention status config of statusCode."),
		field.String("label").Comment("Display label."),
		field.Int("threshold_days").Comment("Days without actions from which the threshold applies.").NonNegative(),
		// "order" is a reserved word in SQL; the column is sort_order.
		field.Int("order").Comment("Ascending position of the threshold.").StorageKey("sort_order").Default(0),
		field.Bool("is_active").Comment("Whether the threshold is evaluated.").Default(true),
	}
}

// Edges of the ResurrectionThreshold.
func (ResurrectionThreshold) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("resurrection_config", ResurrectionConfig.Type).Comment("The resurrection pillar the threshold belongs to.").Field("resurrection_config_id").
			Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("user_retention_status_config", RetentionStatusConfig.Type).Comment("The retention status config assigned.").
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
	return []schema.Annotation{schema.Comment("One inactivity threshold of the resurrection pillar: the state of commerces inactive for at least thresholdDays."), entgql.RelayConnection()}
}
