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
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activityattribute"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/dispatch"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// Messages of the activity routes (designed: SPEC.md shows none).
const (
	MsgNotFound         = "Activity not found"
	MsgCommerceNotFound = "Commerce not found"
	MsgOperatorNotFound = "Operator not found"
)

// Service manages the activities of the active project.
type Service struct {
	client   *ent.Client
	dispatch *dispatch.Service
	now      func() time.Time
}

// NewService returns a Service that dispatches through ds.
func NewService(client *ent.Client, ds *dispatch.Service) *Service {
	return &Service{client: client, dispatch: ds, now: time.Now}
}

// SetClock replaces the clock of the retry schedule (tests).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// scope returns tenant and active project after checking the permission.
func scope(ctx context.Context, perm string) (tenantID, projectID uuid.UUID, err error) {
	if err := auth.RequireCtx(ctx, perm); err != nil {
		return uuid.Nil, uuid.Nil, err
	}
	pid, err := tenancy.RequireProject(ctx)
	if err != nil {
		return uuid.Nil, uuid.Nil, err
	}
	return viewer.FromContext(ctx).TenantID, pid, nil
}

// scopeAnyProject is scope on a project-optional endpoint: projectID is nil
// when the request names no project (the whole tenant).
func scopeAnyProject(ctx context.Context, perm string) (tenantID uuid.UUID, projectID *uuid.UUID, err error) {
	if err := auth.RequireCtx(ctx, perm); err != nil {
		return uuid.Nil, nil, err
	}
	if pid, ok := viewer.ProjectID(ctx); ok {
		projectID = &pid
	}
	return viewer.FromContext(ctx).TenantID, projectID, nil
}

// actor is the user behind the request (an API key's owner), nil for the system.
func actor(ctx context.Context) *uuid.UUID {
	if v := viewer.FromContext(ctx); v != nil && v.UserID != uuid.Nil {
		id := v.UserID
		return &id
	}
	return nil
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
// attributes (activity:view).
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*ent.Activity, error) {
	return s.get(ctx, id, false)
}

// GetTask is Get restricted to tasks (a message id is 404).
func (s *Service) GetTask(ctx context.Context, id uuid.UUID) (*ent.Activity, error) {
	return s.get(ctx, id, true)
}

func (s *Service) get(ctx context.Context, id uuid.UUID, taskOnly bool) (*ent.Activity, error) {
	tid, pid, err := scope(ctx, auth.PermActivityView)
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
