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

	"github.com/reten-io/reten/internal/lifecycle"
)

// LifecycleRun is one run of Reten's lifecycle engine over an AGC.
type LifecycleRun struct{ ent.Schema }

// Mixin of the LifecycleRun (project-scoped, like its AGC).
func (LifecycleRun) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}}
}

// Fields of the LifecycleRun.
func (LifecycleRun) Fields() []ent.Field {
	internal := entgql.Skip()
	return []ent.Field{
		field.UUID("activity_generation_config_id", uuid.UUID{}).Comment("The AGC the run evaluates.").Immutable(),
		field.Enum("status").Comment("Where the run is.").Annotations(runStatusDoc).
			Values("QUEUED", "RUNNING", "SUCCEEDED", "FAILED").Default("QUEUED"),
		field.Enum("trigger").Comment("Why the run exists.").Annotations(runTriggerDoc).
			Values("MANUAL", "SCHEDULED").Default("MANUAL").Immutable(),
		field.Time("as_of").Comment("The instant T the run evaluates (docs/lifecycle.md).").Immutable().
			Annotations(entgql.OrderField("AS_OF")),
		field.Bool("dry_run").Comment("true: the run computes and reports without writing.").Default(false).Immutable(),
		field.JSON("config_hashes", lifecycle.ConfigHashes{}).Comment("The AGC's per-pillar configuration hashes the run evaluated; empty until it starts.").
			Optional().Annotations(entgql.Type("LifecycleConfigHashes")),
		field.Time("started_at").Comment("When a replica started the run (of its last attempt); null while queued.").Optional().Nillable(),
		field.Time("finished_at").Comment("When the run succeeded or failed; null before.").Optional().Nillable(),
		field.JSON("counts", lifecycle.RunCounts{}).Comment("What the run found and wrote (docs/lifecycle.md \"Runs\"); zero until it finishes.").
			Annotations(entgql.Type("LifecycleRunCounts")),
		field.JSON("by_state", []lifecycle.StateCount{}).Comment("The classified commerces by state (stage, code).").
			Annotations(entgql.Type("[LifecycleStateCount!]")),
		field.String("error").Comment("Why the run failed; null otherwise.").Optional().Nillable(),
		// scheduled_for is the tenant-local date of a SCHEDULED run: unique
		// per AGC, so replicas enqueue a day's run once.
		field.String("scheduled_for").Optional().Nillable().Immutable().Annotations(internal),
		// The claim: the replica that holds the run renews lease_until while
		// it works; a run whose lease ran out is claimed again.
		field.UUID("claim", uuid.UUID{}).Optional().Nillable().Annotations(internal),
		field.Time("lease_until").Optional().Nillable().Annotations(internal),
		field.Int("attempts").Default(0).Annotations(internal),
	}
}

// Edges of the LifecycleRun.
func (LifecycleRun) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("activity_generation_config", ActivityGenerationConfig.Type).Comment("The AGC the run evaluates.").
			Field("activity_generation_config_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the LifecycleRun.
func (LifecycleRun) Indexes() []ent.Index {
	return []ent.Index{
		// The AGC's runs, newest first (the list counts from the tenant and
		// project that follow).
		index.Fields("activity_generation_config_id", "created_at", "id", "tenant_id", "project_id"),
		// The project's runs, newest first (the lifecycleRuns connection).
		index.Fields("tenant_id", "project_id", "created_at", "id"),
		// The claim reads the oldest claimable run.
		index.Fields("status", "created_at"),
		index.Fields("activity_generation_config_id", "scheduled_for").Unique(),
	}
}

// Annotations of the LifecycleRun.
func (LifecycleRun) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("One run of Reten's lifecycle engine over an AGC at an instant (REST `/api/activity-generation-configs/:id/lifecycle-runs`, `/api/lifecycle-runs/:runId`): it classifies every commerce of the AGC's audience and writes the states through the snapshot upsert (docs/lifecycle.md)."),
		entgql.RelayConnection(), entgql.Skip(entgql.SkipMutationCreateInput, entgql.SkipMutationUpdateInput)}
}

