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
		field.String("name").Comment("Operator name.").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.String("email").Comment("Email address, unique in the tenant (case-insensitive); null when none.").Optional().Nillable(),
		// email_key is lower(email), set by the service; it carries the
		// case-insensitive uniqueness of the email.
		field.String("email_key").Optional().Nillable().
			Annotations(entgql.Skip()),
		field.String("phone").Comment("Phone number; null when none.").Optional().Nillable(),
		field.Enum("type").Comment("The operator's job.").Annotations(operatorTypeDoc).Values("SALESMAN", "ACTIVATOR", "CALLCENTER"),
		field.String("external_id").Comment("The operator's code in the caller's system; (type, externalID) is unique. Null when none.").Optional().Nillable(),
		field.Bool("is_active").Comment("Whether the operator is active.").Default(true),
		field.Bool("is_placeholder").Comment("Whether the operator is a placeholder record rather than a known staff member.").Default(false),
		field.JSON("metadata", map[string]any{}).Optional().
			Annotations(entgql.Skip()),
	}
}

// Edges of the Operator.
func (Operator) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("route_links", RouteOperator.Type).Comment("The operator's links to routes.").Ref("operator"),
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
		// The list: by name, all, by type or by is_active. The columns
		// after the sort ones answer search (name, email or external_id)
		// and the other filters, so that every count reads the index only.
		liveListIndex("tenant_id", "name", "id", "email", "external_id", "type", "is_active"),
		liveListIndex("tenant_id", "type", "name", "id"),
		liveListIndex("tenant_id", "is_active", "name", "id"),
	}
}

// Annotations of the Operator.
func (Operator) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A field or call-centre staff member (REST `/api/operators`). Deleting it moves it to the trash."), entgql.RelayConnection(), entgql.QueryField("operators").Description("The operators of the active tenant (REST `GET /api/operators`); archived operators are left out.")}
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
		field.String("code").Comment("Route code, unique in the tenant.").NotEmpty().
			Annotations(entgql.OrderField("CODE")),
		field.String("name").Comment("Route name.").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.Bool("is_active").Comment("Whether the route is active.").Default(true),
	}
}

// Edges of the Route.
func (Route) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("operator_links", RouteOperator.Type).Comment("The route's links to operators.").Ref("route"),
		edge.From("commerce_links", CommerceRoute.Type).Comment("The route's commerce assignments.").Ref("route").
			Annotations(entgql.Skip()),
	}
}

// Indexes of the Route.
func (Route) Indexes() []ent.Index {
	return []ent.Index{
		// Code is unique per tenant among live routes.
		index.Fields("tenant_id", "code").Unique().
			Annotations(entsql.IndexWhere("archived_at IS NULL")),
		// The list: by code, all or by is_active. The columns after the
		// sort ones answer search (code or name) and is_active, so that
		// every count reads the index only.
		liveListIndex("tenant_id", "code", "id", "name", "is_active"),
		liveListIndex("tenant_id", "is_active", "code", "id"),
	}
}

// Annotations of the Route.
func (Route) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A territory worked by operators (REST `/api/routes`). Deleting it moves it to the trash."), entgql.RelayConnection(), entgql.QueryField("routes").Description("The routes of the active tenant (REST `GET /api/routes`); archived routes are left out.")}
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
		field.UUID("route_id", uuid.UUID{}).Comment("The route.").Immutable(),
		field.UUID("operator_id", uuid.UUID{}).Comment("The operator.").Immutable(),
		field.Enum("role").Comment("The operator's role on the route.").Annotations(routeRoleDoc).Values("LEAD", "MEMBER").Default("MEMBER"),
		field.Bool("is_active").Comment("Whether the link is active.").Default(true),
	}
}

// Edges of the RouteOperator.
func (RouteOperator) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("route", Route.Type).Comment("The route.").Field("route_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("operator", Operator.Type).Comment("The operator.").Field("operator_id").Unique().Required().Immutable().
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
	return []schema.Annotation{schema.Comment("The link of an operator to a route. Adding a linked but inactive operator reactivates the link; removal deletes it."), entgql.RelayConnection()}
}

