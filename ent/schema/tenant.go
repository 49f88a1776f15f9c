package schema

import (
	"context"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/entql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/reten-io/reten/ent/privacy"
	"github.com/reten-io/reten/internal/viewer"
)

// Tenant is a customer organisation; everything else hangs off one.
type Tenant struct{ ent.Schema }

// Mixin of Tenant.
func (Tenant) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}} }

// Fields of Tenant.
func (Tenant) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").Comment("Tenant name, at most 255 characters, unique (case-insensitive).").NotEmpty().Validate(maxRunes(255)).
			Annotations(entgql.OrderField("NAME")),
		// name_key is lower(name), kept by the service: tenant names are unique case-insensitively.
		field.String("name_key").NotEmpty().Validate(maxRunes(255)).Annotations(entgql.Skip()),
		field.String("time_zone").Comment("IANA time zone name; it decides the day of activities and the day cutoff.").Default("UTC"),
		field.String("day_cutoff").Comment("Local time (`HH:MM`) after which an activity's day is closed.").Default("23:59"),
		field.String("lifecycle_run_time").Comment("Local time (`HH:MM`, the tenant's time zone) of the daily lifecycle engine run of every active AGC; null: no scheduled run.").Optional().Nillable(),
		field.Bool("is_active").Comment("Whether the tenant is active.").Default(true),
	}
}

// Edges of Tenant.
func (Tenant) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("memberships", Membership.Type).Ref("tenant").
			Annotations(entgql.Skip(entgql.SkipAll)),
	}
}

// Indexes of Tenant.
func (Tenant) Indexes() []ent.Index {
	return []ent.Index{index.Fields("name_key").Unique()}
}

// Annotations of Tenant.
func (Tenant) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A customer organisation; users join it through memberships, and it is divided into projects."), entgql.RelayConnection()}
}

// Policy of Tenant: a user sees only the tenants they are a member of; an API
// key, bound to one tenant, sees only that one.
func (Tenant) Policy() ent.Policy {
	rule := privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		v := viewer.FromContext(ctx)
		if v == nil {
			return privacy.Denyf("tenant data needs a viewer")
		}
		f.Where(entql.HasEdgeWith("memberships", entql.FieldEQ("user_id", v.UserID)))
		if v.IsAPIKey() {
			f.Where(entql.FieldEQ("id", v.TenantID))
		}
		return privacy.Skip
	})
	return privacy.Policy{Query: privacy.QueryPolicy{rule}, Mutation: privacy.MutationPolicy{rule}}
}
