// Package audience manages audience criteria: sets of commerces (subjects)
// described with query blocks and compositions (other audiences of the
// project combined with a set operator), their SQL, validation, previews
// and membership changes on the tenant dataset. Every project has one root
// audience, created with the project and edited (never deleted) here.
package audience

import (
	"context"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/audience"
	"github.com/reten-io/reten/ent/audiencecomposition"
	"github.com/reten-io/reten/ent/predicate"
	"github.com/reten-io/reten/ent/queryblock"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/criteria"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// MsgNotFound is the SPEC.md 404 of audience routes.
const MsgNotFound = "Audience criteria not found"

// Service reads and manages audiences of the active project.
type Service struct {
	client *ent.Client
	ds     criteria.Dataset
}

// NewService returns a Service over the tenant datasets ds.
func NewService(client *ent.Client, ds criteria.Dataset) *Service {
	return &Service{client: client, ds: ds}
}

// Detail is an audience with its ordered query blocks and its compositions;
// OperandNames maps each composition operand to its name ("" when unresolvable).
type Detail struct {
	*ent.Audience
	OperandNames map[uuid.UUID]string
}

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// inProject narrows a query to the live audiences of the tenant's project
// (the data layer adds the tenant filter and hides archived rows as well).
func inProject(tid, pid uuid.UUID) predicate.Audience {
	return audience.And(audience.TenantID(tid), audience.ProjectID(pid), audience.ArchivedAtIsNil())
}

// Get returns a non-archived audience of the active project with its blocks
// (ascending order) and compositions.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*Detail, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	return s.get(ctx, s.db(ctx), tid, pid, id)
}

// get loads a live audience of the tenant's project pid through c (a transaction's
// client inside writes, so the answer shows what the write stored).
func (s *Service) get(ctx context.Context, c *ent.Client, tid, pid, id uuid.UUID) (*Detail, error) {
	a, err := c.Audience.Query().Where(audience.ID(id), inProject(tid, pid)).
		WithQueryBlocks(func(q *ent.QueryBlockQuery) { q.Order(queryblock.ByOrder(), queryblock.ByID()) }).
		WithCompositions(func(q *ent.AudienceCompositionQuery) {
			q.Order(audiencecomposition.ByOrder(), audiencecomposition.ByID())
		}).
		Only(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, MsgNotFound, "")
	}
	operands := make([]uuid.UUID, len(a.Edges.Compositions))
	for i, comp := range a.Edges.Compositions {
		operands[i] = comp.OperandAudienceID
	}
	names, err := operandNames(ctx, c, tid, pid, operands)
	if err != nil {
		return nil, err
	}
	d := &Detail{Audience: a, OperandNames: names}
	return d, nil
}
