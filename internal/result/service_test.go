package result_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	entact "github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/cutoff"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/result"
	"github.com/reten-io/reten/internal/resulttype"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/viewer"
)

// fixture is a tenant with a commerce (external id C1) and a task of today
// in its main project.
type fixture struct {
	db       *dbtest.DB
	svc      *result.Service
	acme     dbtest.Tenant
	admin    context.Context
	commerce uuid.UUID
	now      time.Time
}

func setup(t *testing.T, db *dbtest.DB) *fixture {
	f := &fixture{db: db, svc: result.NewService(db.Client, resulttype.NewService(db.Client)), acme: db.Tenant(t, "Acme"),
		now: time.Now().UTC()}
	f.admin = f.acme.Admin()
	f.svc.SetClock(func() time.Time { return f.now })
	f.commerce = db.Client.Commerce.Create().SetTenantID(f.acme.TenantID).SetName("Kiosko").SetExternalID("C1").SaveX(f.admin).ID
	return f
}

// task adds a task of today to project in status.
func (f *fixture) task(project uuid.UUID, status entact.Status) uuid.UUID {
	return f.db.Client.Activity.Create().SetTenantID(f.acme.TenantID).SetProjectID(project).SetCommerceID(f.commerce).
		SetType(entact.TypeTASK).SetChannel(entact.ChannelSALESMAN).SetStatus(status).SetScheduledAt(f.now).SaveX(f.admin).ID
}

func (f *fixture) input(activity *uuid.UUID, status, code string) result.Input {
	return result.Input{ActivityID: activity, OccurredAt: new(f.now), Status: new(status),
		TaskResult: &result.TaskResult{Result: new(code)}}
}

// TestSubmitStandalone: the body rules in one 400; the result code must be
// an active result type (422), and a type that requires it a future date; a
// result without activity links the tenant's commerce by external id when
// there is one.
func TestSubmitStandalone(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := setup(t, db)
		_, err := f.svc.Submit(f.admin, result.Input{})
		dbtest.ExpectError(t, err, http.StatusBadRequest, result.MsgOccurredAtRequired, result.MsgStatusEnum,
			result.MsgCommerceExtRequire, result.MsgTaskResultRequired)

		in := f.input(nil, result.StatusCompleted, "bogus")
		in.CommerceExternalID = new("C1")
		_, err = f.svc.Submit(f.admin, in)
		dbtest.ExpectError(t, err, http.StatusUnprocessableEntity, resulttype.MsgInactive)
		in.TaskResult.Result = new("rescheduled")
		_, err = f.svc.Submit(f.admin, in)
		dbtest.ExpectError(t, err, http.StatusUnprocessableEntity, cutoff.MsgFutureRequired)

		in.TaskResult.Result = new("success")
		r, err := f.svc.Submit(f.admin, in)
		dbtest.NoError(t, err)
		if string(r.Source) != result.SourceStandalone || r.CommerceID == nil || *r.CommerceID != f.commerce {
			t.Fatalf("standalone result = %+v", r)
		}
		in.CommerceExternalID = new("C9")
		r, err = f.svc.Submit(f.admin, in)
		dbtest.NoError(t, err)
		if r.CommerceID != nil || *r.CommerceExternalID != "C9" {
			t.Fatalf("result of an unknown commerce = %+v", r)
		}
	})
}

