package commerce

import (
	"encoding/json"
	"slices"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commercecontact"
)

// An item identical to what is stored writes nothing: no commerce, address,
// user, role or contact row is touched (their updated_at stays) and the batch
// counts it unchanged. The predicates below say whether the batch's write
// would change a row; the writer skips the rows they call the same, and an
// item whose rows are all the same is not written at all (no transaction,
// no lock).

// storedChildren are the children of a stored commerce, as the writer reads them.
type storedChildren struct {
	addresses []*ent.CommerceAddress // oldest first
	users     []*ent.CommerceUser    // oldest first, with roles and contacts
	routes    []string               // the codes of its live routes
}

func sameText(sent *string, stored string) bool { return sent == nil || *sent == stored }

func sameBool(sent *bool, stored bool) bool { return sent == nil || *sent == stored }

func sameFloat(sent, stored *float64) bool { return sent == nil || stored != nil && *sent == *stored }

// commerceSame reports whether writing the item's own fields over c would
// change nothing ("" for tax_id or segment clears it: stored as "").
func commerceSame(c *ent.Commerce, it *BatchItem) bool {
	return c.Name == it.Name && sameText(it.TaxID, c.TaxID) && sameText(it.Segment, c.Segment) &&
		sameBool(it.IsActive, c.IsActive) && (it.Metadata == nil || sameJSON(it.Metadata, c.Metadata))
}

// sameJSON compares metadata as the database gives it back (numbers as
// float64, keys sorted).
func sameJSON(sent, stored map[string]any) bool {
	raw, err := json.Marshal(sent)
	if err != nil {
		return false
	}
	var back map[string]any
	if err := json.Unmarshal(raw, &back); err != nil {
		return false
	}
	a, _ := json.Marshal(back)
	b, _ := json.Marshal(stored)
	return string(a) == string(b)
}

// addressSame reports whether updateAddress with f and isActive would change
// nothing in a (a blank text clears its column, read back as "").
func addressSame(a *ent.CommerceAddress, f *AddressFields, isActive *bool) bool {
	return sameText(f.AddressAlias, a.AddressAlias) && sameText(f.CountryCode, a.CountryCode) &&
		sameText(f.Region, a.Region) && sameText(f.Commune, a.Commune) && sameText(f.City, a.City) &&
		sameText(f.Street, a.Street) && sameText(f.StreetNumber, a.StreetNumber) && sameText(f.Unit, a.Unit) &&
		sameText(f.FormattedAddress, a.FormattedAddress) && sameFloat(f.Latitude, a.Latitude) &&
		sameFloat(f.Longitude, a.Longitude) && sameBool(isActive, a.IsActive)
}

// userSame reports whether the user's own fields would stay as stored.
func userSame(u *ent.CommerceUser, sent *BatchUser) bool {
	return sameText(sent.Name, u.Name) && sameBool(sent.IsActive, u.IsActive)
}

// rolesSame reports whether sent roles (nil: not sent) are the held set.
func rolesSame(held []*ent.CommerceUserRole, roles []string) bool {
	if roles == nil {
		return true
	}
	have := make([]string, len(held))
	for i, r := range held {
		have[i] = string(r.Role)
	}
	want := slices.Clone(roles)
	slices.Sort(have)
	slices.Sort(want)
	return slices.Equal(have, slices.Compact(want))
}

// addressesByAlias matches sent addresses with stored ones (the oldest of a
// repeated alias wins).
func addressesByAlias(stored []*ent.CommerceAddress) map[string]*ent.CommerceAddress {
	out := map[string]*ent.CommerceAddress{}
	for _, a := range stored {
		if _, dup := out[a.AddressAlias]; !dup && a.AddressAlias != "" {
			out[a.AddressAlias] = a
		}
	}
	return out
}

// usersByExternalID matches sent users with stored ones (the oldest wins).
func usersByExternalID(stored []*ent.CommerceUser) map[string]*ent.CommerceUser {
	out := map[string]*ent.CommerceUser{}
	for _, u := range stored {
		if u.ExternalID != nil {
			if _, dup := out[*u.ExternalID]; !dup {
				out[*u.ExternalID] = u
			}
		}
	}
	return out
}

