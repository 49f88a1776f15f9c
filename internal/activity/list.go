package activity

import (
	"context"
	"slices"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activityattribute"
	"github.com/reten-io/reten/ent/activitystatusevent"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/predicate"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
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
// scheduledAt then id, with their commerce.
func (s *Service) List(ctx context.Context, f Filter, p paging.Page) (*paging.List[*ent.Activity], error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	return s.list(ctx, tid, &pid, f, p, false)
}

// ListTasks is List restricted to tasks (type TASK).
func (s *Service) ListTasks(ctx context.Context, f Filter, p paging.Page) (*paging.List[*ent.Activity], error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	return s.list(ctx, tid, &pid, f, p, true)
}

// ListTasksAnyProject is ListTasks on a project-optional endpoint (GET
// /api/integration/activities/tasks): the active project narrows the list
// when the request has one; without one it covers every project of the tenant.
func (s *Service) ListTasksAnyProject(ctx context.Context, f Filter, p paging.Page) (*paging.List[*ent.Activity], error) {
	tid, pid, err := projectOrAll(ctx)
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
		q.Where(activity.Or(activity.TitleContainsFold(term), commerceNameContains(tid, term)))
	}
	q.Modify(withCommerceName(tid))
	l, err := paging.Fetch(ctx, q, paging.Asc(activity.FieldScheduledAt, activity.FieldID), p)
	if err != nil {
		return nil, err
	}
	for _, a := range l.Items {
		v, _ := a.Value(commerceNameColumn)
		if name, _ := v.(string); name != "" {
			a.Edges.Commerce = &ent.Commerce{ID: a.CommerceID, Name: name}
		}
	}
	return l, nil
}

// commerceNameColumn is the column of a page of activities that holds the
// name of each one's commerce (see withCommerceName).
const commerceNameColumn = "commerce_name"

// withCommerceName reads the name of each listed activity's commerce in the
// page's statement, joining the commerce as the tenant's own queries see it
// (the tenant's, not archived; else no name), where an eager load would be
// a statement of its own, planned per run (its list of ids differs every
// time). A commerce's other columns, its metadata document among them, are
// neither read nor decoded.
func withCommerceName(tenantID uuid.UUID) func(*sql.Selector) {
	return func(s *sql.Selector) {
		c := sql.Table(commerce.Table).As("listed_commerce")
		s.LeftJoin(c).OnP(sql.And(
			sql.ColumnsEQ(c.C(commerce.FieldID), s.C(activity.FieldCommerceID)),
			sql.EQ(c.C(commerce.FieldTenantID), tenantID),
			sql.IsNull(c.C(commerce.FieldArchivedAt))))
		// "" without one: a column that is NULL in a page's first row
		// has no type to scan it with in SQLite.
		s.AppendSelectExprAs(sql.Expr("COALESCE("+c.C(commerce.FieldName)+", '')"), commerceNameColumn)
	}
}

// commerceNameContains matches the activities whose commerce's name
// contains term (case-insensitive), as HasCommerceWith(NameContainsFold)
// does but written as commerce_id IN (the matching commerces): PostgreSQL
// hashes that list once and estimates it at its real cost, where the
// correlated EXISTS of HasCommerceWith is estimated per row, high enough to
// switch JIT compilation on for a deep page (150 ms of compiling for a
// 40 ms statement). The list is the tenant's commerces only: the index on
// (tenant_id, name, id) answers it without reading the table or another
// tenant's names.
func commerceNameContains(tenantID uuid.UUID, term string) predicate.Activity {
	return func(s *sql.Selector) {
		t := sql.Table(commerce.Table)
		s.Where(sql.In(s.C(activity.FieldCommerceID),
			sql.Select(t.C(commerce.FieldID)).From(t).
				Where(sql.And(sql.EQ(t.C(commerce.FieldTenantID), tenantID), sql.ContainsFold(t.C(commerce.FieldName), term)))))
	}
}

// StatusEvents returns an activity's audit trail ordered by occurredAt,
// then id.
func (s *Service) StatusEvents(ctx context.Context, id uuid.UUID) ([]*ent.ActivityStatusEvent, error) {
	tid, pid, err := tenancy.Project(ctx)
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

// Attributes returns an activity's attributes ordered by key.
func (s *Service) Attributes(ctx context.Context, id uuid.UUID) ([]*ent.ActivityAttribute, error) {
	tid, pid, err := tenancy.Project(ctx)
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

// Connection pages the active project's activities for GraphQL;
// field collection eager-loads the edges selected.
func (s *Service) Connection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.ActivityOrder, where *ent.ActivityWhereInput) (*ent.ActivityConnection, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	return s.paginate(ctx, tid, &pid, false, after, first, before, last, orderBy, where)
}

// TaskConnectionAnyProject pages tasks for GraphQL on a project-optional
// field: the active project's, or every project's of the tenant without one.
func (s *Service) TaskConnectionAnyProject(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.ActivityOrder, where *ent.ActivityWhereInput) (*ent.ActivityConnection, error) {
	tid, pid, err := projectOrAll(ctx)
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
