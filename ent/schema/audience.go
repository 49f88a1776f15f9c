package schema

import (
	"encoding/json"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/google/uuid"
)

// setOperators are the SetOperatorEnum values of SPEC.md.
var setOperators = []string{"UNION_DISTINCT", "UNION_ALL", "INTERSECT_DISTINCT"}

// Audience is an audience criteria: a set of commerces described with query
// blocks and compositions. Every project has exactly one root audience.
type Audience struct{ ent.Schema }

// Mixin of Audience.
func (Audience) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}, ArchiveMixin{}}
}

// Fields of Audience.
func (Audience) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").Comment("Audience name, at most 255 characters.").NotEmpty().Validate(maxRunes(255)).Annotations(entgql.OrderField("NAME")),
		field.String("description").Comment("Free-text description; null when none.").Optional().Nillable(),
		field.Bool("is_active").Comment("Whether the audience is active.").Default(true),
		field.Bool("is_root").Comment("True only for the project's root audience (the population of AGCs without an audience of their own).").Default(false).Immutable(),
		field.UUID("owner_id", uuid.UUID{}).Comment("The user who created the audience; null when created by the system.").Optional().Nillable(),
		field.UUID("updated_by", uuid.UUID{}).Comment("The user who last changed the audience; null when never changed by a user.").Optional().Nillable(),
	}
}

// Edges of Audience.
func (Audience) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("query_blocks", QueryBlock.Type).Comment("The definition's query blocks.").Ref("audience"),
		edge.From("compositions", AudienceComposition.Type).Comment("Other audiences combined into this one with a set operator.").Ref("audience"),
	}
}

// Indexes of Audience.
func (Audience) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id").Unique().Annotations(entsql.IndexWhere("is_root = true")).
			StorageKey("audience_one_root_per_project"),
		// The project's list: the root audience first, then newest first.
		liveListIndex("tenant_id", "project_id", "is_root", "created_at", "id", "name"),
	}
}

// Annotations of Audience.
func (Audience) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("An audience criteria (REST `/api/audience-criterias`): a set of commerces described with query blocks and compositions, compiled to SQL. Every project has exactly one root audience."), entgql.RelayConnection()}
}

// QueryBlock is one block of an audience or event filter definition. The
// clauses are stored as JSON documents; internal/querybuilder owns their shape.
type QueryBlock struct{ ent.Schema }

// Mixin of QueryBlock.
func (QueryBlock) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}}
}

// Fields of QueryBlock.
func (QueryBlock) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("audience_id", uuid.UUID{}).Comment("The audience the block belongs to; null for an event filter's block.").Optional().Nillable().Immutable(),
		field.UUID("event_filter_id", uuid.UUID{}).Comment("The event filter the block belongs to; null for an audience's block.").Optional().Nillable().Immutable(),
		field.Int("order").Comment("Ascending position of the block; the first block is 0.").StorageKey("sort_order").NonNegative(),
		field.Enum("set_operator").Comment("How the block combines with the blocks before it; null on the first block.").Annotations(setOperatorDoc).Values(setOperators...).Optional().Nillable(),
		field.JSON("from_clause", json.RawMessage{}).Annotations(entgql.Skip()),
		field.JSON("select_clause", json.RawMessage{}).Annotations(entgql.Skip()),
		field.JSON("time_window", json.RawMessage{}).Optional().Annotations(entgql.Skip()),
		field.JSON("where_clause", json.RawMessage{}).Optional().Annotations(entgql.Skip()),
		field.JSON("group_by", json.RawMessage{}).Optional().Annotations(entgql.Skip()),
		field.JSON("having", json.RawMessage{}).Optional().Annotations(entgql.Skip()),
	}
}

// Edges of QueryBlock.
func (QueryBlock) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("audience", Audience.Type).Comment("The audience the block belongs to; null for an event filter's block.").Field("audience_id").Unique().Immutable(),
		edge.To("event_filter", EventFilter.Type).Comment("The event filter the block belongs to; null for an audience's block.").Field("event_filter_id").Unique().Immutable(),
	}
}

// Indexes of QueryBlock.
func (QueryBlock) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("audience_id", "order"),
		index.Fields("event_filter_id", "order"),
	}
}

// Annotations of QueryBlock.
func (QueryBlock) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("One block of an audience or event filter definition (SPEC \"Query block\"). Its id is assigned by the service and is new on each definition replacement: it is not a stable identifier."), entgql.RelayConnection()}
}

// AudienceComposition combines another audience (the operand) into an
// audience with a set operator.
type AudienceComposition struct{ ent.Schema }

// Mixin of AudienceComposition.
func (AudienceComposition) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}}
}

// Fields of AudienceComposition.
func (AudienceComposition) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("audience_id", uuid.UUID{}).Comment("The audience that holds the composition.").Immutable(),
		field.UUID("operand_audience_id", uuid.UUID{}).Comment("The audience combined in (REST `operandCriteriaId`)."),
		field.Enum("set_operator").Comment("How the operand combines with the audience.").Annotations(setOperatorDoc).Values(setOperators...),
		field.Int("order").Comment("Ascending position among the audience's compositions.").StorageKey("sort_order").NonNegative().Default(0),
	}
}

// Edges of AudienceComposition.
func (AudienceComposition) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("audience", Audience.Type).Comment("The audience that holds the composition.").Field("audience_id").Unique().Required().Immutable(),
		edge.To("operand", Audience.Type).Comment("The audience combined in.").Field("operand_audience_id").Unique().Required(),
	}
}

// Indexes of AudienceComposition.
func (AudienceComposition) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("audience_id", "operand_audience_id").Unique(),
		index.Fields("operand_audience_id"),
	}
}

// Annotations of AudienceComposition.
func (AudienceComposition) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("Another audience (the operand) combined into an audience with a set operator (REST `compositions[]`)."), entgql.RelayConnection()}
}
