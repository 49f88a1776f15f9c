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
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/txn"
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
	it.Email, it.Phone = trimPtr(it.Email), trimPtr(it.Phone)
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
	case tooLong(it.ExternalID, maxText):
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

// plannedOperator is a valid item with the live operator it updates (nil: create).
type plannedOperator struct {
	index    int
	item     OperatorItem
	existing *ent.Operator
}

// validateOperatorItems applies the DTO rules and the one-item-per-key rule;
// it returns the messages of the rejected items and the valid ones in order.
func validateOperatorItems(items []OperatorItem) (map[int][]string, []int) {
	invalid := map[int][]string{}
	var valid []int
	seen := map[string]int{}
	for i := range items {
		items[i].normalize()
		if msgs := items[i].validate(); len(msgs) > 0 {
			invalid[i] = msgs
			continue
		}
		k := operatorKey(items[i].Type, items[i].ExternalID)
		if j, dup := seen[k]; dup {
			invalid[i] = []string{fmt.Sprintf(MsgDuplicateOperatorFmt, j)}
			continue
		}
		seen[k] = i
		valid = append(valid, i)
	}
	return invalid, valid
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
	existing := map[string]*ent.Operator{}
	for chunk := range slices.Chunk(dedupe(extIDs), lookupChunk) {
		ops, err := tx.Operator.Query().Where(operator.TenantID(tenantID), operator.ExternalIDIn(chunk...)).All(ctx)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, o := range ops {
			existing[operatorKey(string(o.Type), *o.ExternalID)] = o
		}
	}
	owners := map[string]uuid.UUID{}
	for chunk := range slices.Chunk(dedupe(emails), lookupChunk) {
		ops, err := tx.Operator.Query().Where(operator.TenantID(tenantID), operator.EmailKeyIn(chunk...)).
			Select(operator.FieldID, operator.FieldEmailKey).All(ctx)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, o := range ops {
			owners[*o.EmailKey] = o.ID
		}
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
			case taken && (p.existing == nil || owner != p.existing.ID):
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

func dedupe(items []string) []string {
	out := slices.Clone(items)
	slices.Sort(out)
	return slices.Compact(out)
}

// writeOperators inserts the creates in bulk and updates the matched
// operators whose values change.
func writeOperators(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, creates, updates []plannedOperator) error {
	for chunk := range slices.Chunk(creates, lookupChunk) {
		builders := make([]*ent.OperatorCreate, len(chunk))
		for n, p := range chunk {
			it := p.item
			email := nilIfEmpty(it.Email)
			c := tx.Operator.Create().SetTenantID(tenantID).SetType(operator.Type(it.Type)).SetName(it.Name).
				SetExternalID(it.ExternalID).SetNillableEmail(email).SetNillableEmailKey(emailKey(email)).
				SetNillablePhone(nilIfEmpty(it.Phone)).SetNillableIsActive(it.IsActive)
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
		u := tx.Operator.UpdateOne(o)
		changed := false
		if it.Name != o.Name {
			u.SetName(it.Name)
			changed = true
		}
		if it.Email != nil && !equalPtr(nilIfEmpty(it.Email), o.Email) {
			if email := nilIfEmpty(it.Email); email == nil {
				u.ClearEmail().ClearEmailKey()
			} else {
				u.SetEmail(*email).SetEmailKey(*emailKey(email))
			}
			changed = true
		}
		if it.Phone != nil && !equalPtr(nilIfEmpty(it.Phone), o.Phone) {
			if phone := nilIfEmpty(it.Phone); phone == nil {
				u.ClearPhone()
			} else {
				u.SetPhone(*phone)
			}
			changed = true
		}
		if it.IsActive != nil && *it.IsActive != o.IsActive {
			u.SetIsActive(*it.IsActive)
			changed = true
		}
		if it.Metadata != nil && !reflect.DeepEqual(it.Metadata, o.Metadata) {
			u.SetMetadata(it.Metadata)
			changed = true
		}
		if !changed {
			continue
		}
		if err := u.Exec(ctx); err != nil {
			return apperr.FromEnt(err, "", "An operator of the request was written concurrently; retry the request")
		}
	}
	return nil
}

func equalPtr(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// SyncOperators upserts operators matched on (type, external_id), all or
// nothing: any invalid item answers 400 with one message per broken rule
// ("items.3.name should not be empty"), an email taken answers 409, and
// nothing is written.
func (s *Service) SyncOperators(ctx context.Context, items []OperatorItem) (*BatchResult, error) {
	tenantID, err := auth.TenantFor(ctx, auth.PermOperatorSync)
	if err != nil {
		return nil, err
	}
	if len(items) > MaxBatchItems {
		return nil, apperr.Validation(fmt.Sprintf(MsgItemsTooManyFmt, MaxBatchItems))
	}
	invalid, valid := validateOperatorItems(items)
	if len(invalid) > 0 {
		var msgs []string
		for _, i := range slices.Sorted(maps.Keys(invalid)) {
			for _, m := range invalid[i] {
				msgs = append(msgs, ItemMessage(i, m))
			}
		}
		return nil, apperr.Validation(msgs...)
	}
	out := &BatchResult{Total: len(items), Errors: []ItemError{}}
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		creates, updates, conflicts, err := planOperators(ctx, tx, tenantID, items, valid)
		if err != nil {
			return err
		}
		if len(conflicts) > 0 {
			return apperr.Conflict(conflicts[slices.Min(slices.Collect(maps.Keys(conflicts)))][0])
		}
		out.Created, out.Updated = len(creates), len(updates)
		return writeOperators(ctx, tx, tenantID, creates, updates)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// BatchUpsertOperators upserts operators matched on (type, external_id) with
// a per-item outcome: valid items are written even when others are rejected
// (each with its index and messages), and an item is written whole or not at
// all. Look-ups run in bulk; everything commits in one transaction.
func (s *Service) BatchUpsertOperators(ctx context.Context, items []OperatorItem) (*BatchResult, error) {
	tenantID, err := auth.TenantFor(ctx, auth.PermOperatorBatchUpsert)
	if err != nil {
		return nil, err
	}
	if len(items) > MaxBatchItems {
		return nil, apperr.Validation(fmt.Sprintf(MsgItemsTooManyFmt, MaxBatchItems))
	}
	invalid, valid := validateOperatorItems(items)
	out := &BatchResult{Total: len(items)}
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		creates, updates, conflicts, err := planOperators(ctx, tx, tenantID, items, valid)
		if err != nil {
			return err
		}
		maps.Copy(invalid, conflicts)
		out.Created, out.Updated = len(creates), len(updates)
		return writeOperators(ctx, tx, tenantID, creates, updates)
	})
	if err != nil {
		return nil, err
	}
	out.Errors = itemErrors(invalid)
	return out, nil
}

// itemErrors lists the rejected items by index.
func itemErrors(byIndex map[int][]string) []ItemError {
	out := []ItemError{}
	for _, i := range slices.Sorted(maps.Keys(byIndex)) {
		out = append(out, ItemError{Index: i, Messages: byIndex[i]})
	}
	return out
}
