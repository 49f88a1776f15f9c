package activity

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activityattribute"
	"github.com/reten-io/reten/ent/activitystatusevent"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/dispatch"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// Resolution event types accepted by RecordResolutionEvent.
var ResolutionEvents = []string{string(TriggerResolutionFailed), string(TriggerResolutionRetrySuccess),
	string(TriggerResolutionRetryFailed)}

// Messages of the activity commands.
var (
	MsgResolutionEvent = "event_type must be one of the following values: " + strings.Join(ResolutionEvents, ", ")
)

// Messages of the dispatch commands.
const (
	MsgRetryScheduledFmt = "The next dispatch attempt of this task is scheduled at %s; use force-retry-dispatch to retry now"
	MsgForceRetryFmt     = "Activity in status %s cannot be retried: only a task in RETRYING, or FAILED by its last dispatch attempt, can be force-retried"
)

// Cancel moves an activity of the active project to CANCELED with a
// CANCELED event; reason, when given, is kept on the event.
func (s *Service) Cancel(ctx context.Context, id uuid.UUID, reason *string) (*ent.Activity, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	var detail map[string]any
	if reason != nil {
		detail = map[string]any{"reason": *reason}
	}
	return s.command(ctx, tid, pid, id, false, TriggerCancel, detail)
}

// ResolutionInput is a resolution outcome: its event type, a detail kept on
// the event, and the problems an adapter met decoding it (the event type
// rule is not checked again on a member already reported).
type ResolutionInput struct {
	EventType string
	Detail    map[string]any
	Problems  apperr.Problems
}

// RecordResolutionEvent applies a resolution outcome reported by the
// target/attribute resolution: RESOLUTION_FAILED ->
// UNRESOLVED, RESOLUTION_RETRY_SUCCESS UNRESOLVED -> READY,
// RESOLUTION_RETRY_FAILED leaves an UNRESOLVED activity as it is (with its
// event).
func (s *Service) RecordResolutionEvent(ctx context.Context, id uuid.UUID, in ResolutionInput) (*ent.Activity, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	p := in.Problems
	p.Rule(!slices.Contains(ResolutionEvents, in.EventType), MsgResolutionEvent, "event_type")
	if err := p.Err(); err != nil {
		return nil, err
	}
	return s.command(ctx, tid, pid, id, false, Trigger(in.EventType), in.Detail)
}

// command loads the activity and applies one trigger in a transaction.
func (s *Service) command(ctx context.Context, tid, pid, id uuid.UUID, taskOnly bool, tr Trigger, detail map[string]any) (*ent.Activity, error) {
	err := txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		a, err := s.load(ctx, tx, tid, pid, id, taskOnly)
		if err != nil {
			return err
		}
		return s.Machine.Transition(ctx, tx, a, tr, detail)
	})
	if err != nil {
		return nil, err
	}
	return s.detail(ctx, s.db(ctx), tid, pid, id, taskOnly)
}

// RetryPolicy is how a failed dispatch is retried, from the channel's
// dispatch config: attempt n (1-based) that fails while n < MaxAttempts
// moves the task to RETRYING with next_dispatch_at = now + Backoff * 2^(n-1);
// the failure of attempt MaxAttempts moves it to FAILED.
type RetryPolicy struct {
	MaxAttempts int
	Backoff     time.Duration
}

// PolicyOf is the retry policy of a dispatch config.
func PolicyOf(cfg *ent.DispatchConfig) RetryPolicy {
	return RetryPolicy{MaxAttempts: cfg.MaxAttempts, Backoff: time.Duration(cfg.RetryBackoffSeconds) * time.Second}
}

// AfterFailure returns the trigger of a failed attempt number attempts and,
// when the task is to be retried, the instant of its next attempt.
func (p RetryPolicy) AfterFailure(attempts int, now time.Time) (Trigger, *time.Time) {
	if attempts >= p.MaxAttempts {
		return TriggerDispatchFailedFinal, nil
	}
	shift := min(max(attempts-1, 0), 16)
	next := clock.Stored(now.Add(p.Backoff * time.Duration(1<<shift)))
	return TriggerDispatchFailedRetry, &next
}

// Dispatch sends a task of the active project through the dispatch config
// and provider of its channel: a DISPATCH_ATTEMPT event,
// then DISPATCH_SUCCESS (-> DISPATCHED) or DISPATCH_FAILED (-> RETRYING or
// FAILED per RetryPolicy). A READY task, or a RETRYING one whose next
// attempt is due, may be dispatched. The provider is called outside any
// transaction: the attempt is committed first, the outcome after.
func (s *Service) Dispatch(ctx context.Context, id uuid.UUID) (*ent.Activity, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	return s.send(ctx, tid, pid, id, false)
}

// ForceRetryDispatch dispatches now a task in RETRYING (whatever its
// schedule) or FAILED by its last dispatch attempt, with a fresh attempt
// budget.
func (s *Service) ForceRetryDispatch(ctx context.Context, id uuid.UUID) (*ent.Activity, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	return s.send(ctx, tid, pid, id, true)
}

