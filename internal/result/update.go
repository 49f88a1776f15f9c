package result

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	entact "github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activityresult"
	"github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/webhook"
)

// Update changes a result of the active project.
//
// The update guards (guard) come first. A new result code is
// checked like on submission (422). A status change of a linked result syncs
// its activity through the status machine in the same transaction (422
// MsgActivityState when the activity no longer accepts a result). The day
// cutoff does not apply: it governs registering, not correcting.
func (s *Service) Update(ctx context.Context, id uuid.UUID, p Patch) (*ent.ActivityResult, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	if err := problemsErr(p.Validate()); err != nil {
		return nil, err
	}
	now := s.Now()
	var out *ent.ActivityResult
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		r, err := tx.ActivityResult.Query().Where(activityresult.ID(id), activityresult.TenantID(tid),
			activityresult.ProjectID(pid)).Only(ctx)
		if err != nil {
			return apperr.FromEnt(err, MsgNotFound, "")
		}
		changed, err := guard(r, *p.OccurredAt, p.Status, p.HardOverride)
		if err != nil {
			return err
		}
		u := r.Update().SetOccurredAt(*p.OccurredAt).SetHardOverride(p.HardOverride).
			SetNillableExternalStatus(p.ExternalStatus).SetNillableSubmittedBy(tenancy.Actor(ctx))
		if p.Status != nil {
			u.SetResultStatus(activityresult.ResultStatus(*p.Status))
		}
		if p.RawPayload != nil {
			u.SetRawPayload(p.RawPayload)
		}
		if err := s.applyTaskResult(ctx, tx, tid, r, p.TaskResult, now, u); err != nil {
			return err
		}
		var a *ent.Activity
		if changed && r.ActivityID != nil {
			a, err = tx.Activity.Query().Where(entact.ID(*r.ActivityID), entact.TenantID(tid)).Only(ctx)
			if err != nil {
				return wrap("activity", err)
			}
			if !activity.AcceptsResult(a.Status) {
				return apperr.Unprocessable(MsgActivityState)
			}
		}
		out, err = u.Save(ctx)
		if err != nil {
			return wrap("update", err)
		}
		recorded := webhook.ResultEvent(out, out.UpdatedAt)
		if a == nil {
			return s.Machine.Events.Emit(ctx, tx, tid, recorded)
		}
		return s.Machine.ApplyResult(ctx, tx, a, *p.Status, activity.LastEvent{}, recorded)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// applyTaskResult sets the sent task_result members, checking a new result
// code (422) and the future_scheduled_at rules of the resulting code.
func (s *Service) applyTaskResult(ctx context.Context, tx *ent.Client, tid uuid.UUID, r *ent.ActivityResult,
	tr *TaskResult, now time.Time, u *ent.ActivityResultUpdateOne) error {
	if tr == nil {
		return nil
	}
	code := r.ResultCode
	if tr.Result != nil {
		code = *tr.Result
		u.SetResultCode(code)
	}
	if tr.Result != nil || tr.FutureScheduledAt != nil {
		future := tr.FutureScheduledAt
		if future == nil {
			future = r.FutureScheduledAt
		}
		r, err := s.rulesOf(ctx, tx, tid, code)
		if err != nil {
			return err
		}
		if err := codeRules(r, future, now); err != nil {
			return err
		}
	}
	applyTaskResultFields(u.Mutation(), tr)
	return nil
}

// guard applies the update guards of SPEC.md "Activity result statuses" to
// the stored result r, on an update and on a submission that updates the
// result its activity has. Both answer 409 (the stored result is in a state
// the update conflicts with), in order: the temporal guard, always
// (occurredAt must be after the stored updatedAt: an older report never
// overwrites a newer one); the result status machine (PENDING may become any
// status; a terminal status only stays as it is), skipped by hardOverride.
// changed reports a status change (status nil keeps the stored one).
func guard(r *ent.ActivityResult, occurredAt time.Time, status *string, hardOverride bool) (changed bool, err error) {
	if !occurredAt.After(r.UpdatedAt) {
		return false, apperr.Conflict(fmt.Sprintf(MsgStaleUpdateFmt, r.UpdatedAt.UTC().Format(time.RFC3339Nano)))
	}
	from := string(r.ResultStatus)
	changed = status != nil && *status != from
	if changed && !hardOverride && from != StatusPending {
		return false, apperr.Conflict(fmt.Sprintf(MsgTerminalFmt, from, *status))
	}
	return changed, nil
}
