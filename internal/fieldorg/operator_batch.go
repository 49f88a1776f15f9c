package fieldorg

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/operator"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/fields"
)

// Messages of the operator sync and batch upsert items.
const (
	MsgDuplicateOperatorFmt = "external_id duplicates item %d (same type and external_id)"
	MsgEmailInBatchFmt      = `email "%s" is used by items %d and %d`
)

// OperatorItem is one item of POST /api/operators/sync or of the operator
// batch upsert, matched on (type, external_id) in the tenant. On update nil
// fields are unchanged; "" clears email or phone; a non-nil Metadata replaces
// the metadata.
type OperatorItem struct {
	ExternalID, Type, Name string
	Email, Phone           *string
	// IsActive (batch upsert only): nil keeps the flag (true on create).
	IsActive *bool
	Metadata map[string]any
	// Invalid holds the adapter's decoding messages for this item (wrong
	// JSON types, unknown properties); the item is rejected with them.
	Invalid []string
}

func (it *OperatorItem) normalize() {
	it.ExternalID, it.Type, it.Name = strings.TrimSpace(it.ExternalID), strings.TrimSpace(it.Type), strings.TrimSpace(it.Name)
	it.Email, it.Phone = fields.Trim(it.Email), fields.Trim(it.Phone)
}

func (it OperatorItem) validate() []string {
	if slices.Contains(it.Invalid, MsgItemNotObject) {
		return it.Invalid
	}
	msgs := slices.Clone(it.Invalid)
	switch {
	case flagged(it.Invalid, "external_id"):
	case it.ExternalID == "":
		msgs = append(msgs, MsgExternalIDRequired)
	case fields.TooLong(it.ExternalID, maxText):
		msgs = append(msgs, MsgExternalIDTooLong)
	}
	if !flagged(it.Invalid, "type") && !validType(it.Type) {
		msgs = append(msgs, MsgTypeValues)
	}
	if !flagged(it.Invalid, "name") {
		msgs = append(msgs, checkName(it.Name)...)
	}
	return append(msgs, checkContact(it.Email, it.Phone)...)
}

func operatorKey(typ, externalID string) string { return typ + "\x00" + externalID }

func (it *OperatorItem) key() string { return operatorKey(it.Type, it.ExternalID) }

// plannedOperator is a valid item with the live operator it updates (nil: create).
type plannedOperator struct {
	index    int
	item     OperatorItem
	existing *ent.Operator
}

// planOperators looks up, in bulk (one query per chunk of keys), the live
// operators the valid items match and the owners of their emails, and splits
// the items into creates, updates and email conflicts. Conflicts are judged
// against the tenant as it was before the request, plus the items before.
func planOperators(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, items []OperatorItem, valid []int) (
	creates, updates []plannedOperator, conflicts map[int][]string, err error) {
	var extIDs, emails []string
	for _, i := range valid {
		extIDs = append(extIDs, items[i].ExternalID)
		if e := items[i].Email; e != nil && *e != "" {
			emails = append(emails, strings.ToLower(*e))
		}
	}
	existing, err := lookup(ctx, extIDs, func(ctx context.Context, chunk []string) ([]*ent.Operator, error) {
		return tx.Operator.Query().Where(operator.TenantID(tenantID), operator.ExternalIDIn(chunk...)).All(ctx)
	}, func(o *ent.Operator) string { return operatorKey(string(o.Type), *o.ExternalID) })
	if err != nil {
		return nil, nil, nil, err
	}
	owners, err := lookup(ctx, emails, func(ctx context.Context, chunk []string) ([]*ent.Operator, error) {
		return tx.Operator.Query().Where(operator.TenantID(tenantID), operator.EmailKeyIn(chunk...)).
			Select(operator.FieldID, operator.FieldEmailKey).All(ctx)
	}, func(o *ent.Operator) string { return *o.EmailKey })
	if err != nil {
		return nil, nil, nil, err
	}
	conflicts = map[int][]string{}
	claimed := map[string]int{}
	for _, i := range valid {
		it := items[i]
		p := plannedOperator{index: i, item: it, existing: existing[operatorKey(it.Type, it.ExternalID)]}
		if it.Email != nil && *it.Email != "" {
			k := strings.ToLower(*it.Email)
			owner, taken := owners[k]
			switch j, inBatch := claimed[k]; {
			case taken && (p.existing == nil || owner.ID != p.existing.ID):
				conflicts[i] = []string{fmt.Sprintf(MsgOperatorEmailTakenFmt, *it.Email)}
				continue
			case inBatch:
				conflicts[i] = []string{fmt.Sprintf(MsgEmailInBatchFmt, *it.Email, j, i)}
				continue
			}
			claimed[k] = i
		}
		if p.existing == nil {
			creates = append(creates, p)
		} else {
			updates = append(updates, p)
		}
	}
	return creates, updates, conflicts, nil
}