func (s *Service) send(ctx context.Context, tid, pid, id uuid.UUID, force bool) (*ent.Activity, error) {
	a, err := s.load(ctx, s.client, tid, pid, id, true)
	if err != nil {
		return nil, err
	}
	tr := TriggerDispatchAttempt
	if force {
		tr = TriggerForceRetryAttempt
		if err := s.checkForceRetry(ctx, a); err != nil {
			return nil, err
		}
	} else if _, ok := Lookup(a.Status, tr); !ok {
		return nil, illegal(a.Status, TriggerDispatchAttempt)
	} else if a.Status == StatusRetrying && a.NextDispatchAt != nil && a.NextDispatchAt.After(s.Now()) {
		return nil, apperr.Conflict(fmt.Sprintf(MsgRetryScheduledFmt, a.NextDispatchAt.UTC().Format(time.RFC3339)))
	}
	d, cfg, err := s.dispatch.For(ctx, pid, string(a.Channel))
	if err != nil {
		return nil, err
	}
	policy := PolicyOf(cfg)
	msg, err := s.message(ctx, a)
	if err != nil {
		return nil, err
	}
	if err := txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		return s.Machine.Transition(ctx, tx, a, tr, map[string]any{"attempt": a.DispatchAttempts + 1, "forced": force,
			"dispatchConfigId": cfg.ID.String(), "providerId": cfg.ProviderID.String()})
	}); err != nil {
		return nil, err
	}
	ref, derr := d.Dispatch(ctx, msg)
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		if derr == nil {
			link, err := providerRefFree(ctx, tx, a, ref)
			if err != nil {
				return err
			}
			return s.Machine.apply(ctx, tx, a, TriggerDispatchSuccess, map[string]any{"attempt": a.DispatchAttempts, "providerRef": ref},
				func(u *ent.ActivityUpdate) {
					if link {
						u.SetProviderActivityID(ref)
					}
				}, LastEvent{})
		}
		next, at := policy.AfterFailure(a.DispatchAttempts, s.Now())
		detail := map[string]any{"attempt": a.DispatchAttempts, "maxAttempts": policy.MaxAttempts, "error": derr.Error()}
		return s.Machine.apply(ctx, tx, a, next, detail, func(u *ent.ActivityUpdate) {
			if at != nil {
				u.SetNextDispatchAt(*at)
			}
		}, LastEvent{})
	})
	if err != nil {
		return nil, err
	}
	return s.detail(ctx, s.client, tid, pid, id, true)
}

// providerRefFree reports whether a successful dispatch's provider reference
// becomes the task's providerActivityId (what results link by): a non-empty
// reference no other activity of the tenant holds. A re-dispatch replaces the
// reference of the previous message (the provider tracks the latest one);
// every reference stays on its DISPATCH_SUCCESS event.
func providerRefFree(ctx context.Context, tx *ent.Client, a *ent.Activity, ref string) (bool, error) {
	if ref == "" || len(ref) > maxProviderRef {
		return false, nil
	}
	taken, err := tx.Activity.Query().Where(activity.TenantID(a.TenantID), activity.ProviderActivityID(ref),
		activity.IDNEQ(a.ID)).Exist(ctx)
	if err != nil {
		return false, fmt.Errorf("provider reference: %w", err)
	}
	if taken {
		slog.WarnContext(ctx, "dispatch: provider reference already names another activity; not linked",
			"activity_id", a.ID, "provider_ref", ref)
	}
	return !taken, nil
}

// maxProviderRef bounds a reference stored as providerActivityId.
const maxProviderRef = 255

// checkForceRetry allows RETRYING, and FAILED only when the last event is a
// DISPATCH_FAILED (a task failed by a result or the day cutoff stays failed).
func (s *Service) checkForceRetry(ctx context.Context, a *ent.Activity) error {
	if _, ok := Lookup(a.Status, TriggerForceRetryAttempt); !ok {
		return forceRetryRefused(a.Status)
	}
	if a.Status != StatusFailed {
		return nil
	}
	last, err := s.client.ActivityStatusEvent.Query().Where(activitystatusevent.ActivityID(a.ID)).
		Order(activitystatusevent.ByOccurredAt(sql.OrderDesc()), activitystatusevent.ByID(sql.OrderDesc())).First(ctx)
	if err != nil {
		return err
	}
	if last.EventType != activitystatusevent.EventTypeDISPATCH_FAILED {
		return forceRetryRefused(a.Status)
	}
	return nil
}

func forceRetryRefused(s activity.Status) error {
	return &apperr.Error{Kind: apperr.KindConflict, Messages: []string{fmt.Sprintf(MsgForceRetryFmt, s)}, Err: ErrIllegalTransition}
}

// message is what the provider receives for a task: its title and
// description, and its commerce, operator, schedule and attributes as variables.
func (s *Service) message(ctx context.Context, a *ent.Activity) (dispatch.Message, error) {
	attrs, err := s.client.ActivityAttribute.Query().Where(activityattribute.ActivityID(a.ID)).All(ctx)
	if err != nil {
		return dispatch.Message{}, err
	}
	vars := map[string]any{"commerceId": a.CommerceID.String(), "scheduledAt": a.ScheduledAt.UTC().Format(time.RFC3339Nano),
		"type": string(a.Type), "channel": string(a.Channel)}
	if a.Edges.Commerce != nil {
		vars["commerceName"] = a.Edges.Commerce.Name
	}
	if a.OperatorID != nil {
		vars["operatorId"] = a.OperatorID.String()
	}
	attributes := map[string]any{}
	for _, at := range attrs {
		attributes[at.Key] = at.Value
	}
	vars["attributes"] = attributes
	return dispatch.Message{ActivityID: a.ID, Recipient: a.CommerceID.String(), Subject: a.Title, Body: a.Description,
		Variables: vars}, nil
}
