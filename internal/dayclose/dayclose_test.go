package dayclose_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	entact "github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activityresult"
	"github.com/reten-io/reten/ent/activitystatusevent"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/dayclose"
	"github.com/reten-io/reten/internal/resulttype"
	"github.com/reten-io/reten/internal/viewer"
)

var sys = viewer.SystemContext(context.Background())

// fix is a tenant with its day settings and one commerce.
type fix struct {
	t        *testing.T
	c        *ent.Client
	ctx      context.Context
	ten      apptest.Tenant
	commerce uuid.UUID
}

func newFix(t *testing.T, env *apptest.Env, name, zone, cut string) *fix {
	t.Helper()
	ten := env.Bootstrap(name)
	c := env.App.DB.Client
	if err := c.Tenant.UpdateOneID(ten.TenantID).SetTimeZone(zone).SetDayCutoff(cut).Exec(sys); err != nil {
		t.Fatal(err)
	}
	ctx := viewer.NewContext(context.Background(), &viewer.Viewer{TenantID: ten.TenantID, ProjectID: ten.ProjectID})
	com := c.Commerce.Create().SetTenantID(ten.TenantID).SetName("Shop " + name).SaveX(ctx)
	return &fix{t: t, c: c, ctx: ctx, ten: ten, commerce: com.ID}
}

// act stores an activity as it stands (no history), its instants in UTC
// like the services store them.
func (f *fix) act(typ, status string, at time.Time, opts ...func(*ent.ActivityCreate)) *ent.Activity {
	f.t.Helper()
	b := f.c.Activity.Create().SetTenantID(f.ten.TenantID).SetProjectID(f.ten.ProjectID).SetCommerceID(f.commerce).
		SetType(entact.Type(typ)).SetChannel("SMS").SetStatus(entact.Status(status)).SetScheduledAt(at.UTC())
	for _, o := range opts {
		o(b)
	}
	return b.SaveX(f.ctx)
}

// pending stores a PENDING result for a.
func (f *fix) pending(a *ent.Activity) *ent.ActivityResult {
	f.t.Helper()
	return f.c.ActivityResult.Create().SetTenantID(a.TenantID).SetProjectID(a.ProjectID).SetActivityID(a.ID).
		SetCommerceID(a.CommerceID).SetSource("RETEN_ACTIVITY").SetResultStatus("PENDING").
		SetOccurredAt(a.ScheduledAt).SetResultCode("callback_requested").SetComment("llamar mañana").SaveX(f.ctx)
}

func events(t *testing.T, c *ent.Client, id uuid.UUID) []*ent.ActivityStatusEvent {
	t.Helper()
	return c.ActivityStatusEvent.Query().Where(activitystatusevent.ActivityID(id)).
		Order(ent.Asc(activitystatusevent.FieldOccurredAt)).AllX(sys)
}