// writeOperators inserts the creates in bulk and updates the matched
// operators whose values change.
func writeOperators(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, creates, updates []plannedOperator) error {
	for chunk := range slices.Chunk(creates, lookupChunk) {
		builders := make([]*ent.OperatorCreate, len(chunk))
		for n, p := range chunk {
			it := p.item
			email := fields.BlankNil(it.Email)
			c := tx.Operator.Create().SetTenantID(tenantID).SetType(operator.Type(it.Type)).SetName(it.Name).
				SetExternalID(it.ExternalID).SetNillableEmail(email).SetNillableEmailKey(emailKey(email)).
				SetNillablePhone(fields.BlankNil(it.Phone)).SetNillableIsActive(it.IsActive)
			if it.Metadata != nil {
				c.SetMetadata(it.Metadata)
			}
			builders[n] = c
		}
		if err := tx.Operator.CreateBulk(builders...).Exec(ctx); err != nil {
			return apperr.FromEnt(err, "", "An operator of the request was written concurrently; retry the request")
		}
	}
	for _, p := range updates {
		it, o := p.item, p.existing
		if !operatorChanged(it, o) {
			continue
		}
		u := tx.Operator.UpdateOne(o).SetName(it.Name).SetNillableIsActive(it.IsActive)
		// Email and phone are written only when they change, which keeps
		// the email key as it is otherwise.
		if !equalPtr(fields.BlankNil(it.Email), o.Email) {
			patchContact(u, it.Email, nil, nil, nil)
		}
		if !equalPtr(fields.BlankNil(it.Phone), o.Phone) {
			patchContact(u, nil, it.Phone, nil, nil)
		}
		if it.Metadata != nil {
			u.SetMetadata(it.Metadata)
		}
		if err := u.Exec(ctx); err != nil {
			return apperr.FromEnt(err, "", "An operator of the request was written concurrently; retry the request")
		}
	}
	return nil
}

// operatorChanged reports whether an item changes the operator it matches
// (nil fields keep their value): unchanged operators are not written.
func operatorChanged(it OperatorItem, o *ent.Operator) bool {
	return it.Name != o.Name ||
		it.Email != nil && !equalPtr(fields.BlankNil(it.Email), o.Email) ||
		it.Phone != nil && !equalPtr(fields.BlankNil(it.Phone), o.Phone) ||
		it.IsActive != nil && *it.IsActive != o.IsActive ||
		it.Metadata != nil && !reflect.DeepEqual(it.Metadata, o.Metadata)
}

// SyncOperators upserts operators matched on (type, external_id), all or
// nothing: any invalid item answers 400 with one message per broken rule
// ("items.3.name should not be empty"), an email taken answers 409, and
// nothing is written.
func (s *Service) SyncOperators(ctx context.Context, items []OperatorItem) (*BatchResult, error) {
	return s.upsertOperators(ctx, items, true)
}

// BatchUpsertOperators upserts operators matched on (type, external_id) with
// a per-item outcome: valid items are written even when others are rejected
// (each with its index and messages), and an item is written whole or not at
// all. Look-ups run in bulk; everything commits in one transaction.
func (s *Service) BatchUpsertOperators(ctx context.Context, items []OperatorItem) (*BatchResult, error) {
	return s.upsertOperators(ctx, items, false)
}

// upsertOperators is SyncOperators (allOrNothing: an email taken answers
// 409, the first item's by index) and BatchUpsertOperators.
func (s *Service) upsertOperators(ctx context.Context, items []OperatorItem, allOrNothing bool) (*BatchResult, error) {
	return upsertBatch(ctx, s.client, items, MsgDuplicateOperatorFmt, allOrNothing,
		func(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, valid []int, invalid map[int][]string, out *BatchResult) error {
			creates, updates, conflicts, err := planOperators(ctx, tx, tenantID, items, valid)
			if err != nil {
				return err
			}
			if allOrNothing && len(conflicts) > 0 {
				return apperr.Conflict(conflicts[slices.Min(slices.Collect(maps.Keys(conflicts)))][0])
			}
			maps.Copy(invalid, conflicts)
			out.Created, out.Updated = len(creates), len(updates)
			return writeOperators(ctx, tx, tenantID, creates, updates)
		})
}
