package activity

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activityattribute"
	"github.com/reten-io/reten/ent/activitystatusevent"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/paging"
)

// Filter holds the query parameters of GET /api/activities ("" or nil: no
// filter). The adapter parses the instants and the commerce id.
type Filter struct {
	Status        string
	Type          string
	Channel       string
	CommerceID    *uuid.UUID
	ScheduledFrom *time.Time // scheduledAt >= ScheduledFrom
	ScheduledTo   *time.Time // scheduledAt <= ScheduledTo
	Search        string     // title or commerce name, case-insensitive
	// Problems are the adapter's problems with the parameters (page, a
	// commerce id or an instant it could not parse), reported with the
	// enum rules in one 400.
	Problems apperr.Problems
}

// Validate returns one message per broken enum rule.
func (f Filter) Validate() []string {
	var msgs []string
	if f.Status != "" && !slices.Contains(statusNames(), f.Status) {
		msgs = append(msgs, MsgStatus)
	}
	if f.Type != "" && !slices.Contains(Types, f.Type) {
		msgs = append(msgs, MsgType)
	}
	if f.Channel != "" && !slices.Contains(Channels, f.Channel) {
		msgs = append(msgs, MsgChannel)
	}
	return msgs
}

// List returns a page of the active project's activities ordered by
// scheduledAt then id, with their commerce (activity:view).
func (s *Service) List(ctx context.Context, f Filter, p paging.Page) (*paging.List[*ent.Activity], error) {
	tid, pid, err := scope(ctx, auth.PermActivityView)
	if err != nil {
		return nil, err
	}
	return s.list(ctx, tid, &pid, f, p, false)
}

// ListTasks is List restricted to tasks (type TASK).
func (s *Service) ListTasks(ctx context.Context, f Filter, p paging.Page) (*paging.List[*ent.Activity], error) {
	tid, pid, err := scope(ctx, auth.PermActivityView)
	if err != nil {
		return nil, err
	}
	return s.list(ctx, tid, &pid, f, p, true)
}

// ListTasksAnyProject is ListTasks on a project-optional endpoint (GET
// /api/integration/activities/tasks): the active project narrows the list
// when the request has one; without one it covers every project of the tenant.
func (s *Service) ListTasksAnyProject(ctx context.Context, f Filter, p paging.Page) (*paging.List[*ent.Activity], error) {
	tid, pid, err := scopeAnyProject(ctx, auth.PermActivityView)
	if err != nil {
		return nil, err
	}
	return s.list(ctx, tid, pid, f, p, true)
}

// list pages the activities of the tenant's project pid (nil: every project).
func (s *Service) list(ctx context.Context, tid uuid.UUID, pid *uuid.UUID, f Filter, p paging.Page, taskOnly bool) (*paging.List[*ent.Activity], error) {
	probs := f.Problems
	probs.Rules(f.Validate()...)
	if err := probs.Err(); err != nil {
		return nil, err
	}
	q := s.db(ctx).Activity.Query().Where(activity.TenantID(tid))
	if pid != nil {
		q.Where(activity.ProjectID(*pid))
	}
	if taskOnly {
		q.Where(activity.TypeEQ(activity.TypeTASK))
	}
	if f.Status != "" {
		q.Where(activity.StatusEQ(activity.Status(f.Status)))
	}
	if f.Type != "" {
		q.Where(activity.TypeEQ(activity.Type(f.Type)))
	}
	if f.Channel != "" {
		q.Where(activity.ChannelEQ(activity.Channel(f.Channel)))
	}
	if f.CommerceID != nil {
		q.Where(activity.CommerceID(*f.CommerceID))
	}
	if f.ScheduledFrom != nil {
		q.Where(activity.ScheduledAtGTE(*f.ScheduledFrom))
	}
	if f.ScheduledTo != nil {
		q.Where(activity.ScheduledAtLTE(*f.ScheduledTo))
	}
	if term := strings.TrimSpace(f.Search); term != "" {
		q.Where(activity.Or(activity.TitleContainsFold(term), activity.HasCommerceWith(commerce.NameContainsFold(term))))
	}
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return nil, err
	}
	items, err := q.WithCommerce().Order(activity.ByScheduledAt(), activity.ByID()).
		Offset(p.Offset()).Limit(p.PerPage).All(ctx)
	if err != nil {
		return nil, err
	}
	return &paging.List[*ent.Activity]{Items: items, Total: total, Page: p}, nil
}

// StatusEvents returns an activity's audit trail ordered by occurredAt,
// then id (activity:view).
func (s *Service) StatusEvents(ctx context.Context, id uuid.UUID) ([]*ent.ActivityStatusEvent, error) {
	tid, pid, err := scope(ctx, auth.PermActivityView)
	if err != nil {
		return nil, err
	}
	if _, err := s.load(ctx, s.db(ctx), tid, pid, id, false); err != nil {
		return nil, err
	}
	return s.db(ctx).ActivityStatusEvent.Query().Where(activitystatusevent.ActivityID(id),
		activitystatusevent.TenantID(tid), activitystatusevent.ProjectID(pid)).
		Order(activitystatusevent.ByOccurredAt(), activitystatusevent.ByID()).All(ctx)
}

// Attributes returns an activity's attributes ordered by key (activity:view).
func (s *Service) Attributes(ctx context.Context, id uuid.UUID) ([]*ent.ActivityAttribute, error) {
	tid, pid, err := scope(ctx, auth.PermActivityView)
	if err != nil {
		return nil, err
	}
	if _, err := s.load(ctx, s.db(ctx), tid, pid, id, false); err != nil {
		return nil, err
	}
	return s.db(ctx).ActivityAttribute.Query().Where(activityattribute.ActivityID(id),
		activityattribute.TenantID(tid), activityattribute.ProjectID(pid)).
		Order(activityattribute.ByKey(), activityattribute.ByID()).All(ctx)
}

// Connection pages the active project's activities for GraphQL
// (activity:view); field collection eager-loads the edges selected.
func (s *Service) Connection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.ActivityOrder, where *ent.ActivityWhereInput) (*ent.ActivityConnection, error) {
	tid, pid, err := scope(ctx, auth.PermActivityView)
	if err != nil {
		return nil, err
	}
	return s.paginate(ctx, tid, &pid, false, after, first, before, last, orderBy, where)
}

// TaskConnectionAnyProject pages tasks for GraphQL on a project-optional
// field: the active project's, or every project's of the tenant without one.
func (s *Service) TaskConnectionAnyProject(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.ActivityOrder, where *ent.ActivityWhereInput) (*ent.ActivityConnection, error) {
	tid, pid, err := scopeAnyProject(ctx, auth.PermActivityView)
	if err != nil {
		return nil, err
	}
	return s.paginate(ctx, tid, pid, true, after, first, before, last, orderBy, where)
}

func (s *Service) paginate(ctx context.Context, tid uuid.UUID, pid *uuid.UUID, taskOnly bool, after *ent.Cursor, first *int,
	before *ent.Cursor, last *int, orderBy *ent.ActivityOrder, where *ent.ActivityWhereInput) (*ent.ActivityConnection, error) {
	q := s.db(ctx).Activity.Query().Where(activity.TenantID(tid))
	if pid != nil {
		q.Where(activity.ProjectID(*pid))
	}
	if taskOnly {
		q.Where(activity.TypeEQ(activity.TypeTASK))
	}
	return q.Paginate(ctx, after, first, before, last, ent.WithActivityOrder(orderBy), ent.WithActivityFilter(where.Filter))
}
