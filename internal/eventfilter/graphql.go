package eventfilter

import (
	"context"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/criteria"
	"github.com/reten-io/reten/internal/tenancy"
)

// Connection pages the event filters of the active project for GraphQL.
// The blocks of the page are loaded with it (one
// statement for the whole page), so conditionCount needs no query per
// filter; field collection loads what else the query selects.
func (s *Service) Connection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.EventFilterOrder, where *ent.EventFilterWhereInput) (*ent.EventFilterConnection, error) {
	return tenancy.ProjectConnection(ctx, s.db(ctx).EventFilter.Query().WithQueryBlocks(), inProject,
		after, first, before, last, ent.WithEventFilterOrder(orderBy), ent.WithEventFilterFilter(where.Filter))
}

// Blocks returns a filter's blocks ordered by order (then id), from what was
// loaded with it when possible. The caller already reached f through a
// guarded field, so no permission is checked again here.
func (s *Service) Blocks(ctx context.Context, f *ent.EventFilter) ([]*ent.QueryBlock, error) {
	blocks, err := criteria.Loaded(ctx, f.Edges.QueryBlocksOrErr, f.QueryBlocks)
	if err != nil {
		return nil, err
	}
	return criteria.OrderedBlocks(blocks), nil
}

// ConditionCount is SPEC.md conditionCount of a filter (the where leaves
// across its blocks).
func (s *Service) ConditionCount(ctx context.Context, f *ent.EventFilter) (int, error) {
	return criteria.LoadedConditionCount(ctx, f.Edges.QueryBlocksOrErr, f.QueryQueryBlocks().All)
}
