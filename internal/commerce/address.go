package commerce

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commerceaddress"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
)

// Messages of the address rules.
const (
	MsgAddressNotFound   = "Address not found"
	MsgSource            = "source must be one of the following values: RETEN, INTEGRATION"
	MsgPrimaryInactive   = "is_primary must not be true when is_active is false"
	MsgInactiveNoPrimary = "An inactive address cannot be primary"
)

// AddressFields are the descriptive fields of an address (SPEC.md "Commerce
// address"). nil is "not sent"; on update a blank text clears the field.
type AddressFields struct {
	AddressAlias, CountryCode, Region, Commune, City, Street, StreetNumber, Unit, FormattedAddress *string
	Latitude, Longitude                                                                            *float64
}

// AddressInput is the body of POST /api/commerces/:cId/addresses.
type AddressInput struct {
	Source string // RETEN or INTEGRATION (required)
	AddressFields
	IsPrimary *bool // true: becomes the primary address (the previous one is unset)
	IsActive  *bool // default true
}

// AddressUpdate is the body of PATCH /api/commerces/:cId/addresses/:aId.
type AddressUpdate struct {
	AddressFields
	IsActive *bool
}

func validSource(s string) bool { return s == "RETEN" || s == "INTEGRATION" }

// validate checks the coordinates; prefix names nested fields in batch messages.
func (f *AddressFields) validate(prefix string) []string {
	var msgs []string
	check := func(name string, v *float64, limit float64) {
		switch {
		case v == nil:
		case *v < -limit:
			msgs = append(msgs, fmt.Sprintf("%s%s must not be less than %v", prefix, name, -limit))
		case *v > limit:
			msgs = append(msgs, fmt.Sprintf("%s%s must not be greater than %v", prefix, name, limit))
		}
	}
	check("latitude", f.Latitude, 90)
	check("longitude", f.Longitude, 180)
	return msgs
}

func (f *AddressFields) trim() {
	for _, p := range f.texts() {
		*p = fields.Trim(*p)
	}
}

func (f *AddressFields) texts() []**string {
	return []**string{&f.AddressAlias, &f.CountryCode, &f.Region, &f.Commune, &f.City, &f.Street,
		&f.StreetNumber, &f.Unit, &f.FormattedAddress}
}

// apply writes the sent fields into m; blank texts clear the column when
// clearing is true (updates) and are skipped otherwise (creates).
func (f *AddressFields) apply(m *ent.CommerceAddressMutation, clearing bool) {
	text := func(v *string, set func(string), clear func()) {
		switch {
		case v == nil:
		case *v != "":
			set(*v)
		case clearing:
			clear()
		}
	}
	text(f.AddressAlias, m.SetAddressAlias, m.ClearAddressAlias)
	text(f.CountryCode, m.SetCountryCode, m.ClearCountryCode)
	text(f.Region, m.SetRegion, m.ClearRegion)
	text(f.Commune, m.SetCommune, m.ClearCommune)
	text(f.City, m.SetCity, m.ClearCity)
	text(f.Street, m.SetStreet, m.ClearStreet)
	text(f.StreetNumber, m.SetStreetNumber, m.ClearStreetNumber)
	text(f.Unit, m.SetUnit, m.ClearUnit)
	text(f.FormattedAddress, m.SetFormattedAddress, m.ClearFormattedAddress)
	if f.Latitude != nil {
		m.SetLatitude(*f.Latitude)
	}
	if f.Longitude != nil {
		m.SetLongitude(*f.Longitude)
	}
}

func (in *AddressInput) validate(prefix string) []string {
	var msgs []string
	if !validSource(in.Source) {
		msgs = append(msgs, prefix+MsgSource)
	}
	msgs = append(msgs, in.rules(prefix)...)
	return msgs
}

// rules are the checks shared with the batch (where source is implied).
func (in *AddressInput) rules(prefix string) []string {
	msgs := in.AddressFields.validate(prefix)
	if isTrue(in.IsPrimary) && in.IsActive != nil && !*in.IsActive {
		msgs = append(msgs, prefix+MsgPrimaryInactive)
	}
	return msgs
}

func isTrue(b *bool) bool { return b != nil && *b }

// CreateAddress adds an address to a commerce of the active tenant. The
// first active address of a commerce becomes its primary address; with
// is_primary true the new address replaces the current primary.
func (s *Service) CreateAddress(ctx context.Context, commerceID uuid.UUID, in AddressInput) (*ent.CommerceAddress, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	in.trim()
	if msgs := in.validate(""); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	var out *ent.CommerceAddress
	err = s.writeRetrying(ctx, func(ctx context.Context, tx *ent.Client) error {
		if _, err := lockCommerce(ctx, tx, tid, commerceID); err != nil {
			return err
		}
		out, err = createAddress(ctx, tx, tid, commerceID, commerceaddress.Source(in.Source), &in)
		return err
	})
	return out, err
}

// createAddress writes a validated address inside a transaction that holds
// the commerce lock, and keeps the primary rule.
func createAddress(ctx context.Context, tx *ent.Client, tid, commerceID uuid.UUID, source commerceaddress.Source,
	in *AddressInput) (*ent.CommerceAddress, error) {
	active := in.IsActive == nil || *in.IsActive
	primary := false
	if active {
		if isTrue(in.IsPrimary) {
			if err := unsetPrimaryAddress(ctx, tx, commerceID, uuid.Nil); err != nil {
				return nil, err
			}
			primary = true
		} else {
			has, err := tx.CommerceAddress.Query().Where(commerceaddress.CommerceID(commerceID),
				commerceaddress.IsPrimary(true), commerceaddress.IsActive(true)).Exist(ctx)
			if err != nil {
				return nil, err
			}
			primary = !has
		}
	}
	b := tx.CommerceAddress.Create().SetTenantID(tid).SetCommerceID(commerceID).SetSource(source).
		SetIsActive(active).SetIsPrimary(primary)
	in.apply(b.Mutation(), false)
	return b.Save(ctx)
}

