// Package dayclose is the end-of-day auto-close job: once a tenant's day has
// passed its cutoff (internal/cutoff: the tenant's time zone and day_cutoff),
// every activity of that day (or of an earlier one) still in READY,
// DISPATCHED or RETRYING is closed.
//
// Closing an activity, in one transaction per batch (nothing half-written:
// the result and the transition commit together or not at all):
//
//   - a TASK without a result gets one: source RETEN_ACTIVITY, result_status
//     NOT_EXECUTED, result_code "other" (ResultCode), comment MsgAutoClosed,
//     occurred_at the instant its day closed (cutoff.CloseAt of its scheduled
//     day), payload {"autoClosed": true, "day": "YYYY-MM-DD"}, and the
//     activity's tenant, project, commerce and provider_activity_id. The
//     code is used whatever the tenant's result type configs say: the result
//     is the system's, not a submission. A task that already has a result
//     (a PENDING one) keeps it untouched, and a MESSAGE gets none (results
//     are task results: the submission routes link tasks only);
//   - then the DAY_CLOSED row of the status machine (activity.CloseDay):
//     status FAILED, closed_at set, next_dispatch_at cleared and a FAILED
//     status event from the old status, with no actor.
//
// UNRESOLVED, COMPLETED, CANCELED and FAILED activities are never touched.
// A day is closed once now is past its cutoff, so the activities of today
// close at the cutoff even when they were scheduled later in the day; the
// job selects scheduled_at < cutoff.ClosedDaysBefore(now) tenant by tenant
// (index activities(status, scheduled_at)).
//
// Several replicas may run the job at once: on PostgreSQL each batch is
// claimed with SELECT ... FOR UPDATE SKIP LOCKED, so a replica never waits
// for, nor closes, the rows another one holds; on SQLite write transactions
// are exclusive (BEGIN IMMEDIATE) and replicas take turns. The rows are
// re-read under their lock (PostgreSQL re-checks the predicate of a row
// changed since the statement began), so the compare-and-set of the
// transition cannot fail; should it fail anyway (ErrIllegalTransition or a
// concurrent change), that activity is skipped, nothing of it is written, and
// the rest of the batch commits.
package dayclose

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	entact "github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activityresult"
	enttenant "github.com/reten-io/reten/ent/tenant"
	"github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/cutoff"
	"github.com/reten-io/reten/internal/jobs"
	"github.com/reten-io/reten/internal/result"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
	"github.com/reten-io/reten/internal/webhook"
)

// MsgAutoClosed is the comment of the NOT_EXECUTED result the job registers.
const MsgAutoClosed = "Actividad cerrada automáticamente al cierre del día sin resultado registrado."

// ResultCode is the result type code of the registered result (the global
// catalog's "other", internal/resulttype).
const ResultCode = "other"

// DefaultBatchSize is how many activities one transaction closes.
const DefaultBatchSize = 200

// closable are the statuses the day cutoff closes (the DAY_CLOSED rows).
var closable = []entact.Status{activity.StatusReady, activity.StatusDispatched, activity.StatusRetrying}

// Report counts what one CloseDue call did.
type Report struct {
	// Closed is how many activities moved to FAILED.
	Closed int
	// ResultsCreated is how many NOT_EXECUTED results were registered.
	ResultsCreated int
	// Skipped is how many activities changed under the job and were left
	// alone (expected 0: the rows are locked).
	Skipped int
}

func (r *Report) add(o Report) {
	r.Closed += o.Closed
	r.ResultsCreated += o.ResultsCreated
	r.Skipped += o.Skipped
}

// Service runs the auto-close job.
type Service struct {
	client *ent.Client
	now    func() time.Time
	batch  int
	// Machine applies DAY_CLOSED, recording its webhook events.
	Machine activity.Machine
}

// NewService returns a Service on the wall clock.
func NewService(client *ent.Client) *Service {
	return &Service{client: client, now: time.Now, batch: DefaultBatchSize}
}

// SetClock replaces the clock Run passes to CloseDue (tests).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// CloseDue closes, in every tenant, the READY, DISPATCHED and RETRYING
// activities whose scheduled day is closed at now (see the package doc). A
// tenant that fails (unreadable settings, a database error) is logged and
// reported in the joined error; the other tenants are still closed. ctx must
// carry no viewer of its own: the job reads the tenant list as the system
// and works in each tenant as that tenant (the privacy layer keeps its
// tenant filter).
func (s *Service) CloseDue(ctx context.Context, now time.Time) (Report, error) {
	var rep Report
	tenants, err := s.client.Tenant.Query().Select(enttenant.FieldID, enttenant.FieldTimeZone, enttenant.FieldDayCutoff).
		Order(ent.Asc(enttenant.FieldID)).All(viewer.SystemContext(ctx))
	if err != nil {
		return rep, fmt.Errorf("dayclose: tenants: %w", err)
	}
	var errs []error
	for _, t := range tenants {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		settings, err := cutoff.Parse(t.TimeZone, t.DayCutoff)
		if err == nil {
			err = s.closeTenant(ctx, t.ID, settings, now, &rep)
		}
		if err != nil {
			if ctx.Err() != nil {
				return rep, ctx.Err()
			}
			slog.ErrorContext(ctx, "day close: tenant failed", "tenant_id", t.ID, "err", err)
			errs = append(errs, fmt.Errorf("dayclose: tenant %s: %w", t.ID, err))
		}
	}
	return rep, errors.Join(errs...)
}

