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

// Commerce is a customer business of a tenant (tenant-level; DELETE moves it to the trash).
type Commerce struct{ ent.Schema }

// Mixin of the Commerce.
func (Commerce) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ArchiveMixin{}}
}

// Fields of the Commerce.
func (Commerce) Fields() []ent.Field {
	return []ent.Field{
		// Commerce code in the caller's system; the snapshot and result APIs
		// accept it interchangeably with the UUID.
		field.String("external_id").Optional().Nillable().
			Annotations(entgql.OrderField("EXTERNAL_ID")),
		field.String("name").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.String("tax_id").Optional(),
		field.String("segment").Optional(),
		field.Bool("is_active").Default(true),
		field.JSON("metadata", map[string]any{}).Optional().
			Annotations(entgql.Skip()),
	}
}

// Edges of the Commerce.
func (Commerce) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("addresses", CommerceAddress.Type).Ref("commerce"),
		edge.From("users", CommerceUser.Type).Ref("commerce"),
		edge.From("lifecycle_snapshots", CommerceLifecycleSnapshot.Type).Ref("commerce"),
		edge.From("activities", Activity.Type).Ref("commerce"),
	}
}

// Indexes of the Commerce.
func (Commerce) Indexes() []ent.Index {
	return []ent.Index{
		// external_id is unique per tenant among live (not archived) commerces.
		index.Fields("tenant_id", "external_id").Unique().
			Annotations(entsql.IndexWhere("archived_at IS NULL AND external_id IS NOT NULL")),
		// The list: by name, all or is_active only. external_id follows
		// the sort columns so that search (name or external_id) is
		// answered from the index alone as well.
		liveListIndex("tenant_id", "name", "id", "external_id"),
		liveListIndex("tenant_id", "is_active", "name", "id"),
	}
}

// Annotations of the Commerce.
func (Commerce) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField("commerces")}
}

// CommerceAddress is a postal address of a commerce.
type CommerceAddress struct{ ent.Schema }

// Mixin of the CommerceAddress.
func (CommerceAddress) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the CommerceAddress.
func (CommerceAddress) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("commerce_id", uuid.UUID{}).Immutable(),
		field.Enum("source").Values("RETEN", "INTEGRATION"),
		field.String("address_alias").Optional(),
		field.Bool("is_primary").Default(false),
		field.String("country_code").Optional(),
		field.String("region").Optional(),
		field.String("commune").Optional(),
		field.String("city").Optional(),
		field.String("street").Optional(),
		field.String("street_number").Optional(),
		field.String("unit").Optional(),
		field.String("formatted_address").Optional(),
		field.Float("latitude").Optional().Nillable().Min(-90).Max(90),
		field.Float("longitude").Optional().Nillable().Min(-180).Max(180),
		field.Bool("is_active").Default(true),
	}
}

// Edges of the CommerceAddress.
func (CommerceAddress) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("commerce", Commerce.Type).Field("commerce_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the CommerceAddress.
func (CommerceAddress) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("commerce_id"),
		// Only one primary address per commerce among active addresses.
		index.Fields("commerce_id").Unique().
			StorageKey("commerceaddress_commerce_id_primary").
			Annotations(entsql.IndexWhere("is_primary = true AND is_active = true")),
		// A commerce's address list, oldest first.
		listIndex("tenant_id", "commerce_id", "created_at", "id"),
	}
}

// Annotations of the CommerceAddress.
func (CommerceAddress) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// CommerceUser is a person at a commerce (owner, buyer, ...) who can be contacted.
type CommerceUser struct{ ent.Schema }

// Mixin of the CommerceUser.
func (CommerceUser) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the CommerceUser.
func (CommerceUser) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("commerce_id", uuid.UUID{}).Immutable(),
		field.String("name").Optional(),
		field.String("external_id").Optional().Nillable(),
		field.Enum("source").Values("RETEN", "INTEGRATION").Default("RETEN"),
		field.Bool("is_active").Default(true),
	}
}

// Edges of the CommerceUser.
func (CommerceUser) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("commerce", Commerce.Type).Field("commerce_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.From("roles", CommerceUserRole.Type).Ref("commerce_user"),
		edge.From("contacts", CommerceContact.Type).Ref("commerce_user"),
	}
}

// Indexes of the CommerceUser.
func (CommerceUser) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("commerce_id", "external_id"),
		// A commerce's user list, oldest first.
		listIndex("tenant_id", "commerce_id", "created_at", "id"),
	}
}

// Annotations of the CommerceUser.
func (CommerceUser) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// CommerceUserRole is one role held by a commerce user.
type CommerceUserRole struct{ ent.Schema }

// Mixin of the CommerceUserRole.
func (CommerceUserRole) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the CommerceUserRole.
func (CommerceUserRole) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("commerce_user_id", uuid.UUID{}).Immutable(),
		field.Enum("role").
			Values("OWNER", "ORDERS", "FINANCE", "ATTENTION", "ADMIN", "COMMERCE_REP", "OTHER").
			Immutable(),
	}
}

// Edges of the CommerceUserRole.
func (CommerceUserRole) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("commerce_user", CommerceUser.Type).Field("commerce_user_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the CommerceUserRole.
func (CommerceUserRole) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("commerce_user_id", "role").Unique(),
	}
}

// Annotations of the CommerceUserRole.
func (CommerceUserRole) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// CommerceContact is a way to reach a commerce user (email, phone, WhatsApp ...).
type CommerceContact struct{ ent.Schema }

// Mixin of the CommerceContact.
func (CommerceContact) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the CommerceContact.
func (CommerceContact) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("commerce_user_id", uuid.UUID{}).Immutable(),
		field.Enum("contact_type").Values("EMAIL", "PHONE", "WHATSAPP", "OTHER"),
		field.String("value").NotEmpty(),
		field.Enum("source").Values("RETEN", "INTEGRATION"),
		field.Bool("is_primary").Default(false),
		field.Bool("is_active").Default(true),
	}
}

// Edges of the CommerceContact.
func (CommerceContact) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("commerce_user", CommerceUser.Type).Field("commerce_user_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the CommerceContact.
func (CommerceContact) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("commerce_user_id"),
		// Only one primary contact per type per commerce user among active contacts.
		index.Fields("commerce_user_id", "contact_type").Unique().
			StorageKey("commercecontact_commerce_user_id_contact_type_primary").
			Annotations(entsql.IndexWhere("is_primary = true AND is_active = true")),
	}
}

// Annotations of the CommerceContact.
func (CommerceContact) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
