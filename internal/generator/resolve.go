package generator

import (
	"context"
	"fmt"
	"slices"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activityattribute"
	"github.com/reten-io/reten/ent/commercecontact"
	"github.com/reten-io/reten/ent/commerceuser"
	"github.com/reten-io/reten/ent/commerceuserrole"
	"github.com/reten-io/reten/ent/generationrule"
	act "github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/jobs"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// Attributes generation writes on the activities it creates.
const (
	// AttrRule is the rule that created the activity.
	AttrRule = "generation_rule_id"
	// AttrUnassigned flags a task created without an operator, with why:
	// NO_ROUTE, NO_LEAD or NO_MEMBER.
	AttrUnassigned = "unassigned"
	// AttrTargetRole is the commerce user role a message is for.
	AttrTargetRole = "target_role"
	// AttrRecipient and AttrRecipientUser are a resolved message's address
	// (the contact's value, or the user's external id for PUSH) and user.
	AttrRecipient     = "recipient"
	AttrRecipientUser = "recipient_user_id"
)

// contactOf is the contact type that carries a channel ("" for PUSH, which
// goes to the user's external id).
var contactOf = map[activity.Channel]string{
	activity.ChannelWHATSAPP: string(commercecontact.ContactTypeWHATSAPP),
	activity.ChannelSMS:      string(commercecontact.ContactTypePHONE),
	activity.ChannelEMAIL:    string(commercecontact.ContactTypeEMAIL),
}

// assign resolves a task's operator from the commerce's routes (by code):
// ROUTE_LEAD takes the first route's lead; ROUTE_MEMBERS_ROUND_ROBIN the
// member (of the rule's operator type) of the first route that has one who
// least recently got a generated task. Without one the task has no operator
// and is flagged (AttrUnassigned).
func (w *world) assign(a *newActivity, r *ent.GenerationRule) {
	routes := w.routes[a.commerce]
	if len(routes) == 0 {
		a.attributes[AttrUnassigned] = "NO_ROUTE"
		return
	}
	a.route = &routes[0].ID
	roundRobin := r.Assignment != nil && *r.Assignment == generationrule.AssignmentROUTE_MEMBERS_ROUND_ROBIN
	for _, rt := range routes {
		var best *ent.Operator
		for _, m := range w.members[rt.ID] {
			switch {
			case !roundRobin && m.lead:
				best = m.operator
			case roundRobin && !m.lead && (r.OperatorType == nil || string(*r.OperatorType) == string(m.operator.Type)):
				if best == nil || w.assigned[m.operator.ID].Before(w.assigned[best.ID]) {
					best = m.operator
				}
			}
			if best != nil && !roundRobin {
				break
			}
		}
		if best != nil {
			id, routeID := best.ID, rt.ID
			a.operator, a.route = &id, &routeID
			w.assigned[id] = a.created
			return
		}
	}
	if roundRobin {
		a.attributes[AttrUnassigned] = "NO_MEMBER"
	} else {
		a.attributes[AttrUnassigned] = "NO_LEAD"
	}
}

// target resolves a message's recipient: the commerce's first active user
// holding role with an active primary contact of the channel's kind (PUSH:
// with an external id). Without one the message is created UNRESOLVED.
func (w *world) target(a *newActivity, role string) {
	if to, user, ok := resolve(w.users[a.commerce], a.channel, role); ok {
		a.attributes[AttrRecipient], a.attributes[AttrRecipientUser] = to, user.String()
		return
	}
	a.unresolved = unresolvedWhy(a.channel, role)
}

func resolve(users []recipient, ch activity.Channel, role string) (string, uuid.UUID, bool) {
	for _, u := range users {
		if !slices.Contains(u.roles, role) {
			continue
		}
		if ch == activity.ChannelPUSH {
			if u.user.ExternalID != nil && *u.user.ExternalID != "" {
				return *u.user.ExternalID, u.user.ID, true
			}
			continue
		}
		if v, ok := u.contacts[contactOf[ch]]; ok {
			return v, u.user.ID, true
		}
	}
	return "", uuid.Nil, false
}

func unresolvedWhy(ch activity.Channel, role string) string {
	if ch == activity.ChannelPUSH {
		return fmt.Sprintf("no active %s user of the commerce has an external id", role)
	}
	return fmt.Sprintf("no active %s user of the commerce has an active primary %s contact", role, contactOf[ch])
}

// RetryResolution retries up to Batch generated messages left UNRESOLVED:
// those whose last attempt is RetryEvery old, and at once those whose
// commerce's users, roles or contacts changed since. A found recipient
// moves the message to READY (RESOLUTION_RETRY_SUCCESS); otherwise it stays
// UNRESOLVED with a RESOLUTION_RETRY_FAILED event (SPEC.md).
func (g *Service) RetryResolution(ctx context.Context, now time.Time) (int, error) {
	ctx, now = viewer.SystemContext(ctx), clock.Stored(now)
	var n int
	err := txn.Run(ctx, g.client, func(ctx context.Context, tx *ent.Client) error {
		due, err := tx.Activity.Query().Where(activity.StatusEQ(activity.StatusUNRESOLVED), activity.ActivityGenerationConfigIDNotNil(),
			activity.TypeEQ(activity.TypeMESSAGE), retryDue(now.Add(-g.RetryEvery)), jobs.SkipLocked).
			Order(activity.ByUpdatedAt(), activity.ByID()).Limit(g.Batch).All(ctx)
		if err != nil || len(due) == 0 {
			return err
		}
		n = len(due)
		for _, a := range due {
			if err := g.retryOne(ctx, tx, a); err != nil {
				return err
			}
		}
		return nil
	})
	return n, err
}

// retryDue selects the activities last changed before since, or before a
// change to their commerce's users, roles or contacts.
func retryDue(since time.Time) func(*sql.Selector) {
	return func(s *sql.Selector) {
		u, r, c := sql.Table(commerceuser.Table), sql.Table(commerceuserrole.Table), sql.Table(commercecontact.Table)
		changed := func(t *sql.SelectTable, join func(*sql.Selector) *sql.Selector) *sql.Predicate {
			q := sql.SelectExpr(sql.Raw("1")).From(u)
			if join != nil {
				q = join(q)
			}
			return sql.Exists(q.Where(sql.And(sql.ColumnsEQ(u.C(commerceuser.FieldCommerceID), s.C(activity.FieldCommerceID)),
				sql.ColumnsGT(t.C("updated_at"), s.C(activity.FieldUpdatedAt)))))
		}
		s.Where(sql.Or(
			sql.LT(s.C(activity.FieldUpdatedAt), since),
			changed(u, nil),
			changed(r, func(q *sql.Selector) *sql.Selector {
				return q.Join(r).On(r.C(commerceuserrole.FieldCommerceUserID), u.C(commerceuser.FieldID))
			}),
			changed(c, func(q *sql.Selector) *sql.Selector {
				return q.Join(c).On(c.C(commercecontact.FieldCommerceUserID), u.C(commerceuser.FieldID))
			}),
		))
	}
}

// retryOne tries to resolve one unresolved message again.
func (g *Service) retryOne(ctx context.Context, tx *ent.Client, a *ent.Activity) error {
	attrs, err := tx.ActivityAttribute.Query().Where(activityattribute.ActivityID(a.ID)).All(ctx)
	if err != nil {
		return err
	}
	role := string(generationrule.TargetRoleOWNER)
	for _, at := range attrs {
		if at.Key == AttrTargetRole {
			role = at.Value
		}
	}
	w := &world{tenant: a.TenantID, users: map[uuid.UUID][]recipient{}}
	if err := w.loadRecipients(ctx, tx, []uuid.UUID{a.CommerceID}); err != nil {
		return err
	}
	to, user, ok := resolve(w.users[a.CommerceID], a.Channel, role)
	if !ok {
		return g.Machine.Transition(ctx, tx, a, act.TriggerResolutionRetryFailed, map[string]any{"reason": unresolvedWhy(a.Channel, role)})
	}
	for k, v := range map[string]string{AttrRecipient: to, AttrRecipientUser: user.String()} {
		err := tx.ActivityAttribute.Create().SetTenantID(a.TenantID).SetProjectID(a.ProjectID).SetActivityID(a.ID).
			SetKey(k).SetValue(v).OnConflictColumns(activityattribute.FieldActivityID, activityattribute.FieldKey).
			UpdateValue().Exec(ctx)
		if err != nil {
			return fmt.Errorf("generation: recipient attribute: %w", err)
		}
	}
	return g.Machine.Transition(ctx, tx, a, act.TriggerResolutionRetrySuccess, map[string]any{"recipient": to})
}

// ExpireDue cancels up to Batch open activities whose expiry has passed,
// each with a CANCELED event (reason "expired").
func (g *Service) ExpireDue(ctx context.Context, now time.Time) (int, error) {
	ctx, now = viewer.SystemContext(ctx), clock.Stored(now)
	var n int
	err := txn.Run(ctx, g.client, func(ctx context.Context, tx *ent.Client) error {
		due, err := tx.Activity.Query().Where(activity.StatusIn(openStatuses...), activity.ExpiresAtLTE(now), jobs.SkipLocked).
			Order(activity.ByExpiresAt(), activity.ByID()).Limit(g.Batch).All(ctx)
		if err != nil || len(due) == 0 {
			return err
		}
		n = len(due)
		for _, a := range due {
			if err := g.Machine.Transition(ctx, tx, a, act.TriggerCancel, map[string]any{"reason": "expired"}); err != nil {
				return err
			}
		}
		return nil
	})
	return n, err
}
