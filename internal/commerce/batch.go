package commerce

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commerceaddress"
	"github.com/reten-io/reten/ent/commerceuser"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// Limits and messages of the batch upsert.
const (
	MaxBatchItems         = 5000
	MsgBatchEmpty         = "items should not be empty"
	MsgBatchTooMany       = "items must contain no more than 5000 elements"
	MsgExternalIDRequired = "external_id should not be empty"
	MsgBatchRepeatedFmt   = `external_id "%s" is repeated in this request (first at index %d)`
	MsgAliasRequired      = "address_alias should not be empty"
	MsgAliasRepeated      = "address_alias is repeated in this item"
	MsgUserRepeated       = "external_id is repeated in this item"
	MsgManyPrimaryAddr    = "addresses must contain at most one primary address"
	MsgManyPrimaryContact = "contacts must contain at most one primary contact per contact_type"
)

// lookupChunk bounds the IN lists of the batch look-ups.
const lookupChunk = 500

// BatchItem is one commerce of POST /api/integration/commerces/batch-upsert,
// keyed by external_id. Fields left nil keep their stored value on an update.
type BatchItem struct {
	// Problems are the adapter's decoding problems (wrong JSON types, unknown
	// properties); an item with problems fails with them and writes nothing.
	Problems   []string
	ExternalID string
	Name       string
	TaxID      *string
	Segment    *string
	IsActive   *bool
	Metadata   map[string]any
	// Addresses are upserted by address_alias (required); addresses not sent stay as they are.
	Addresses []BatchAddress
	// Users are upserted by external_id (required); users not sent stay as they are.
	Users []BatchUser
	// RouteCodes, when sent (non-nil), replace the commerce's route
	// assignments as PUT /api/commerces/:id/routes does; nil leaves them.
	RouteCodes []string
}

// BatchAddress is an address of a batch item (source INTEGRATION).
type BatchAddress struct {
	AddressFields
	IsPrimary *bool
	IsActive  *bool
}

// BatchUser is a commerce user of a batch item (source INTEGRATION).
type BatchUser struct {
	ExternalID string
	Name       *string
	IsActive   *bool
	// Roles, when not nil, replace the user's roles.
	Roles []string
	// Contacts are upserted by (contact_type, value); contacts not sent stay as they are.
	Contacts []BatchContact
}

// BatchContact is a contact of a batch user (source INTEGRATION).
type BatchContact struct {
	ContactType string
	Value       string
	IsPrimary   *bool
	IsActive    *bool
}

// BatchResult is the answer of the batch upsert: created + updated +
// unchanged + len(Errors) = Total.
type BatchResult struct {
	Created int
	// Updated counts the items that changed a stored commerce or its children.
	Updated int
	// Unchanged counts the items identical to what is stored: nothing was written.
	Unchanged int
	Total     int
	Errors    []BatchError
}

// BatchError lists why the item at Index (from 0) was not written.
type BatchError struct {
	Index    int
	Messages []string
}

func (it *BatchItem) hasChildren() bool {
	return len(it.Addresses) > 0 || len(it.Users) > 0 || it.RouteCodes != nil
}

// normalize trims the item's texts.
func (it *BatchItem) normalize() {
	it.ExternalID, it.Name = strings.TrimSpace(it.ExternalID), strings.TrimSpace(it.Name)
	it.TaxID, it.Segment = fields.Trim(it.TaxID), fields.Trim(it.Segment)
	for i := range it.Addresses {
		it.Addresses[i].trim()
	}
	for i := range it.Users {
		u := &it.Users[i]
		u.ExternalID, u.Name = strings.TrimSpace(u.ExternalID), fields.Trim(u.Name)
		for j := range u.Contacts {
			u.Contacts[j].Value = strings.TrimSpace(u.Contacts[j].Value)
		}
	}
}

