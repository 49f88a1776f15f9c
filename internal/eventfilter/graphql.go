package eventfilter

import (
	"cmp"
	"context"
	"slices"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/criteria"
)

// Connection pages the event filters of the active project for GraphQL
// (event-criteria:view). The blocks of the page are loaded with it (one
// statement for the whole page), so conditionCount needs no query per
// filter; field collection loads what else the query selects.
func (s *Service) Connection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.EventFilterOrder, where *ent.EventFilterWhereInput) (*ent.EventFilterConnection, error) {
	tid, pid, err := scope(ctx, auth.PermEventCriteriaView)
	if err != nil {
		return nil, err
	}
	return s.db(ctx).EventFilter.Query().Where(inProject(tid, pid)).WithQueryBlocks().
		Paginate(ctx, after, first, before, last, ent.WithEventFilterOrder(orderBy), ent.WithEventFilterFilter(where.Filter))
}

// Blocks returns a filter's blocks ordered by order (then id), from what was
// loaded with it when possible. The caller already reached f through a
// guarded field, so no permission is checked again here.
func (s *Service) Blocks(ctx context.Context, f *ent.EventFilter) ([]*ent.QueryBlock, error) {
	blocks, err := f.Edges.QueryBlocksOrErr()
	if ent.IsNotLoaded(err) {
		blocks, err = f.QueryBlocks(ctx)
	}
	if err != nil {
		return nil, err
	}
	out := slices.Clone(blocks)
	slices.SortFunc(out, func(a, b *ent.QueryBlock) int {
		return cmp.Or(cmp.Compare(a.Order, b.Order), cmp.Compare(a.ID.String(), b.ID.String()))
	})
	return out, nil
}

// ConditionCount is SPEC.md conditionCount of a filter (the where leaves
// across its blocks).
func (s *Service) ConditionCount(ctx context.Context, f *ent.EventFilter) (int, error) {
	blocks, err := f.Edges.QueryBlocksOrErr()
	if ent.IsNotLoaded(err) {
		blocks, err = f.QueryQueryBlocks().All(ctx)
	}
	if err != nil {
		return 0, err
	}
	return criteria.ConditionCount(blocks)
}
