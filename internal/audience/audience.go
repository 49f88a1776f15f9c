// Package audience manages audience criteria: sets of commerces described
// with query blocks and compositions. Every project has one root audience.
package audience

import (
	"context"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/audience"
	"github.com/reten-io/reten/ent/audiencecomposition"
	"github.com/reten-io/reten/ent/queryblock"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// MsgNotFound is the SPEC.md 404 of audience routes.
const MsgNotFound = "Audience criteria not found"

// Service reads and manages audiences of the active project.
type Service struct{ client *ent.Client }

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client} }

// Detail is an audience with its ordered query blocks and its compositions;
// OperandNames maps each composition operand to its name ("" when unresolvable).
type Detail struct {
	*ent.Audience
	OperandNames map[uuid.UUID]string
}

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// Get returns a non-archived audience of the active project with its blocks
// (ascending order) and compositions.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*Detail, error) {
	if err := auth.RequireCtx(ctx, auth.PermAudienceView); err != nil {
		return nil, err
	}
	pid, err := tenancy.RequireProject(ctx)
	if err != nil {
		return nil, err
	}
	a, err := s.db(ctx).Audience.Query().
		Where(audience.ID(id), audience.ProjectID(pid), audience.ArchivedAtIsNil()).
		WithQueryBlocks(func(q *ent.QueryBlockQuery) { q.Order(queryblock.ByOrder(), queryblock.ByID()) }).
		WithCompositions(func(q *ent.AudienceCompositionQuery) {
			q.Order(audiencecomposition.ByOrder(), audiencecomposition.ByID())
		}).
		Only(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, MsgNotFound, "")
	}
	d := &Detail{Audience: a, OperandNames: map[uuid.UUID]string{}}
	var operands []uuid.UUID
	for _, c := range a.Edges.Compositions {
		operands = append(operands, c.OperandAudienceID)
	}
	if len(operands) > 0 {
		named, err := s.db(ctx).Audience.Query().
			Where(audience.IDIn(operands...), audience.ArchivedAtIsNil()).
			Select(audience.FieldID, audience.FieldName).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, o := range named {
			d.OperandNames[o.ID] = o.Name
		}
	}
	return d, nil
}
