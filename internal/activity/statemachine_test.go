package activity_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/reten-io/reten/ent"
	entact "github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activitystatusevent"
	"github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// want is the expected table, written out independently of activity.Table:
// (from, trigger) -> (to, event). Missing pairs are illegal.
func want() map[activity.Status]map[activity.Trigger][2]string {
	all := activity.Statuses
	w := map[activity.Status]map[activity.Trigger][2]string{}
	set := func(froms []activity.Status, tr activity.Trigger, to, ev string) {
		for _, f := range froms {
			if w[f] == nil {
				w[f] = map[activity.Trigger][2]string{}
			}
			target := to
			if to == "same" {
				target = string(f)
			}
			w[f][tr] = [2]string{target, ev}
		}
	}
	R, U, D, C, F, T := activity.StatusReady, activity.StatusUnresolved, activity.StatusDispatched,
		activity.StatusCompleted, activity.StatusFailed, activity.StatusRetrying
	set([]activity.Status{R, T}, activity.TriggerDispatchAttempt, "same", "DISPATCH_ATTEMPT")
	set([]activity.Status{T, F}, activity.TriggerForceRetryAttempt, "RETRYING", "DISPATCH_ATTEMPT")
	set([]activity.Status{R, T}, activity.TriggerDispatchSuccess, "DISPATCHED", "DISPATCH_SUCCESS")
	set([]activity.Status{R, T}, activity.TriggerDispatchFailedRetry, "RETRYING", "DISPATCH_FAILED")
	set([]activity.Status{R, T}, activity.TriggerDispatchFailedFinal, "FAILED", "DISPATCH_FAILED")
	set(all, activity.TriggerResolutionFailed, "UNRESOLVED", "RESOLUTION_FAILED")
	set([]activity.Status{U}, activity.TriggerResolutionRetrySuccess, "READY", "RESOLUTION_RETRY_SUCCESS")
	set([]activity.Status{U}, activity.TriggerResolutionRetryFailed, "same", "RESOLUTION_RETRY_FAILED")
	acc := []activity.Status{R, D, T, C}
	set(acc, activity.TriggerResultCompleted, "COMPLETED", "COMPLETED")
	set(acc, activity.TriggerResultTransferred, "COMPLETED", "COMPLETED")
	set(acc, activity.TriggerResultNotExecuted, "FAILED", "FAILED")
	set(acc, activity.TriggerResultCanceled, "CANCELED", "CANCELED")
	set(acc, activity.TriggerResultPending, "same", "")
	set([]activity.Status{R, U, D, T}, activity.TriggerCancel, "CANCELED", "CANCELED")
	set([]activity.Status{R, D, T}, activity.TriggerDayClosed, "FAILED", "FAILED")
	return w
}

func sameInstant(a, b *time.Time) bool {
	return a == nil && b == nil || a != nil && b != nil && a.Equal(*b)
}

