package generator

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activitystatusevent"
	gd "github.com/reten-io/reten/ent/generationdecision"
	act "github.com/reten-io/reten/internal/activity"
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
		if err := w.markDecided(ctx, tx, es); err != nil {
			return nil, err
		}
		ds, err := g.decide(w, es)
		if err != nil {
			return nil, err
		}
		if write {
			if err := g.write(ctx, tx, tid, now, ds); err != nil {
				return nil, err
			}
		}
		all = append(all, ds...)
	}
	return all, nil
}

// decisionColumns are the columns of a decision row, in order.
var decisionColumns = []string{gd.FieldID, gd.FieldTenantID, gd.FieldProjectID, gd.FieldActivityGenerationConfigID, gd.FieldRuleID,
	gd.FieldCommerceID, gd.FieldTrigger, gd.FieldStage, gd.FieldStatusCode, gd.FieldEnteredAt, gd.FieldKind, gd.FieldReason,
	gd.FieldDetail, gd.FieldActivityID, gd.FieldTransitionID, gd.FieldDecidedAt}

// chunk bounds the rows of one multi-row insert (16 columns x 1,000 rows
// stays under SQLite's 32,766 parameters).
const chunk = 1000

// write inserts the decisions (ON CONFLICT DO NOTHING on the unique
// (rule, commerce, entry) key: a decision some other writer already made
// is kept, and its activity is not created twice), then the activities of
// the GENERATED ones that were inserted, with their attributes and status
// events.
func (g *Service) write(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, now time.Time, ds []*decision) error {
	inserted := map[uuid.UUID]bool{}
	for part := range slices.Chunk(ds, chunk) {
		b := sql.Dialect(g.dialect).Insert(gd.Table).Columns(decisionColumns...)
		for _, d := range part {
			var activityID *uuid.UUID
			if d.activity != nil {
				activityID = &d.activity.id
			}
			var reason any
			if d.reason != nil {
				reason = string(*d.reason)
			}
			b.Values(d.id, tenantID, d.project, d.agc, d.rule, d.commerce, string(d.trigger), d.stage, d.code, d.enteredAt.UTC(),
				string(d.kind), reason, d.detail, activityID, d.transition, now)
		}
		b.OnConflict(sql.ConflictColumns(gd.FieldRuleID, gd.FieldCommerceID, gd.FieldEnteredAt), sql.DoNothing()).Returning(gd.FieldID)
		q, args := b.Query()
		rows, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("generation: insert decisions: %w", err)
		}
		for rows.Next() {
			var id uuid.UUID
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			inserted[id] = true
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if err := rows.Err(); err != nil {
			return err
		}
	}
	var as []*newActivity
	for _, d := range ds {
		if d.activity != nil && inserted[d.id] {
			as = append(as, d.activity)
		}
	}
	for part := range slices.Chunk(as, chunk/2) {
		if err := g.createActivities(ctx, tx, tenantID, now, part); err != nil {
			return err
		}
	}
	return nil
}

// createActivities inserts activities with their attributes and their
// CREATED event; an unresolved message then gets its RESOLUTION_FAILED
// event and is UNRESOLVED (SPEC.md: RESOLUTION_FAILED from any status).
func (g *Service) createActivities(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, now time.Time, as []*newActivity) error {
	created, _ := act.Lookup("", act.TriggerCreated)
	failed, _ := act.Lookup(created.To, act.TriggerResolutionFailed)
	bulk := make([]*ent.ActivityCreate, 0, len(as))
	var attrs []*ent.ActivityAttributeCreate
	var events []*ent.ActivityStatusEventCreate
	for _, a := range as {
		status := created.To
		if a.unresolved != "" {
			status = failed.To
		}
		bulk = append(bulk, tx.Activity.Create().SetID(a.id).SetTenantID(tenantID).SetProjectID(a.project).SetCommerceID(a.commerce).
			SetActivityGenerationConfigID(a.agc).SetType(a.typ).SetChannel(a.channel).SetStatus(status).SetScheduledAt(a.scheduled).
			SetNillableExpiresAt(a.expires).SetTitle(a.title).SetDescription(a.description).SetReasonCode(a.reason).
			SetNillableOperatorID(a.operator).SetNillableRouteID(a.route).SetCreatedAt(a.created).SetUpdatedAt(a.created))
		for _, k := range slices.Sorted(maps.Keys(a.attributes)) {
			attrs = append(attrs, tx.ActivityAttribute.Create().SetTenantID(tenantID).SetProjectID(a.project).SetActivityID(a.id).
				SetKey(k).SetValue(a.attributes[k]).SetCreatedAt(a.created).SetUpdatedAt(a.created))
		}
		events = append(events, tx.ActivityStatusEvent.Create().SetTenantID(tenantID).SetProjectID(a.project).SetActivityID(a.id).
			SetEventType(created.Event).SetToStatus(activitystatusevent.ToStatus(created.To)).SetOccurredAt(a.created).
			SetCreatedAt(a.created).SetUpdatedAt(a.created))
		if a.unresolved != "" {
			events = append(events, tx.ActivityStatusEvent.Create().SetTenantID(tenantID).SetProjectID(a.project).SetActivityID(a.id).
				SetEventType(failed.Event).SetFromStatus(activitystatusevent.FromStatus(created.To)).
				SetToStatus(activitystatusevent.ToStatus(failed.To)).SetOccurredAt(a.created.Add(time.Microsecond)).
				SetDetail(map[string]any{"reason": a.unresolved}).SetCreatedAt(a.created).SetUpdatedAt(a.created))
		}
	}
	if err := tx.Activity.CreateBulk(bulk...).Exec(ctx); err != nil {
		return fmt.Errorf("generation: create activities: %w", err)
	}
	for part := range slices.Chunk(attrs, chunk) {
		if err := tx.ActivityAttribute.CreateBulk(part...).Exec(ctx); err != nil {
			return fmt.Errorf("generation: create activity attributes: %w", err)
		}
	}
	for part := range slices.Chunk(events, chunk) {
		if err := tx.ActivityStatusEvent.CreateBulk(part...).Exec(ctx); err != nil {
			return fmt.Errorf("generation: create status events: %w", err)
		}
	}
	return nil
}
