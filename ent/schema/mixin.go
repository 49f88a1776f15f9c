package schema

import (
	"context"
	"fmt"
	"unicode/utf8"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	entsql "entgo.io/ent/dialect/sql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"entgo.io/ent/schema/mixin"
	"github.com/google/uuid"

	gen "github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/intercept"
	"github.com/reten-io/reten/ent/project"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/viewer"
)

// IDMixin gives every entity a random UUID primary key.
type IDMixin struct{ mixin.Schema }

// Fields of the IDMixin.
func (IDMixin) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("id", uuid.UUID{}).Comment("Unique identifier (UUID), assigned by the service.").Default(uuid.New).Immutable(),
	}
}

// TimeMixin adds created_at and updated_at, both managed by the data layer.
type TimeMixin struct{ mixin.Schema }

// Fields of the TimeMixin.
func (TimeMixin) Fields() []ent.Field {
	return []ent.Field{
		field.Time("created_at").Comment("When the object was created.").Default(clock.Now).Immutable().
			Annotations(entgql.OrderField("CREATED_AT")),
		field.Time("updated_at").Comment("When the object was last changed.").Default(clock.Now).UpdateDefault(clock.Now).
			Annotations(entgql.OrderField("UPDATED_AT")),
	}
}

// TenantMixin marks a tenant-owned entity: a tenant_id column, an edge to the
// tenant, and the data-layer half of tenancy enforcement (a privacy filter that
// adds tenant_id = <viewer tenant> to every query and mutation, and a hook that
// stamps the tenant on create and refuses a foreign one).
type TenantMixin struct{ mixin.Schema }

// Fields of the TenantMixin.
func (TenantMixin) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("tenant_id", uuid.UUID{}).Comment("The tenant that owns the object.").Immutable(),
	}
}

// Edges of the TenantMixin.
func (TenantMixin) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("tenant", Tenant.Type).Field("tenant_id").Unique().Required().Immutable().
			Annotations(entgql.Skip(entgql.SkipAll)),
	}
}

// Indexes of the TenantMixin: a GraphQL connection without orderBy reads
// the tenant's rows in id order (entgql's default order, and its cursors),
// so the page is read from this index in order, however many rows other
// tenants hold; it serves every lookup by tenant_id alone too.
func (TenantMixin) Indexes() []ent.Index {
	return []ent.Index{index.Fields("tenant_id", "id")}
}

// Hooks of the TenantMixin.
func (TenantMixin) Hooks() []ent.Hook {
	return []ent.Hook{stampOnCreate("tenant_id", viewer.TenantID)}
}

// Policy of the TenantMixin.
func (TenantMixin) Policy() ent.Policy { return tenantPolicy() }

// TenantLogMixin is the TenantMixin of an append-only, high-volume log (the
// lifecycle transition history): the same tenant_id column, privacy filter
// and stamping hook, but no foreign key to the tenant and no index of its
// own. Every row a log appends would otherwise pay a foreign-key check, and
// the log's own indexes all lead with tenant_id. A log names the records it
// is about by id columns without foreign keys either; whoever purges such a
// record deletes its log rows (internal/trash).
type TenantLogMixin struct{ TenantMixin }

// Edges of the TenantLogMixin: none.
func (TenantLogMixin) Edges() []ent.Edge { return nil }

// Indexes of the TenantLogMixin: none (the log's indexes lead with tenant_id).
func (TenantLogMixin) Indexes() []ent.Index { return nil }

// ProjectMixin marks a project-owned entity (always used with TenantMixin):
// a project_id column, an edge to the project, and a privacy filter that
// narrows to the active project when the request has one.
type ProjectMixin struct{ mixin.Schema }

// Fields of the ProjectMixin.
func (ProjectMixin) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("project_id", uuid.UUID{}).Comment("The project the object belongs to.").Immutable(),
	}
}

// Edges of the ProjectMixin.
func (ProjectMixin) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("project", Project.Type).Field("project_id").Unique().Required().Immutable().
			Annotations(entgql.Skip(entgql.SkipAll)),
	}
}

// Indexes of the ProjectMixin: a project's page of a GraphQL connection
// without orderBy, in id order, as the TenantMixin's for the tenant's.
func (ProjectMixin) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "id")}
}