func TestTransitionTable(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		// A request's context: the super_admin admitted to a line of the
		// project (the events' actor is the access's user).
		ctx, err := tenancy.Enter(viewer.NewContext(context.Background(), &viewer.Viewer{UserID: acme.UserID, TenantID: acme.TenantID,
			ProjectID: acme.ProjectID, Roles: []string{auth.RoleSuperAdmin}, Permissions: auth.PermissionsOf([]string{auth.RoleSuperAdmin})}),
			"POST /activities/tasks/{id}/dispatch")
		if err != nil {
			t.Fatal(err)
		}
		c := env.App.DB.Client
		com := c.Commerce.Create().SetTenantID(acme.TenantID).SetName("Shop").SaveX(ctx)
		w := want()
		legal := 0
		for _, from := range activity.Statuses {
			for _, tr := range activity.Triggers {
				a := c.Activity.Create().SetTenantID(acme.TenantID).SetProjectID(acme.ProjectID).SetCommerceID(com.ID).
					SetType("TASK").SetChannel("SMS").SetStatus(from).SetScheduledAt(time.Now()).SaveX(ctx)
				err := txn.Run(ctx, c, func(ctx context.Context, tx *ent.Client) error {
					return (activity.Machine{}).Transition(ctx, tx, a, tr, map[string]any{"k": "v"})
				})
				got := c.Activity.GetX(ctx, a.ID)
				evs := c.ActivityStatusEvent.Query().Where(activitystatusevent.ActivityID(a.ID)).AllX(ctx)
				exp, ok := w[from][tr]
				if !ok {
					var ae *apperr.Error
					if !errors.Is(err, activity.ErrIllegalTransition) || !errors.As(err, &ae) || ae.Status() != 409 ||
						ae.Messages[0] != "Activity in status "+string(from)+" does not accept "+string(tr) {
						t.Fatalf("%s + %s: err = %v, want the illegal transition 409", from, tr, err)
					}
					if got.Status != from || len(evs) != 0 || got.DispatchAttempts != 0 {
						t.Fatalf("%s + %s: illegal transition changed the activity: %s, %d events", from, tr, got.Status, len(evs))
					}
					continue
				}
				legal++
				if err != nil {
					t.Fatalf("%s + %s: %v", from, tr, err)
				}
				if string(got.Status) != exp[0] || string(a.Status) != exp[0] {
					t.Fatalf("%s + %s: status %s (in memory %s), want %s", from, tr, got.Status, a.Status, exp[0])
				}
				// The caller's activity is the stored one (mirrored, not read back).
				if a.DispatchAttempts != got.DispatchAttempts || !a.UpdatedAt.Equal(got.UpdatedAt) ||
					!sameInstant(a.NextDispatchAt, got.NextDispatchAt) || !sameInstant(a.ClosedAt, got.ClosedAt) {
					t.Fatalf("%s + %s: in memory %+v, stored %+v", from, tr, a, got)
				}
				if exp[1] == "" {
					if len(evs) != 0 {
						t.Fatalf("%s + %s: %d events, want none", from, tr, len(evs))
					}
					continue
				}
				if len(evs) != 1 {
					t.Fatalf("%s + %s: %d events, want 1", from, tr, len(evs))
				}
				e := evs[0]
				if string(e.EventType) != exp[1] || e.FromStatus == nil || string(*e.FromStatus) != string(from) ||
					string(e.ToStatus) != exp[0] || e.Detail["k"] != "v" || e.ActorID == nil || *e.ActorID != acme.UserID {
					t.Fatalf("%s + %s: event %+v", from, tr, e)
				}
			}
		}
		if legal != len(activity.Table)-1 { // the table also holds the creation row
			t.Fatalf("%d legal pairs tested, table has %d rows besides creation", legal, len(activity.Table)-1)
		}

		// ApplyResult maps each result status to its row; an unknown one is an error.
		for status, to := range map[string]entact.Status{"COMPLETED": "COMPLETED", "TRANSFERRED": "COMPLETED",
			"NOT_EXECUTED": "FAILED", "CANCELED": "CANCELED", "PENDING": "DISPATCHED"} {
			a := c.Activity.Create().SetTenantID(acme.TenantID).SetProjectID(acme.ProjectID).SetCommerceID(com.ID).
				SetType("TASK").SetChannel("SMS").SetStatus("DISPATCHED").SetScheduledAt(time.Now()).SaveX(ctx)
			if err := txn.Run(ctx, c, func(ctx context.Context, tx *ent.Client) error {
				return (activity.Machine{}).ApplyResult(ctx, tx, a, status, activity.LastEvent{})
			}); err != nil || c.Activity.GetX(ctx, a.ID).Status != to {
				t.Fatalf("ApplyResult %s: %v, status %s", status, err, c.Activity.GetX(ctx, a.ID).Status)
			}
		}
		a := c.Activity.Create().SetTenantID(acme.TenantID).SetProjectID(acme.ProjectID).SetCommerceID(com.ID).
			SetType("TASK").SetChannel("SMS").SetScheduledAt(time.Now()).SaveX(ctx)
		if err := (activity.Machine{}).ApplyResult(ctx, c, a, "DONE", activity.LastEvent{}); err == nil {
			t.Fatal("ApplyResult accepted an unknown result status")
		}
		if !activity.AcceptsResult("READY") || activity.AcceptsResult("CANCELED") || activity.AcceptsResult("UNRESOLVED") {
			t.Fatal("AcceptsResult disagrees with SPEC.md rule 1")
		}

		// A transition from a stale read is refused (no lost update).
		stale := c.Activity.GetX(ctx, a.ID)
		if err := (activity.Machine{}).Transition(ctx, c, a, activity.TriggerCancel, nil); err != nil {
			t.Fatal(err)
		}
		var ae *apperr.Error
		if err := (activity.Machine{}).Transition(ctx, c, stale, activity.TriggerDispatchAttempt, nil); !errors.As(err, &ae) ||
			ae.Status() != 409 || ae.Messages[0] != activity.MsgConcurrentChange {
			t.Fatalf("stale transition: %v", err)
		}
	})
}

func TestRetryPolicy(t *testing.T) {
	p := activity.RetryPolicy{MaxAttempts: 3, Backoff: time.Minute}
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		attempts int
		tr       activity.Trigger
		next     time.Duration
	}{{1, activity.TriggerDispatchFailedRetry, time.Minute}, {2, activity.TriggerDispatchFailedRetry, 2 * time.Minute},
		{3, activity.TriggerDispatchFailedFinal, 0}} {
		tr, at := p.AfterFailure(c.attempts, now)
		if tr != c.tr || (at == nil) != (c.next == 0) || at != nil && !at.Equal(now.Add(c.next)) {
			t.Fatalf("attempt %d: %s %v", c.attempts, tr, at)
		}
	}
}
