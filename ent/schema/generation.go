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

// GenerationRule turns a lifecycle state of an AGC into a task or a message
// for the commerce (docs/generation.md). Project-scoped like its AGC;
// DELETE moves it to the trash.
type GenerationRule struct{ ent.Schema }

// Mixin of the GenerationRule.
func (GenerationRule) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}, ArchiveMixin{}}
}

// Fields of the GenerationRule.
func (GenerationRule) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("activity_generation_config_id", uuid.UUID{}).Comment("The AGC whose states the rule reads.").Immutable(),
		field.String("name").Comment("The rule's name, unique among the AGC's live rules.").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.Enum("trigger").Comment("ENTER: the commerce enters the state; DWELL: it has stayed in it dwellDays days.").
			Annotations(ruleTriggerDoc).Values("ENTER", "DWELL"),
		field.Enum("stage").Comment("The stage of the state.").Annotations(stageDoc).Values("ACTIVATION", "ENGAGEMENT", "RESURRECTION"),
		field.String("status_code").Comment("The code of the state (a retention status config of the tenant)."),
		field.Int("dwell_days").Comment("DWELL: the days in the state before the rule fires; null for ENTER.").Optional().Nillable(),
		field.Enum("type").Comment("What the rule creates.").Annotations(activityTypeDoc).Values("TASK", "MESSAGE"),
		field.Enum("channel").Comment("The activity's channel: SALESMAN or CALLCENTER for a TASK, WHATSAPP, EMAIL, SMS or PUSH for a MESSAGE.").
			Annotations(channelDoc).Values("SALESMAN", "CALLCENTER", "WHATSAPP", "EMAIL", "SMS", "PUSH"),
		field.String("reason_code").Comment("The activity reason (an active activity reason config of the tenant)."),
		field.Text("title_template").Comment("The activity's title: a template whose placeholders are checked when the rule is saved (docs/generation.md)."),
		field.Text("instructions_template").Comment("The activity's instructions: a template like titleTemplate; empty for none.").Default(""),
		// attributes: GraphQL serves them by hand as [ActivityAttributeValue]-like pairs (schema/generation.graphql).
		field.JSON("attributes", map[string]string{}).Comment("Static attributes of every activity the rule creates.").Optional().
			Annotations(entgql.Skip()),
		field.Int("offset_days").Comment("Days after the trigger the activity is scheduled.").Default(0),
		field.String("time_of_day").Comment("The scheduled time of day, HH:MM in the tenant's time zone.").Default("09:00"),
		field.Bool("skip_weekends").Comment("A schedule falling on a Saturday or Sunday moves to the next Monday.").Default(false),
		field.Int("expires_after_days").Comment("Days after which a still open activity is canceled; null: never.").Optional().Nillable(),
		field.Enum("assignment").Comment("TASK: who is assigned, from the commerce's routes; null for a MESSAGE.").
			Annotations(ruleAssignmentDoc).Values("ROUTE_LEAD", "ROUTE_MEMBERS_ROUND_ROBIN").Optional().Nillable(),
		field.Enum("operator_type").Comment("TASK with ROUTE_MEMBERS_ROUND_ROBIN: the members of this type take turns; null: any type.").
			Annotations(operatorTypeDoc).Values("SALESMAN", "ACTIVATOR", "CALLCENTER").Optional().Nillable(),
		field.Enum("target_role").Comment("MESSAGE: the commerce user holding this role is the recipient; null for a TASK.").
			Annotations(commerceUserRoleDoc).Values("OWNER", "ORDERS", "FINANCE", "ATTENTION", "ADMIN", "COMMERCE_REP", "OTHER").Optional().Nillable(),
		field.Bool("is_active").Comment("Whether the rule fires.").Default(true),
		field.Int("priority").Comment("When two rules fire for one commerce on one day, the smaller priority creates; the others are suppressed.").Default(100).
			Annotations(entgql.OrderField("PRIORITY")),
	}
}

// Edges of the GenerationRule.
func (GenerationRule) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("activity_generation_config", ActivityGenerationConfig.Type).Comment("The AGC whose states the rule reads.").
			Field("activity_generation_config_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the GenerationRule.
func (GenerationRule) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("activity_generation_config_id", "name").Unique().Annotations(entsql.IndexWhere("archived_at IS NULL")),
		// The AGC's rules by priority, then id (the list's order).
		liveListIndex("tenant_id", "activity_generation_config_id", "priority", "id"),
	}
}

