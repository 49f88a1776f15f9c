package fieldorg

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/reten-io/reten/internal/apperr"
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
