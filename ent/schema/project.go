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

// Project is a partition of a tenant; most configuration belongs to one.
type Project struct{ ent.Schema }

// Mixin of Project.
func (Project) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of Project.
func (Project) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().Validate(maxRunes(255)).
			Annotations(entgql.OrderField("NAME")),
		// name_key is lower(name): project names are unique per tenant case-insensitively.
		field.String("name_key").NotEmpty().Validate(maxRunes(255)).Annotations(entgql.Skip()),
		field.Bool("is_main").Default(false).Immutable(),
		// root_audience_id is set in the same transaction that creates the project.
		field.UUID("root_audience_id", uuid.UUID{}).Optional().Nillable(),
	}
}

// Edges of Project.
func (Project) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("root_audience", Audience.Type).Field("root_audience_id").Unique(),
	}
}

// Indexes of Project.
func (Project) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("tenant_id", "name_key").Unique(),
		index.Fields("tenant_id").Unique().Annotations(entsql.IndexWhere("is_main = true")).
			StorageKey("project_one_main_per_tenant"),
	}
}

// Annotations of Project.
func (Project) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField()}
}
