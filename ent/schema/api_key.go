package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/google/uuid"
)

// APIKey is a service credential owned by a user in one tenant, optionally
// bound to one project. Only the SHA-256 hash of the secret is stored.
type APIKey struct{ ent.Schema }

// Mixin of APIKey.
func (APIKey) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of APIKey.
func (APIKey) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().Validate(maxRunes(255)),
		// key_prefix is "svc_sk_" plus the first 8 characters of the secret.
		field.String("key_prefix").Immutable(),
		field.String("key_hash").Sensitive().Immutable(),
		field.UUID("user_id", uuid.UUID{}).Immutable(),
		field.UUID("project_id", uuid.UUID{}).Optional().Nillable().Immutable(),
		field.Enum("scope").Values("project", "tenant").Immutable(),
		field.Strings("permissions"),
		field.Bool("is_active").Default(true),
		field.Time("expires_at").Optional().Nillable(),
		field.Time("last_used_at").Optional().Nillable(),
		field.Time("revoked_at").Optional().Nillable(),
	}
}

// Edges of APIKey.
func (APIKey) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("owner", User.Type).Field("user_id").Unique().Required().Immutable(),
		edge.To("project", Project.Type).Field("project_id").Unique().Immutable(),
	}
}

// Indexes of APIKey.
func (APIKey) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("key_hash").Unique(),
		// The caller's keys in the tenant, newest first.
		listIndex("tenant_id", "user_id", "created_at", "id"),
	}
}

// Annotations of APIKey.
func (APIKey) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField("apiKeys")}
}
