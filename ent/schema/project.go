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
		field.String("name").Comment("Project name, at most 255 characters, unique in the tenant (case-insensitive).").NotEmpty().Validate(maxRunes(255)).
			Annotations(entgql.OrderField("NAME")),
		// name_key is lower(name): project names are unique per tenant case-insensitively.
		field.String("name_key").NotEmpty().Validate(maxRunes(255)).Annotations(entgql.Skip()),
		field.Bool("is_main").Comment("Whether this is the tenant's main project (created with the tenant); not editable.").Default(false).Immutable(),
		// root_audience_id is set in the same transaction that creates the project.
		field.UUID("root_audience_id", uuid.UUID{}).Comment("The project's root audience (REST `rootAudienceId`), created with the project.").Optional().Nillable(),
	}
}

// Edges of Project.
func (Project) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("root_audience", Audience.Type).Comment("The project's root audience (the audience with isRoot true).").Field("root_audience_id").Unique(),
	}
}

// Indexes of Project.
func (Project) Indexes() []ent.Index {
	return []ent.Index{
		// The id it includes lets the GraphQL connection count from the
		// index alone (PostgreSQL; SQLite has no INCLUDE).
		index.Fields("tenant_id", "name_key").Unique().Annotations(entsql.IncludeColumns("id")),
		index.Fields("tenant_id").Unique().Annotations(entsql.IndexWhere("is_main = true")).
			StorageKey("project_one_main_per_tenant"),
	}
}

// Annotations of Project.
func (Project) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A partition of a tenant (REST `/api/projects`); most configuration (AGCs, audiences, event filters, activities) belongs to one. Every project has one root audience."), entgql.RelayConnection(), entgql.QueryField().Description("The projects of the active tenant the caller may see (REST `GET /api/projects`).")}
}
