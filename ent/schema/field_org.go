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

// Operator is a field or call-centre staff member (tenant-level; DELETE moves it to the trash).
type Operator struct{ ent.Schema }

// Mixin of the Operator.
func (Operator) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ArchiveMixin{}}
}

// Fields of the Operator.
func (Operator) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.String("email").Optional().Nillable(),
		// email_key is lower(email), set by the service; it carries the
		// case-insensitive uniqueness of the email.
		field.String("email_key").Optional().Nillable().
			Annotations(entgql.Skip()),
		field.String("phone").Optional().Nillable(),
		field.Enum("type").Values("SALESMAN", "ACTIVATOR", "CALLCENTER"),
		field.String("external_id").Optional().Nillable(),
		field.Bool("is_active").Default(true),
		field.Bool("is_placeholder").Default(false),
		field.JSON("metadata", map[string]any{}).Optional().
			Annotations(entgql.Skip()),
	}
}

// Edges of the Operator.
func (Operator) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("route_links", RouteOperator.Type).Ref("operator"),
	}
}

// Indexes of the Operator.
func (Operator) Indexes() []ent.Index {
	return []ent.Index{
		// Email is unique per tenant (case-insensitive) among live operators.
		index.Fields("tenant_id", "email_key").Unique().
			Annotations(entsql.IndexWhere("archived_at IS NULL AND email_key IS NOT NULL")),
		// (type, external_id) is unique per tenant among live operators; the
		// sync endpoint upserts on it.
		index.Fields("tenant_id", "type", "external_id").Unique().
			Annotations(entsql.IndexWhere("archived_at IS NULL AND external_id IS NOT NULL")),
		// The list: by name, all, by type or by is_active.
		liveListIndex("tenant_id", "name", "id"),
		liveListIndex("tenant_id", "type", "name", "id"),
		liveListIndex("tenant_id", "is_active", "name", "id"),
	}
}

// Annotations of the Operator.
func (Operator) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField("operators")}
}

// Route is a territory worked by operators (tenant-level; DELETE moves it to the trash).
type Route struct{ ent.Schema }

// Mixin of the Route.
func (Route) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ArchiveMixin{}}
}

// Fields of the Route.
func (Route) Fields() []ent.Field {
	return []ent.Field{
		field.String("code").NotEmpty().
			Annotations(entgql.OrderField("CODE")),
		field.String("name").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.Bool("is_active").Default(true),
	}
}

// Edges of the Route.
func (Route) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("operator_links", RouteOperator.Type).Ref("route"),
	}
}

// Indexes of the Route.
func (Route) Indexes() []ent.Index {
	return []ent.Index{
		// Code is unique per tenant among live routes.
		index.Fields("tenant_id", "code").Unique().
			Annotations(entsql.IndexWhere("archived_at IS NULL")),
		// The list: by code, all or by is_active.
		liveListIndex("tenant_id", "code", "id"),
		liveListIndex("tenant_id", "is_active", "code", "id"),
	}
}

// Annotations of the Route.
func (Route) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField("routes")}
}

// RouteOperator links an operator to a route; removal is a hard delete.
type RouteOperator struct{ ent.Schema }

// Mixin of the RouteOperator.
func (RouteOperator) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the RouteOperator.
func (RouteOperator) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("route_id", uuid.UUID{}).Immutable(),
		field.UUID("operator_id", uuid.UUID{}).Immutable(),
		field.Enum("role").Values("LEAD", "MEMBER").Default("MEMBER"),
		field.Bool("is_active").Default(true),
	}
}

// Edges of the RouteOperator.
func (RouteOperator) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("route", Route.Type).Field("route_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("operator", Operator.Type).Field("operator_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the RouteOperator.
func (RouteOperator) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("route_id", "operator_id").Unique(),
		index.Fields("operator_id"),
	}
}

// Annotations of the RouteOperator.
func (RouteOperator) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// Supervisor oversees routes and operators (tenant-level; DELETE moves it to the trash).
type Supervisor struct{ ent.Schema }

// Mixin of the Supervisor.
func (Supervisor) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ArchiveMixin{}}
}

// Fields of the Supervisor.
func (Supervisor) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.String("email").Optional().Nillable(),
		// email_key is lower(email), set by the service.
		field.String("email_key").Optional().Nillable().
			Annotations(entgql.Skip()),
		field.String("external_id").Optional().Nillable(),
		field.String("phone").Optional().Nillable(),
		field.Bool("is_active").Default(true),
		field.JSON("metadata", map[string]any{}).Optional().
			Annotations(entgql.Skip()),
	}
}

// Edges of the Supervisor.
func (Supervisor) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("assignments", SupervisorAssignment.Type).Ref("supervisor"),
	}
}

// Indexes of the Supervisor.
func (Supervisor) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("tenant_id", "email_key").Unique().
			Annotations(entsql.IndexWhere("archived_at IS NULL AND email_key IS NOT NULL")),
		index.Fields("tenant_id", "external_id").Unique().
			Annotations(entsql.IndexWhere("archived_at IS NULL AND external_id IS NOT NULL")),
		// The list: by name, all or by is_active.
		liveListIndex("tenant_id", "name", "id"),
		liveListIndex("tenant_id", "is_active", "name", "id"),
	}
}

// Annotations of the Supervisor.
func (Supervisor) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField("supervisors")}
}

// SupervisorAssignment puts a route and/or an operator under a supervisor.
type SupervisorAssignment struct{ ent.Schema }

// Mixin of the SupervisorAssignment.
func (SupervisorAssignment) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the SupervisorAssignment.
func (SupervisorAssignment) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("supervisor_id", uuid.UUID{}).Immutable(),
		field.UUID("route_id", uuid.UUID{}).Optional().Nillable().Immutable(),
		field.UUID("operator_id", uuid.UUID{}).Optional().Nillable().Immutable(),
	}
}

// Edges of the SupervisorAssignment.
func (SupervisorAssignment) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("supervisor", Supervisor.Type).Field("supervisor_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("route", Route.Type).Field("route_id").Unique().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("operator", Operator.Type).Field("operator_id").Unique().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the SupervisorAssignment.
func (SupervisorAssignment) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("supervisor_id", "route_id", "operator_id").Unique(),
		// NULLs are distinct in unique indexes on both engines, so the
		// route-only and operator-only assignments need their own rules.
		index.Fields("supervisor_id", "route_id").Unique().
			Annotations(entsql.IndexWhere("route_id IS NOT NULL AND operator_id IS NULL")),
		index.Fields("supervisor_id", "operator_id").Unique().
			Annotations(entsql.IndexWhere("operator_id IS NOT NULL AND route_id IS NULL")),
		index.Fields("route_id"),
		index.Fields("operator_id"),
	}
}

// Annotations of the SupervisorAssignment.
func (SupervisorAssignment) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
