package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/commerce"
)

// commerceHandlers maps the REST lines of tenancy.commerceMatrix to their handlers.
func (a *api) commerceHandlers() map[string]handler {
	return map[string]handler{
		"GET /commerces":         a.listCommerces,
		"POST /commerces":        a.createCommerce,
		"GET /commerces/{id}":    a.getCommerce,
		"PATCH /commerces/{id}":  a.updateCommerce,
		"DELETE /commerces/{id}": a.deleteCommerce,

		"GET /commerces/{id}/addresses":                          a.listCommerceAddresses,
		"POST /commerces/{id}/addresses":                         a.createCommerceAddress,
		"PATCH /commerces/{id}/addresses/{addressId}":            a.updateCommerceAddress,
		"POST /commerces/{id}/addresses/{addressId}/set-primary": a.setPrimaryCommerceAddress,

		"GET /commerces/{id}/users":                                            a.listCommerceUsers,
		"POST /commerces/{id}/users":                                           a.createCommerceUser,
		"PATCH /commerces/{id}/users/{userId}":                                 a.updateCommerceUser,
		"POST /commerces/{id}/users/{userId}/roles":                            a.addCommerceUserRole,
		"DELETE /commerces/{id}/users/{userId}/roles/{role}":                   a.removeCommerceUserRole,
		"POST /commerces/{id}/users/{userId}/contacts":                         a.createCommerceContact,
		"PATCH /commerces/{id}/users/{userId}/contacts/{contactId}":            a.updateCommerceContact,
		"POST /commerces/{id}/users/{userId}/contacts/{contactId}/set-primary": a.setPrimaryCommerceContact,

		"POST /integration/commerces/batch-upsert": a.batchUpsertCommerces,
	}
}

// Type messages of the commerce bodies.
const (
	msgCmExternalIDString = "external_id must be a string"
	msgCmIsActiveBool     = "is_active must be a boolean value"
	msgCmIsPrimaryBool    = "is_primary must be a boolean value"
	msgCmMetadataObject   = "metadata must be an object"
	msgCmValueString      = "value must be a string"
	msgCmItemsArray       = "items must be an array"
	msgCmArrayFmt         = "%s must be an array"
	msgCmObjectFmt        = "%s must be an object"
)

// --- presenters ---------------------------------------------------------

// commerceDTO is the designed commerce record.
type commerceDTO struct {
	ID         uuid.UUID      `json:"id"`
	ExternalID *string        `json:"externalId"`
	Name       string         `json:"name"`
	TaxID      *string        `json:"taxId"`
	Segment    *string        `json:"segment"`
	IsActive   bool           `json:"isActive"`
	Metadata   map[string]any `json:"metadata"`
	CreatedAt  time.Time      `json:"createdAt"`
	UpdatedAt  time.Time      `json:"updatedAt"`
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
	CreatedAt        time.Time `json:"createdAt"`
	UpdatedAt        time.Time `json:"updatedAt"`
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
	CreatedAt  time.Time            `json:"createdAt"`
	UpdatedAt  time.Time            `json:"updatedAt"`
}

type commerceContactDTO struct {
	ID             uuid.UUID `json:"id"`
	CommerceUserID uuid.UUID `json:"commerceUserId"`
	ContactType    string    `json:"contactType"`
	Value          string    `json:"value"`
	Source         string    `json:"source"`
	IsPrimary      bool      `json:"isPrimary"`
	IsActive       bool      `json:"isActive"`
	CreatedAt      time.Time `json:"createdAt"`
	UpdatedAt      time.Time `json:"updatedAt"`
}