// contactKey matches sent contacts with stored ones.
type contactKey struct{ t, v string }

func contactsByKey(stored []*ent.CommerceContact) map[contactKey]*ent.CommerceContact {
	out := map[contactKey]*ent.CommerceContact{}
	for _, c := range stored {
		k := contactKey{string(c.ContactType), c.Value}
		if _, dup := out[k]; !dup {
			out[k] = c
		}
	}
	return out
}

// primaryKept reports whether the primary rule needs no write among rows:
// an explicitly marked row (explicit, not Nil) must be the only primary one;
// otherwise, when some row is active, an active row must be primary.
func primaryKept[T any](rows []T, id func(T) uuid.UUID, active, primary func(T) bool, explicit uuid.UUID) bool {
	anyActive, activePrimary := false, false
	for _, r := range rows {
		if explicit != uuid.Nil && primary(r) != (id(r) == explicit) {
			return false
		}
		anyActive = anyActive || active(r)
		activePrimary = activePrimary || active(r) && primary(r)
	}
	return explicit != uuid.Nil || !anyActive || activePrimary
}

// itemUnchanged reports whether writing it over c with its stored children
// would change no row at all (upsertAddresses and upsertUsers would write
// nothing).
func itemUnchanged(c *ent.Commerce, it *BatchItem, ch storedChildren) bool {
	return commerceSame(c, it) && addressesUnchanged(it.Addresses, ch.addresses) && usersUnchanged(it.Users, ch.users) &&
		routesUnchanged(it.RouteCodes, ch.routes)
}

// routesUnchanged: route codes not sent, or naming the stored set.
func routesUnchanged(sent, stored []string) bool {
	if sent == nil {
		return true
	}
	return len(sent) == len(stored) && !slices.ContainsFunc(sent, func(c string) bool { return !slices.Contains(stored, c) })
}

func addressesUnchanged(sent []BatchAddress, stored []*ent.CommerceAddress) bool {
	if len(sent) == 0 {
		return true
	}
	byAlias := addressesByAlias(stored)
	var explicit uuid.UUID
	for i := range sent {
		a := &sent[i]
		old := byAlias[*a.AddressAlias]
		if old == nil || !addressSame(old, &a.AddressFields, a.IsActive) {
			return false
		}
		if isTrue(a.IsPrimary) {
			if !old.IsActive { // the writer refuses it
				return false
			}
			explicit = old.ID
		}
	}
	return primaryKept(stored, func(a *ent.CommerceAddress) uuid.UUID { return a.ID },
		func(a *ent.CommerceAddress) bool { return a.IsActive }, func(a *ent.CommerceAddress) bool { return a.IsPrimary }, explicit)
}

func usersUnchanged(sent []BatchUser, stored []*ent.CommerceUser) bool {
	byExt := usersByExternalID(stored)
	for i := range sent {
		u := &sent[i]
		old := byExt[u.ExternalID]
		if old == nil || !userSame(old, u) || !rolesSame(old.Edges.Roles, u.Roles) ||
			!contactsUnchanged(u.Contacts, old.Edges.Contacts) {
			return false
		}
	}
	return true
}

func contactsUnchanged(sent []BatchContact, stored []*ent.CommerceContact) bool {
	byKey := contactsByKey(stored)
	explicit := map[string]uuid.UUID{}
	touched := map[string]bool{}
	for _, c := range sent {
		old := byKey[contactKey{c.ContactType, c.Value}]
		if old == nil || !sameBool(c.IsActive, old.IsActive) {
			return false
		}
		touched[c.ContactType] = true
		if isTrue(c.IsPrimary) {
			if !old.IsActive { // the writer refuses it
				return false
			}
			explicit[c.ContactType] = old.ID
		}
	}
	for t := range touched {
		ofType := slices.DeleteFunc(slices.Clone(stored), func(c *ent.CommerceContact) bool {
			return c.ContactType != commercecontact.ContactType(t)
		})
		if !primaryKept(ofType, func(c *ent.CommerceContact) uuid.UUID { return c.ID },
			func(c *ent.CommerceContact) bool { return c.IsActive }, func(c *ent.CommerceContact) bool { return c.IsPrimary }, explicit[t]) {
			return false
		}
	}
	return true
}
