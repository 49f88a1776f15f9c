// Package eventfilter manages event filters (event criteria): a project's
// saved query-builder definitions over events, their SQL, validation and
// previews on the tenant dataset.
package eventfilter

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/eventfilter"
	"github.com/reten-io/reten/ent/predicate"
	"github.com/reten-io/reten/ent/queryblock"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/criteria"
	"github.com/reten-io/reten/internal/paging"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// Messages of the event filter routes.
const (
	MsgNotFound      = "Event criteria not found"
	MsgNameEmpty     = criteria.MsgNameEmpty
	MsgNameTooLong   = criteria.MsgNameTooLong
	MsgTableNotFound = criteria.MsgTableNotFound
)

// Service reads and manages the event filters of the active project.
type Service struct {
	client *ent.Client
	ds     criteria.Dataset
}

// NewService returns a Service over the tenant datasets ds.
func NewService(client *ent.Client, ds criteria.Dataset) *Service {
	return &Service{client: client, ds: ds}
}

func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// inProject narrows a query to the tenant's and project's filters (the data
// layer adds the tenant filter and hides archived rows as well).
func inProject(tid, pid uuid.UUID) predicate.EventFilter {
	return eventfilter.And(eventfilter.TenantID(tid), eventfilter.ProjectID(pid))
}

// Detail is an event filter with its blocks in order.
type Detail struct {
	*ent.EventFilter
	Blocks []*ent.QueryBlock
}

// Summary is a list item: the filter and its count of where leaves.
type Summary struct {
	*ent.EventFilter
	ConditionCount int
}

// List returns a page of the project's event filters, newest first;
// search narrows by name (case-insensitive substring).
func (s *Service) List(ctx context.Context, search string, p paging.Page) (*paging.List[Summary], error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	q := s.db(ctx).EventFilter.Query().Where(inProject(tid, pid))
	if search = strings.TrimSpace(search); search != "" {
		q.Where(eventfilter.NameContainsFold(search))
	}
	l, err := paging.Fetch(ctx, q.WithQueryBlocks(), paging.Desc(eventfilter.FieldCreatedAt, eventfilter.FieldID), p)
	if err != nil {
		return nil, err
	}
	return paging.Map(l, func(f *ent.EventFilter) (Summary, error) {
		n, err := criteria.ConditionCount(f.Edges.QueryBlocks)
		return Summary{EventFilter: f, ConditionCount: n}, err
	})
}

// Get returns a live event filter of the active project.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*Detail, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	return s.get(ctx, s.db(ctx), tid, pid, id)
}

func (s *Service) get(ctx context.Context, c *ent.Client, tid, pid, id uuid.UUID) (*Detail, error) {
	f, err := c.EventFilter.Query().Where(eventfilter.ID(id), inProject(tid, pid)).
		WithQueryBlocks(func(q *ent.QueryBlockQuery) { q.Order(queryblock.ByOrder(), queryblock.ByID()) }).Only(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, MsgNotFound, "")
	}
	return &Detail{EventFilter: f, Blocks: f.Edges.QueryBlocks}, nil
}

// storedTree loads a live filter of the project and rebuilds its
// definition (an event filter has no compositions).
func (s *Service) storedTree(ctx context.Context, tid, pid, id uuid.UUID) (qb.AudienceTree, error) {
	d, err := s.get(ctx, s.db(ctx), tid, pid, id)
	if err != nil {
		return qb.AudienceTree{}, err
	}
	def, err := criteria.Definition(d.Blocks)
	return qb.AudienceTree{Definition: def}, err
}
