package generator

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	stdsql "database/sql"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activityattribute"
	"github.com/reten-io/reten/ent/activitystatusevent"
	gd "github.com/reten-io/reten/ent/generationdecision"
	act "github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/webhook"
)

// apply decides entries (of any tenants) and, when write is set, writes the
// decisions and their activities in tx; it returns the decisions.
func (g *Service) apply(ctx context.Context, tx *ent.Client, entries []entry, now time.Time, write bool) ([]*decision, error) {
	byTenant := map[uuid.UUID][]entry{}
	for _, e := range entries {
		byTenant[e.tenant] = append(byTenant[e.tenant], e)
	}
	var all []*decision
	for _, tid := range slices.SortedFunc(maps.Keys(byTenant), func(a, b uuid.UUID) int { return cmpString(a.String(), b.String()) }) {
		es := byTenant[tid]
		// A commerce's entries in the order they happened.
		slices.SortStableFunc(es, func(a, b entry) int { return a.enteredAt.Compare(b.enteredAt) })
		w, err := g.load(ctx, tx, tid, es, now, write)
		if err != nil {
			return nil, err
		}
		ds, err := g.decide(w, es)
		if err != nil {
			return nil, err
		}
		if write {
			ev, err := g.events(ctx, tx, tid)
			if err != nil {
				return nil, err
			}
			for _, e := range es {
				if e.change != nil {
					ev.add(webhook.TypeLifecycleStateChanged, func() webhook.Event { return webhook.TransitionEvent(*e.change) })
				}
			}
			if err := g.write(ctx, tx, tid, now, ds, ev); err != nil {
				return nil, err
			}
			if err := g.Machine.Events.Emit(ctx, tx, tid, ev.list...); err != nil {
				return nil, err
			}
		}
		all = append(all, ds...)
	}
	return all, nil
}

// Columns of the rows generation writes.
var (
	decisionColumns = []column{{gd.FieldID, "uuid"}, {gd.FieldTenantID, "uuid"}, {gd.FieldProjectID, "uuid"},
		{gd.FieldActivityGenerationConfigID, "uuid"}, {gd.FieldRuleID, "uuid"}, {gd.FieldCommerceID, "uuid"}, {gd.FieldTrigger, "text"},
		{gd.FieldStage, "text"}, {gd.FieldStatusCode, "text"}, {gd.FieldEnteredAt, "timestamptz"}, {gd.FieldKind, "text"},
		{gd.FieldReason, "text"}, {gd.FieldDetail, "text"}, {gd.FieldActivityID, "uuid"}, {gd.FieldTransitionID, "uuid"},
		{gd.FieldDecidedAt, "timestamptz"}}
	activityColumns = []column{{activity.FieldID, "uuid"}, {activity.FieldCreatedAt, "timestamptz"}, {activity.FieldUpdatedAt, "timestamptz"},
		{activity.FieldTenantID, "uuid"}, {activity.FieldProjectID, "uuid"}, {activity.FieldCommerceID, "uuid"}, {activity.FieldOperatorID, "uuid"},
		{activity.FieldRouteID, "uuid"}, {activity.FieldActivityGenerationConfigID, "uuid"}, {activity.FieldType, "text"},
		{activity.FieldChannel, "text"}, {activity.FieldStatus, "text"}, {activity.FieldScheduledAt, "timestamptz"},
		{activity.FieldExpiresAt, "timestamptz"}, {activity.FieldTitle, "text"}, {activity.FieldDescription, "text"},
		{activity.FieldReasonCode, "text"}, {activity.FieldDispatchAttempts, "bigint"}}
	attributeColumns = []column{{activityattribute.FieldID, "uuid"}, {activityattribute.FieldCreatedAt, "timestamptz"},
		{activityattribute.FieldUpdatedAt, "timestamptz"}, {activityattribute.FieldTenantID, "uuid"}, {activityattribute.FieldProjectID, "uuid"},
		{activityattribute.FieldActivityID, "uuid"}, {activityattribute.FieldKey, "text"}, {activityattribute.FieldValue, "text"}}
	eventColumns = []column{{activitystatusevent.FieldID, "uuid"}, {activitystatusevent.FieldCreatedAt, "timestamptz"},
		{activitystatusevent.FieldUpdatedAt, "timestamptz"}, {activitystatusevent.FieldTenantID, "uuid"},
		{activitystatusevent.FieldProjectID, "uuid"}, {activitystatusevent.FieldActivityID, "uuid"}, {activitystatusevent.FieldEventType, "text"},
		{activitystatusevent.FieldFromStatus, "text"}, {activitystatusevent.FieldToStatus, "text"}, {activitystatusevent.FieldOccurredAt, "timestamptz"},
		{activitystatusevent.FieldDetail, "jsonb"}}
)