func resultOf(t *testing.T, c *ent.Client, id uuid.UUID) *ent.ActivityResult {
	t.Helper()
	r, err := c.ActivityResult.Query().Where(activityresult.ActivityID(id)).Only(sys)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// expectClosed asserts a was closed once from its status: FAILED, closed_at
// set, no next attempt, one FAILED event from the old status, no actor.
func expectClosed(t *testing.T, c *ent.Client, a *ent.Activity) {
	t.Helper()
	got := c.Activity.GetX(sys, a.ID)
	if got.Status != entact.StatusFAILED || got.ClosedAt == nil || got.NextDispatchAt != nil {
		t.Fatalf("activity scheduled %s (%s): status %s, closed_at %v, next %v", a.ScheduledAt, a.Status, got.Status,
			got.ClosedAt, got.NextDispatchAt)
	}
	evs := events(t, c, a.ID)
	if len(evs) != 1 {
		t.Fatalf("activity scheduled %s: %d events, want 1 FAILED", a.ScheduledAt, len(evs))
	}
	e := evs[0]
	if e.EventType != activitystatusevent.EventTypeFAILED || e.FromStatus == nil || string(*e.FromStatus) != string(a.Status) ||
		e.ToStatus != activitystatusevent.ToStatusFAILED || e.ActorID != nil || e.Detail["reason"] != "day cutoff" ||
		e.ProjectID != a.ProjectID || e.TenantID != a.TenantID {
		t.Fatalf("close event of %s: %+v", a.Status, e)
	}
	if !e.OccurredAt.Equal(*got.ClosedAt) {
		t.Fatalf("closed_at %s, event at %s", got.ClosedAt, e.OccurredAt)
	}
}

func sameTime(a, b *time.Time) bool {
	return a == nil && b == nil || a != nil && b != nil && a.Equal(*b)
}

func sameString(a, b *string) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

// expectOpen asserts a is exactly as stored.
func expectOpen(t *testing.T, c *ent.Client, a *ent.Activity) {
	t.Helper()
	got := c.Activity.GetX(sys, a.ID)
	if got.Status != a.Status || got.ClosedAt != nil || got.DispatchAttempts != a.DispatchAttempts ||
		!sameTime(got.NextDispatchAt, a.NextDispatchAt) || len(events(t, c, a.ID)) != 0 {
		t.Fatalf("activity scheduled %s (%s) changed: %s, closed_at %v", a.ScheduledAt, a.Status, got.Status, got.ClosedAt)
	}
}

// expectAutoResult asserts the registered NOT_EXECUTED result, field by field.
func expectAutoResult(t *testing.T, c *ent.Client, a *ent.Activity, occurred, day string) {
	t.Helper()
	r := resultOf(t, c, a.ID)
	if r == nil {
		t.Fatalf("activity scheduled %s: no result", a.ScheduledAt)
	}
	want, _ := time.Parse(time.RFC3339, occurred)
	if r.Source != activityresult.SourceRETEN_ACTIVITY || r.ResultStatus != activityresult.ResultStatusNOT_EXECUTED ||
		!r.OccurredAt.Equal(want) || r.ResultCode != "other" || r.Comment == nil ||
		*r.Comment != "Actividad cerrada automáticamente al cierre del día sin resultado registrado." ||
		fmt.Sprint(r.Payload) != fmt.Sprint(map[string]any{"autoClosed": true, "day": day}) ||
		r.TenantID != a.TenantID || r.ProjectID == nil || *r.ProjectID != a.ProjectID ||
		r.CommerceID == nil || *r.CommerceID != a.CommerceID || !sameString(r.ProviderActivityID, a.ProviderActivityID) ||
		r.SubmittedBy != nil || r.HardOverride || r.ContactType != nil || r.FutureScheduledAt != nil ||
		r.CommerceExternalID != nil || r.ExternalStatus != nil || r.OperatorExternalID != nil {
		t.Fatalf("auto result of activity scheduled %s: %+v (comment %v, occurred %s want %s)", a.ScheduledAt, r,
			r.Comment, r.OccurredAt.UTC(), want)
	}
}

func TestCloseDue(t *testing.T) {
	if _, ok := resulttype.Lookup(dayclose.ResultCode); !ok || dayclose.ResultCode != "other" {
		t.Fatalf("result code %q is not the catalog's other", dayclose.ResultCode)
	}
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		c := env.App.DB.Client
		svc := env.App.DayClose
		svc.SetBatchSize(2) // several batches per tenant
		gye, _ := time.LoadLocation("America/Guayaquil")
		local := func(d, h, m int) time.Time { return time.Date(2030, 3, d, h, m, 0, 0, gye) }
		acme := newFix(t, env, "Acme", "America/Guayaquil", "22:00")
		beta := newFix(t, env, "Beta", "UTC", "23:59")

		// Yesterday (the 9th, closed at 22:00 local = 03:00Z on the 10th) and before.
		yReady := acme.act("TASK", "READY", local(9, 9, 0), func(b *ent.ActivityCreate) { b.SetProviderActivityID("ext-9") })
		yLate := acme.act("TASK", "DISPATCHED", local(9, 23, 30)) // the 10th in UTC, the 9th locally
		next := local(10, 8, 0)
		yRetrying := acme.act("TASK", "RETRYING", local(9, 15, 0), func(b *ent.ActivityCreate) {
			b.SetDispatchAttempts(2).SetNextDispatchAt(next.UTC())
		})
		yPending := acme.act("TASK", "DISPATCHED", local(9, 10, 0))
		pend := acme.pending(yPending)
		yMessage := acme.act("MESSAGE", "READY", local(9, 11, 0))
		old := acme.act("TASK", "READY", time.Date(2030, 2, 1, 12, 0, 0, 0, gye))
		var untouched []*ent.Activity
		for _, st := range []string{"COMPLETED", "CANCELED", "UNRESOLVED", "FAILED"} {
			untouched = append(untouched, acme.act("TASK", st, local(9, 10, 0)))
		}
		// Today (the 10th, closes at 22:00 local) and tomorrow.
		tMorning := acme.act("TASK", "READY", local(10, 8, 0))
		tLate := acme.act("TASK", "RETRYING", local(10, 23, 30), func(b *ent.ActivityCreate) { b.SetDispatchAttempts(1).SetNextDispatchAt(next.UTC()) })
		tomorrow := acme.act("TASK", "READY", local(11, 0, 0))
		// Beta keeps UTC and 23:59: its own days, not Acme's.
		bClosed := beta.act("TASK", "READY", time.Date(2030, 3, 10, 12, 0, 0, 0, time.UTC))
		bOpen := beta.act("TASK", "READY", time.Date(2030, 3, 11, 1, 0, 0, 0, time.UTC)) // 20:00 on the 10th in Guayaquil

		// 21:59 local: yesterday and before are closed, today is not yet.
		now := local(10, 21, 59)
		rep, err := svc.CloseDue(context.Background(), now)
		if err != nil || rep != (dayclose.Report{Closed: 7, ResultsCreated: 5}) {
			t.Fatalf("first run at 21:59: %+v, %v", rep, err)
		}
		for _, a := range []*ent.Activity{yReady, yLate, yRetrying, yPending, yMessage, old, bClosed} {
			expectClosed(t, c, a)
		}
		for _, a := range append(untouched, tMorning, tLate, tomorrow, bOpen) {
			expectOpen(t, c, a)
		}
		expectAutoResult(t, c, yReady, "2030-03-10T03:00:00Z", "2030-03-09")
		expectAutoResult(t, c, yLate, "2030-03-10T03:00:00Z", "2030-03-09")
		expectAutoResult(t, c, yRetrying, "2030-03-10T03:00:00Z", "2030-03-09")
		expectAutoResult(t, c, old, "2030-02-02T03:00:00Z", "2030-02-01")
		expectAutoResult(t, c, bClosed, "2030-03-10T23:59:00Z", "2030-03-10")
		if r := resultOf(t, c, yMessage.ID); r != nil {
			t.Fatalf("a message got a result: %+v", r)
		}
		// The PENDING result is kept exactly as it was.
		if got := resultOf(t, c, yPending.ID); got == nil || got.ID != pend.ID || got.ResultStatus != "PENDING" ||
			got.ResultCode != "callback_requested" || *got.Comment != "llamar mañana" || !got.UpdatedAt.Equal(pend.UpdatedAt) ||
			!got.OccurredAt.Equal(pend.OccurredAt) {
			t.Fatalf("pending result changed: %+v", got)
		}

		// Running again changes nothing.
		rep, err = svc.CloseDue(context.Background(), now)
		if err != nil || rep != (dayclose.Report{}) {
			t.Fatalf("second run at 21:59: %+v, %v", rep, err)
		}

		// 22:01 local: today is closed too (also the activity scheduled after
		// the cutoff); tomorrow and Beta's open day are not.
		now = local(10, 22, 1)
		rep, err = svc.CloseDue(context.Background(), now)
		if err != nil || rep != (dayclose.Report{Closed: 2, ResultsCreated: 2}) {
			t.Fatalf("run at 22:01: %+v, %v", rep, err)
		}
		expectClosed(t, c, tMorning)
		expectClosed(t, c, tLate)
		expectAutoResult(t, c, tMorning, "2030-03-11T03:00:00Z", "2030-03-10")
		expectAutoResult(t, c, tLate, "2030-03-11T03:00:00Z", "2030-03-10")
		for _, a := range append(untouched, tomorrow, bOpen) {
			expectOpen(t, c, a)
		}
		for _, a := range []*ent.Activity{yReady, yLate, yRetrying, yPending, yMessage, old, bClosed} {
			expectClosed(t, c, a) // still exactly one FAILED event
		}
		rep, err = svc.CloseDue(context.Background(), now)
		if err != nil || rep != (dayclose.Report{}) {
			t.Fatalf("second run at 22:01: %+v, %v", rep, err)
		}
		if n := c.ActivityResult.Query().CountX(sys); n != 8 {
			t.Fatalf("%d results stored, want 7 registered + 1 pending", n)
		}
	})
}

