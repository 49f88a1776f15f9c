package fieldorg

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// What the operator sync and the operator and route batch upserts share:
// items are checked one by one (one item per key), the records they name are
// looked up in bulk, and the outcome lists the rejected items by index.

// batchItem is an item of a batch: it normalizes itself, reports its broken
// rules and names the key it is matched on.
type batchItem[E any] interface {
	*E
	normalize()
	validate() []string
	key() string
}

// validateItems refuses a batch of more than MaxBatchItems items (400), then
// normalizes every item and applies its rules and the one-item-per-key rule
// (the later item is rejected with dupFmt, which gets the earlier one's
// index); it returns the messages of the rejected items and the indexes of
// the valid ones, in order.
func validateItems[E any, P batchItem[E]](items []E, dupFmt string) (invalid map[int][]string, valid []int, err error) {
	if len(items) > MaxBatchItems {
		return nil, nil, apperr.Validation(fmt.Sprintf(MsgItemsTooManyFmt, MaxBatchItems))
	}
	invalid = map[int][]string{}
	seen := map[string]int{}
	for i := range items {
		it := P(&items[i])
		it.normalize()
		if msgs := it.validate(); len(msgs) > 0 {
			invalid[i] = msgs
			continue
		}
		if j, dup := seen[it.key()]; dup {
			invalid[i] = []string{fmt.Sprintf(dupFmt, j)}
			continue
		}
		seen[it.key()] = i
		valid = append(valid, i)
	}
	return invalid, valid, nil
}

// batchWrite writes the valid items of a batch in the caller's tenant,
// inside the transaction upsertBatch runs: it adds the items it rejects to
// invalid and counts the records it creates and updates in out.
type batchWrite func(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, valid []int, invalid map[int][]string,
	out *BatchResult) error

// upsertBatch runs the steps every batch takes: the caller's tenant, the
// items' rules (see validateItems), then write in one transaction. With
// allOrNothing any rejected item answers 400 with every item's messages
// ("items.3.name should not be empty") and nothing is written; otherwise
// the rejected items are listed in the result's Errors.
func upsertBatch[E any, P batchItem[E]](ctx context.Context, client *ent.Client, items []E, dupFmt string, allOrNothing bool,
	write batchWrite) (*BatchResult, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	invalid, valid, err := validateItems[E, P](items, dupFmt)
	if err != nil {
		return nil, err
	}
	if allOrNothing && len(invalid) > 0 {
		var msgs []string
		for _, i := range slices.Sorted(maps.Keys(invalid)) {
			for _, m := range invalid[i] {
				msgs = append(msgs, ItemMessage(i, m))
			}
		}
		return nil, apperr.Validation(msgs...)
	}
	out := &BatchResult{Total: len(items)}
	err = txn.Run(ctx, client, func(ctx context.Context, tx *ent.Client) error {
		return write(ctx, tx, tenantID, valid, invalid, out)
	})
	if err != nil {
		return nil, err
	}
	out.Errors = itemErrors(invalid)
	return out, nil
}

// lookup finds the records keys name, a chunk of keys per statement (the
// statement stays under SQLite's and PostgreSQL's parameter limits), and
// indexes them by key.
func lookup[R any, K comparable](ctx context.Context, keys []string,
	find func(ctx context.Context, chunk []string) ([]R, error), key func(R) K) (map[K]R, error) {
	out := map[K]R{}
	for chunk := range slices.Chunk(dedupe(keys), lookupChunk) {
		rows, err := find(ctx, chunk)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			out[key(r)] = r
		}
	}
	return out, nil
}

func dedupe(items []string) []string {
	out := slices.Clone(items)
	slices.Sort(out)
	return slices.Compact(out)
}

// itemErrors lists the rejected items by index.
func itemErrors(byIndex map[int][]string) []ItemError {
	out := []ItemError{}
	for _, i := range slices.Sorted(maps.Keys(byIndex)) {
		out = append(out, ItemError{Index: i, Messages: byIndex[i]})
	}
	return out
}

func equalPtr(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