// cmNullIfEmpty presents an unset optional text as null.
func cmNullIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func presentCommerce(c *ent.Commerce) commerceDTO {
	md := c.Metadata
	if md == nil {
		md = map[string]any{}
	}
	return commerceDTO{ID: c.ID, ExternalID: c.ExternalID, Name: c.Name, TaxID: cmNullIfEmpty(c.TaxID),
		Segment: cmNullIfEmpty(c.Segment), IsActive: c.IsActive, Metadata: md, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}

func presentCommerceDetail(c *ent.Commerce) commerceDetailDTO {
	out := commerceDetailDTO{commerceDTO: presentCommerce(c), Addresses: make([]commerceAddressDTO, len(c.Edges.Addresses)),
		Users: make([]commerceUserDTO, len(c.Edges.Users))}
	for i, ad := range c.Edges.Addresses {
		out.Addresses[i] = presentCommerceAddress(ad)
	}
	for i, u := range c.Edges.Users {
		out.Users[i] = presentCommerceUser(u)
	}
	return out
}

func presentCommerceAddress(ad *ent.CommerceAddress) commerceAddressDTO {
	return commerceAddressDTO{ID: ad.ID, CommerceID: ad.CommerceID, Source: string(ad.Source), AddressAlias: cmNullIfEmpty(ad.AddressAlias),
		IsPrimary: ad.IsPrimary, CountryCode: cmNullIfEmpty(ad.CountryCode), Region: cmNullIfEmpty(ad.Region),
		Commune: cmNullIfEmpty(ad.Commune), City: cmNullIfEmpty(ad.City), Street: cmNullIfEmpty(ad.Street),
		StreetNumber: cmNullIfEmpty(ad.StreetNumber), Unit: cmNullIfEmpty(ad.Unit),
		FormattedAddress: cmNullIfEmpty(ad.FormattedAddress), Latitude: ad.Latitude, Longitude: ad.Longitude,
		IsActive: ad.IsActive, CreatedAt: ad.CreatedAt, UpdatedAt: ad.UpdatedAt}
}

func presentCommerceUser(u *ent.CommerceUser) commerceUserDTO {
	out := commerceUserDTO{ID: u.ID, CommerceID: u.CommerceID, Name: cmNullIfEmpty(u.Name), ExternalID: u.ExternalID,
		Source: string(u.Source), IsActive: u.IsActive, Roles: make([]string, len(u.Edges.Roles)),
		Contacts: make([]commerceContactDTO, len(u.Edges.Contacts)), CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt}
	for i, r := range u.Edges.Roles {
		out.Roles[i] = string(r.Role)
	}
	for i, c := range u.Edges.Contacts {
		out.Contacts[i] = presentCommerceContact(c)
	}
	return out
}

func presentCommerceContact(c *ent.CommerceContact) commerceContactDTO {
	return commerceContactDTO{ID: c.ID, CommerceUserID: c.CommerceUserID, ContactType: string(c.ContactType), Value: c.Value,
		Source: string(c.Source), IsPrimary: c.IsPrimary, IsActive: c.IsActive, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}

// --- decoding helpers ---------------------------------------------------

// cmObjectBody decodes raw as a JSON object whose members must be in allowed;
// nil when raw is not an object.
func cmObjectBody(raw json.RawMessage, allowed ...string) *body {
	if b, ok := objectBody(raw, allowed...); ok {
		return b
	}
	return nil
}

// cmNumber reads a JSON number; nil when missing or null.
func cmNumber(b *body, name, notNumber string) *float64 {
	raw, ok := b.fields[name]
	if !ok || string(raw) == "null" {
		return nil
	}
	var v float64
	if err := json.Unmarshal(raw, &v); err != nil {
		b.fail(notNumber)
		return nil
	}
	return &v
}

// commerceAddressMembers are the body members of an address besides source and is_primary.
var commerceAddressMembers = []string{"address_alias", "country_code", "region", "commune", "city", "street",
	"street_number", "unit", "formatted_address", "latitude", "longitude", "is_active"}

func decodeCommerceAddressFields(b *body) commerce.AddressFields {
	s := func(name string) *string { return b.optStr(name, name+" must be a string") }
	return commerce.AddressFields{
		AddressAlias: s("address_alias"), CountryCode: s("country_code"), Region: s("region"),
		Commune: s("commune"), City: s("city"), Street: s("street"), StreetNumber: s("street_number"),
		Unit: s("unit"), FormattedAddress: s("formatted_address"),
		Latitude:  cmNumber(b, "latitude", "latitude must be a number"),
		Longitude: cmNumber(b, "longitude", "longitude must be a number"),
	}
}

// --- commerces ----------------------------------------------------------

func (a *api) listCommerces(w http.ResponseWriter, r *http.Request) error {
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	f := commerce.ListFilter{Search: r.URL.Query().Get("search")}
	switch v := r.URL.Query().Get("is_active"); v {
	case "":
	case "true", "false":
		active := v == "true"
		f.IsActive = &active
	default:
		return apperr.Validation(msgCmIsActiveBool)
	}
	l, err := a.Commerces.List(r.Context(), f, p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentPage(l, presentCommerce))
	return nil
}

func (a *api) getCommerce(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	c, err := a.Commerces.Get(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentCommerceDetail(c))
	return nil
}

var commerceMembers = []string{"external_id", "name", "tax_id", "segment", "is_active", "metadata"}

func (a *api) createCommerce(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, commerceMembers...)
	if err != nil {
		return err
	}
	var in commerce.CreateInput
	in.ExternalID = b.optStr("external_id", msgCmExternalIDString)
	in.Name, _ = b.str("name", msgNameString)
	in.TaxID = b.optStr("tax_id", "tax_id must be a string")
	in.Segment = b.optStr("segment", "segment must be a string")
	in.IsActive = b.boolean("is_active", msgCmIsActiveBool)
	in.Metadata = b.object("metadata", msgCmMetadataObject)
	if err := b.err(); err != nil {
		return err
	}
	c, err := a.Commerces.Create(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentCommerce(c))
	return nil
}

func (a *api) updateCommerce(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, commerceMembers...)
	if err != nil {
		return err
	}
	in := commerce.UpdateInput{
		ExternalID: b.optStr("external_id", msgCmExternalIDString),
		Name:       b.optStr("name", msgNameString),
		TaxID:      b.optStr("tax_id", "tax_id must be a string"),
		Segment:    b.optStr("segment", "segment must be a string"),
		IsActive:   b.boolean("is_active", msgCmIsActiveBool),
		Metadata:   b.object("metadata", msgCmMetadataObject),
	}
	if err := b.err(); err != nil {
		return err
	}
	c, err := a.Commerces.Update(r.Context(), id, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentCommerce(c))
	return nil
}

