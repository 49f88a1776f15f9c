package result

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	entact "github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activityresult"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/predicate"
	"github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/cutoff"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/webhook"
)

// Submit registers a result in the active project.
//
// Linking: the task of the active project that activity_id names, else the
// one with provider_activity_id. A linked result has source RETEN_ACTIVITY
// and syncs the activity's status (activity.ApplyResult, with its status
// event) in the transaction that stores the result; an activity keeps one
// result, so a new submission for it (a COMPLETED activity, or one whose
// result was PENDING) updates that result, after the update guards of
// Update (409), checked in Update's order (checks). With no matching task (an activity_id of no task of the
// project, another project's or tenant's included, answers as one that
// exists nowhere) the result is STANDALONE and needs commerce_external_id
// (the 400 of Validate); commerce_id is set when the tenant has a live
// commerce with that external id, else only the reference is stored (an
// integrator may report a result before it upserts the commerce).
//
// Order after the body rules: the standalone 400s, then checks: on a first
// result the 422s of a linked result (activity state, day cutoff:
// standalone results are exempt from both), then the result code and
// future_scheduled_at (422); on a resubmission the update guards (409)
// first, as PATCH.
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
// and the result takes that task's project. A standalone result (no
// activity_id, or one matching no task of the tenant) needs a project:
// without one it is the SPEC.md project-less 400, checked after the body
// rules and the commerce reference rule.
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
		t, err := linkedTask(ctx, tx, tid, pid, in)
		switch {
		case err != nil:
			return err
		case t == nil:
			out, err = s.submitStandalone(ctx, tx, tid, pid, in, now)
		default:
			out, err = s.submitLinked(ctx, tx, t, in, now)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// submitLinked checks and stores a result of the locked task t (a first
// one, or an update of the one it has) and syncs the task's status. The
// webhook events are recorded when the tenant had an active endpoint when t
// was read: an endpoint created while the submission runs may miss them, as
// it may miss those of a submission that committed just before it.
func (s *Service) submitLinked(ctx context.Context, tx *ent.Client, t *task, in Input, now time.Time) (*ent.ActivityResult, error) {
	// store checks the submission against existing (nil: none) and stores it.
	store := func(existing *ent.ActivityResult) (*ent.ActivityResult, error) {
		if err := checks(t.a, existing, in, now, t.rules); err != nil {
			return nil, err
		}
		return s.storeLinked(ctx, tx, t.a, existing, in)
	}
	var existing *ent.ActivityResult
	if t.hasResult {
		var err error
		if existing, err = resultOf(ctx, tx, t.a); err != nil {
			return nil, err
		}
	}
	out, err := store(existing)
	if errors.Is(err, errRaced) {
		// The submission that held the task's lock while this one waited
		// stored its first result: this one updates it, as a resubmission.
		if existing, err = resultOf(ctx, tx, t.a); err != nil {
			return nil, err
		}
		if existing == nil {
			return nil, fmt.Errorf("result: activity %s: the result the insert conflicted with is not found", t.a.ID)
		}
		out, err = store(existing)
	}
	if err != nil {
		return nil, err
	}
	m := s.Machine
	if !t.hooks {
		m.Events = nil
	}
	return out, m.ApplyResult(ctx, tx, t.a, *in.Status, t.last, webhook.ResultEvent(out, out.UpdatedAt))
}

// submitStandalone checks and stores a result that links no task.
func (s *Service) submitStandalone(ctx context.Context, tx *ent.Client, tid uuid.UUID, pid *uuid.UUID, in Input,
	now time.Time) (*ent.ActivityResult, error) {
	if err := standaloneRules(in, pid); err != nil {
		return nil, err
	}
	r, err := s.rulesOf(ctx, tx, tid, *in.TaskResult.Result)
	if err != nil {
		return nil, err
	}
	if err := checks(nil, nil, in, now, r); err != nil {
		return nil, err
	}
	out, err := s.createStandalone(ctx, tx, tid, *pid, in)
	if err != nil {
		return nil, err
	}
	return out, s.Machine.Events.Emit(ctx, tx, tid, webhook.ResultEvent(out, out.UpdatedAt))
}

// rulesOf reads the rules of a result with code in tenant tid.
func (s *Service) rulesOf(ctx context.Context, tx *ent.Client, tid uuid.UUID, code string) (rules, error) {
	settings, err := cutoff.ForTenant(ctx, tx, tid)
	if err != nil {
		return rules{}, err
	}
	r := rules{settings: settings}
	r.rule, r.ruleErr = s.types.Active(ctx, tid, code)
	if _, answer := apperr.As(r.ruleErr); r.ruleErr != nil && !answer {
		return rules{}, r.ruleErr
	}
	return r, nil
}

// checks runs the rules of a submission after the links, in the order of
// the answer they give. A first result: the activity's state and day (422;
// a standalone result, a nil, is exempt), then the result code and
// future_scheduled_at (422). A resubmission (a, the activity, has existing,
// its result) is an update and checks in Update's order, so it answers as
// the PATCH that makes the same change: the update guards (409), the
// result code and future_scheduled_at, then the activity's state and day.
func checks(a *ent.Activity, existing *ent.ActivityResult, in Input, now time.Time, r rules) error {
	if existing != nil {
		if _, err := guard(existing, *in.OccurredAt, in.Status, in.HardOverride); err != nil {
			return err
		}
		if err := codeRules(r, in.TaskResult.FutureScheduledAt, now); err != nil {
			return err
		}
		return activityRules(a, now, r.settings)
	}
	if a != nil {
		if err := activityRules(a, now, r.settings); err != nil {
			return err
		}
	}
	return codeRules(r, in.TaskResult.FutureScheduledAt, now)
}

// activityRules: the linked activity accepts a result, and its day is open.
func activityRules(a *ent.Activity, now time.Time, settings cutoff.Settings) error {
	if !activity.AcceptsResult(a.Status) {
		return apperr.Unprocessable(MsgActivityState)
	}
	return cutoff.CheckOpen(a.ScheduledAt, now, settings)
}

// codeRules: the result code is active for the tenant, and its
// future_scheduled_at rules hold for future.
func codeRules(r rules, future *time.Time, now time.Time) error {
	if r.ruleErr != nil {
		return r.ruleErr
	}
	return cutoff.CheckFuture(r.rule.RequiresFutureScheduledAt, future, now, r.settings)
}

// linkedTask finds and locks the task the submission links to (lockTask):
// the one activity_id names, else the one with provider_activity_id; nil
// when neither matches a task (standalone). pid nil searches every project
// of the tenant.
func linkedTask(ctx context.Context, tx *ent.Client, tid uuid.UUID, pid *uuid.UUID, in Input) (*task, error) {
	var matches []predicate.Activity
	if in.ActivityID != nil {
		matches = append(matches, entact.ID(*in.ActivityID))
	}
	if in.ProviderActivityID != nil && *in.ProviderActivityID != "" {
		matches = append(matches, entact.ProviderActivityID(*in.ProviderActivityID))
	}
	for _, match := range matches {
		t, err := lockTask(ctx, tx, tid, pid, match, *in.TaskResult.Result)
		if t != nil || err != nil {
			return t, err
		}
	}
	return nil, nil
}

// standaloneRules are the rules of a submission that links no activity
// (none sent, or none of the project or tenant matching): the commerce
// reference rule of Validate, now that an activity_id matched nothing, and
// a project to store the result in (pid nil: none on a project-optional
// endpoint).
func standaloneRules(in Input, pid *uuid.UUID) error {
	if in.CommerceExternalID == nil || *in.CommerceExternalID == "" {
		return apperr.Validation(MsgCommerceExtRequire)
	}
	if pid == nil {
		return apperr.Invalid(tenancy.MsgResultNeedsProject)
	}
	return nil
}

// resultOf returns the result the activity a has, nil when it has none.
func resultOf(ctx context.Context, tx *ent.Client, a *ent.Activity) (*ent.ActivityResult, error) {
	r, err := tx.ActivityResult.Query().Where(activityresult.ActivityID(a.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, wrap("of activity", err)
	}
	return r, nil
}

// storeLinked creates the activity's result, or updates existing, the one
// it has (its update guards already passed).
func (s *Service) storeLinked(ctx context.Context, tx *ent.Client, a *ent.Activity, existing *ent.ActivityResult, in Input) (*ent.ActivityResult, error) {
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
	c.OnConflictColumns(activityresult.FieldActivityID).DoNothing()
	out, err := c.Save(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errRaced
	}
	if err != nil {
		return nil, wrap("create", err)
	}
	return out, nil
}

// errRaced: the activity's first result was stored by a submission that
// held its lock while this one waited (storeLinked inserted nothing).
var errRaced = errors.New("result: the activity has a result already")

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
