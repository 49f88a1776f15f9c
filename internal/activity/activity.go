// Package activity manages the activities of a project (tasks and messages
// for a commerce): creation, lists, the audit trail of status events, the
// attributes, and the commands that move an activity through its status
// machine (statemachine.go, the one place that changes a status): dispatch
// through the project's dispatch config, forced retry, cancellation and
// resolution events. The results and the day cutoff plug in through
// ApplyResult and CloseDay.
package activity

import (
	"context"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activityattribute"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/dispatch"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// Messages of the activity routes (designed: SPEC.md shows none).
const (
	MsgNotFound         = "Activity not found"
	MsgCommerceNotFound = "Commerce not found"
	MsgOperatorNotFound = "Operator not found"
)

// Service manages the activities of the active project.
type Service struct {
	client         *ent.Client
	dispatch       *dispatch.Service
	clock.Settable // the retry schedule's
	// Machine applies the status machine, recording its webhook events.
	Machine Machine
}

// NewService returns a Service that dispatches through ds.
func NewService(client *ent.Client, ds *dispatch.Service) *Service {
	return &Service{client: client, dispatch: ds}
}

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// projectOrAll returns the tenant and, on a project-optional line, the
// project the request names: nil for the whole tenant.
func projectOrAll(ctx context.Context) (tenantID uuid.UUID, projectID *uuid.UUID, err error) {
	acc, err := tenancy.From(ctx)
	if err != nil {
		return uuid.Nil, nil, err
	}
	if acc.ProjectID != uuid.Nil {
		projectID = &acc.ProjectID
	}
	return acc.TenantID, projectID, nil
}

// load reads one activity of the project (tasks only when taskOnly); any
// other id, including another project's or tenant's, is 404.
func (s *Service) load(ctx context.Context, c *ent.Client, tenantID, projectID, id uuid.UUID, taskOnly bool) (*ent.Activity, error) {
	q := c.Activity.Query().Where(activity.ID(id), activity.TenantID(tenantID), activity.ProjectID(projectID))
	if taskOnly {
		q.Where(activity.TypeEQ(activity.TypeTASK))
	}
	a, err := q.WithCommerce().Only(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, MsgNotFound, "")
	}
	return a, nil
}

// Get returns an activity of the active project with its commerce and
// attributes.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*ent.Activity, error) {
	return s.get(ctx, id, false)
}

// GetTask is Get restricted to tasks (a message id is 404).
func (s *Service) GetTask(ctx context.Context, id uuid.UUID) (*ent.Activity, error) {
	return s.get(ctx, id, true)
}

func (s *Service) get(ctx context.Context, id uuid.UUID, taskOnly bool) (*ent.Activity, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	return s.detail(ctx, s.db(ctx), tid, pid, id, taskOnly)
}

// detail loads an activity with its commerce and its attributes by key.
func (s *Service) detail(ctx context.Context, c *ent.Client, tid, pid, id uuid.UUID, taskOnly bool) (*ent.Activity, error) {
	a, err := s.load(ctx, c, tid, pid, id, taskOnly)
	if err != nil {
		return nil, err
	}
	attrs, err := a.QueryAttributes().Order(activityattribute.ByKey()).All(ctx)
	if err != nil {
		return nil, err
	}
	a.Edges.Attributes = attrs
	return a, nil
}