func (a *api) deleteCommerce(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	if err := a.Commerces.Delete(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// --- addresses ----------------------------------------------------------

func (a *api) listCommerceAddresses(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	l, err := a.Commerces.ListAddresses(r.Context(), id, p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentPage(l, presentCommerceAddress))
	return nil
}

func (a *api) createCommerceAddress(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, append([]string{"source", "is_primary"}, commerceAddressMembers...)...)
	if err != nil {
		return err
	}
	in := commerce.AddressInput{AddressFields: decodeCommerceAddressFields(b)}
	in.Source, _ = b.str("source", commerce.MsgSource)
	in.IsPrimary = b.boolean("is_primary", msgCmIsPrimaryBool)
	in.IsActive = b.boolean("is_active", msgCmIsActiveBool)
	if err := b.err(); err != nil {
		return err
	}
	ad, err := a.Commerces.CreateAddress(r.Context(), id, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentCommerceAddress(ad))
	return nil
}

func (a *api) updateCommerceAddress(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	addressID, err := pathUUID(r, "addressId")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, commerceAddressMembers...)
	if err != nil {
		return err
	}
	in := commerce.AddressUpdate{AddressFields: decodeCommerceAddressFields(b), IsActive: b.boolean("is_active", msgCmIsActiveBool)}
	if err := b.err(); err != nil {
		return err
	}
	ad, err := a.Commerces.UpdateAddress(r.Context(), id, addressID, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentCommerceAddress(ad))
	return nil
}

func (a *api) setPrimaryCommerceAddress(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	addressID, err := pathUUID(r, "addressId")
	if err != nil {
		return err
	}
	ad, err := a.Commerces.SetPrimaryAddress(r.Context(), id, addressID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentCommerceAddress(ad))
	return nil
}

// --- users, roles, contacts ---------------------------------------------

func (a *api) listCommerceUsers(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	l, err := a.Commerces.ListUsers(r.Context(), id, p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentPage(l, presentCommerceUser))
	return nil
}

func (a *api) createCommerceUser(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "name", "external_id", "source", "roles")
	if err != nil {
		return err
	}
	in := commerce.UserInput{
		Name:       b.optStr("name", msgNameString),
		ExternalID: b.optStr("external_id", msgCmExternalIDString),
		Source:     b.optStr("source", commerce.MsgSource),
	}
	in.Roles, _ = b.strs("roles", msgRolesArray)
	if err := b.err(); err != nil {
		return err
	}
	u, err := a.Commerces.CreateUser(r.Context(), id, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentCommerceUser(u))
	return nil
}