// rules returns the broken rules of a normalized item.
func (it *BatchItem) rules() []string {
	if len(it.Problems) > 0 {
		return it.Problems
	}
	var msgs []string
	if it.ExternalID == "" {
		msgs = append(msgs, MsgExternalIDRequired)
	}
	msgs = append(msgs, validateName(it.Name)...)
	aliases, primaries := map[string]bool{}, 0
	for i, a := range it.Addresses {
		p := fmt.Sprintf("addresses.%d.", i)
		in := AddressInput{AddressFields: a.AddressFields, IsPrimary: a.IsPrimary, IsActive: a.IsActive}
		switch alias := deref(a.AddressAlias); {
		case alias == "":
			msgs = append(msgs, p+MsgAliasRequired)
		case aliases[alias]:
			msgs = append(msgs, p+MsgAliasRepeated)
		default:
			aliases[alias] = true
		}
		msgs = append(msgs, in.rules(p)...)
		if isTrue(a.IsPrimary) {
			primaries++
		}
	}
	if primaries > 1 {
		msgs = append(msgs, MsgManyPrimaryAddr)
	}
	users := map[string]bool{}
	for i, u := range it.Users {
		p := fmt.Sprintf("users.%d.", i)
		switch {
		case u.ExternalID == "":
			msgs = append(msgs, p+MsgExternalIDRequired)
		case users[u.ExternalID]:
			msgs = append(msgs, p+MsgUserRepeated)
		default:
			users[u.ExternalID] = true
		}
		msgs = append(msgs, rolesRules(p, u.Roles)...)
		perType := map[string]int{}
		for j, c := range u.Contacts {
			cp := fmt.Sprintf("%scontacts.%d.", p, j)
			in := ContactInput{ContactType: c.ContactType, Value: c.Value}
			msgs = append(msgs, in.rules(cp, false)...)
			if isTrue(c.IsPrimary) {
				if c.IsActive != nil && !*c.IsActive {
					msgs = append(msgs, cp+MsgPrimaryInactive)
				}
				perType[c.ContactType]++
			}
		}
		for _, n := range perType {
			if n > 1 {
				msgs = append(msgs, p+MsgManyPrimaryContact)
				break
			}
		}
	}
	return append(msgs, routeCodeRules(it.RouteCodes)...)
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// BatchUpsert creates or updates the tenant's commerces by external id, with
// their addresses, users, roles and contacts. Each item is written in a
// transaction of its own: an invalid item writes nothing and is reported in
// Errors with its index, valid items are written. Existing commerces (and
// the children of those that carry children) are loaded with a few IN
// queries, not one query per item; new items without children are inserted
// in bulk; an item identical to what is stored is not written (Unchanged).
func (s *Service) BatchUpsert(ctx context.Context, items []BatchItem) (*BatchResult, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case len(items) == 0:
		return nil, apperr.Validation(MsgBatchEmpty)
	case len(items) > MaxBatchItems:
		return nil, apperr.Validation(MsgBatchTooMany)
	}
	res := &BatchResult{Total: len(items), Errors: []BatchError{}}
	failed := map[int][]string{}
	first := map[string]int{}
	for i := range items {
		it := &items[i]
		it.normalize()
		msgs := it.rules()
		if it.ExternalID != "" && len(it.Problems) == 0 {
			if at, seen := first[it.ExternalID]; seen {
				msgs = append(msgs, fmt.Sprintf(MsgBatchRepeatedFmt, it.ExternalID, at))
			} else {
				first[it.ExternalID] = i
			}
		}
		if len(msgs) > 0 {
			failed[i] = msgs
		}
	}
	ex, err := s.loadExisting(ctx, tid, items, failed)
	if err != nil {
		return nil, err
	}
	var plain []int // new items without children: inserted in bulk
	for i := range items {
		if _, bad := failed[i]; bad {
			continue
		}
		it := &items[i]
		cur := ex.commerces[it.ExternalID]
		if cur == nil && !it.hasChildren() {
			plain = append(plain, i)
			continue
		}
		if cur != nil && itemUnchanged(cur, it, ex.children[cur.ID]) {
			res.Unchanged++
			continue
		}
		msgs, err := s.writeItem(ctx, tid, it, cur)
		if err != nil {
			return nil, err
		}
		switch {
		case len(msgs) > 0:
			failed[i] = msgs
		case cur == nil:
			res.Created++
		default:
			res.Updated++
		}
	}
	for chunk := range slices.Chunk(plain, lookupChunk) {
		if err := s.insertPlain(ctx, tid, items, chunk); err == nil {
			res.Created += len(chunk)
			continue
		}
		// One item of the chunk failed (a commerce created meanwhile by
		// another request): write them one by one to find it.
		for _, i := range chunk {
			msgs, err := s.writeItem(ctx, tid, &items[i], nil)
			if err != nil {
				return nil, err
			}
			if len(msgs) > 0 {
				failed[i] = msgs
			} else {
				res.Created++
			}
		}
	}
	for _, i := range slices.Sorted(maps.Keys(failed)) {
		res.Errors = append(res.Errors, BatchError{Index: i, Messages: failed[i]})
	}
	return res, nil
}