// CommerceLifecycleTransition is one change of a commerce's state under an AGC.
type CommerceLifecycleTransition struct{ ent.Schema }

// Mixin of the CommerceLifecycleTransition (tenant-level, like snapshots; a
// log, so without foreign keys: the trash deletes a purged commerce's or
// AGC's transitions).
func (CommerceLifecycleTransition) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantLogMixin{}}
}

// Fields of the CommerceLifecycleTransition.
func (CommerceLifecycleTransition) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("commerce_id", uuid.UUID{}).Comment("The commerce.").Immutable(),
		field.UUID("activity_generation_config_id", uuid.UUID{}).Comment("The AGC under which the state changed.").Immutable(),
		field.Enum("from_stage").Comment("The stage before the change; null when the snapshot was created.").Annotations(stageDoc).
			Values("ACTIVATION", "ENGAGEMENT", "RESURRECTION").Optional().Nillable().Immutable(),
		field.String("from_code").Comment("The code before the change; null when the snapshot was created.").Optional().Nillable().Immutable(),
		field.Enum("to_stage").Comment("The stage after the change.").Annotations(stageDoc).
			Values("ACTIVATION", "ENGAGEMENT", "RESURRECTION").Immutable(),
		field.String("to_code").Comment("The code after the change.").Immutable(),
		field.Time("state_changed_at").Comment("When the state changed (the snapshot's new stateChangedAt).").Immutable().
			Annotations(entgql.OrderField("STATE_CHANGED_AT")),
		field.Time("last_computed_at").Comment("The lastComputedAt of the write that changed the state.").Immutable(),
		field.String("config_hash").Comment("The configuration hash of the pillar whose child gave the new code, when the write happened.").Optional().Nillable().Immutable(),
		field.UUID("run_id", uuid.UUID{}).Comment("The engine run that wrote the change; null for a write through the API.").Optional().Nillable().Immutable(),
		field.Enum("source").Comment("Who wrote the change.").Annotations(transitionSourceDoc).Values("ENGINE", "API").Immutable(),
		// Read by activity generation's templates (metrics.*); not served.
		field.JSON("metrics", map[string]string{}).Comment("The engine's metrics behind the new state (lifetime_actions, activation, engagement, days_since_last_row); null for a write through the API.").
			Optional().Immutable().Annotations(entgql.Skip()),
	}
}

// Indexes of the CommerceLifecycleTransition.
func (CommerceLifecycleTransition) Indexes() []ent.Index {
	return []ent.Index{
		// The list sorts by (state_changed_at, id) under each documented
		// filter (since is a range of state_changed_at), and a commerce's
		// history under one AGC: every index ends in both, so no plan needs
		// a sort node (internal/snapshot/history.go). Ids are UUIDv7
		// (time-ordered), so a write appends to every index but the two of
		// the commerce.
		index.Fields("tenant_id", "state_changed_at", "id"),
		index.Fields("tenant_id", "commerce_id", "state_changed_at", "id"),
		index.Fields("tenant_id", "commerce_id", "activity_generation_config_id", "state_changed_at", "id"),
		index.Fields("tenant_id", "activity_generation_config_id", "state_changed_at", "id"),
		index.Fields("tenant_id", "source", "state_changed_at", "id"),
		index.Fields("tenant_id", "run_id", "state_changed_at", "id"),
	}
}

// Annotations of the CommerceLifecycleTransition.
func (CommerceLifecycleTransition) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("One change of a commerce's retention state (stage, code) under an AGC (REST `/api/commerce-lifecycle-transitions`, snake_case there): appended by every snapshot write that changes the state, from the engine or the API, in the same transaction; a creation has null from fields."),
		entgql.RelayConnection(), entgql.Skip(entgql.SkipMutationCreateInput, entgql.SkipMutationUpdateInput)}
}
