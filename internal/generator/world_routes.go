package generator

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/commercecontact"
	"github.com/reten-io/reten/ent/commerceroute"
	"github.com/reten-io/reten/ent/commerceuser"
	"github.com/reten-io/reten/ent/commerceuserrole"
	"github.com/reten-io/reten/ent/operator"
	"github.com/reten-io/reten/ent/route"
	"github.com/reten-io/reten/ent/routeoperator"
)

// loadRoutes reads the commerces' live active routes, their active links to
// live active operators and, for a round robin, when each of those
// operators last got a generated task.
func (w *world) loadRoutes(ctx context.Context, tx *ent.Client, commerceIDs []uuid.UUID, roundRobin bool) error {
	links, err := tx.CommerceRoute.Query().Where(commerceroute.TenantID(w.tenant), commerceroute.CommerceIDIn(commerceIDs...)).All(ctx)
	if err != nil || len(links) == 0 {
		return err
	}
	var routeIDs []uuid.UUID
	for _, l := range links {
		routeIDs = append(routeIDs, l.RouteID)
	}
	routes, err := tx.Route.Query().Where(route.TenantID(w.tenant), route.IDIn(unique(routeIDs)...), route.IsActive(true)).All(ctx)
	if err != nil {
		return err
	}
	byID := map[uuid.UUID]*ent.Route{}
	for _, r := range routes {
		byID[r.ID] = r
	}
	for _, l := range links {
		if r, ok := byID[l.RouteID]; ok {
			w.routes[l.CommerceID] = append(w.routes[l.CommerceID], r)
		}
	}
	for c := range w.routes {
		slices.SortFunc(w.routes[c], func(a, b *ent.Route) int { return cmpString(a.Code, b.Code) })
	}
	ros, err := tx.RouteOperator.Query().Where(routeoperator.TenantID(w.tenant), routeoperator.RouteIDIn(unique(routeIDs)...),
		routeoperator.IsActive(true)).WithOperator(func(q *ent.OperatorQuery) { q.Where(operator.IsActive(true)) }).
		Order(routeoperator.ByOperatorID()).All(ctx)
	if err != nil {
		return err
	}
	var operators []uuid.UUID
	for _, ro := range ros {
		if ro.Edges.Operator == nil { // inactive or in the trash
			continue
		}
		w.members[ro.RouteID] = append(w.members[ro.RouteID], member{operator: ro.Edges.Operator, lead: ro.Role == routeoperator.RoleLEAD})
		operators = append(operators, ro.OperatorID)
	}
	if len(operators) == 0 || !roundRobin {
		return nil
	}
	var last []struct {
		Operator uuid.UUID `json:"operator_id"`
		At       any       `json:"max"` // a time (PostgreSQL) or its text (SQLite)
	}
	err = tx.Activity.Query().Where(activity.TenantID(w.tenant), activity.OperatorIDIn(unique(operators)...),
		activity.ActivityGenerationConfigIDNotNil()).GroupBy(activity.FieldOperatorID).
		Aggregate(ent.Max(activity.FieldCreatedAt)).Scan(ctx, &last)
	if err != nil {
		return fmt.Errorf("generation: last assignments: %w", err)
	}
	for _, l := range last {
		if w.assigned[l.Operator], err = timeOf(l.At); err != nil {
			return fmt.Errorf("generation: last assignments: %w", err)
		}
	}
	return nil
}

// loadRecipients reads the commerces' active users with their roles and
// active primary contacts.
func (w *world) loadRecipients(ctx context.Context, tx *ent.Client, commerceIDs []uuid.UUID) error {
	users, err := tx.CommerceUser.Query().Where(commerceuser.TenantID(w.tenant), commerceuser.CommerceIDIn(commerceIDs...),
		commerceuser.IsActive(true)).Order(commerceuser.ByCreatedAt(), commerceuser.ByID()).
		WithRoles(func(q *ent.CommerceUserRoleQuery) { q.Order(commerceuserrole.ByRole()) }).
		WithContacts(func(q *ent.CommerceContactQuery) {
			q.Where(commercecontact.IsActive(true), commercecontact.IsPrimary(true)).Order(commercecontact.ByCreatedAt())
		}).All(ctx)
	if err != nil {
		return fmt.Errorf("generation: commerce users: %w", err)
	}
	for _, u := range users {
		r := recipient{user: u, contacts: map[string]string{}}
		for _, role := range u.Edges.Roles {
			r.roles = append(r.roles, string(role.Role))
		}
		for _, c := range u.Edges.Contacts {
			if _, ok := r.contacts[string(c.ContactType)]; !ok {
				r.contacts[string(c.ContactType)] = c.Value
			}
		}
		w.users[u.CommerceID] = append(w.users[u.CommerceID], r)
	}
	return nil
}

func unique(ids []uuid.UUID) []uuid.UUID {
	slices.SortFunc(ids, func(a, b uuid.UUID) int { return cmpString(a.String(), b.String()) })
	return slices.Compact(ids)
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func anys[T any](vs []T) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

// timeOf reads an aggregated timestamp: SQLite answers MAX(created_at) as
// the stored text.
func timeOf(v any) (time.Time, error) {
	switch v := v.(type) {
	case time.Time:
		return v, nil
	case string:
		for _, layout := range []string{"2006-01-02 15:04:05.999999999 -0700 MST", "2006-01-02 15:04:05.999999999-07:00", time.RFC3339Nano} {
			if t, err := time.Parse(layout, v); err == nil {
				return t, nil
			}
		}
	}
	return time.Time{}, fmt.Errorf("unexpected timestamp %v (%T)", v, v)
}
