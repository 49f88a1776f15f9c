package activity

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activitystatusevent"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/webhook"
)

// Status is an activity status.
type Status = activity.Status

// Statuses of an activity (SPEC.md "Activity statuses").
const (
	StatusReady      = activity.StatusREADY
	StatusUnresolved = activity.StatusUNRESOLVED
	StatusDispatched = activity.StatusDISPATCHED
	StatusCompleted  = activity.StatusCOMPLETED
	StatusCanceled   = activity.StatusCANCELED
	StatusFailed     = activity.StatusFAILED
	StatusRetrying   = activity.StatusRETRYING
)

// Statuses lists every activity status in SPEC.md order.
var Statuses = []activity.Status{StatusReady, StatusUnresolved, StatusDispatched, StatusCompleted,
	StatusCanceled, StatusFailed, StatusRetrying}

// Trigger is what asks for a transition: a status event reported by the
// dispatch or resolution machinery, a submitted result, a user command or
// the day cutoff. Several triggers may write the same event type.
type Trigger string

// Triggers of the transition table.
const (
	TriggerCreated                = Trigger("CREATED")
	TriggerDispatchAttempt        = Trigger("DISPATCH_ATTEMPT")
	TriggerForceRetryAttempt      = Trigger("FORCE_RETRY_DISPATCH_ATTEMPT")
	TriggerDispatchSuccess        = Trigger("DISPATCH_SUCCESS")
	TriggerDispatchFailedRetry    = Trigger("DISPATCH_FAILED_RETRY")
	TriggerDispatchFailedFinal    = Trigger("DISPATCH_FAILED_EXHAUSTED")
	TriggerResolutionFailed       = Trigger("RESOLUTION_FAILED")
	TriggerResolutionRetrySuccess = Trigger("RESOLUTION_RETRY_SUCCESS")
	TriggerResolutionRetryFailed  = Trigger("RESOLUTION_RETRY_FAILED")
	TriggerResultCompleted        = Trigger("RESULT_COMPLETED")
	TriggerResultTransferred      = Trigger("RESULT_TRANSFERRED")
	TriggerResultNotExecuted      = Trigger("RESULT_NOT_EXECUTED")
	TriggerResultCanceled         = Trigger("RESULT_CANCELED")
	TriggerResultPending          = Trigger("RESULT_PENDING")
	TriggerCancel                 = Trigger("CANCEL")
	TriggerDayClosed              = Trigger("DAY_CLOSED")
)

// Triggers lists every trigger that applies to an existing activity (all but
// TriggerCreated, which has no from status).
var Triggers = []Trigger{TriggerDispatchAttempt, TriggerForceRetryAttempt, TriggerDispatchSuccess,
	TriggerDispatchFailedRetry, TriggerDispatchFailedFinal, TriggerResolutionFailed, TriggerResolutionRetrySuccess,
	TriggerResolutionRetryFailed, TriggerResultCompleted, TriggerResultTransferred, TriggerResultNotExecuted,
	TriggerResultCanceled, TriggerResultPending, TriggerCancel, TriggerDayClosed}

// Row is one line of the transition table: from From, Trigger moves the
// activity to To and writes one status event of type Event (Event "" writes
// none: the activity is left exactly as it was).
type Row struct {
	From    activity.Status // "" only for creation
	Trigger Trigger
	To      activity.Status
	Event   activitystatusevent.EventType
}

type key struct {
	from    activity.Status
	trigger Trigger
}

var (
	resultAccepting = []activity.Status{StatusReady, StatusDispatched, StatusRetrying, StatusCompleted}
	dispatchable    = []activity.Status{StatusReady, StatusRetrying}
	cancelable      = []activity.Status{StatusReady, StatusUnresolved, StatusDispatched, StatusRetrying}
	dayClosable     = []activity.Status{StatusReady, StatusDispatched, StatusRetrying}
)

