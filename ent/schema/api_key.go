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
		field.String("name").Comment("Display name of the key.").NotEmpty().Validate(maxRunes(255)),
		field.String("key_prefix").Comment("Leading characters of the key: the fixed prefix `svc_sk_` plus the first 8 characters of the secret.").Immutable(),
		field.String("key_hash").Sensitive().Immutable(),
		field.UUID("user_id", uuid.UUID{}).Comment("The user who owns the key (REST `userId`); the key acts with at most the owner's permissions.").Immutable(),
		field.UUID("project_id", uuid.UUID{}).Comment("The project a project-scoped key is bound to; null for a tenant-scoped key.").Optional().Nillable().Immutable(),
		field.Enum("scope").Comment("Whether the key is bound to one project or acts tenant-wide.").Annotations(apiKeyScopeDoc).Values("project", "tenant").Immutable(),
		field.Strings("permissions").Comment("Explicit permission list of the key (for example `activity:view`)."),
		field.Bool("is_active").Comment("Whether the key authenticates; false once revoked.").Default(true),
		field.Time("expires_at").Comment("When the key stops authenticating; null for no expiry.").Optional().Nillable(),
		field.Time("last_used_at").Comment("When the key last authenticated a request; null if never used.").Optional().Nillable(),
		field.Time("revoked_at").Comment("When the key was revoked; null while not revoked. A revoked key cannot have its permissions updated.").Optional().Nillable(),
	}
}

// Edges of APIKey.
func (APIKey) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("owner", User.Type).Comment("The user who owns the key.").Field("user_id").Unique().Required().Immutable(),
		edge.To("project", Project.Type).Comment("The project the key is bound to; null for a tenant-scoped key.").Field("project_id").Unique().Immutable(),
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
	return []schema.Annotation{schema.Comment("A service credential owned by a user in one tenant, optionally bound to one project (REST `/api/api-keys`). Only the SHA-256 hash of the secret is stored; the plaintext key is shown once, on creation."), entgql.RelayConnection(), entgql.QueryField("apiKeys").Description("The caller's own API keys in the active tenant (REST `GET /api/api-keys`).")}
}
