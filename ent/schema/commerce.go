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
		field.String("external_id").Comment("Commerce code in the caller's system, unique in the tenant among live commerces; the snapshot and result APIs accept it interchangeably with the id. Null when none.").Optional().Nillable().
			Annotations(entgql.OrderField("EXTERNAL_ID")),
		field.String("name").Comment("Commerce name.").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.String("tax_id").Comment("Tax identifier; empty when none.").Optional(),
		field.String("segment").Comment("Business segment; empty when none.").Optional(),
		field.Bool("is_active").Comment("Whether the commerce is active.").Default(true),
		field.JSON("metadata", map[string]any{}).Optional().
			Annotations(entgql.Skip()),
	}
}

// Edges of the Commerce.
func (Commerce) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("addresses", CommerceAddress.Type).Comment("The commerce's postal addresses.").Ref("commerce"),
		edge.From("users", CommerceUser.Type).Comment("The people at the commerce who can be contacted.").Ref("commerce"),
		edge.From("lifecycle_snapshots", CommerceLifecycleSnapshot.Type).Comment("The commerce's retention state under each AGC.").Ref("commerce"),
		edge.From("activities", Activity.Type).Comment("The activities generated for the commerce.").Ref("commerce"),
		edge.From("route_links", CommerceRoute.Type).Comment("The commerce's route assignments.").Ref("commerce").
			Annotations(entgql.Skip()),
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
		// The activity lists' search by commerce name (archived commerces
		// included: their activities stay listed).
		index.Fields("tenant_id", "name", "id"),
	}
}

// Annotations of the Commerce.
func (Commerce) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A customer business of a tenant (REST `/api/commerces`), with addresses, users and contacts. Deleting it moves it to the trash."), entgql.RelayConnection(), entgql.QueryField("commerces").Description("The commerces of the active tenant (REST `GET /api/commerces`); archived commerces are left out.")}
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
		field.UUID("commerce_id", uuid.UUID{}).Comment("The commerce the address belongs to.").Immutable(),
		field.Enum("source").Comment("Who created the address: the service (RETEN) or an integration.").Annotations(recordSourceDoc).Values("RETEN", "INTEGRATION"),
		field.String("address_alias").Comment("Display name of the address (for example \"Warehouse\"); empty when none.").Optional(),
		field.Bool("is_primary").Comment("Whether this is the commerce's primary address; setting a new primary unsets the previous one.").Default(false),
		field.String("country_code").Comment("Country code; empty when none.").Optional(),
		field.String("region").Comment("Region; empty when none.").Optional(),
		field.String("commune").Comment("Commune; empty when none.").Optional(),
		field.String("city").Comment("City; empty when none.").Optional(),
		field.String("street").Comment("Street name; empty when none.").Optional(),
		field.String("street_number").Comment("Street number; empty when none.").Optional(),
		field.String("unit").Comment("Unit, floor or apartment; empty when none.").Optional(),
		field.String("formatted_address").Comment("The whole address as one line; empty when none.").Optional(),
		field.Float("latitude").Comment("Latitude in degrees (-90 to 90); null when unknown.").Optional().Nillable().Min(-90).Max(90),
		field.Float("longitude").Comment("Longitude in degrees (-180 to 180); null when unknown.").Optional().Nillable().Min(-180).Max(180),
		field.Bool("is_active").Comment("Whether the address is active.").Default(true),
	}
}

// Edges of the CommerceAddress.
func (CommerceAddress) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("commerce", Commerce.Type).Comment("The commerce the address belongs to.").Field("commerce_id").Unique().Required().Immutable().
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
	return []schema.Annotation{schema.Comment("A postal address of a commerce (REST `/api/commerces/{id}/addresses`). Only one active address per commerce is primary."), entgql.RelayConnection()}
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
		field.UUID("commerce_id", uuid.UUID{}).Comment("The commerce the person belongs to.").Immutable(),
		field.String("name").Comment("The person's name; empty when none.").Optional(),
		field.String("external_id").Comment("The person's code in the caller's system; null when none.").Optional().Nillable(),
		field.Enum("source").Comment("Who created the record: the service (RETEN) or an integration.").Annotations(recordSourceDoc).Values("RETEN", "INTEGRATION").Default("RETEN"),
		field.Bool("is_active").Comment("Whether the commerce user is active.").Default(true),
	}
}

// Edges of the CommerceUser.
func (CommerceUser) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("commerce", Commerce.Type).Comment("The commerce the person belongs to.").Field("commerce_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.From("roles", CommerceUserRole.Type).Comment("The roles the person holds at the commerce.").Ref("commerce_user"),
		edge.From("contacts", CommerceContact.Type).Comment("The ways to reach the person.").Ref("commerce_user"),
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
	return []schema.Annotation{schema.Comment("A person at a commerce (owner, buyer, ...) who can be contacted (REST `/api/commerces/{id}/users`)."), entgql.RelayConnection()}
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
		field.UUID("commerce_user_id", uuid.UUID{}).Comment("The commerce user holding the role.").Immutable(),
		field.Enum("role").Comment("The role.").Annotations(commerceUserRoleDoc).
			Values("OWNER", "ORDERS", "FINANCE", "ATTENTION", "ADMIN", "COMMERCE_REP", "OTHER").
			Immutable(),
	}
}

// Edges of the CommerceUserRole.
func (CommerceUserRole) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("commerce_user", CommerceUser.Type).Comment("The commerce user holding the role.").Field("commerce_user_id").Unique().Required().Immutable().
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
	return []schema.Annotation{schema.Comment("One role held by a commerce user."), entgql.RelayConnection()}
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
		field.UUID("commerce_user_id", uuid.UUID{}).Comment("The commerce user the contact belongs to.").Immutable(),
		field.Enum("contact_type").Comment("Kind of contact.").Annotations(contactTypeDoc).Values("EMAIL", "PHONE", "WHATSAPP", "OTHER"),
		field.String("value").Comment("The address or number.").NotEmpty(),
		field.Enum("source").Comment("Who created the contact: the service (RETEN) or an integration.").Annotations(recordSourceDoc).Values("RETEN", "INTEGRATION"),
		field.Bool("is_primary").Comment("Whether this is the primary contact of its type; setting a new primary unsets the previous one.").Default(false),
		field.Bool("is_active").Comment("Whether the contact is active.").Default(true),
	}
}

// Edges of the CommerceContact.
func (CommerceContact) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("commerce_user", CommerceUser.Type).Comment("The commerce user the contact belongs to.").Field("commerce_user_id").Unique().Required().Immutable().
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
	return []schema.Annotation{schema.Comment("A way to reach a commerce user (email, phone, WhatsApp, ...). Only one active contact per type per commerce user is primary."), entgql.RelayConnection()}
}