// Table is THE activity status machine; nothing else changes an activity's
// status. A (from, trigger) pair missing here is illegal (ErrIllegalTransition).
//
// SPEC.md rows: creation, DISPATCH_SUCCESS, RESOLUTION_FAILED (from any),
// RESOLUTION_RETRY_SUCCESS, RESOLUTION_RETRY_FAILED (unchanged), the five
// result statuses, and the day cutoff (designed: READY, DISPATCHED and
// RETRYING become FAILED with event FAILED). Designed rows: DISPATCH_ATTEMPT
// (no status change) from READY and RETRYING; DISPATCH_SUCCESS also from
// RETRYING; DISPATCH_FAILED to RETRYING while the retry policy has attempts
// left, else to FAILED; a forced retry (FAILED or RETRYING -> RETRYING with a
// DISPATCH_ATTEMPT event); manual cancellation.
var Table = buildTable()

func buildTable() map[key]Row {
	t := map[key]Row{}
	add := func(froms []activity.Status, tr Trigger, to activity.Status, ev activitystatusevent.EventType) {
		for _, f := range froms {
			target := to
			if to == "" { // "" = unchanged
				target = f
			}
			t[key{f, tr}] = Row{From: f, Trigger: tr, To: target, Event: ev}
		}
	}
	add([]activity.Status{""}, TriggerCreated, StatusReady, activitystatusevent.EventTypeCREATED)
	add(dispatchable, TriggerDispatchAttempt, "", activitystatusevent.EventTypeDISPATCH_ATTEMPT)
	add([]activity.Status{StatusRetrying, StatusFailed}, TriggerForceRetryAttempt, StatusRetrying, activitystatusevent.EventTypeDISPATCH_ATTEMPT)
	add(dispatchable, TriggerDispatchSuccess, StatusDispatched, activitystatusevent.EventTypeDISPATCH_SUCCESS)
	add(dispatchable, TriggerDispatchFailedRetry, StatusRetrying, activitystatusevent.EventTypeDISPATCH_FAILED)
	add(dispatchable, TriggerDispatchFailedFinal, StatusFailed, activitystatusevent.EventTypeDISPATCH_FAILED)
	add(Statuses, TriggerResolutionFailed, StatusUnresolved, activitystatusevent.EventTypeRESOLUTION_FAILED)
	add([]activity.Status{StatusUnresolved}, TriggerResolutionRetrySuccess, StatusReady, activitystatusevent.EventTypeRESOLUTION_RETRY_SUCCESS)
	add([]activity.Status{StatusUnresolved}, TriggerResolutionRetryFailed, "", activitystatusevent.EventTypeRESOLUTION_RETRY_FAILED)
	add(resultAccepting, TriggerResultCompleted, StatusCompleted, activitystatusevent.EventTypeCOMPLETED)
	add(resultAccepting, TriggerResultTransferred, StatusCompleted, activitystatusevent.EventTypeCOMPLETED)
	add(resultAccepting, TriggerResultNotExecuted, StatusFailed, activitystatusevent.EventTypeFAILED)
	add(resultAccepting, TriggerResultCanceled, StatusCanceled, activitystatusevent.EventTypeCANCELED)
	add(resultAccepting, TriggerResultPending, "", "")
	add(cancelable, TriggerCancel, StatusCanceled, activitystatusevent.EventTypeCANCELED)
	add(dayClosable, TriggerDayClosed, StatusFailed, activitystatusevent.EventTypeFAILED)
	return t
}

// Lookup returns the row of (from, trigger).
func Lookup(from activity.Status, tr Trigger) (Row, bool) {
	r, ok := Table[key{from, tr}]
	return r, ok
}

// ErrIllegalTransition is the cause of every refused transition; the client
// sees a 409 (errors.Is(err, ErrIllegalTransition) holds on the apperr).
var ErrIllegalTransition = errors.New("illegal activity transition")