// TestCloseDueReplicas: replicas closing at the same time close every due
// activity exactly once (one FAILED event, at most one result each).
func TestCloseDueReplicas(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		c := env.App.DB.Client
		svc := env.App.DayClose
		svc.SetBatchSize(5)
		now := time.Date(2030, 3, 10, 12, 0, 0, 0, time.UTC)
		var due, open []*ent.Activity
		wantResults := 0
		for _, name := range []string{"Acme", "Beta"} {
			f := newFix(t, env, name, "America/Santiago", "20:00")
			statuses := []string{"READY", "DISPATCHED", "RETRYING"}
			for i := range 45 {
				typ := "TASK"
				if i%9 == 0 {
					typ = "MESSAGE"
				}
				a := f.act(typ, statuses[i%3], now.Add(-time.Duration(24+i)*time.Hour))
				if i%4 == 0 && typ == "TASK" {
					f.pending(a)
				} else if typ == "TASK" {
					wantResults++
				}
				due = append(due, a)
			}
			for i := range 5 {
				open = append(open, f.act("TASK", "READY", now.Add(time.Duration(24+i)*time.Hour)))
			}
		}
		const replicas = 4
		var (
			wg      sync.WaitGroup
			reports [replicas]dayclose.Report
			errs    [replicas]error
		)
		for i := range replicas {
			wg.Add(1)
			go func() {
				defer wg.Done()
				reports[i], errs[i] = svc.CloseDue(context.Background(), now)
			}()
		}
		wg.Wait()
		var total dayclose.Report
		for i := range replicas {
			if errs[i] != nil {
				t.Fatalf("replica %d: %v", i, errs[i])
			}
			total.Closed += reports[i].Closed
			total.ResultsCreated += reports[i].ResultsCreated
			total.Skipped += reports[i].Skipped
		}
		if total != (dayclose.Report{Closed: len(due), ResultsCreated: wantResults}) {
			t.Fatalf("replicas closed %+v in total (%+v), want %d closed, %d results", total, reports, len(due), wantResults)
		}
		for _, a := range due {
			expectClosed(t, c, a)
		}
		for _, a := range open {
			expectOpen(t, c, a)
		}
		failed := c.ActivityStatusEvent.Query().Where(activitystatusevent.EventTypeEQ(activitystatusevent.EventTypeFAILED)).CountX(sys)
		results := c.ActivityResult.Query().Where(activityresult.ResultStatusEQ(activityresult.ResultStatusNOT_EXECUTED)).CountX(sys)
		if failed != len(due) || results != wantResults {
			t.Fatalf("%d FAILED events and %d NOT_EXECUTED results, want %d and %d", failed, results, len(due), wantResults)
		}
	})
}