// TestSubmitLinked: a result for a task syncs the task's status; a second
// submission updates the task's one result, through the update guards; a
// task that no longer accepts a result answers 422; a task of another
// project or tenant is no match (standalone).
func TestSubmitLinked(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := setup(t, db)
		ready := f.task(f.acme.ProjectID, entact.StatusREADY)
		first, err := f.svc.Submit(f.admin, f.input(&ready, result.StatusPending, "not_home"))
		dbtest.NoError(t, err)
		// A resubmission is an update: the guards of Update apply.
		stale := fmt.Sprintf(result.MsgStaleUpdateFmt, first.UpdatedAt.UTC().Format(time.RFC3339Nano))
		again := f.input(&ready, result.StatusCompleted, "success")
		again.OccurredAt = new(first.UpdatedAt)
		_, err = f.svc.Submit(f.admin, again)
		dbtest.ExpectError(t, err, http.StatusConflict, stale)
		again.OccurredAt = new(first.UpdatedAt.Add(time.Minute))
		second, err := f.svc.Submit(f.admin, again)
		dbtest.NoError(t, err)
		if second.ID != first.ID || string(second.ResultStatus) != result.StatusCompleted || string(second.Source) != result.SourceActivity {
			t.Fatalf("second submission = %+v, want an update of %s", second, first.ID)
		}
		if got := db.Client.Activity.GetX(f.admin, ready).Status; got != entact.StatusCOMPLETED {
			t.Fatalf("activity status = %s, want COMPLETED", got)
		}

		again.OccurredAt, again.Status = new(second.UpdatedAt.Add(time.Minute)), new(result.StatusCanceled)
		_, err = f.svc.Submit(f.admin, again)
		dbtest.ExpectError(t, err, http.StatusConflict, fmt.Sprintf(result.MsgTerminalFmt, result.StatusCompleted, result.StatusCanceled))
		again.HardOverride = true
		forced, err := f.svc.Submit(f.admin, again)
		dbtest.NoError(t, err)
		if forced.ID != first.ID || string(forced.ResultStatus) != result.StatusCanceled || !forced.HardOverride {
			t.Fatalf("forced resubmission = %+v", forced)
		}

		canceled := f.task(f.acme.ProjectID, entact.StatusCANCELED)
		_, err = f.svc.Submit(f.admin, f.input(&canceled, result.StatusCompleted, "success"))
		dbtest.ExpectError(t, err, http.StatusUnprocessableEntity, result.MsgActivityState)

		// A task of another project or tenant matches nothing: the result
		// is standalone, with its commerce reference rule.
		elsewhere := f.task(db.Project(t, f.acme, "Second"), entact.StatusREADY)
		_, err = f.svc.Submit(f.admin, f.input(&elsewhere, result.StatusCompleted, "success"))
		dbtest.ExpectError(t, err, http.StatusBadRequest, result.MsgCommerceExtRequire)
		beta := db.Tenant(t, "Beta")
		_, err = f.svc.Submit(beta.Admin(), f.input(&ready, result.StatusCompleted, "success"))
		dbtest.ExpectError(t, err, http.StatusBadRequest, result.MsgCommerceExtRequire)
		std := f.input(&elsewhere, result.StatusCompleted, "success")
		std.CommerceExternalID = new("C1")
		r, err := f.svc.Submit(f.admin, std)
		dbtest.NoError(t, err)
		if string(r.Source) != result.SourceStandalone || r.ActivityID != nil || *r.ProjectID != f.acme.ProjectID {
			t.Fatalf("result naming another project's task = %+v", r)
		}
		if got := db.Client.Activity.GetX(viewer.SystemContext(context.Background()), elsewhere).Status; got != entact.StatusREADY {
			t.Fatalf("other project's task status = %s, want READY", got)
		}
		_, err = f.svc.Update(beta.Admin(), first.ID, result.Patch{OccurredAt: new(f.now.Add(time.Hour))})
		dbtest.ExpectError(t, err, http.StatusNotFound, result.MsgNotFound)
	})
}

// TestUpdateGuards: an older report never overwrites a newer one, and a
// terminal status only changes with hard_override.
func TestUpdateGuards(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := setup(t, db)
		in := f.input(nil, result.StatusCompleted, "success")
		in.CommerceExternalID = new("C1")
		r, err := f.svc.Submit(f.admin, in)
		dbtest.NoError(t, err)

		_, err = f.svc.Update(f.admin, r.ID, result.Patch{OccurredAt: new(r.UpdatedAt.Add(-time.Minute))})
		dbtest.ExpectError(t, err, http.StatusConflict, fmt.Sprintf(result.MsgStaleUpdateFmt, r.UpdatedAt.UTC().Format(time.RFC3339Nano)))
		later := r.UpdatedAt.Add(time.Minute)
		_, err = f.svc.Update(f.admin, r.ID, result.Patch{OccurredAt: &later, Status: new(result.StatusCanceled)})
		dbtest.ExpectError(t, err, http.StatusConflict, fmt.Sprintf(result.MsgTerminalFmt, result.StatusCompleted, result.StatusCanceled))
		up, err := f.svc.Update(f.admin, r.ID, result.Patch{OccurredAt: &later, Status: new(result.StatusCanceled), HardOverride: true})
		dbtest.NoError(t, err)
		if string(up.ResultStatus) != result.StatusCanceled || !up.HardOverride {
			t.Fatalf("overridden = %+v", up)
		}
	})
}

// TestScope: entering the submission's line checks the project, then the
// permission (the SPEC.md order, one order for every line); the service
// acts only in a project.
func TestScope(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := setup(t, db)
		const line = "POST /activity-results/tasks"
		_, err := tenancy.Enter(f.acme.InProject(uuid.Nil), line)
		dbtest.ExpectError(t, err, http.StatusBadRequest, tenancy.MsgProjectHeaderNeeded)
		_, err = tenancy.Enter(f.acme.As(), line)
		dbtest.ExpectError(t, err, http.StatusForbidden, "Required permissions: "+auth.PermActivityResultSubmit)
		_, err = f.svc.Submit(f.acme.InProject(uuid.Nil, auth.PermActivityResultSubmit), result.Input{})
		dbtest.ExpectError(t, err, http.StatusBadRequest, tenancy.MsgProjectHeaderNeeded)
		in := f.input(nil, result.StatusCompleted, "success")
		in.CommerceExternalID = new("C1")
		if _, err := f.svc.Submit(f.acme.As(auth.PermActivityResultSubmit), in); err != nil {
			t.Fatalf("submit with exactly %s: %v", auth.PermActivityResultSubmit, err)
		}
	})
}