// Hooks of the ProjectMixin.
func (ProjectMixin) Hooks() []ent.Hook {
	return []ent.Hook{stampProject}
}

// Policy of the ProjectMixin.
func (ProjectMixin) Policy() ent.Policy { return projectPolicy() }

// ProjectLogMixin is the ProjectMixin of an append-only log (the generation
// decisions): the project_id column, stamping hook and privacy filter,
// without a foreign key to the project or an index of its own.
type ProjectLogMixin struct{ ProjectMixin }

// Edges of the ProjectLogMixin: none.
func (ProjectLogMixin) Edges() []ent.Edge { return nil }

// Indexes of the ProjectLogMixin: none (the log's indexes lead with tenant_id).
func (ProjectLogMixin) Indexes() []ent.Index { return nil }

// ArchiveMixin adds archived_at for records that DELETE moves to the trash.
// Archived rows stay in the table (restorable with the same id and children);
// partial unique indexes exclude them (WHERE archived_at IS NULL).
type ArchiveMixin struct{ mixin.Schema }

// Fields of the ArchiveMixin.
func (ArchiveMixin) Fields() []ent.Field {
	return []ent.Field{
		field.Time("archived_at").Comment("When the object was deleted (moved to the trash); null while live. Reads outside the trash never return archived objects.").Optional().Nillable(),
	}
}

// Interceptors of the ArchiveMixin: every query (REST, GraphQL connections,
// edges, eager loading) skips archived rows, unless the context is the
// trash's own (viewer.WithArchived). A deleted record disappears at once.
func (ArchiveMixin) Interceptors() []ent.Interceptor {
	return []ent.Interceptor{
		intercept.TraverseFunc(func(ctx context.Context, q intercept.Query) error {
			if !viewer.IncludesArchived(ctx) {
				q.WhereP(entsql.FieldIsNull("archived_at"))
			}
			return nil
		}),
	}
}

// stampProject sets project_id from the active project on create when the
// caller left it unset. An explicit project_id other than the active one (a
// project's root audience created while another project is active) must be a
// project of the viewer's tenant: the lookup runs through the tenant filter.
func stampProject(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		if !m.Op().Is(ent.OpCreate) {
			return next.Mutate(ctx, m)
		}
		active, hasActive := viewer.ProjectID(ctx)
		cur, set := m.Field("project_id")
		switch {
		case !set && hasActive:
			if err := m.SetField("project_id", active); err != nil {
				return nil, err
			}
		case set && cur.(uuid.UUID) != active:
			if _, hasTenant := viewer.TenantID(ctx); hasTenant {
				c, ok := m.(interface{ Client() *gen.Client })
				if !ok {
					return nil, fmt.Errorf("%s: cannot check project_id", m.Type())
				}
				exists, err := c.Client().Project.Query().Where(project.ID(cur.(uuid.UUID))).Exist(ctx)
				if err != nil {
					return nil, err
				}
				if !exists {
					return nil, fmt.Errorf("%s: project %s is not a project of the tenant", m.Type(), cur)
				}
			}
		}
		return next.Mutate(ctx, m)
	})
}

// stampOnCreate sets column from the request context on create, and refuses a
// create whose explicit value differs from the context's.
func stampOnCreate(column string, fromCtx func(context.Context) (uuid.UUID, bool)) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if !m.Op().Is(ent.OpCreate) {
				return next.Mutate(ctx, m)
			}
			want, ok := fromCtx(ctx)
			if !ok {
				return next.Mutate(ctx, m)
			}
			if cur, set := m.Field(column); set {
				if cur.(uuid.UUID) != want {
					return nil, fmt.Errorf("%s: %s %s does not match the request context", m.Type(), column, cur)
				}
				return next.Mutate(ctx, m)
			}
			if err := m.SetField(column, want); err != nil {
				return nil, err
			}
			return next.Mutate(ctx, m)
		})
	}
}

// maxRunes validates a length in characters (MaxLen would count bytes, and
// SPEC.md limits such as "name max 255" count characters).
func maxRunes(n int) func(string) error {
	return func(s string) error {
		if utf8.RuneCountInString(s) > n {
			return fmt.Errorf("value is longer than %d characters", n)
		}
		return nil
	}
}