// MsgIllegalTransitionFmt is the 409 message: status, then the trigger.
const MsgIllegalTransitionFmt = "Activity in status %s does not accept %s"

func illegal(from activity.Status, tr Trigger) error {
	return &apperr.Error{Kind: apperr.KindConflict, Messages: []string{fmt.Sprintf(MsgIllegalTransitionFmt, from, tr)},
		Err: ErrIllegalTransition}
}

// MsgConcurrentChange answers a transition whose activity changed under it.
const MsgConcurrentChange = "The activity was changed by another request; retry"

// Machine applies the rows of the status machine. Each status event it
// writes is recorded as an activity.status_changed event of Events
// (webhooks) in the same transaction; the zero value records none.
type Machine struct{ Events *webhook.Service }

// Transition applies the row (a.Status, trigger) to a inside tx: it updates
// the activity (guarded on the status and attempt count it was read with, so
// a concurrent change is a 409, never a lost update) and writes the row's
// status event in the same transaction. a is refreshed in place. detail is
// stored on the event (nil for none).
func (m Machine) Transition(ctx context.Context, tx *ent.Client, a *ent.Activity, tr Trigger, detail map[string]any) error {
	return m.apply(ctx, tx, a, tr, detail, nil, LastEvent{})
}

// resultTriggers maps a result status to its trigger.
var resultTriggers = map[string]Trigger{
	"COMPLETED": TriggerResultCompleted, "TRANSFERRED": TriggerResultTransferred,
	"NOT_EXECUTED": TriggerResultNotExecuted, "CANCELED": TriggerResultCanceled, "PENDING": TriggerResultPending,
}

// ApplyResult syncs a linked activity with a submitted result status
// (PENDING, COMPLETED, NOT_EXECUTED, CANCELED or TRANSFERRED) inside tx. An
// activity that does not accept results (UNRESOLVED, CANCELED, FAILED) gets
// ErrIllegalTransition: the results service checks AcceptsResult first to
// answer its 422.
//
// last is the activity's latest event as the caller read it with its lock
// (LastEvent{}: the machine reads it). also are more webhook events of the
// caller's transaction (the result's), recorded with the status event's in
// one go.
func (m Machine) ApplyResult(ctx context.Context, tx *ent.Client, a *ent.Activity, resultStatus string, last LastEvent,
	also ...webhook.Event) error {
	tr, ok := resultTriggers[resultStatus]
	if !ok {
		return fmt.Errorf("activity: unknown result status %q", resultStatus)
	}
	return m.apply(ctx, tx, a, tr, map[string]any{"resultStatus": resultStatus}, nil, last, also...)
}

// AcceptsResult reports whether an activity in status s accepts a result
// (SPEC.md rule 1: READY, DISPATCHED, RETRYING or COMPLETED).
func AcceptsResult(s activity.Status) bool {
	_, ok := Lookup(s, TriggerResultCompleted)
	return ok
}

// CloseDay fails an activity of a closed day (auto-close) inside tx.
func (m Machine) CloseDay(ctx context.Context, tx *ent.Client, a *ent.Activity) error {
	return m.Transition(ctx, tx, a, TriggerDayClosed, map[string]any{"reason": "day cutoff"})
}

