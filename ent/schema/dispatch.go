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

// DispatchProvider is a tenant's outbound delivery integration for one channel.
type DispatchProvider struct{ ent.Schema }

// Mixin of the DispatchProvider.
func (DispatchProvider) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the DispatchProvider.
func (DispatchProvider) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.Enum("channel").Values("SALESMAN", "CALLCENTER", "WHATSAPP", "EMAIL", "SMS", "PUSH"),
		// kind selects the driver implementation, e.g. "log" or "webhook".
		field.String("kind").NotEmpty(),
		// Encrypted by the service; never returned by any API.
		field.Bytes("credentials_encrypted").Sensitive().Optional().
			Annotations(entgql.Skip()),
		field.JSON("settings", map[string]any{}).Optional().
			Annotations(entgql.Skip()),
		field.Bool("is_active").Default(true),
	}
}

// Edges of the DispatchProvider.
func (DispatchProvider) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("channel_definitions", ChannelDefinition.Type).Ref("provider"),
		edge.From("dispatch_configs", DispatchConfig.Type).Ref("provider"),
	}
}

// Indexes of the DispatchProvider.
func (DispatchProvider) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("tenant_id", "name").Unique(),
		// The list: by name, all or by channel.
		listIndex("tenant_id", "name", "id"),
		listIndex("tenant_id", "channel", "name", "id"),
	}
}

// Annotations of the DispatchProvider.
func (DispatchProvider) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField("dispatchProviders")}
}

// ChannelDefinition is a provider-side message definition (template, sender, rate).
type ChannelDefinition struct{ ent.Schema }

// Mixin of the ChannelDefinition.
func (ChannelDefinition) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the ChannelDefinition.
func (ChannelDefinition) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("provider_id", uuid.UUID{}).Immutable(),
		field.String("name").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.Enum("channel").Values("SALESMAN", "CALLCENTER", "WHATSAPP", "EMAIL", "SMS", "PUSH"),
		field.Text("template").Optional(),
		field.String("sender").Optional(),
		field.Int("rate_per_minute").Optional().Nillable().Positive(),
		field.JSON("settings", map[string]any{}).Optional().
			Annotations(entgql.Skip()),
		field.Bool("is_active").Default(true),
	}
}

// Edges of the ChannelDefinition.
func (ChannelDefinition) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("provider", DispatchProvider.Type).Field("provider_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the ChannelDefinition.
func (ChannelDefinition) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("provider_id", "name").Unique(),
		// A provider's list, by name.
		listIndex("tenant_id", "provider_id", "name", "id"),
	}
}

// Annotations of the ChannelDefinition.
func (ChannelDefinition) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// DispatchConfig chooses how a project dispatches activities of one channel.
type DispatchConfig struct{ ent.Schema }

// Mixin of the DispatchConfig.
func (DispatchConfig) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}}
}

// Fields of the DispatchConfig.
func (DispatchConfig) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("channel").Values("SALESMAN", "CALLCENTER", "WHATSAPP", "EMAIL", "SMS", "PUSH"),
		field.UUID("provider_id", uuid.UUID{}),
		field.UUID("channel_definition_id", uuid.UUID{}).Optional().Nillable(),
		field.Int("max_attempts").Default(3).Positive(),
		field.Int("retry_backoff_seconds").Default(300).NonNegative(),
		field.Bool("is_active").Default(true),
	}
}

// Edges of the DispatchConfig.
func (DispatchConfig) Edges() []ent.Edge {
	return []ent.Edge{
		// A provider in use cannot be deleted (default NO ACTION).
		edge.To("provider", DispatchProvider.Type).Field("provider_id").Unique().Required(),
		edge.To("channel_definition", ChannelDefinition.Type).Field("channel_definition_id").Unique(),
	}
}

// Indexes of the DispatchConfig.
func (DispatchConfig) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "channel").Unique(),
		// A project's list, by channel.
		listIndex("tenant_id", "project_id", "channel", "id"),
		index.Fields("provider_id"),
		index.Fields("channel_definition_id"),
	}
}

// Annotations of the DispatchConfig.
func (DispatchConfig) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
