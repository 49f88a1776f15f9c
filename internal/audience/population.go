package audience

import (
	"context"

	"github.com/google/uuid"

	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/tenancy"
)

// Population is the tree of audience id of the active project as the
// lifecycle engine reads it: nil for an audience without query blocks and
// compositions (a root audience without blocks: every identity of the
// SUBJECTS table). 404 when id is not a live audience of the project.
func (s *Service) Population(ctx context.Context, id uuid.UUID) (*qb.AudienceTree, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	cur, err := s.get(ctx, s.db(ctx), tid, pid, id)
	if err != nil {
		return nil, err
	}
	if len(cur.Edges.QueryBlocks) == 0 && len(cur.Edges.Compositions) == 0 {
		return nil, nil
	}
	tree, err := s.treeOf(ctx, tid, pid, cur.Audience)
	if err != nil {
		return nil, err
	}
	return &tree, nil
}
