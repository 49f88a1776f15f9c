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
		field.String("name").Comment("Provider name.").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.Enum("channel").Comment("The channel the provider delivers.").Annotations(channelDoc).Values("SALESMAN", "CALLCENTER", "WHATSAPP", "EMAIL", "SMS", "PUSH"),
		// Stored lowercase (REST's values); GraphQL shows the DispatchProviderKind enum.
		field.String("kind").Comment("Driver implementation.").NotEmpty().
			Annotations(entgql.Type("DispatchProviderKind")),
		// Encrypted by the service; never returned by any API.
		field.Bytes("credentials_encrypted").Sensitive().Optional().
			Annotations(entgql.Skip()),
		field.JSON("settings", map[string]any{}).Optional().
			Annotations(entgql.Skip()),
		field.Bool("is_active").Comment("Whether the provider delivers; dispatching through an inactive provider answers 422.").Default(true),
	}
}

// Edges of the DispatchProvider.
func (DispatchProvider) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("channel_definitions", ChannelDefinition.Type).Comment("The provider's message definitions.").Ref("provider"),
		edge.From("dispatch_configs", DispatchConfig.Type).Comment("The project dispatch configs that use the provider.").Ref("provider"),
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
	return []schema.Annotation{schema.Comment("A tenant's outbound delivery integration for one channel (REST `/api/dispatch-providers`). Its credentials are stored encrypted and never returned."), entgql.RelayConnection(), entgql.QueryField("dispatchProviders").Description("The dispatch providers of the active tenant (REST `GET /api/dispatch-providers`).")}
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
		field.UUID("provider_id", uuid.UUID{}).Comment("The provider the definition belongs to.").Immutable(),
		field.String("name").Comment("Definition name.").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.Enum("channel").Comment("The channel of the messages.").Annotations(channelDoc).Values("SALESMAN", "CALLCENTER", "WHATSAPP", "EMAIL", "SMS", "PUSH"),
		field.Text("template").Comment("Message template; empty when none.").Optional(),
		field.String("sender").Comment("Sender identity (address, number or name); empty when none.").Optional(),
		field.Int("rate_per_minute").Comment("Most dispatches per minute through this definition; null for no limit.").Optional().Nillable().Positive(),
		field.JSON("settings", map[string]any{}).Optional().
			Annotations(entgql.Skip()),
		field.Bool("is_active").Comment("Whether the definition is active.").Default(true),
	}
}

// Edges of the ChannelDefinition.
func (ChannelDefinition) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("provider", DispatchProvider.Type).Comment("The provider the definition belongs to.").Field("provider_id").Unique().Required().Immutable().
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
	return []schema.Annotation{schema.Comment("A provider-side message definition: template, sender and rate limit."), entgql.RelayConnection()}
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
		field.Enum("channel").Comment("The channel configured.").Annotations(channelDoc).Values("SALESMAN", "CALLCENTER", "WHATSAPP", "EMAIL", "SMS", "PUSH"),
		field.UUID("provider_id", uuid.UUID{}).Comment("The provider that delivers."),
		field.UUID("channel_definition_id", uuid.UUID{}).Comment("The message definition used; null for none.").Optional().Nillable(),
		field.Int("max_attempts").Comment("Dispatch attempts before a task fails.").Default(3).Positive(),
		field.Int("retry_backoff_seconds").Comment("Seconds between a failed attempt and the next one.").Default(300).NonNegative(),
		field.Bool("is_active").Comment("Whether the config is used; a channel without an active config cannot dispatch.").Default(true),
	}
}

// Edges of the DispatchConfig.
func (DispatchConfig) Edges() []ent.Edge {
	return []ent.Edge{
		// A provider in use cannot be deleted (default NO ACTION).
		edge.To("provider", DispatchProvider.Type).Comment("The provider that delivers.").Field("provider_id").Unique().Required(),
		edge.To("channel_definition", ChannelDefinition.Type).Comment("The message definition used; null for none.").Field("channel_definition_id").Unique(),
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
	return []schema.Annotation{schema.Comment("How a project dispatches activities of one channel: the provider, definition and retry policy (REST `/api/projects/{projectId}/dispatch-configs`)."), entgql.RelayConnection()}
}