// insertPlain inserts new items without children in one transaction.
func (s *Service) insertPlain(ctx context.Context, tid uuid.UUID, items []BatchItem, idx []int) error {
	return txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		builders := make([]*ent.CommerceCreate, len(idx))
		for k, i := range idx {
			builders[k] = newCommerce(tx, tid, &items[i])
		}
		return tx.Commerce.CreateBulk(builders...).Exec(ctx)
	})
}

func newCommerce(tx *ent.Client, tid uuid.UUID, it *BatchItem) *ent.CommerceCreate {
	b := tx.Commerce.Create().SetTenantID(tid).SetExternalID(it.ExternalID).SetName(it.Name).
		SetNillableIsActive(it.IsActive).SetNillableTaxID(fields.BlankNil(it.TaxID)).SetNillableSegment(fields.BlankNil(it.Segment))
	if it.Metadata != nil {
		b.SetMetadata(it.Metadata)
	}
	return b
}

// writeItem writes one item with its children in a transaction of its own.
// It returns the item's messages when the data refused it (a unique value
// taken meanwhile), and an error only for unexpected failures.
func (s *Service) writeItem(ctx context.Context, tid uuid.UUID, it *BatchItem, cur *ent.Commerce) ([]string, error) {
	err := txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		var (
			c     *ent.Commerce
			err   error
			addrs []*ent.CommerceAddress // the commerce's children, oldest first
			users []*ent.CommerceUser    // with roles and contacts
		)
		if cur == nil {
			if c, err = newCommerce(tx, tid, it).Save(ctx); err != nil {
				return apperr.FromEnt(err, MsgNotFound, fmt.Sprintf(MsgExternalIDTakenFmt, it.ExternalID))
			}
		} else {
			c = cur
			if it.hasChildren() {
				if c, err = lockCommerce(ctx, tx, tid, cur.ID); err != nil {
					return err
				}
				// Re-read the children under the lock: a request that added a
				// user or address since loadExisting has committed by now
				// (child writes lock the commerce too), so nothing is duplicated.
				if addrs, err = tx.CommerceAddress.Query().Where(commerceaddress.TenantID(tid), commerceaddress.CommerceID(cur.ID)).
					Order(commerceaddress.ByCreatedAt(), commerceaddress.ByID()).All(ctx); err != nil {
					return err
				}
				if users, err = withChildren(tx.CommerceUser.Query().Where(commerceuser.TenantID(tid), commerceuser.CommerceID(cur.ID))).
					Order(commerceuser.ByCreatedAt(), commerceuser.ByID()).All(ctx); err != nil {
					return err
				}
			}
			if !commerceSame(c, it) { // a change of children only leaves the commerce row alone
				upd := tx.Commerce.UpdateOne(c).SetName(it.Name)
				fields.Patch(it.TaxID, upd.SetTaxID, upd.ClearTaxID)
				fields.Patch(it.Segment, upd.SetSegment, upd.ClearSegment)
				if it.IsActive != nil {
					upd.SetIsActive(*it.IsActive)
				}
				if it.Metadata != nil {
					upd.SetMetadata(it.Metadata)
				}
				if c, err = upd.Save(ctx); err != nil {
					return apperr.FromEnt(err, MsgNotFound, MsgConcurrentChange)
				}
			}
		}
		if err := upsertAddresses(ctx, tx, tid, c.ID, it.Addresses, addrs, cur == nil); err != nil {
			return err
		}
		if err := upsertUsers(ctx, tx, tid, c.ID, it.Users, users); err != nil {
			return err
		}
		if it.RouteCodes == nil {
			return nil
		}
		routes, err := routesByCode(ctx, tx, tid, it.RouteCodes)
		if err != nil {
			return err
		}
		return assignRoutes(ctx, tx, tid, c.ID, routes)
	})
	if err == nil {
		return nil, nil
	}
	if e, ok := apperr.As(err); ok && e.Kind != apperr.KindInternal {
		return e.Messages, nil
	}
	if ent.IsConstraintError(err) {
		return []string{MsgConcurrentChange}, nil
	}
	return nil, err
}
