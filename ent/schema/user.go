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
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/privacy"
	"github.com/reten-io/reten/internal/viewer"
)

// User is a person who logs in; they join tenants through memberships.
type User struct{ ent.Schema }

// Mixin of User.
func (User) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}} }

// Fields of User.
func (User) Fields() []ent.Field {
	return []ent.Field{
		field.String("email").Comment("Email address, unique (case-insensitive); at most 320 characters.").NotEmpty().Validate(maxRunes(320)),
		// email_key is lower(email); emails are unique case-insensitively.
		field.String("email_key").NotEmpty().Validate(maxRunes(320)).Annotations(entgql.Skip()),
		field.String("username").Comment("Login name, unique (case-insensitive); at most 100 characters.").NotEmpty().Validate(maxRunes(100)),
		field.String("username_key").NotEmpty().Validate(maxRunes(100)).Annotations(entgql.Skip()),
		field.String("password_hash").Sensitive().Annotations(entgql.Skip()),
		field.String("first_name").Comment("First name; empty when none.").Default(""),
		field.String("last_name").Comment("Last name; empty when none.").Default(""),
		field.Bool("is_active").Comment("Whether the user may log in.").Default(true),
		field.Time("last_login_at").Comment("When the user last logged in; null if never.").Optional().Nillable(),
	}
}

// Edges of User.
func (User) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("memberships", Membership.Type).Comment("The user's memberships: one per tenant, with the roles held there.").Ref("user"),
	}
}

// Indexes of User.
func (User) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("email_key").Unique(),
		index.Fields("username_key").Unique(),
	}
}

// Annotations of User.
func (User) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A person who logs in (REST `/api/users`); they join tenants through memberships."), entgql.RelayConnection(), entgql.QueryField("users").Description("The users who are members of the active tenant (REST `GET /api/users`).")}
}

// Policy of User: a viewer sees themself and the members of the active tenant.
func (User) Policy() ent.Policy {
	rule := privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		v := viewer.FromContext(ctx)
		if v == nil {
			return privacy.Denyf("user data needs a viewer")
		}
		self := entql.FieldEQ("id", v.UserID)
		if v.TenantID == uuid.Nil {
			f.Where(self)
			return privacy.Skip
		}
		f.Where(entql.Or(self, entql.HasEdgeWith("memberships", entql.FieldEQ("tenant_id", v.TenantID))))
		return privacy.Skip
	})
	return privacy.Policy{Query: privacy.QueryPolicy{rule}, Mutation: privacy.MutationPolicy{rule}}
}

// Membership joins a user to a tenant with the roles held there.
type Membership struct{ ent.Schema }

// Mixin of Membership.
func (Membership) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of Membership.
func (Membership) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("user_id", uuid.UUID{}).Comment("The member.").Immutable(),
		field.Strings("roles").Comment("Role names held in the tenant: super_admin, admin, fde, supervisor, operator or viewer.").
			Annotations(entgql.Type("[Role!]")),
	}
}

// Edges of Membership.
func (Membership) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("user", User.Type).Comment("The member.").Field("user_id").Unique().Required().Immutable(),
	}
}

// Indexes of Membership.
func (Membership) Indexes() []ent.Index {
	return []ent.Index{index.Fields("tenant_id", "user_id").Unique(), index.Fields("user_id")}
}

// Annotations of Membership.
func (Membership) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A user's membership of a tenant, with the roles held there."), entgql.RelayConnection()}
}

// RefreshToken is one refresh-token session; only its SHA-256 hash is stored.
// Rotation revokes the old row and links it to its successor, so a replayed
// old token can be recognised.
type RefreshToken struct{ ent.Schema }

// Mixin of RefreshToken.
func (RefreshToken) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}} }

// Fields of RefreshToken.
func (RefreshToken) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("user_id", uuid.UUID{}).Immutable(),
		field.String("token_hash").Sensitive().Immutable(),
		// family_id is shared by a login's chain of rotated tokens: presenting a
		// rotated token after the grace period revokes the whole family.
		field.UUID("family_id", uuid.UUID{}).Immutable(),
		field.Time("expires_at").Immutable(),
		field.Time("revoked_at").Optional().Nillable(),
		field.UUID("replaced_by", uuid.UUID{}).Optional().Nillable(),
		field.String("user_agent").Default("").Validate(maxRunes(512)),
		field.String("ip").Default("").Validate(maxRunes(64)),
	}
}

// Edges of RefreshToken.
func (RefreshToken) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("user", User.Type).Field("user_id").Unique().Required().Immutable(),
	}
}

// Indexes of RefreshToken.
func (RefreshToken) Indexes() []ent.Index {
	return []ent.Index{index.Fields("token_hash").Unique(), index.Fields("user_id"), index.Fields("family_id")}
}

// Annotations of RefreshToken: never exposed over GraphQL.
func (RefreshToken) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// Policy of RefreshToken: only trusted auth code (viewer.SystemContext) and
// the token's own user touch it.
func (RefreshToken) Policy() ent.Policy {
	rule := privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		v := viewer.FromContext(ctx)
		if v == nil {
			return privacy.Denyf("refresh tokens need a viewer")
		}
		f.Where(entql.FieldEQ("user_id", v.UserID))
		return privacy.Skip
	})
	return privacy.Policy{Query: privacy.QueryPolicy{rule}, Mutation: privacy.MutationPolicy{rule}}
}
