package rest

import (
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/commerce"
)

// commerceDTO is the designed commerce record.
type commerceDTO struct {
	ID         uuid.UUID      `json:"id"`
	ExternalID *string        `json:"externalId"`
	Name       string         `json:"name"`
	TaxID      *string        `json:"taxId"`
	Segment    *string        `json:"segment"`
	IsActive   bool           `json:"isActive"`
	Metadata   map[string]any `json:"metadata"`
	stamps
}

// commerceDetailDTO is a commerce with its addresses and users.
type commerceDetailDTO struct {
	commerceDTO
	Addresses []commerceAddressDTO `json:"addresses"`
	Users     []commerceUserDTO    `json:"users"`
}

type commerceAddressDTO struct {
	ID               uuid.UUID `json:"id"`
	CommerceID       uuid.UUID `json:"commerceId"`
	Source           string    `json:"source"`
	AddressAlias     *string   `json:"addressAlias"`
	IsPrimary        bool      `json:"isPrimary"`
	CountryCode      *string   `json:"countryCode"`
	Region           *string   `json:"region"`
	Commune          *string   `json:"commune"`
	City             *string   `json:"city"`
	Street           *string   `json:"street"`
	StreetNumber     *string   `json:"streetNumber"`
	Unit             *string   `json:"unit"`
	FormattedAddress *string   `json:"formattedAddress"`
	Latitude         *float64  `json:"latitude"`
	Longitude        *float64  `json:"longitude"`
	IsActive         bool      `json:"isActive"`
	stamps
}

type commerceUserDTO struct {
	ID         uuid.UUID            `json:"id"`
	CommerceID uuid.UUID            `json:"commerceId"`
	Name       *string              `json:"name"`
	ExternalID *string              `json:"externalId"`
	Source     string               `json:"source"`
	IsActive   bool                 `json:"isActive"`
	Roles      []string             `json:"roles"`
	Contacts   []commerceContactDTO `json:"contacts"`
	stamps
}

type commerceContactDTO struct {
	ID             uuid.UUID `json:"id"`
	CommerceUserID uuid.UUID `json:"commerceUserId"`
	ContactType    string    `json:"contactType"`
	Value          string    `json:"value"`
	Source         string    `json:"source"`
	IsPrimary      bool      `json:"isPrimary"`
	IsActive       bool      `json:"isActive"`
	stamps
}

func presentCommerce(c *ent.Commerce) commerceDTO {
	return commerceDTO{ID: c.ID, ExternalID: c.ExternalID, Name: c.Name, TaxID: nullable(c.TaxID),
		Segment: nullable(c.Segment), IsActive: c.IsActive, Metadata: orEmpty(c.Metadata), stamps: stamps{c.CreatedAt, c.UpdatedAt}}
}

func presentCommerceDetail(c *ent.Commerce) commerceDetailDTO {
	return commerceDetailDTO{commerceDTO: presentCommerce(c), Addresses: presentAll(c.Edges.Addresses, presentCommerceAddress),
		Users: presentAll(c.Edges.Users, presentCommerceUser)}
}

func presentCommerceAddress(ad *ent.CommerceAddress) commerceAddressDTO {
	return commerceAddressDTO{ID: ad.ID, CommerceID: ad.CommerceID, Source: string(ad.Source), AddressAlias: nullable(ad.AddressAlias),
		IsPrimary: ad.IsPrimary, CountryCode: nullable(ad.CountryCode), Region: nullable(ad.Region),
		Commune: nullable(ad.Commune), City: nullable(ad.City), Street: nullable(ad.Street),
		StreetNumber: nullable(ad.StreetNumber), Unit: nullable(ad.Unit),
		FormattedAddress: nullable(ad.FormattedAddress), Latitude: ad.Latitude, Longitude: ad.Longitude,
		IsActive: ad.IsActive, stamps: stamps{ad.CreatedAt, ad.UpdatedAt}}
}

func presentCommerceUser(u *ent.CommerceUser) commerceUserDTO {
	return commerceUserDTO{ID: u.ID, CommerceID: u.CommerceID, Name: nullable(u.Name), ExternalID: u.ExternalID,
		Source: string(u.Source), IsActive: u.IsActive,
		Roles:    presentAll(u.Edges.Roles, func(r *ent.CommerceUserRole) string { return string(r.Role) }),
		Contacts: presentAll(u.Edges.Contacts, presentCommerceContact), stamps: stamps{u.CreatedAt, u.UpdatedAt}}
}

func presentCommerceContact(c *ent.CommerceContact) commerceContactDTO {
	return commerceContactDTO{ID: c.ID, CommerceUserID: c.CommerceUserID, ContactType: string(c.ContactType), Value: c.Value,
		Source: string(c.Source), IsPrimary: c.IsPrimary, IsActive: c.IsActive, stamps: stamps{c.CreatedAt, c.UpdatedAt}}
}

var commerceMembers = []string{"external_id", "name", "tax_id", "segment", "is_active", "metadata"}

var commerceBody = bodyOf(func(b *body) commerce.CreateInput {
	return commerce.CreateInput{ExternalID: b.str("external_id").Ptr(), Name: b.str("name").OrZero(),
		TaxID: b.str("tax_id").Ptr(), Segment: b.str("segment").Ptr(), IsActive: b.boolean("is_active").Ptr(),
		Metadata: b.object("metadata").OrZero()}
}, commerceMembers...)

var commercePatchBody = bodyOf(func(b *body) commerce.UpdateInput {
	return commerce.UpdateInput{ExternalID: b.str("external_id").Ptr(), Name: b.str("name").Ptr(),
		TaxID: b.str("tax_id").Ptr(), Segment: b.str("segment").Ptr(), IsActive: b.boolean("is_active").Ptr(),
		Metadata: b.object("metadata").OrZero()}
}, commerceMembers...)

// commerceFilter reads search and is_active; is_active is only looked at
// once page and per_page are right (each answers alone).
func commerceFilter(q *query) commerce.ListFilter {
	f := commerce.ListFilter{Search: q.Get("search")}
	if q.probs.Empty() {
		f.IsActive = q.flag("is_active")
	}
	return f
}
