package criteria

import (
	"cmp"
	"context"
	"slices"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
)

// Loaded is an owner's edge as it was loaded with the owner (loaded, such
// as a.Edges.QueryBlocksOrErr), or queried (query) when it was not.
func Loaded[T any](ctx context.Context, loaded func() ([]T, error), query func(context.Context) ([]T, error)) ([]T, error) {
	items, err := loaded()
	if ent.IsNotLoaded(err) {
		return query(ctx)
	}
	return items, err
}

// LoadedConditionCount is ConditionCount of an owner's blocks, Loaded.
func LoadedConditionCount(ctx context.Context, loaded func() ([]*ent.QueryBlock, error),
	query func(context.Context) ([]*ent.QueryBlock, error)) (int, error) {
	blocks, err := Loaded(ctx, loaded, query)
	if err != nil {
		return 0, err
	}
	return ConditionCount(blocks)
}

// InOrder returns a copy of items sorted by their order, then their id (as
// text), as blocks and compositions are presented.
func InOrder[T any](items []T, key func(T) (order int, id uuid.UUID)) []T {
	out := slices.Clone(items)
	slices.SortFunc(out, func(x, y T) int {
		xo, xid := key(x)
		yo, yid := key(y)
		return cmp.Or(cmp.Compare(xo, yo), cmp.Compare(xid.String(), yid.String()))
	})
	return out
}

// OrderedBlocks is InOrder of query blocks.
func OrderedBlocks(blocks []*ent.QueryBlock) []*ent.QueryBlock {
	return InOrder(blocks, func(b *ent.QueryBlock) (int, uuid.UUID) { return b.Order, b.ID })
}