// apply is Transition with extra column changes (the retry schedule).
func (m Machine) apply(ctx context.Context, tx *ent.Client, a *ent.Activity, tr Trigger, detail map[string]any,
	extra func(*ent.ActivityUpdate), last LastEvent, also ...webhook.Event) error {
	row, ok := Lookup(a.Status, tr)
	if !ok {
		return illegal(a.Status, tr)
	}
	if row.Event == "" {
		return m.Events.Emit(ctx, tx, a.TenantID, also...) // unchanged, nothing to record (a PENDING result)
	}
	at, err := nextInstant(ctx, tx, a, last)
	if err != nil {
		return err
	}
	// A guarded UPDATE of the one row (no read-back: a is mirrored below).
	u := tx.Activity.Update().Where(activity.ID(a.ID), activity.StatusEQ(a.Status), activity.DispatchAttempts(a.DispatchAttempts)).
		SetStatus(row.To)
	switch tr {
	case TriggerDispatchAttempt:
		u.AddDispatchAttempts(1)
	case TriggerForceRetryAttempt:
		// A forced retry grants a fresh attempt budget.
		u.SetDispatchAttempts(1).ClearNextDispatchAt()
	case TriggerDispatchSuccess, TriggerDispatchFailedFinal:
		u.ClearNextDispatchAt()
	case TriggerDispatchFailedRetry:
		u.SetNextDispatchAt(at)
	case TriggerCancel, TriggerDayClosed, TriggerResultCanceled, TriggerResultNotExecuted,
		TriggerResultCompleted, TriggerResultTransferred:
		u.ClearNextDispatchAt()
	}
	if tr == TriggerDayClosed {
		u.SetClosedAt(at)
	}
	if extra != nil {
		extra(u)
	}
	n, err := u.Save(ctx)
	if err != nil {
		return fmt.Errorf("activity transition %s: %w", tr, err)
	}
	if n == 0 {
		return apperr.Conflict(MsgConcurrentChange)
	}
	from := a.Status
	ev := tx.ActivityStatusEvent.Create().SetTenantID(a.TenantID).SetProjectID(a.ProjectID).SetActivityID(a.ID).
		SetEventType(row.Event).SetFromStatus(activitystatusevent.FromStatus(from)).
		SetToStatus(activitystatusevent.ToStatus(row.To)).SetOccurredAt(at).SetNillableActorID(tenancy.Actor(ctx))
	if detail != nil {
		ev.SetDetail(detail)
	}
	stored, err := ev.Save(ctx)
	if err != nil {
		return fmt.Errorf("activity status event %s: %w", row.Event, err)
	}
	if err := mirror(ctx, tx, a, u.Mutation()); err != nil {
		return err
	}
	f := string(from)
	return m.Events.Emit(ctx, tx, a.TenantID, append(also, webhook.StatusEvent(a, stored.ID, string(row.Event), &f, string(row.To), at, detail))...)
}

// mirrored are the columns a transition writes, which mirror copies onto
// the activity it updated.
var mirrored = []string{activity.FieldStatus, activity.FieldDispatchAttempts, activity.FieldNextDispatchAt,
	activity.FieldClosedAt, activity.FieldProviderActivityID, activity.FieldUpdatedAt}

// mirror applies the transition's column changes m to a in memory, so the
// caller sees the activity as stored without reading it back; a change of
// any other column (a future extra) makes it read the row back instead.
func mirror(ctx context.Context, tx *ent.Client, a *ent.Activity, m *ent.ActivityMutation) error {
	for _, f := range append(m.Fields(), m.AddedFields()...) {
		if !slices.Contains(mirrored, f) {
			fresh, err := tx.Activity.Get(ctx, a.ID)
			if err != nil {
				return fmt.Errorf("activity read back: %w", err)
			}
			edges := a.Edges
			*a = *fresh
			a.Edges = edges
			return nil
		}
	}
	if v, ok := m.Status(); ok {
		a.Status = v
	}
	if v, ok := m.DispatchAttempts(); ok {
		a.DispatchAttempts = v
	}
	if v, ok := m.AddedDispatchAttempts(); ok {
		a.DispatchAttempts += v
	}
	if m.NextDispatchAtCleared() {
		a.NextDispatchAt = nil
	} else if v, ok := m.NextDispatchAt(); ok {
		a.NextDispatchAt = &v
	}
	if v, ok := m.ClosedAt(); ok {
		a.ClosedAt = &v
	}
	if v, ok := m.ProviderActivityID(); ok {
		a.ProviderActivityID = &v
	}
	if v, ok := m.UpdatedAt(); ok {
		a.UpdatedAt = v
	}
	return nil
}
