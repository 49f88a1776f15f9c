package rest

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/commerce"
	"github.com/reten-io/reten/internal/paging"
)

// The addresses, users, roles and contacts of a commerce: the path's UUID
// parameters of each route, its body and the service call it makes.

var (
	addressPath = []string{"id", "addressId"}
	userPath    = []string{"id", "userId"}
	contactPath = []string{"id", "userId", "contactId"}
)

// commerceAddressMembers are the body members of an address besides source and is_primary.
var commerceAddressMembers = []string{"address_alias", "country_code", "region", "commune", "city", "street",
	"street_number", "unit", "formatted_address", "latitude", "longitude", "is_active"}

func addressFields(b *body) commerce.AddressFields {
	s := func(name string) *string { return b.str(name).Ptr() }
	return commerce.AddressFields{
		AddressAlias: s("address_alias"), CountryCode: s("country_code"), Region: s("region"),
		Commune: s("commune"), City: s("city"), Street: s("street"), StreetNumber: s("street_number"),
		Unit: s("unit"), FormattedAddress: s("formatted_address"),
		Latitude: b.number("latitude").Ptr(), Longitude: b.number("longitude").Ptr(),
	}
}

var addressBody = bodyOf(func(b *body) commerce.AddressInput {
	return commerce.AddressInput{AddressFields: addressFields(b), Source: b.str("source", commerce.MsgSource).OrZero(),
		IsPrimary: b.boolean("is_primary").Ptr(), IsActive: b.boolean("is_active").Ptr()}
}, append([]string{"source", "is_primary"}, commerceAddressMembers...)...)

var addressPatchBody = bodyOf(func(b *body) commerce.AddressUpdate {
	return commerce.AddressUpdate{AddressFields: addressFields(b), IsActive: b.boolean("is_active").Ptr()}
}, commerceAddressMembers...)

var commerceUserBody = bodyOf(func(b *body) commerce.UserInput {
	return commerce.UserInput{Name: b.str("name").Ptr(), ExternalID: b.str("external_id").Ptr(),
		Source: b.str("source", commerce.MsgSource).Ptr(), Roles: b.strs("roles").OrZero()}
}, "name", "external_id", "source", "roles")

var commerceUserPatchBody = bodyOf(func(b *body) commerce.UserUpdate {
	return commerce.UserUpdate{Name: b.str("name").Ptr(), ExternalID: b.str("external_id").Ptr(),
		IsActive: b.boolean("is_active").Ptr()}
}, "name", "external_id", "is_active")

var roleBody = bodyOf(func(b *body) string { return b.str("role", commerce.MsgRole).OrZero() }, "role")

var contactBody = bodyOf(func(b *body) commerce.ContactInput {
	return commerce.ContactInput{ContactType: b.str("contact_type", commerce.MsgContactType).OrZero(),
		Value: b.str("value").OrZero(), Source: b.str("source", commerce.MsgSource).OrZero(),
		IsPrimary: b.boolean("is_primary").Ptr()}
}, "contact_type", "value", "source", "is_primary")

var contactPatchBody = bodyOf(func(b *body) commerce.ContactUpdate {
	return commerce.ContactUpdate{Value: b.str("value").Ptr(), Source: b.str("source", commerce.MsgSource).Ptr(),
		IsActive: b.boolean("is_active").Ptr()}
}, "value", "source", "is_active")

func (a *api) commerceAddresses(ctx context.Context, ids []uuid.UUID, p paging.Page) (*paging.List[*ent.CommerceAddress], error) {
	return a.Commerces.ListAddresses(ctx, ids[0], p)
}

func (a *api) updateCommerceAddress(ctx context.Context, ids []uuid.UUID, in commerce.AddressUpdate) (*ent.CommerceAddress, error) {
	return a.Commerces.UpdateAddress(ctx, ids[0], ids[1], in)
}

func (a *api) setPrimaryCommerceAddress(ctx context.Context, ids []uuid.UUID, _ struct{}) (*ent.CommerceAddress, error) {
	return a.Commerces.SetPrimaryAddress(ctx, ids[0], ids[1])
}

func (a *api) commerceUsers(ctx context.Context, ids []uuid.UUID, p paging.Page) (*paging.List[*ent.CommerceUser], error) {
	return a.Commerces.ListUsers(ctx, ids[0], p)
}

func (a *api) updateCommerceUser(ctx context.Context, ids []uuid.UUID, in commerce.UserUpdate) (*ent.CommerceUser, error) {
	return a.Commerces.UpdateUser(ctx, ids[0], ids[1], in)
}

func (a *api) addCommerceUserRole(ctx context.Context, ids []uuid.UUID, role string) (*ent.CommerceUser, error) {
	return a.Commerces.AddRole(ctx, ids[0], ids[1], role)
}

func (a *api) createCommerceContact(ctx context.Context, ids []uuid.UUID, in commerce.ContactInput) (*ent.CommerceContact, error) {
	return a.Commerces.CreateContact(ctx, ids[0], ids[1], in)
}

func (a *api) updateCommerceContact(ctx context.Context, ids []uuid.UUID, in commerce.ContactUpdate) (*ent.CommerceContact, error) {
	return a.Commerces.UpdateContact(ctx, ids[0], ids[1], ids[2], in)
}

func (a *api) setPrimaryCommerceContact(ctx context.Context, ids []uuid.UUID, _ struct{}) (*ent.CommerceContact, error) {
	return a.Commerces.SetPrimaryContact(ctx, ids[0], ids[1], ids[2])
}

// removeCommerceUserRole answers 204; the role is named in the path.
func (a *api) removeCommerceUserRole(w http.ResponseWriter, r *http.Request) error {
	return removed(userPath, func(ctx context.Context, ids []uuid.UUID) error {
		return a.Commerces.RemoveRole(ctx, ids[0], ids[1], urlParam(r, "role"))
	})(w, r)
}