// CommerceRoute assigns a commerce to a route (the route whose operators
// visit it); PUT /api/commerces/:id/routes replaces a commerce's set, and
// removal is a hard delete.
type CommerceRoute struct{ ent.Schema }

// Mixin of the CommerceRoute.
func (CommerceRoute) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the CommerceRoute.
func (CommerceRoute) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("commerce_id", uuid.UUID{}).Comment("The commerce.").Immutable(),
		field.UUID("route_id", uuid.UUID{}).Comment("The route.").Immutable(),
	}
}

// Edges of the CommerceRoute.
func (CommerceRoute) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("commerce", Commerce.Type).Comment("The commerce.").Field("commerce_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.To("route", Route.Type).Comment("The route.").Field("route_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
	}
}

// Indexes of the CommerceRoute.
func (CommerceRoute) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("commerce_id", "route_id").Unique(),
		// The commerces of a route (a route's removal cascades through it).
		index.Fields("route_id", "commerce_id"),
	}
}

// Annotations of the CommerceRoute.
func (CommerceRoute) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("The assignment of a commerce to a route (REST `PUT /api/commerces/:id/routes`): the route's operators work the commerce; activity generation resolves a task's assignee from it."),
		entgql.Skip()}
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
		field.String("name").Comment("Supervisor name.").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.String("email").Comment("Email address, unique in the tenant (case-insensitive); null when none.").Optional().Nillable(),
		// email_key is lower(email), set by the service.
		field.String("email_key").Optional().Nillable().
			Annotations(entgql.Skip()),
		field.String("external_id").Comment("The supervisor's code in the caller's system; null when none.").Optional().Nillable(),
		field.String("phone").Comment("Phone number; null when none.").Optional().Nillable(),
		field.Bool("is_active").Comment("Whether the supervisor is active.").Default(true),
		field.JSON("metadata", map[string]any{}).Optional().
			Annotations(entgql.Skip()),
	}
}

// Edges of the Supervisor.
func (Supervisor) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("assignments", SupervisorAssignment.Type).Comment("The routes and operators under the supervisor.").Ref("supervisor"),
	}
}

// Indexes of the Supervisor.
func (Supervisor) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("tenant_id", "email_key").Unique().
			Annotations(entsql.IndexWhere("archived_at IS NULL AND email_key IS NOT NULL")),
		index.Fields("tenant_id", "external_id").Unique().
			Annotations(entsql.IndexWhere("archived_at IS NULL AND external_id IS NOT NULL")),
		// The list: by name, all or by is_active. The columns after the
		// sort ones answer search (name, email or external_id) and
		// is_active, so that every count reads the index only.
		liveListIndex("tenant_id", "name", "id", "email", "external_id", "is_active"),
		liveListIndex("tenant_id", "is_active", "name", "id"),
	}
}

// Annotations of the Supervisor.
func (Supervisor) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A person who oversees routes and operators (REST `/api/supervisors`). Deleting it moves it to the trash."), entgql.RelayConnection(), entgql.QueryField("supervisors").Description("The supervisors of the active tenant (REST `GET /api/supervisors`); archived supervisors are left out.")}
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
		field.UUID("supervisor_id", uuid.UUID{}).Comment("The supervisor.").Immutable(),
		field.UUID("route_id", uuid.UUID{}).Comment("The route assigned; null when the assignment is an operator's.").Optional().Nillable().Immutable(),
		field.UUID("operator_id", uuid.UUID{}).Comment("The operator assigned; null when the assignment is a route's.").Optional().Nillable().Immutable(),
	}
}

// Edges of the SupervisorAssignment.
func (SupervisorAssignment) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("supervisor", Supervisor.Type).Comment("The supervisor.").Field("supervisor_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("route", Route.Type).Comment("The route assigned; null when none.").Field("route_id").Unique().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("operator", Operator.Type).Comment("The operator assigned; null when none.").Field("operator_id").Unique().Immutable().
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
	return []schema.Annotation{schema.Comment("A route and/or an operator put under a supervisor."), entgql.RelayConnection()}
}