// unsetPrimaryAddress clears the primary flag of every address of the
// commerce except keep.
func unsetPrimaryAddress(ctx context.Context, tx *ent.Client, commerceID, keep uuid.UUID) error {
	return tx.CommerceAddress.Update().Where(commerceaddress.CommerceID(commerceID), commerceaddress.IsPrimary(true),
		commerceaddress.IDNEQ(keep)).SetIsPrimary(false).Exec(ctx)
}

// ensurePrimaryAddress promotes the oldest active address when the commerce
// has active addresses but no primary one (after the primary was deactivated).
func ensurePrimaryAddress(ctx context.Context, tx *ent.Client, commerceID uuid.UUID) error {
	active, err := tx.CommerceAddress.Query().
		Where(commerceaddress.CommerceID(commerceID), commerceaddress.IsActive(true)).
		Order(commerceaddress.ByCreatedAt(), commerceaddress.ByID()).All(ctx)
	if err != nil || len(active) == 0 {
		return err
	}
	for _, a := range active {
		if a.IsPrimary {
			return nil
		}
	}
	return tx.CommerceAddress.UpdateOne(active[0]).SetIsPrimary(true).Exec(ctx)
}

// address loads an address of the commerce (404 "Address not found").
func address(ctx context.Context, tx *ent.Client, tid, commerceID, id uuid.UUID) (*ent.CommerceAddress, error) {
	a, err := tx.CommerceAddress.Query().Where(commerceaddress.ID(id), commerceaddress.CommerceID(commerceID),
		commerceaddress.TenantID(tid)).Only(ctx)
	return a, apperr.FromEnt(err, MsgAddressNotFound, "")
}

// UpdateAddress changes an address. Deactivating the primary address
// promotes the oldest other active address; whenever a commerce has active
// addresses and none is primary, the oldest active one becomes primary.
func (s *Service) UpdateAddress(ctx context.Context, commerceID, id uuid.UUID, in AddressUpdate) (*ent.CommerceAddress, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	in.trim()
	if msgs := in.AddressFields.validate(""); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	return s.onAddress(ctx, tid, commerceID, id, func(ctx context.Context, tx *ent.Client, a *ent.CommerceAddress) (*ent.CommerceAddress, error) {
		return updateAddress(ctx, tx, a, &in.AddressFields, in.IsActive)
	})
}

// onAddress runs fn on an address of the commerce in a transaction that
// holds the commerce's lock (retried on a primary-flag race, see lock.go).
func (s *Service) onAddress(ctx context.Context, tid, commerceID, id uuid.UUID,
	fn func(ctx context.Context, tx *ent.Client, a *ent.CommerceAddress) (*ent.CommerceAddress, error)) (*ent.CommerceAddress, error) {
	var out *ent.CommerceAddress
	err := s.writeRetrying(ctx, func(ctx context.Context, tx *ent.Client) error {
		if _, err := lockCommerce(ctx, tx, tid, commerceID); err != nil {
			return err
		}
		a, err := address(ctx, tx, tid, commerceID, id)
		if err != nil {
			return err
		}
		out, err = fn(ctx, tx, a)
		return err
	})
	return out, err
}

// updateAddress applies fields and the active flag to a, keeping the primary rule.
func updateAddress(ctx context.Context, tx *ent.Client, a *ent.CommerceAddress, f *AddressFields,
	isActive *bool) (*ent.CommerceAddress, error) {
	upd := tx.CommerceAddress.UpdateOne(a)
	f.apply(upd.Mutation(), true)
	changedActive := isActive != nil && *isActive != a.IsActive
	if changedActive {
		upd.SetIsActive(*isActive)
		if !*isActive {
			upd.SetIsPrimary(false)
		}
	}
	out, err := upd.Save(ctx)
	if err != nil {
		return nil, err
	}
	if changedActive {
		if err := ensurePrimaryAddress(ctx, tx, a.CommerceID); err != nil {
			return nil, err
		}
		return tx.CommerceAddress.Get(ctx, a.ID)
	}
	return out, nil
}

// SetPrimaryAddress makes an active address the primary address of its
// commerce, unsetting the previous one in the same transaction.
func (s *Service) SetPrimaryAddress(ctx context.Context, commerceID, id uuid.UUID) (*ent.CommerceAddress, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	return s.onAddress(ctx, tid, commerceID, id, func(ctx context.Context, tx *ent.Client, a *ent.CommerceAddress) (*ent.CommerceAddress, error) {
		if !a.IsActive {
			return nil, apperr.Invalid(MsgInactiveNoPrimary)
		}
		if err := unsetPrimaryAddress(ctx, tx, commerceID, id); err != nil {
			return nil, err
		}
		if a.IsPrimary {
			return a, nil
		}
		return tx.CommerceAddress.UpdateOne(a).SetIsPrimary(true).Save(ctx)
	})
}

// ListAddresses returns a page of a commerce's addresses, oldest first.
func (s *Service) ListAddresses(ctx context.Context, commerceID uuid.UUID, p paging.Page) (*paging.List[*ent.CommerceAddress], error) {
	cm, err := tenancy.Get(ctx, s.db(ctx), commerceID, liveCommerce)
	if err != nil {
		return nil, err
	}
	q := s.db(ctx).CommerceAddress.Query().Where(commerceaddress.CommerceID(cm.ID), commerceaddress.TenantID(cm.TenantID))
	return paging.Fetch(ctx, q, paging.Asc(commerceaddress.FieldCreatedAt, commerceaddress.FieldID), p)
}
