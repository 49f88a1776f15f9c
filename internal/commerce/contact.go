package commerce

import (
	"context"

	"github.com/google/uuid"
	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commercecontact"
	"github.com/reten-io/reten/internal/apperr"
	emailaddr "github.com/reten-io/reten/internal/email"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/tenancy"
	"regexp"
	"slices"
	"strings"
)

// e164 is an international phone number: "+", a country code that does not
// start with 0, at most 15 digits in all.
var e164 = regexp.MustCompile(`^\+[1-9]\d{1,14}$`)

// ContactTypes are the contact types.
var ContactTypes = []string{"EMAIL", "PHONE", "WHATSAPP", "OTHER"}

func validContactType(t string) bool { return slices.Contains(ContactTypes, t) }

// validEmail accepts a bare address of at most 320 characters with a dot in its domain.
func validEmail(email string) bool {
	if !emailaddr.Valid(email) {
		return false
	}
	at := strings.LastIndexByte(email, '@')
	domain := email[at+1:]
	return strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
}

// valueRules checks a contact value against its type.
func valueRules(prefix, contactType, value string) []string {
	switch {
	case value == "":
		return []string{prefix + MsgValueRequired}
	case contactType == "EMAIL" && !validEmail(value):
		return []string{prefix + MsgValueEmail}
	case (contactType == "PHONE" || contactType == "WHATSAPP") && !e164.MatchString(value):
		return []string{prefix + MsgValuePhone}
	}
	return nil
}

func (in *ContactInput) rules(prefix string, withSource bool) []string {
	var msgs []string
	typeOK := validContactType(in.ContactType)
	if !typeOK {
		msgs = append(msgs, prefix+MsgContactType)
	}
	if typeOK || in.Value == "" {
		msgs = append(msgs, valueRules(prefix, in.ContactType, in.Value)...)
	}
	if withSource && !validSource(in.Source) {
		msgs = append(msgs, prefix+MsgSource)
	}
	return msgs
}

// CreateContact adds a contact to a commerce user. The first active contact
// of a type becomes the user's primary contact of that type; with
// is_primary true the new contact replaces the current primary of its type.
func (s *Service) CreateContact(ctx context.Context, commerceID, userID uuid.UUID, in ContactInput) (*ent.CommerceContact, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	in.Value = strings.TrimSpace(in.Value)
	if msgs := in.rules("", true); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	var out *ent.CommerceContact
	err = s.writeRetrying(ctx, func(ctx context.Context, tx *ent.Client) error {
		if _, err := lockUser(ctx, tx, tid, commerceID, userID); err != nil {
			return err
		}
		out, err = createContact(ctx, tx, tid, userID, commercecontact.Source(in.Source), &in, true)
		return err
	})
	return out, err
}

// createContact writes a validated contact inside a transaction holding the
// commerce user's lock, and keeps the primary rule.
func createContact(ctx context.Context, tx *ent.Client, tid, userID uuid.UUID, source commercecontact.Source,
	in *ContactInput, active bool) (*ent.CommerceContact, error) {
	ct := commercecontact.ContactType(in.ContactType)
	primary := false
	if active {
		if isTrue(in.IsPrimary) {
			if err := unsetPrimaryContact(ctx, tx, userID, ct, uuid.Nil); err != nil {
				return nil, err
			}
			primary = true
		} else {
			has, err := tx.CommerceContact.Query().Where(commercecontact.CommerceUserID(userID),
				commercecontact.ContactTypeEQ(ct), commercecontact.IsPrimary(true), commercecontact.IsActive(true)).Exist(ctx)
			if err != nil {
				return nil, err
			}
			primary = !has
		}
	}
	return tx.CommerceContact.Create().SetTenantID(tid).SetCommerceUserID(userID).SetContactType(ct).
		SetValue(in.Value).SetSource(source).SetIsActive(active).SetIsPrimary(primary).Save(ctx)
}

// unsetPrimaryContact clears the primary flag of the user's contacts of type ct except keep.
func unsetPrimaryContact(ctx context.Context, tx *ent.Client, userID uuid.UUID, ct commercecontact.ContactType, keep uuid.UUID) error {
	return tx.CommerceContact.Update().Where(commercecontact.CommerceUserID(userID), commercecontact.ContactTypeEQ(ct),
		commercecontact.IsPrimary(true), commercecontact.IDNEQ(keep)).SetIsPrimary(false).Exec(ctx)
}