// closeTenant closes the due activities of one tenant, batch by batch, until
// none is left (or the rest is locked by another replica).
func (s *Service) closeTenant(ctx context.Context, tenantID uuid.UUID, settings cutoff.Settings, now time.Time, rep *Report) error {
	ctx = viewer.NewContext(ctx, &viewer.Viewer{TenantID: tenantID})
	// UTC like every stored instant (SQLite compares the stored text).
	bound := cutoff.ClosedDaysBefore(now, settings).UTC()
	var skipped []uuid.UUID
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		var batch Report
		var n int
		var skippedNow []uuid.UUID
		err := txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
			batch, n, skippedNow = Report{}, 0, nil
			q := tx.Activity.Query().Where(entact.TenantID(tenantID), entact.StatusIn(closable...),
				entact.ScheduledAtLT(bound))
			if len(skipped) > 0 {
				q.Where(entact.IDNotIn(skipped...))
			}
			acts, err := q.Where(jobs.SkipLocked).Order(ent.Asc(entact.FieldScheduledAt), ent.Asc(entact.FieldID)).
				Limit(s.batch).All(ctx)
			if err != nil {
				return fmt.Errorf("select due activities: %w", err)
			}
			n = len(acts)
			if n == 0 {
				return nil
			}
			has, err := withResult(ctx, tx, acts)
			if err != nil {
				return err
			}
			for _, a := range acts {
				created, err := s.closeOne(ctx, tx, a, settings, has[a.ID])
				if errors.Is(err, activity.ErrIllegalTransition) || isConcurrentChange(err) {
					slog.WarnContext(ctx, "day close: activity changed under the job, skipped",
						"tenant_id", a.TenantID, "activity_id", a.ID, "err", err)
					skippedNow = append(skippedNow, a.ID)
					batch.Skipped++
					continue
				}
				if err != nil {
					return fmt.Errorf("activity %s: %w", a.ID, err)
				}
				batch.Closed++
				if created {
					batch.ResultsCreated++
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		rep.add(batch)
		skipped = append(skipped, skippedNow...)
	}
}

// withResult reports which of the activities already have a result.
func withResult(ctx context.Context, tx *ent.Client, acts []*ent.Activity) (map[uuid.UUID]bool, error) {
	ids := make([]uuid.UUID, len(acts))
	for i, a := range acts {
		ids[i] = a.ID
	}
	rows, err := tx.ActivityResult.Query().Where(activityresult.ActivityIDIn(ids...)).
		Select(activityresult.FieldActivityID).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("results of the batch: %w", err)
	}
	has := make(map[uuid.UUID]bool, len(rows))
	for _, r := range rows {
		if r.ActivityID != nil {
			has[*r.ActivityID] = true
		}
	}
	return has, nil
}

// closeOne applies DAY_CLOSED to a, then registers its NOT_EXECUTED result
// when it is a task without one; it reports whether it created the result.
// The transition goes first: when it is refused nothing has been written.
func (s *Service) closeOne(ctx context.Context, tx *ent.Client, a *ent.Activity, settings cutoff.Settings, hasResult bool) (bool, error) {
	ctx = viewer.NewContext(ctx, &viewer.Viewer{TenantID: a.TenantID, ProjectID: a.ProjectID})
	if err := s.Machine.CloseDay(ctx, tx, a); err != nil {
		return false, err
	}
	if hasResult || a.Type != entact.TypeTASK {
		return false, nil
	}
	day := cutoff.DayOf(a.ScheduledAt, settings)
	r, err := tx.ActivityResult.Create().SetTenantID(a.TenantID).SetProjectID(a.ProjectID).SetActivityID(a.ID).
		SetCommerceID(a.CommerceID).SetNillableProviderActivityID(a.ProviderActivityID).
		SetSource(activityresult.Source(result.SourceActivity)).
		SetResultStatus(activityresult.ResultStatus(result.StatusNotExecuted)).
		SetOccurredAt(cutoff.CloseAt(day, settings).UTC()).SetResultCode(ResultCode).SetComment(MsgAutoClosed).
		SetPayload(map[string]any{"autoClosed": true, "day": day.String()}).Save(ctx)
	if err != nil {
		return false, fmt.Errorf("register NOT_EXECUTED result: %w", err)
	}
	return true, s.Machine.Events.Emit(ctx, tx, a.TenantID, webhook.ResultEvent(r, r.UpdatedAt))
}

// isConcurrentChange is the 409 of a transition whose compare-and-set lost.
func isConcurrentChange(err error) bool {
	e, ok := apperr.As(err)
	return ok && e.Kind == apperr.KindConflict && len(e.Messages) == 1 && e.Messages[0] == activity.MsgConcurrentChange
}

// Run closes the due days now and then every interval until ctx ends. Safe
// to run on every replica (see CloseDue).
func (s *Service) Run(ctx context.Context, every time.Duration) {
	jobs.Every(ctx, "day close", every, s.now, func(ctx context.Context, now time.Time) (int, error) {
		rep, err := s.CloseDue(ctx, now)
		return rep.Closed, err
	})
}
