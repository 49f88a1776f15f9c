package commerce

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commerceaddress"
	"github.com/reten-io/reten/ent/commercecontact"
	"github.com/reten-io/reten/ent/commerceuser"
	"github.com/reten-io/reten/ent/commerceuserrole"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/fields"
)

// Children of a batch item are upserted, never removed: addresses by alias,
// users by external id, contacts by (contact_type, value) within their user.

// pickPrimary returns the index of the child that must be primary among
// fresh children (no stored sibling): the one marked primary, else the first
// active one; -1 when none is active.
func pickPrimary(n int, active, marked func(int) bool) int {
	firstActive := -1
	for i := range n {
		if active(i) && marked(i) {
			return i
		}
		if active(i) && firstActive < 0 {
			firstActive = i
		}
	}
	return firstActive
}

// upsertAddresses writes the item's addresses, matched by alias with the
// stored ones, and keeps one primary among the active addresses.
func upsertAddresses(ctx context.Context, tx *ent.Client, tid, commerceID uuid.UUID, sent []BatchAddress,
	stored []*ent.CommerceAddress, fresh bool) error {
	if len(sent) == 0 {
		return nil
	}
	byAlias := addressesByAlias(stored)
	active := func(i int) bool { return sent[i].IsActive == nil || *sent[i].IsActive }
	marked := func(i int) bool { return isTrue(sent[i].IsPrimary) }
	primary := -1
	if fresh {
		primary = pickPrimary(len(sent), active, marked)
	}
	var explicit uuid.UUID
	var creates []*ent.CommerceAddressCreate
	for i := range sent {
		a := &sent[i]
		if old := byAlias[*a.AddressAlias]; old != nil {
			if marked(i) && a.IsActive == nil && !old.IsActive {
				return apperr.Validation(fmt.Sprintf("addresses.%d.%s", i, MsgPrimaryInactive))
			}
			if !addressSame(old, &a.AddressFields, a.IsActive) {
				if _, err := updateAddress(ctx, tx, old, &a.AddressFields, a.IsActive); err != nil {
					return err
				}
			}
			if marked(i) {
				explicit = old.ID
			}
			continue
		}
		id := uuid.New()
		b := tx.CommerceAddress.Create().SetID(id).SetTenantID(tid).SetCommerceID(commerceID).
			SetSource(commerceaddress.SourceINTEGRATION).SetIsActive(active(i)).SetIsPrimary(i == primary)
		a.apply(b.Mutation(), false)
		creates = append(creates, b)
		if !fresh && marked(i) && active(i) {
			explicit = id
		}
	}
	if len(creates) > 0 {
		if err := tx.CommerceAddress.CreateBulk(creates...).Exec(ctx); err != nil {
			return err
		}
	}
	if fresh {
		return nil
	}
	if explicit != uuid.Nil {
		if err := unsetPrimaryAddress(ctx, tx, commerceID, explicit); err != nil {
			return err
		}
		// Guarded: an address already primary is not written again.
		return tx.CommerceAddress.Update().Where(commerceaddress.ID(explicit), commerceaddress.IsPrimary(false)).
			SetIsPrimary(true).Exec(ctx)
	}
	return ensurePrimaryAddress(ctx, tx, commerceID)
}

// upsertUsers writes the item's users, matched by external id with the
// stored ones, with their roles and contacts.
func upsertUsers(ctx context.Context, tx *ent.Client, tid, commerceID uuid.UUID, sent []BatchUser, stored []*ent.CommerceUser) error {
	byExt := usersByExternalID(stored)
	for i := range sent {
		u := &sent[i]
		old := byExt[u.ExternalID]
		var userID uuid.UUID
		if old == nil {
			b := tx.CommerceUser.Create().SetTenantID(tid).SetCommerceID(commerceID).SetExternalID(u.ExternalID).
				SetSource(commerceuser.SourceINTEGRATION).SetNillableIsActive(u.IsActive)
			if u.Name != nil && *u.Name != "" {
				b.SetName(*u.Name)
			}
			created, err := b.Save(ctx)
			if err != nil {
				return err
			}
			userID = created.ID
		} else {
			userID = old.ID
			if !userSame(old, u) {
				upd := tx.CommerceUser.UpdateOne(old)
				fields.Patch(u.Name, upd.SetName, upd.ClearName)
				if u.IsActive != nil {
					upd.SetIsActive(*u.IsActive)
				}
				if err := upd.Exec(ctx); err != nil {
					return err
				}
			}
		}
		var held []*ent.CommerceUserRole
		var contacts []*ent.CommerceContact
		if old != nil {
			held, contacts = old.Edges.Roles, old.Edges.Contacts
		}
		if u.Roles != nil {
			if err := replaceRoles(ctx, tx, tid, userID, u.Roles, held); err != nil {
				return err
			}
		}
		if err := upsertContacts(ctx, tx, tid, userID, fmt.Sprintf("users.%d.", i), u.Contacts, contacts, old == nil); err != nil {
			return err
		}
	}
	return nil
}