// Annotations of the GenerationRule.
func (GenerationRule) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A rule of activity generation (REST `/api/activity-generation-configs/:id/generation-rules`, `/api/generation-rules/:ruleId`): when a commerce enters (or dwells in) a lifecycle state of the AGC, it creates a task or a message (docs/generation.md). Deleting it moves it to the trash."),
		entgql.RelayConnection(), entgql.Skip(entgql.SkipMutationCreateInput, entgql.SkipMutationUpdateInput)}
}

var ruleTriggerDoc = gqldoc.Enum("When a generation rule fires.", map[string]string{
	"ENTER": "When the commerce enters the rule's state.",
	"DWELL": "When the commerce has stayed in the rule's state dwellDays days.",
})

var ruleAssignmentDoc = gqldoc.Enum("Who a generated task is assigned to, from the commerce's routes.", map[string]string{
	"ROUTE_LEAD":                "The LEAD of the commerce's route.",
	"ROUTE_MEMBERS_ROUND_ROBIN": "The route's active members (of the rule's operator type) in turn.",
})

// GenerationPolicy is a project's frequency caps and global control group
// (REST `GET/PUT /api/generation-policy`); one row per project, created
// with the defaults on first read.
type GenerationPolicy struct{ ent.Schema }

// Mixin of the GenerationPolicy.
func (GenerationPolicy) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}}
}

// Fields of the GenerationPolicy.
func (GenerationPolicy) Fields() []ent.Field {
	return []ent.Field{
		field.Int("max_per_commerce").Comment("At most this many generated activities per commerce per windowDays days.").Default(3),
		field.Int("window_days").Comment("The window of maxPerCommerce, in days.").Default(7),
		field.Int("min_gap_days").Comment("At least this many days between two generated activities of a commerce (0: no gap).").Default(1),
		field.Int("control_percent").Comment("The project-wide global control group: this percentage of commerces (0 to 50) never receives a generated activity.").Default(0),
		field.String("control_salt").Comment("The salt of the control group's hash; changing it reshuffles the group (saltChangedAt records when).").
			Annotations(entgql.Skip()),
		field.Time("salt_changed_at").Comment("When the control group's salt last changed.").Optional().Nillable(),
		field.UUID("updated_by", uuid.UUID{}).Comment("The user who last changed the policy; null for the defaults.").Optional().Nillable(),
	}
}

// Indexes of the GenerationPolicy.
func (GenerationPolicy) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id").Unique().StorageKey("generationpolicy_one_per_project")}
}

// Annotations of the GenerationPolicy.
func (GenerationPolicy) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A project's activity generation policy: frequency caps and the global control group (REST `/api/generation-policy`; docs/generation.md)."),
		entgql.Skip(entgql.SkipMutationCreateInput, entgql.SkipMutationUpdateInput, entgql.SkipWhereInput, entgql.SkipOrderField)}
}

// GenerationSettings are an AGC's activity generation settings: its holdout
// group (REST `GET/PUT /api/activity-generation-configs/:id/generation-settings`);
// one row per AGC, created with the defaults on first read.
type GenerationSettings struct{ ent.Schema }

// Mixin of the GenerationSettings.
func (GenerationSettings) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}}
}

// Fields of the GenerationSettings.
func (GenerationSettings) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("activity_generation_config_id", uuid.UUID{}).Comment("The AGC.").Immutable(),
		field.Int("holdout_percent").Comment("The AGC's holdout group: this percentage of commerces (0 to 50) is held out of its rules, to measure them against.").Default(0),
		field.String("holdout_salt").Comment("The salt of the holdout group's hash; changing it reshuffles the group.").
			Annotations(entgql.Skip()),
		field.Time("salt_changed_at").Comment("When the holdout group's salt last changed.").Optional().Nillable(),
		field.UUID("updated_by", uuid.UUID{}).Comment("The user who last changed the settings; null for the defaults.").Optional().Nillable(),
	}
}

// Edges of the GenerationSettings.
func (GenerationSettings) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("activity_generation_config", ActivityGenerationConfig.Type).Comment("The AGC.").
			Field("activity_generation_config_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
	}
}

// Indexes of the GenerationSettings.
func (GenerationSettings) Indexes() []ent.Index {
	return []ent.Index{index.Fields("activity_generation_config_id").Unique()}
}

// Annotations of the GenerationSettings.
func (GenerationSettings) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("An AGC's activity generation settings: its holdout group (REST `/api/activity-generation-configs/:id/generation-settings`; docs/generation.md)."),
		entsql.Annotation{Table: "generation_settings"},
		entgql.Skip(entgql.SkipMutationCreateInput, entgql.SkipMutationUpdateInput, entgql.SkipWhereInput, entgql.SkipOrderField)}
}