// write inserts the decisions (ON CONFLICT DO NOTHING on the unique
// (rule, commerce, entry) key: a decision some other writer already made
// is kept, and its activity is not created twice), then the activities of
// the GENERATED ones that were inserted, with their attributes and status
// events. The rows are written by hand (rows.go): the generator's hot
// path, at the cost of its SQL alone.
func (g *Service) write(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, now time.Time, ds []*decision, ev *events) error {
	rows := make([][]any, len(ds))
	for i, d := range ds {
		var activityID *uuid.UUID
		if d.activity != nil {
			activityID = &d.activity.id
		}
		var reason *string
		if d.reason != nil {
			r := string(*d.reason)
			reason = &r
		}
		rows[i] = []any{d.id, tenantID, d.project, d.agc, d.rule, d.commerce, string(d.trigger), d.stage, d.code, d.enteredAt,
			string(d.kind), reason, d.detail, activityID, d.transition, now}
	}
	inserted := map[uuid.UUID]bool{}
	err := g.insert(ctx, tx, gd.Table, decisionColumns, rows,
		"ON CONFLICT ("+gd.FieldRuleID+", "+gd.FieldCommerceID+", "+gd.FieldEnteredAt+") DO NOTHING RETURNING "+gd.FieldID,
		func(rs *stdsql.Rows) error {
			var id uuid.UUID
			err := rs.Scan(&id)
			inserted[id] = true
			return err
		})
	if err != nil {
		return fmt.Errorf("generation: %w", err)
	}
	var as []*newActivity
	for _, d := range ds {
		if !inserted[d.id] {
			continue
		}
		ev.add(webhook.TypeDecisionRecorded, func() webhook.Event { return webhook.DecisionEvent(d.recorded(now)) })
		if d.activity != nil {
			as = append(as, d.activity)
		}
	}
	return g.createActivities(ctx, tx, tenantID, as, ev)
}

// recorded is the generation.decision_recorded data of d, decided at now.
func (d *decision) recorded(now time.Time) webhook.DecisionRecorded {
	r := webhook.DecisionRecorded{DecisionID: d.id, ProjectID: d.project, ActivityGenerationConfigID: d.agc, RuleID: d.rule,
		CommerceID: d.commerce, Trigger: string(d.trigger), Stage: d.stage, StatusCode: d.code, EnteredAt: d.enteredAt,
		Kind: string(d.kind), Detail: d.detail, TransitionID: d.transition, DecidedAt: now}
	if d.reason != nil {
		reason := string(*d.reason)
		r.Reason = &reason
	}
	if d.activity != nil {
		r.ActivityID = &d.activity.id
	}
	return r
}

// events are the webhook events of one tenant's batch: only those of the
// types an endpoint of the tenant subscribes to are built.
type events struct {
	subscribed map[string]bool
	list       []webhook.Event
}

// events reads what the tenant's endpoints subscribe to (nothing without
// webhooks).
func (g *Service) events(ctx context.Context, tx *ent.Client, tenantID uuid.UUID) (*events, error) {
	subs, err := g.Machine.Events.Subscribed(ctx, tx, tenantID)
	return &events{subscribed: subs}, err
}

// add builds and keeps an event of type typ when it is subscribed to.
func (e *events) add(typ string, build func() webhook.Event) {
	if e.subscribed[typ] {
		e.list = append(e.list, build())
	}
}

// createActivities inserts activities with their attributes and their
// CREATED event; an unresolved message then gets its RESOLUTION_FAILED
// event and is UNRESOLVED (SPEC.md: RESOLUTION_FAILED from any status).
func (g *Service) createActivities(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, as []*newActivity, ev *events) error {
	created, _ := act.Lookup("", act.TriggerCreated)
	failed, _ := act.Lookup(created.To, act.TriggerResolutionFailed)
	var acts, attrs, rows [][]any
	for _, a := range as {
		status := created.To
		if a.unresolved != "" {
			status = failed.To
		}
		acts = append(acts, []any{a.id, a.created, a.created, tenantID, a.project, a.commerce, a.operator, a.route, a.agc,
			string(a.typ), string(a.channel), string(status), a.scheduled, a.expires, a.title, a.description, a.reason, 0})
		for _, k := range slices.Sorted(maps.Keys(a.attributes)) {
			attrs = append(attrs, []any{newID(), a.created, a.created, tenantID, a.project, a.id, k, a.attributes[k]})
		}
		createdID := newID()
		rows = append(rows, []any{createdID, a.created, a.created, tenantID, a.project, a.id, string(created.Event), nil,
			string(created.To), a.created, map[string]any(nil)})
		shown := &ent.Activity{ID: a.id, ProjectID: a.project, CommerceID: a.commerce, ActivityGenerationConfigID: &a.agc, Type: a.typ, Channel: a.channel}
		ev.add(webhook.TypeActivityStatusChanged, func() webhook.Event {
			return webhook.StatusEvent(shown, createdID, string(created.Event), nil, string(created.To), a.created, nil)
		})
		if a.unresolved != "" {
			at, failedID, detail := a.created.Add(time.Microsecond), newID(), map[string]any{"reason": a.unresolved}
			rows = append(rows, []any{failedID, at, at, tenantID, a.project, a.id, string(failed.Event), string(created.To),
				string(failed.To), at, detail})
			from := string(created.To)
			ev.add(webhook.TypeActivityStatusChanged, func() webhook.Event {
				return webhook.StatusEvent(shown, failedID, string(failed.Event), &from, string(failed.To), at, detail)
			})
		}
	}
	for _, w := range []struct {
		table string
		cols  []column
		rows  [][]any
	}{{activity.Table, activityColumns, acts}, {activityattribute.Table, attributeColumns, attrs}, {activitystatusevent.Table, eventColumns, rows}} {
		if err := g.insert(ctx, tx, w.table, w.cols, w.rows, "", nil); err != nil {
			return fmt.Errorf("generation: %w", err)
		}
	}
	return nil
}