// replaceRoles makes roles the exact role set of the user.
func replaceRoles(ctx context.Context, tx *ent.Client, tid, userID uuid.UUID, roles []string, held []*ent.CommerceUserRole) error {
	var drop []commerceuserrole.Role
	var keep []*ent.CommerceUserRole
	for _, r := range held {
		if slices.Contains(roles, string(r.Role)) {
			keep = append(keep, r)
		} else {
			drop = append(drop, r.Role)
		}
	}
	if len(drop) > 0 {
		if _, err := tx.CommerceUserRole.Delete().Where(commerceuserrole.CommerceUserID(userID),
			commerceuserrole.RoleIn(drop...)).Exec(ctx); err != nil {
			return err
		}
	}
	return addRoles(ctx, tx, tid, userID, roles, keep)
}

// upsertContacts writes a user's contacts, matched by (contact_type, value),
// and keeps one primary per type among the active contacts.
func upsertContacts(ctx context.Context, tx *ent.Client, tid, userID uuid.UUID, prefix string, sent []BatchContact,
	stored []*ent.CommerceContact, fresh bool) error {
	if len(sent) == 0 {
		return nil
	}
	byKey := contactsByKey(stored)
	active := func(i int) bool { return sent[i].IsActive == nil || *sent[i].IsActive }
	marked := func(i int) bool { return isTrue(sent[i].IsPrimary) }
	primary := map[int]bool{} // fresh user: the primary of each type, in memory
	if fresh {
		for _, t := range ContactTypes {
			idx := pickPrimary(len(sent), func(i int) bool { return sent[i].ContactType == t && active(i) }, marked)
			if idx >= 0 {
				primary[idx] = true
			}
		}
	}
	explicit := map[commercecontact.ContactType]uuid.UUID{}
	touched := map[commercecontact.ContactType]bool{}
	var creates []*ent.CommerceContactCreate
	for i := range sent {
		c := &sent[i]
		ct := commercecontact.ContactType(c.ContactType)
		touched[ct] = true
		if old := byKey[contactKey{c.ContactType, c.Value}]; old != nil {
			if marked(i) && c.IsActive == nil && !old.IsActive {
				return apperr.Validation(fmt.Sprintf("%scontacts.%d.%s", prefix, i, MsgPrimaryInactive))
			}
			if !sameBool(c.IsActive, old.IsActive) {
				if _, err := updateContact(ctx, tx, old, nil, nil, c.IsActive); err != nil {
					return err
				}
			}
			if marked(i) {
				explicit[ct] = old.ID
			}
			continue
		}
		id := uuid.New()
		creates = append(creates, tx.CommerceContact.Create().SetID(id).SetTenantID(tid).SetCommerceUserID(userID).
			SetContactType(ct).SetValue(c.Value).SetSource(commercecontact.SourceINTEGRATION).
			SetIsActive(active(i)).SetIsPrimary(primary[i]))
		if !fresh && marked(i) && active(i) {
			explicit[ct] = id
		}
	}
	if len(creates) > 0 {
		if err := tx.CommerceContact.CreateBulk(creates...).Exec(ctx); err != nil {
			return err
		}
	}
	if fresh {
		return nil
	}
	for _, t := range ContactTypes {
		ct := commercecontact.ContactType(t)
		if !touched[ct] {
			continue
		}
		if id, ok := explicit[ct]; ok {
			if err := unsetPrimaryContact(ctx, tx, userID, ct, id); err != nil {
				return err
			}
			// Guarded: a contact already primary is not written again.
			if err := tx.CommerceContact.Update().Where(commercecontact.ID(id), commercecontact.IsPrimary(false)).
				SetIsPrimary(true).Exec(ctx); err != nil {
				return err
			}
			continue
		}
		if err := ensurePrimaryContact(ctx, tx, userID, ct); err != nil {
			return err
		}
	}
	return nil
}
