package result

import (
	"context"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	entact "github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activityresult"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/cutoff"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// Submit registers a result in the active project.
//
// Linking: activity_id must name a task of the active project (else 404);
// otherwise provider_activity_id links the project's task with that provider
// id when there is one. A linked result has source RETEN_ACTIVITY and syncs
// the activity's status (activity.ApplyResult, with its status event) in the
// transaction that stores the result; an activity keeps one result, so a new
// submission for it (a COMPLETED activity, or one whose result was PENDING)
// updates that result. Without a linked activity the result is STANDALONE
// with commerce_external_id; commerce_id is set when the tenant has a live
// commerce with that external id, else only the reference is stored (an
// integrator may report a result before it upserts the commerce).
//
// 422 order: activity state, day cutoff (linked only: standalone results are
// exempt from both), result code, future_scheduled_at (every result).
func (s *Service) Submit(ctx context.Context, in Input) (*ent.ActivityResult, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	if err := in.Check(); err != nil {
		return nil, err
	}
	return s.submit(ctx, tid, &pid, in)
}

// SubmitAnyProject is Submit on a project-optional endpoint (POST
// /api/integration/activity-results/tasks, SPEC.md "Project context"): the
// active project, when the request has one, narrows the links exactly as in
// Submit; without one, activity_id names a task of any project of the tenant
// and the result takes that task's project. A result without activity_id
// needs a project: without one it is the SPEC.md project-less 400, checked
// after the body rules.
func (s *Service) SubmitAnyProject(ctx context.Context, in Input) (*ent.ActivityResult, error) {
	acc, err := tenancy.From(ctx)
	if err != nil {
		return nil, err
	}
	if err := in.Check(); err != nil {
		return nil, err
	}
	tid := acc.TenantID
	if pid := acc.ProjectID; pid != uuid.Nil {
		return s.submit(ctx, tid, &pid, in)
	}
	if in.ActivityID == nil {
		return nil, apperr.Invalid(tenancy.MsgResultNeedsProject)
	}
	return s.submit(ctx, tid, nil, in)
}

// submit links, checks and stores a validated submission; pid nil links an
// activity of any project of the tenant (in.ActivityID is then set).
func (s *Service) submit(ctx context.Context, tid uuid.UUID, pid *uuid.UUID, in Input) (*ent.ActivityResult, error) {
	now := s.Now()
	var out *ent.ActivityResult
	err := txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		a, err := linkedActivity(ctx, tx, tid, pid, in)
		if err != nil {
			return err
		}
		settings, err := cutoff.ForTenant(ctx, tx, tid)
		if err != nil {
			return err
		}
		if a != nil {
			if !activity.AcceptsResult(a.Status) {
				return apperr.Unprocessable(MsgActivityState)
			}
			if err := cutoff.CheckOpen(a.ScheduledAt, now, settings); err != nil {
				return err
			}
		}
		cfg, err := s.types.Active(ctx, tid, *in.TaskResult.Result)
		if err != nil {
			return err
		}
		if err := cutoff.CheckFuture(cfg.RequiresFutureScheduledAt, in.TaskResult.FutureScheduledAt, now, settings); err != nil {
			return err
		}
		if a == nil {
			out, err = s.createStandalone(ctx, tx, tid, *pid, in)
			return err
		}
		out, err = s.storeLinked(ctx, tx, a, in)
		if err != nil {
			return err
		}
		return activity.ApplyResult(ctx, tx, a, *in.Status)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// linkedActivity finds the task the submission links to, or nil (standalone);
// pid nil searches every project of the tenant.
func linkedActivity(ctx context.Context, tx *ent.Client, tid uuid.UUID, pid *uuid.UUID, in Input) (*ent.Activity, error) {
	q := tx.Activity.Query().Where(entact.TenantID(tid), entact.TypeEQ(entact.TypeTASK))
	if pid != nil {
		q.Where(entact.ProjectID(*pid))
	}
	// Concurrent submissions for one activity take turns on its row (SQLite
	// write transactions are serialised already), so the second one finds
	// and updates the result the first one stored. That lookup must be a
	// statement of its own, run after the lock is granted: a subquery of
	// this locking statement would read the snapshot taken before the wait
	// and miss the result the first submission committed.
	q.Modify(func(s *sql.Selector) {
		if s.Dialect() == dialect.Postgres {
			s.ForUpdate()
		}
	})
	switch {
	case in.ActivityID != nil:
		a, err := q.Where(entact.ID(*in.ActivityID)).Only(ctx)
		if err != nil {
			return nil, apperr.FromEnt(err, MsgActivityNotFound, "")
		}
		return a, nil
	case in.ProviderActivityID != nil && *in.ProviderActivityID != "":
		a, err := q.Where(entact.ProviderActivityID(*in.ProviderActivityID)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, wrap("provider activity", err)
		}
		return a, nil
	}
	return nil, nil
}

// storeLinked creates the activity's result, or updates the one it has.
func (s *Service) storeLinked(ctx context.Context, tx *ent.Client, a *ent.Activity, in Input) (*ent.ActivityResult, error) {
	existing, err := tx.ActivityResult.Query().Where(activityresult.ActivityID(a.ID)).Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, wrap("of activity", err)
	}
	if existing != nil {
		u := existing.Update()
		applyInput(ctx, u.Mutation(), in)
		out, err := u.Save(ctx)
		if err != nil {
			return nil, wrap("update", err)
		}
		return out, nil
	}
	c := create(ctx, tx, a.TenantID, a.ProjectID, in).SetActivityID(a.ID).SetCommerceID(a.CommerceID).
		SetSource(activityresult.SourceRETEN_ACTIVITY)
	if in.ProviderActivityID == nil && a.ProviderActivityID != nil {
		c.SetProviderActivityID(*a.ProviderActivityID)
	}
	out, err := c.Save(ctx)
	if err != nil {
		return nil, wrap("create", err)
	}
	return out, nil
}

// createStandalone stores a result without activity, referencing its commerce.
func (s *Service) createStandalone(ctx context.Context, tx *ent.Client, tid, pid uuid.UUID, in Input) (*ent.ActivityResult, error) {
	c := create(ctx, tx, tid, pid, in).SetSource(activityresult.SourceSTANDALONE)
	com, err := tx.Commerce.Query().Where(commerce.TenantID(tid), commerce.ExternalID(*in.CommerceExternalID)).First(ctx)
	switch {
	case err == nil:
		c.SetCommerceID(com.ID)
	case !ent.IsNotFound(err):
		return nil, wrap("commerce", err)
	}
	out, err := c.Save(ctx)
	if err != nil {
		return nil, wrap("create", err)
	}
	return out, nil
}

// create prepares the columns every new result carries.
func create(ctx context.Context, tx *ent.Client, tid, pid uuid.UUID, in Input) *ent.ActivityResultCreate {
	c := tx.ActivityResult.Create().SetTenantID(tid).SetProjectID(pid)
	applyInput(ctx, c.Mutation(), in)
	return c
}

// applyInput writes the columns of a submission, the same on a new result
// and on the activity's existing one (an absent optional value leaves the
// column), with the caller as submitter.
func applyInput(ctx context.Context, m *ent.ActivityResultMutation, in Input) {
	tr := in.TaskResult
	m.SetResultStatus(activityresult.ResultStatus(*in.Status))
	m.SetOccurredAt(*in.OccurredAt)
	m.SetResultCode(*tr.Result)
	m.SetHardOverride(in.HardOverride)
	fields.Set(in.ExternalStatus, m.SetExternalStatus)
	fields.Set(in.ProviderActivityID, m.SetProviderActivityID)
	fields.Set(in.CommerceExternalID, m.SetCommerceExternalID)
	fields.Set(tenancy.Actor(ctx), m.SetSubmittedBy)
	if in.RawPayload != nil {
		m.SetRawPayload(in.RawPayload)
	}
	applyTaskResultFields(m, tr)
}

// applyTaskResultFields writes the optional members of a task_result (an
// absent one leaves the column).
func applyTaskResultFields(m *ent.ActivityResultMutation, tr *TaskResult) {
	fields.Set(tr.Comment, m.SetComment)
	fields.Set(tr.OperatorExternalID, m.SetOperatorExternalID)
	fields.Set(tr.FutureScheduledAt, m.SetFutureScheduledAt)
	if tr.ContactType != nil {
		m.SetContactType(activityresult.ContactType(*tr.ContactType))
	}
	if tr.Payload != nil {
		m.SetPayload(tr.Payload)
	}
}