// commerceUserPath reads the commerce and commerce user ids of the path.
func commerceUserPath(r *http.Request) (commerceID, userID uuid.UUID, err error) {
	if commerceID, err = pathUUID(r, "id"); err != nil {
		return
	}
	userID, err = pathUUID(r, "userId")
	return
}

func (a *api) updateCommerceUser(w http.ResponseWriter, r *http.Request) error {
	cID, uID, err := commerceUserPath(r)
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "name", "external_id", "is_active")
	if err != nil {
		return err
	}
	in := commerce.UserUpdate{
		Name:       b.optStr("name", msgNameString),
		ExternalID: b.optStr("external_id", msgCmExternalIDString),
		IsActive:   b.boolean("is_active", msgCmIsActiveBool),
	}
	if err := b.err(); err != nil {
		return err
	}
	u, err := a.Commerces.UpdateUser(r.Context(), cID, uID, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentCommerceUser(u))
	return nil
}

func (a *api) addCommerceUserRole(w http.ResponseWriter, r *http.Request) error {
	cID, uID, err := commerceUserPath(r)
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "role")
	if err != nil {
		return err
	}
	role, _ := b.str("role", commerce.MsgRole)
	if err := b.err(); err != nil {
		return err
	}
	u, err := a.Commerces.AddRole(r.Context(), cID, uID, role)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentCommerceUser(u))
	return nil
}

func (a *api) removeCommerceUserRole(w http.ResponseWriter, r *http.Request) error {
	cID, uID, err := commerceUserPath(r)
	if err != nil {
		return err
	}
	if err := a.Commerces.RemoveRole(r.Context(), cID, uID, urlParam(r, "role")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *api) createCommerceContact(w http.ResponseWriter, r *http.Request) error {
	cID, uID, err := commerceUserPath(r)
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "contact_type", "value", "source", "is_primary")
	if err != nil {
		return err
	}
	var in commerce.ContactInput
	in.ContactType, _ = b.str("contact_type", commerce.MsgContactType)
	in.Value, _ = b.str("value", msgCmValueString)
	in.Source, _ = b.str("source", commerce.MsgSource)
	in.IsPrimary = b.boolean("is_primary", msgCmIsPrimaryBool)
	if err := b.err(); err != nil {
		return err
	}
	c, err := a.Commerces.CreateContact(r.Context(), cID, uID, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentCommerceContact(c))
	return nil
}

func (a *api) updateCommerceContact(w http.ResponseWriter, r *http.Request) error {
	cID, uID, err := commerceUserPath(r)
	if err != nil {
		return err
	}
	contactID, err := pathUUID(r, "contactId")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "value", "source", "is_active")
	if err != nil {
		return err
	}
	in := commerce.ContactUpdate{
		Value:    b.optStr("value", msgCmValueString),
		Source:   b.optStr("source", commerce.MsgSource),
		IsActive: b.boolean("is_active", msgCmIsActiveBool),
	}
	if err := b.err(); err != nil {
		return err
	}
	c, err := a.Commerces.UpdateContact(r.Context(), cID, uID, contactID, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentCommerceContact(c))
	return nil
}

func (a *api) setPrimaryCommerceContact(w http.ResponseWriter, r *http.Request) error {
	cID, uID, err := commerceUserPath(r)
	if err != nil {
		return err
	}
	contactID, err := pathUUID(r, "contactId")
	if err != nil {
		return err
	}
	c, err := a.Commerces.SetPrimaryContact(r.Context(), cID, uID, contactID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentCommerceContact(c))
	return nil
}

// --- batch upsert -------------------------------------------------------

// commerceBatchResultDTO is the answer of the batch upsert.
type commerceBatchResultDTO struct {
	Created   int                     `json:"created"`
	Updated   int                     `json:"updated"`
	Unchanged int                     `json:"unchanged"`
	Total     int                     `json:"total"`
	Errors    []commerceBatchErrorDTO `json:"errors"`
}

type commerceBatchErrorDTO struct {
	Index    int      `json:"index"`
	Messages []string `json:"messages"`
}