// ensurePrimaryContact promotes the oldest active contact of type ct when the
// user has active contacts of that type but no primary one.
func ensurePrimaryContact(ctx context.Context, tx *ent.Client, userID uuid.UUID, ct commercecontact.ContactType) error {
	active, err := tx.CommerceContact.Query().Where(commercecontact.CommerceUserID(userID),
		commercecontact.ContactTypeEQ(ct), commercecontact.IsActive(true)).
		Order(commercecontact.ByCreatedAt(), commercecontact.ByID()).All(ctx)
	if err != nil || len(active) == 0 {
		return err
	}
	for _, c := range active {
		if c.IsPrimary {
			return nil
		}
	}
	return tx.CommerceContact.UpdateOne(active[0]).SetIsPrimary(true).Exec(ctx)
}

func contact(ctx context.Context, tx *ent.Client, tid, userID, id uuid.UUID) (*ent.CommerceContact, error) {
	c, err := tx.CommerceContact.Query().Where(commercecontact.ID(id), commercecontact.CommerceUserID(userID),
		commercecontact.TenantID(tid)).Only(ctx)
	return c, apperr.FromEnt(err, MsgContactNotFound, "")
}

// UpdateContact changes a contact's value, source or active flag (its type
// is fixed: create a contact of the other type instead). The value is
// checked against the contact's type. Deactivating the primary contact of a
// type promotes the oldest other active contact of that type.
func (s *Service) UpdateContact(ctx context.Context, commerceID, userID, id uuid.UUID, in ContactUpdate) (*ent.CommerceContact, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	in.Value = fields.Trim(in.Value)
	var msgs []string
	if in.Value != nil && *in.Value == "" {
		msgs = append(msgs, MsgValueRequired)
	}
	if in.Source != nil && !validSource(*in.Source) {
		msgs = append(msgs, MsgSource)
	}
	if len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	return s.onContact(ctx, tid, commerceID, userID, id, func(ctx context.Context, tx *ent.Client, c *ent.CommerceContact) (*ent.CommerceContact, error) {
		if in.Value != nil {
			if msgs := valueRules("", string(c.ContactType), *in.Value); len(msgs) > 0 {
				return nil, apperr.Validation(msgs...)
			}
		}
		var source *commercecontact.Source
		if in.Source != nil {
			src := commercecontact.Source(*in.Source)
			source = &src
		}
		return updateContact(ctx, tx, c, in.Value, source, in.IsActive)
	})
}

// onContact runs fn on a contact of the commerce user in a transaction that
// holds the user's lock (retried on a primary-flag race, see lock.go).
func (s *Service) onContact(ctx context.Context, tid, commerceID, userID, id uuid.UUID,
	fn func(ctx context.Context, tx *ent.Client, c *ent.CommerceContact) (*ent.CommerceContact, error)) (*ent.CommerceContact, error) {
	var out *ent.CommerceContact
	err := s.writeRetrying(ctx, func(ctx context.Context, tx *ent.Client) error {
		if _, err := lockUser(ctx, tx, tid, commerceID, userID); err != nil {
			return err
		}
		c, err := contact(ctx, tx, tid, userID, id)
		if err != nil {
			return err
		}
		out, err = fn(ctx, tx, c)
		return err
	})
	return out, err
}

// updateContact applies a validated change to c, keeping the primary rule.
func updateContact(ctx context.Context, tx *ent.Client, c *ent.CommerceContact, value *string,
	source *commercecontact.Source, isActive *bool) (*ent.CommerceContact, error) {
	upd := tx.CommerceContact.UpdateOne(c)
	if value != nil {
		upd.SetValue(*value)
	}
	if source != nil {
		upd.SetSource(*source)
	}
	changedActive := isActive != nil && *isActive != c.IsActive
	if changedActive {
		upd.SetIsActive(*isActive)
		if !*isActive {
			upd.SetIsPrimary(false)
		}
	}
	out, err := upd.Save(ctx)
	if err != nil || !changedActive {
		return out, err
	}
	if err := ensurePrimaryContact(ctx, tx, c.CommerceUserID, c.ContactType); err != nil {
		return nil, err
	}
	return tx.CommerceContact.Get(ctx, c.ID)
}

// SetPrimaryContact makes an active contact the primary contact of its type
// for its user, unsetting the previous one in the same transaction.
func (s *Service) SetPrimaryContact(ctx context.Context, commerceID, userID, id uuid.UUID) (*ent.CommerceContact, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	return s.onContact(ctx, tid, commerceID, userID, id, func(ctx context.Context, tx *ent.Client, c *ent.CommerceContact) (*ent.CommerceContact, error) {
		if !c.IsActive {
			return nil, apperr.Invalid(MsgContactNoPrimary)
		}
		if err := unsetPrimaryContact(ctx, tx, userID, c.ContactType, id); err != nil {
			return nil, err
		}
		if c.IsPrimary {
			return c, nil
		}
		return tx.CommerceContact.UpdateOne(c).SetIsPrimary(true).Save(ctx)
	})
}
