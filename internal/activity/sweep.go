package activity

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/predicate"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/dispatch"
	"github.com/reten-io/reten/internal/jobs"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// SweepLease is how long a task claimed by the retry sweep stays reserved to
// the replica that claimed it. It must outlast one dispatch (the webhook
// timeout is 10 s) by far.
const SweepLease = 2 * time.Minute

// DispatchDue is the retry sweep: it dispatches, across all tenants, the
// RETRYING tasks whose next attempt is due at now (next_dispatch_at <= now),
// each through the manual dispatch path (the same attempt, provider call,
// outcome and retry policy as POST /api/activities/tasks/:id/dispatch), and
// returns how many it sent (attempts made, whatever the provider answered).
// A task that cannot be sent (its channel lost its dispatch config, the
// provider is inactive...) is logged and the sweep goes on.
//
// The lease. A task is claimed in a short transaction of its own (SELECT ...
// FOR UPDATE SKIP LOCKED on PostgreSQL; SQLite writers are exclusive) that
// clears its next_dispatch_at, and is sent after that commit. A RETRYING task
// without next_dispatch_at is exactly the state of a task whose attempt is in
// flight (a forced retry clears it too, and the API shows nextDispatchAt
// null meanwhile): no sweep selects it as due, and the manual dispatch path
// accepts it as it is, so the sweep calls that path unchanged. Pushing
// next_dispatch_at into the future instead would make the dispatch path
// refuse the task (409 "the next dispatch attempt ... is scheduled at") and
// would need a second variant of that path. The lease time is the claim's
// updated_at: a RETRYING task left without next_dispatch_at for longer than
// SweepLease (its replica died between the claim and the outcome, or during
// a forced retry) is taken again, so no task is stranded; a task that could
// not be sent (no dispatch config) is likewise retried, and logged, once per
// lease. Tasks are claimed one at a time, so the lease only has to cover one
// dispatch, and a lease taken during a call is never taken again by that
// call. The lease is what keeps a second replica from sending a task again
// after its attempt; the compare-and-set of each transition only keeps two
// attempts from starting from the same state. now must be the wall clock in
// production (updated_at is written with it).
//
// Each task is sent as its own tenant and project by a system viewer (no
// user: its status events have no actor), so the privacy layer still
// filters every read and write to that tenant and project.
func (s *Service) DispatchDue(ctx context.Context, now time.Time) (int, error) {
	sys := viewer.SystemContext(ctx)
	now = now.UTC() // like every stored instant (SQLite compares the stored text)
	// A lease taken during this call is never stale within it, whatever now
	// says (updated_at is written with the wall clock).
	stale := now.Add(-SweepLease)
	if start := clock.Now(); start.Before(stale) {
		stale = start.Add(-time.Microsecond)
	}
	sent := 0
	var throttled []predicate.Activity // (project, channel) pairs whose rate is spent
	for {
		if err := ctx.Err(); err != nil {
			return sent, err
		}
		var claimed *ent.Activity
		err := txn.Run(sys, s.client, func(ctx context.Context, tx *ent.Client) error {
			q := tx.Activity.Query().Where(activity.StatusEQ(StatusRetrying), activity.TypeEQ(activity.TypeTASK),
				activity.Or(activity.NextDispatchAtLTE(now),
					activity.And(activity.NextDispatchAtIsNil(), activity.UpdatedAtLTE(stale))))
			for _, p := range throttled {
				q.Where(activity.Not(p))
			}
			a, err := q.Where(jobs.SkipLocked).Order(ent.Asc(activity.FieldNextDispatchAt), ent.Asc(activity.FieldID)).
				First(ctx)
			if ent.IsNotFound(err) {
				return nil
			}
			if err != nil {
				return err
			}
			if err := tx.Activity.UpdateOne(a).ClearNextDispatchAt().Exec(ctx); err != nil {
				return err
			}
			claimed = a
			return nil
		})
		if err != nil {
			return sent, err
		}
		if claimed == nil {
			return sent, nil
		}
		tctx := viewer.NewContext(ctx, &viewer.Viewer{TenantID: claimed.TenantID, ProjectID: claimed.ProjectID})
		if _, err := s.send(tctx, claimed.TenantID, claimed.ProjectID, claimed.ID, false); err != nil {
			if ctx.Err() != nil {
				return sent, ctx.Err()
			}
			if errors.Is(err, dispatch.ErrRateLimited) {
				// The channel's rate is spent: the task waits a minute (the
				// rate's window) and its channel is skipped for the rest of
				// this run; nothing was recorded for it.
				err := s.client.Activity.UpdateOne(claimed).Where(activity.StatusEQ(StatusRetrying), activity.NextDispatchAtIsNil()).
					SetNextDispatchAt(clock.Stored(now.Add(time.Minute))).Exec(sys)
				if err != nil && !ent.IsNotFound(err) { // gone: changed meanwhile
					return sent, err
				}
				throttled = append(throttled, activity.And(activity.ProjectID(claimed.ProjectID), activity.ChannelEQ(claimed.Channel)))
				continue
			}
			slog.WarnContext(ctx, "retry sweep: task not sent", "tenant_id", claimed.TenantID,
				"activity_id", claimed.ID, "err", err)
			continue
		}
		sent++
	}
}

// RunRetrySweep dispatches the due retries now and then every interval until
// ctx ends. Safe to run on every replica (see DispatchDue).
func (s *Service) RunRetrySweep(ctx context.Context, every time.Duration) {
	jobs.Every(ctx, "retry sweep", every, s.Now, s.DispatchDue)
}
