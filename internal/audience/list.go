package audience

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/audience"
	"github.com/reten-io/reten/internal/criteria"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
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
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	q := s.db(ctx).Audience.Query().Where(inProject(tid, pid))
	if search = strings.TrimSpace(search); search != "" {
		q.Where(audience.NameContainsFold(search))
	}
	l, err := paging.Fetch(ctx, q.WithQueryBlocks(),
		paging.Desc(audience.FieldIsRoot, audience.FieldCreatedAt, audience.FieldID), p)
	if err != nil {
		return nil, err
	}
	return paging.Map(l, func(a *ent.Audience) (Summary, error) {
		n, err := criteria.ConditionCount(a.Edges.QueryBlocks)
		return Summary{Audience: a, ConditionCount: n}, err
	})
}

// Connection pages the live audiences of the active project for GraphQL.
// The blocks of the page are loaded with it (one
// statement for the whole page), so conditionCount needs no query per
// audience; field collection loads what else the query selects.
func (s *Service) Connection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.AudienceOrder, where *ent.AudienceWhereInput) (*ent.AudienceConnection, error) {
	return tenancy.ProjectConnection(ctx, s.db(ctx).Audience.Query().WithQueryBlocks(), inProject,
		after, first, before, last, ent.WithAudienceOrder(orderBy), ent.WithAudienceFilter(where.Filter))
}

// ConditionCount counts the where leaves of a's blocks (the loaded edge
// when the query eager-loaded it).
func (s *Service) ConditionCount(ctx context.Context, a *ent.Audience) (int, error) {
	return criteria.LoadedConditionCount(ctx, a.Edges.QueryBlocksOrErr, a.QueryQueryBlocks().All)
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
	return criteria.OrderedBlocks(blocks), nil
}

// Compositions returns an audience's compositions in their order (then
// id), from what was loaded with it when possible.
func (s *Service) Compositions(ctx context.Context, a *ent.Audience) ([]*ent.AudienceComposition, error) {
	comps, err := a.Compositions(ctx)
	if err != nil {
		return nil, err
	}
	return criteria.InOrder(comps, func(c *ent.AudienceComposition) (int, uuid.UUID) { return c.Order, c.ID }), nil
}