func (a *api) batchUpsertCommerces(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "items")
	if err != nil {
		return err
	}
	raws, present := b.array("items", msgCmItemsArray)
	if raw, sent := b.fields["items"]; !present && (!sent || string(raw) == "null") {
		b.fail(msgCmItemsArray)
	}
	if err := b.err(); err != nil {
		return err
	}
	items := make([]commerce.BatchItem, len(raws))
	for i, raw := range raws {
		items[i] = decodeCommerceBatchItem(raw)
	}
	res, err := a.Commerces.BatchUpsert(r.Context(), items)
	if err != nil {
		return err
	}
	out := commerceBatchResultDTO{Created: res.Created, Updated: res.Updated, Unchanged: res.Unchanged, Total: res.Total,
		Errors: make([]commerceBatchErrorDTO, len(res.Errors))}
	for i, e := range res.Errors {
		out.Errors[i] = commerceBatchErrorDTO{Index: e.Index, Messages: e.Messages}
	}
	writeJSON(w, http.StatusCreated, out)
	return nil
}

// decodeCommerceBatchItem decodes one item; its type problems (prefixed with the
// nested path, class-validator style) travel in Problems.
func decodeCommerceBatchItem(raw json.RawMessage) commerce.BatchItem {
	var it commerce.BatchItem
	b := cmObjectBody(raw, "external_id", "name", "tax_id", "segment", "is_active", "metadata", "addresses", "users")
	if b == nil {
		it.Problems = []string{"each value in items must be an object"}
		return it
	}
	it.ExternalID, _ = b.str("external_id", msgCmExternalIDString)
	it.Name, _ = b.str("name", msgNameString)
	it.TaxID = b.optStr("tax_id", "tax_id must be a string")
	it.Segment = b.optStr("segment", "segment must be a string")
	it.IsActive = b.boolean("is_active", msgCmIsActiveBool)
	it.Metadata = b.object("metadata", msgCmMetadataObject)
	addresses, _ := b.array("addresses", fmt.Sprintf(msgCmArrayFmt, "addresses"))
	for i, raw := range addresses {
		p := fmt.Sprintf("addresses.%d", i)
		ab := cmObjectBody(raw, append([]string{"is_primary"}, commerceAddressMembers...)...)
		if ab == nil {
			b.fail(fmt.Sprintf(msgCmObjectFmt, p))
			continue
		}
		ad := commerce.BatchAddress{AddressFields: decodeCommerceAddressFields(ab),
			IsPrimary: ab.boolean("is_primary", msgCmIsPrimaryBool), IsActive: ab.boolean("is_active", msgCmIsActiveBool)}
		it.Addresses = append(it.Addresses, ad)
		cmNest(b, ab, p)
	}
	users, _ := b.array("users", fmt.Sprintf(msgCmArrayFmt, "users"))
	for i, raw := range users {
		p := fmt.Sprintf("users.%d", i)
		ub := cmObjectBody(raw, "external_id", "name", "is_active", "roles", "contacts")
		if ub == nil {
			b.fail(fmt.Sprintf(msgCmObjectFmt, p))
			continue
		}
		var u commerce.BatchUser
		u.ExternalID, _ = ub.str("external_id", msgCmExternalIDString)
		u.Name = ub.optStr("name", msgNameString)
		u.IsActive = ub.boolean("is_active", msgCmIsActiveBool)
		u.Roles, _ = ub.strs("roles", msgRolesArray)
		contacts, _ := ub.array("contacts", fmt.Sprintf(msgCmArrayFmt, "contacts"))
		for j, raw := range contacts {
			cp := fmt.Sprintf("contacts.%d", j)
			cb := cmObjectBody(raw, "contact_type", "value", "is_primary", "is_active")
			if cb == nil {
				ub.fail(fmt.Sprintf(msgCmObjectFmt, cp))
				continue
			}
			var c commerce.BatchContact
			c.ContactType, _ = cb.str("contact_type", commerce.MsgContactType)
			c.Value, _ = cb.str("value", msgCmValueString)
			c.IsPrimary = cb.boolean("is_primary", msgCmIsPrimaryBool)
			c.IsActive = cb.boolean("is_active", msgCmIsActiveBool)
			u.Contacts = append(u.Contacts, c)
			cmNest(ub, cb, cp)
		}
		it.Users = append(it.Users, u)
		cmNest(b, ub, p)
	}
	it.Problems = b.msgs
	return it
}

// cmNest adds the problems of a nested object to its parent, prefixed with its path.
func cmNest(parent, child *body, path string) {
	for _, m := range child.msgs {
		parent.fail(path + "." + m)
	}
}
