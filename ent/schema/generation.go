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
		liveListIndex("tenant_id", "activity_generation_config_id", "priority", "id", "project_id"),
		// The project's rules in the same order (the generationRules connection).
		liveListIndex("tenant_id", "project_id", "priority", "id"),
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

// GenerationOutbox is the queue of lifecycle transitions that activity
// generation has not read yet: one row per transition, written in the same
// statement (or transaction) as the transition, deleted by the generation
// job in the transaction that records its decisions (docs/generation.md).
// Internal: not in the graph.
type GenerationOutbox struct{ ent.Schema }

// Fields of the GenerationOutbox.
func (GenerationOutbox) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("id", uuid.UUID{}).Comment("The transition's id.").Immutable(),
		field.UUID("tenant_id", uuid.UUID{}).Comment("The transition's tenant.").Immutable(),
		field.Time("created_at").Comment("When the transition was written.").Immutable(),
	}
}

// Indexes of the GenerationOutbox.
func (GenerationOutbox) Indexes() []ent.Index {
	return []ent.Index{index.Fields("created_at", "id")}
}

// Annotations of the GenerationOutbox.
func (GenerationOutbox) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("Lifecycle transitions waiting for activity generation (internal)."),
		entsql.Annotation{Table: "generation_outbox"}, entgql.Skip(entgql.SkipAll)}
}

// GenerationDecision records what one generation rule decided for one
// commerce on one entry into a state: exactly one row per (rule, commerce,
// state entry), whatever the retries and replicas (a unique key). A log:
// no foreign keys; the trash deletes a purged commerce's, rule's or AGC's
// decisions.
type GenerationDecision struct{ ent.Schema }

// Mixin of the GenerationDecision.
func (GenerationDecision) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TenantLogMixin{}, ProjectLogMixin{}}
}

// Fields of the GenerationDecision.
func (GenerationDecision) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("activity_generation_config_id", uuid.UUID{}).Comment("The AGC of the rule.").Immutable(),
		field.UUID("rule_id", uuid.UUID{}).Comment("The rule that fired.").Immutable(),
		field.UUID("commerce_id", uuid.UUID{}).Comment("The commerce it fired for.").Immutable(),
		field.Enum("trigger").Comment("How the rule fired.").Annotations(ruleTriggerDoc).Values("ENTER", "DWELL").Immutable(),
		field.Enum("stage").Comment("The stage of the state the commerce entered.").Annotations(stageDoc).
			Values("ACTIVATION", "ENGAGEMENT", "RESURRECTION").Immutable(),
		field.String("status_code").Comment("The code of the state the commerce entered.").Immutable(),
		field.Time("entered_at").Comment("When the commerce entered the state (the state entry the decision is about).").Immutable(),
		field.Enum("kind").Comment("What was decided.").Annotations(decisionKindDoc).
			Values("GENERATED", "HELD_OUT", "CAPPED", "SUPPRESSED", "EXPIRED_RULE").Immutable(),
		field.Enum("reason").Comment("Why, for every kind but GENERATED (null there).").Annotations(decisionReasonDoc).
			Values("CONTROL_GROUP", "AGC_HOLDOUT", "MAX_PER_WINDOW", "MIN_GAP", "OPEN_ACTIVITY", "PRIORITY", "COMMERCE_INACTIVE", "STATE_LEFT", "EXPIRED").
			Optional().Nillable().Immutable(),
		field.String("detail").Comment("The decision in words, for the people reading it.").Immutable(),
		field.UUID("activity_id", uuid.UUID{}).Comment("GENERATED: the activity created; null otherwise.").Optional().Nillable().Immutable(),
		field.UUID("transition_id", uuid.UUID{}).Comment("ENTER: the transition that fired the rule; null for DWELL.").Optional().Nillable().Immutable(),
		field.Time("decided_at").Comment("When the decision was made.").Immutable().
			Annotations(entgql.OrderField("DECIDED_AT")),
	}
}

// Indexes of the GenerationDecision.
func (GenerationDecision) Indexes() []ent.Index {
	return []ent.Index{
		// The idempotency key: one decision per rule, commerce and state entry.
		index.Fields("rule_id", "commerce_id", "entered_at").Unique(),
		// The lists (per AGC, per commerce, per project; newest first) and
		// the caps (a commerce's generated activities over a window).
		// The columns after the sort ones answer the lists' other filters
		// (the project, and rule_id, kind, and the AGC for a commerce's),
		// so that their counts read the index only.
		listIndex("tenant_id", "activity_generation_config_id", "decided_at", "id", "project_id", "rule_id", "kind"),
		listIndex("tenant_id", "commerce_id", "decided_at", "id", "project_id", "activity_generation_config_id", "rule_id", "kind"),
		index.Fields("tenant_id", "project_id", "decided_at", "id"),
	}
}

// Annotations of the GenerationDecision.
func (GenerationDecision) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("What a generation rule decided for a commerce on one entry into a state (REST `/api/activity-generation-configs/:id/generation-decisions`; docs/generation.md)."),
		entgql.RelayConnection(), entgql.Skip(entgql.SkipMutationCreateInput, entgql.SkipMutationUpdateInput)}
}

var decisionKindDoc = gqldoc.Enum("What a generation rule decided for a commerce.", map[string]string{
	"GENERATED":    "An activity was created (activityId).",
	"HELD_OUT":     "The commerce is in the project's control group or the AGC's holdout group: nothing was created.",
	"CAPPED":       "A frequency cap of the project's generation policy stopped it (reason says which).",
	"SUPPRESSED":   "Another rule created an activity for the commerce the same day (PRIORITY), or the commerce is inactive (COMMERCE_INACTIVE).",
	"EXPIRED_RULE": "The rule no longer applied when it was evaluated: the commerce had left the state, or the activity would have expired already.",
})

var decisionReasonDoc = gqldoc.Enum("Why a generation rule created nothing.", map[string]string{
	"CONTROL_GROUP":     "The commerce is in the project's global control group.",
	"AGC_HOLDOUT":       "The commerce is in the AGC's holdout group.",
	"MAX_PER_WINDOW":    "The commerce already has the policy's maximum of generated activities in its window.",
	"MIN_GAP":           "The commerce's last generated activity is closer than the policy's minimum gap.",
	"OPEN_ACTIVITY":     "The commerce still has an open activity of the same rule.",
	"PRIORITY":          "A rule earlier by priority created an activity for the commerce that day.",
	"COMMERCE_INACTIVE": "The commerce is inactive.",
	"STATE_LEFT":        "The commerce had left the state when the rule was evaluated.",
	"EXPIRED":           "The activity's expiry would have passed before it was created.",
})
