package audience

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/audience"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/criteria"
	"github.com/reten-io/reten/internal/paging"
)

// Summary is a list item: the audience and its count of where leaves.
type Summary struct {
	*ent.Audience
	ConditionCount int
}

// List returns a page of the project's live audiences: the root audience
// first, then newest first; search narrows by name (case-insensitive
// substring).
func (s *Service) List(ctx context.Context, search string, p paging.Page) (*paging.List[Summary], error) {
	tid, pid, err := scope(ctx, auth.PermAudienceView)
	if err != nil {
		return nil, err
	}
	q := s.db(ctx).Audience.Query().Where(inProject(tid, pid))
	if search = strings.TrimSpace(search); search != "" {
		q.Where(audience.NameContainsFold(search))
	}
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return nil, err
	}
	items, err := q.Order(ent.Desc(audience.FieldIsRoot), ent.Desc(audience.FieldCreatedAt), ent.Desc(audience.FieldID)).
		WithQueryBlocks().Offset(p.Offset()).Limit(p.PerPage).All(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Summary, len(items))
	for i, a := range items {
		n, err := criteria.ConditionCount(a.Edges.QueryBlocks)
		if err != nil {
			return nil, err
		}
		out[i] = Summary{Audience: a, ConditionCount: n}
	}
	return &paging.List[Summary]{Items: out, Total: total, Page: p}, nil
}

// Connection pages the live audiences of the active project for GraphQL
// (audience-criteria:view). The blocks of the page are loaded with it (one
// statement for the whole page), so conditionCount needs no query per
// audience; field collection loads what else the query selects.
func (s *Service) Connection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.AudienceOrder, where *ent.AudienceWhereInput) (*ent.AudienceConnection, error) {
	tid, pid, err := scope(ctx, auth.PermAudienceView)
	if err != nil {
		return nil, err
	}
	return s.db(ctx).Audience.Query().Where(inProject(tid, pid)).WithQueryBlocks().
		Paginate(ctx, after, first, before, last, ent.WithAudienceOrder(orderBy), ent.WithAudienceFilter(where.Filter))
}

// ConditionCount counts the where leaves of a's blocks (the loaded edge
// when the query eager-loaded it).
func (s *Service) ConditionCount(ctx context.Context, a *ent.Audience) (int, error) {
	blocks, err := a.Edges.QueryBlocksOrErr()
	if ent.IsNotLoaded(err) {
		blocks, err = a.QueryQueryBlocks().All(ctx)
	}
	if err != nil {
		return 0, err
	}
	return criteria.ConditionCount(blocks)
}

// OperandName is the name of a composition's operand audience, "" when it
// cannot be resolved (archived, or outside the composition's project). The
// caller reached c through a guarded field: no permission is checked here.
func (s *Service) OperandName(ctx context.Context, c *ent.AudienceComposition) (string, error) {
	a, err := s.db(ctx).Audience.Query().
		Where(audience.ID(c.OperandAudienceID), inProject(c.TenantID, c.ProjectID)).
		Select(audience.FieldName).Only(ctx)
	if ent.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return a.Name, nil
}

// operandNames is the name of each operand id of the active project
// (absent when unresolvable).
func operandNames(ctx context.Context, c *ent.Client, tid, pid uuid.UUID, ids []uuid.UUID) (map[uuid.UUID]string, error) {
	out := map[uuid.UUID]string{}
	if len(ids) == 0 {
		return out, nil
	}
	named, err := c.Audience.Query().
		Where(audience.IDIn(ids...), inProject(tid, pid)).
		Select(audience.FieldID, audience.FieldName).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, o := range named {
		out[o.ID] = o.Name
	}
	return out, nil
}

// Blocks returns an audience's blocks ordered by order (then id), from what
// was loaded with it when possible. The caller already reached a through a
// guarded field, so no permission is checked again here.
func (s *Service) Blocks(ctx context.Context, a *ent.Audience) ([]*ent.QueryBlock, error) {
	blocks, err := a.QueryBlocks(ctx)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(blocks)
	slices.SortFunc(out, func(x, y *ent.QueryBlock) int {
		return cmp.Or(cmp.Compare(x.Order, y.Order), cmp.Compare(x.ID.String(), y.ID.String()))
	})
	return out, nil
}

// Compositions returns an audience's compositions in their order (then
// id), from what was loaded with it when possible.
func (s *Service) Compositions(ctx context.Context, a *ent.Audience) ([]*ent.AudienceComposition, error) {
	comps, err := a.Compositions(ctx)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(comps)
	slices.SortFunc(out, func(x, y *ent.AudienceComposition) int {
		return cmp.Or(cmp.Compare(x.Order, y.Order), cmp.Compare(x.ID.String(), y.ID.String()))
	})
	return out, nil
}
