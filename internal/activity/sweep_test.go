package activity_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	entact "github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activitystatusevent"
	"github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/viewer"
)

var sweepSys = viewer.SystemContext(context.Background())

// sweepFix is a tenant whose main project dispatches SMS through the log
// provider, with one commerce.
type sweepFix struct {
	t        *testing.T
	env      *apptest.Env
	ten      apptest.Tenant
	th       apptest.Headers
	ctx      context.Context
	commerce uuid.UUID
}

func newSweepFix(t *testing.T, env *apptest.Env, name string) *sweepFix {
	t.Helper()
	ten := env.Bootstrap(name)
	f := &sweepFix{t: t, env: env, ten: ten, th: apptest.JWT(env.Login(ten.Email), ten.TenantID, uuid.Nil),
		ctx: viewer.NewContext(context.Background(), &viewer.Viewer{TenantID: ten.TenantID, ProjectID: ten.ProjectID})}
	f.commerce = env.App.DB.Client.Commerce.Create().SetTenantID(ten.TenantID).SetName("Shop " + name).SaveX(f.ctx).ID
	f.logConfig("SMS")
	return f
}

// logConfig sets up the log provider for a channel of the main project.
func (f *sweepFix) logConfig(channel string) {
	f.t.Helper()
	res := f.env.Do("POST", "/api/dispatch-providers", map[string]any{"name": "Log " + channel, "channel": channel, "kind": "log"}, f.th)
	if res.Status != 201 {
		f.t.Fatalf("provider: %d %s", res.Status, res.Body)
	}
	res = f.env.Do("PUT", "/api/projects/"+f.ten.ProjectID.String()+"/dispatch-configs/"+channel,
		map[string]any{"provider_id": res.Map(f.t)["id"]}, f.th)
	if res.Status != 201 {
		f.t.Fatalf("dispatch config: %d %s", res.Status, res.Body)
	}
}

// retrying stores a task in RETRYING after one failed attempt, next attempt at next (nil: none).
func (f *sweepFix) retrying(typ, channel string, next *time.Time) *ent.Activity {
	f.t.Helper()
	b := f.env.App.DB.Client.Activity.Create().SetTenantID(f.ten.TenantID).SetProjectID(f.ten.ProjectID).
		SetCommerceID(f.commerce).SetType(entact.Type(typ)).SetChannel(entact.Channel(channel)).
		SetStatus(entact.StatusRETRYING).SetDispatchAttempts(1).SetScheduledAt(time.Now().UTC().Truncate(time.Microsecond))
	if next != nil {
		b.SetNextDispatchAt(next.UTC().Truncate(time.Microsecond))
	}
	return b.SaveX(f.ctx)
}

// sweepEvents lists "EVENT:from>to" of an activity in order.
func sweepEvents(t *testing.T, c *ent.Client, id uuid.UUID) ([]string, []*ent.ActivityStatusEvent) {
	t.Helper()
	evs := c.ActivityStatusEvent.Query().Where(activitystatusevent.ActivityID(id)).
		Order(ent.Asc(activitystatusevent.FieldOccurredAt)).AllX(sweepSys)
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = fmt.Sprintf("%s:%s>%s", e.EventType, *e.FromStatus, e.ToStatus)
	}
	return out, evs
}

// expectSwept asserts one sweep dispatch of a RETRYING task through the log
// provider: attempt 2, then DISPATCHED, events without actor.
func expectSwept(t *testing.T, c *ent.Client, a *ent.Activity) {
	t.Helper()
	got := c.Activity.GetX(sweepSys, a.ID)
	if got.Status != entact.StatusDISPATCHED || got.DispatchAttempts != a.DispatchAttempts+1 || got.NextDispatchAt != nil {
		t.Fatalf("swept task: %s, %d attempts, next %v", got.Status, got.DispatchAttempts, got.NextDispatchAt)
	}
	names, evs := sweepEvents(t, c, a.ID)
	if fmt.Sprint(names) != "[DISPATCH_ATTEMPT:RETRYING>RETRYING DISPATCH_SUCCESS:RETRYING>DISPATCHED]" {
		t.Fatalf("swept task events: %v", names)
	}
	att, ok := evs[1].Detail["providerRef"].(string)
	if evs[0].ActorID != nil || evs[1].ActorID != nil || evs[0].Detail["attempt"] != float64(a.DispatchAttempts+1) ||
		evs[0].Detail["forced"] != false || !ok || !strings.HasPrefix(att, "log-") ||
		evs[0].TenantID != a.TenantID || evs[1].ProjectID != a.ProjectID {
		t.Fatalf("swept task events: %+v / %+v", evs[0], evs[1])
	}
}

// expectUntouched asserts a task is as stored, without events.
func expectUntouched(t *testing.T, c *ent.Client, a *ent.Activity) {
	t.Helper()
	got := c.Activity.GetX(sweepSys, a.ID)
	names, _ := sweepEvents(t, c, a.ID)
	if got.Status != a.Status || got.DispatchAttempts != a.DispatchAttempts || len(names) != 0 ||
		(got.NextDispatchAt == nil) != (a.NextDispatchAt == nil) || got.NextDispatchAt != nil && !got.NextDispatchAt.Equal(*a.NextDispatchAt) {
		t.Fatalf("task changed: %s, %d attempts, next %v (was %v), events %v", got.Status, got.DispatchAttempts,
			got.NextDispatchAt, a.NextDispatchAt, names)
	}
}

func TestDispatchDue(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		c := env.App.DB.Client
		svc := env.App.Activities
		acme, beta := newSweepFix(t, env, "Acme"), newSweepFix(t, env, "Beta")
		// The lease is measured against updated_at, written with the wall
		// clock: the sweep runs at the wall clock, as in production.
		now := time.Now()
		past, future := now.Add(-time.Minute), now.Add(time.Minute)
		due := acme.retrying("TASK", "SMS", &past)
		betaDue := beta.retrying("TASK", "SMS", &past)
		notYet := acme.retrying("TASK", "SMS", &future)
		message := acme.retrying("MESSAGE", "SMS", &past)
		ready := c.Activity.Create().SetTenantID(acme.ten.TenantID).SetProjectID(acme.ten.ProjectID).SetCommerceID(acme.commerce).
			SetType("TASK").SetChannel("SMS").SetScheduledAt(now.UTC()).SaveX(acme.ctx)
		noConfig := acme.retrying("TASK", "EMAIL", &past) // no EMAIL dispatch config: cannot be sent
		// A RETRYING task without next attempt is one in flight (a claim, a
		// forced retry); once its lease has expired it is taken again.
		inFlight := acme.retrying("TASK", "SMS", nil)
		stranded := acme.retrying("TASK", "SMS", nil)
		c.Activity.UpdateOne(stranded).SetUpdatedAt(now.Add(-activity.SweepLease - time.Second).UTC()).ExecX(sweepSys)

		n, err := svc.DispatchDue(context.Background(), now)
		if err != nil || n != 3 {
			t.Fatalf("DispatchDue = %d, %v; want 3", n, err)
		}
		for _, a := range []*ent.Activity{due, betaDue, stranded} {
			expectSwept(t, c, a)
		}
		for _, a := range []*ent.Activity{notYet, message, ready, inFlight} {
			expectUntouched(t, c, a)
		}
		// The task that could not be sent is leased (claimed, no event) and
		// is not taken again before the lease expires.
		got := c.Activity.GetX(sweepSys, noConfig.ID)
		if names, _ := sweepEvents(t, c, noConfig.ID); got.Status != entact.StatusRETRYING || got.NextDispatchAt != nil ||
			got.DispatchAttempts != 1 || len(names) != 0 {
			t.Fatalf("unsendable task: %s, next %v, %d attempts, events %v", got.Status, got.NextDispatchAt, got.DispatchAttempts, names)
		}
		if n, err := svc.DispatchDue(context.Background(), now); err != nil || n != 0 {
			t.Fatalf("second DispatchDue = %d, %v; want 0", n, err)
		}
		// Its lease expired and its channel configured: the sweep sends it.
		acme.logConfig("EMAIL")
		c.Activity.UpdateOne(noConfig).SetUpdatedAt(now.Add(-activity.SweepLease - time.Second).UTC()).ExecX(sweepSys)
		if n, err := svc.DispatchDue(context.Background(), now); err != nil || n != 1 {
			t.Fatalf("DispatchDue after the lease = %d, %v; want 1", n, err)
		}
		expectSwept(t, c, noConfig)
		expectUntouched(t, c, notYet)
	})
}

// TestDispatchDueReplicas: sweeps running at the same time send every due
// task exactly once.
func TestDispatchDueReplicas(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		c := env.App.DB.Client
		now := time.Now()
		past := now.Add(-time.Minute)
		var due []*ent.Activity
		for _, name := range []string{"Acme", "Beta"} {
			f := newSweepFix(t, env, name)
			for range 20 {
				due = append(due, f.retrying("TASK", "SMS", &past))
			}
		}
		const replicas = 4
		var (
			wg    sync.WaitGroup
			sent  [replicas]int
			errs  [replicas]error
			total int
		)
		for i := range replicas {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sent[i], errs[i] = env.App.Activities.DispatchDue(context.Background(), now)
			}()
		}
		wg.Wait()
		for i := range replicas {
			if errs[i] != nil {
				t.Fatalf("replica %d: %v", i, errs[i])
			}
			total += sent[i]
		}
		if total != len(due) {
			t.Fatalf("replicas sent %d tasks (%v), want %d", total, sent, len(due))
		}
		for _, a := range due {
			expectSwept(t, c, a)
		}
		if n := c.ActivityStatusEvent.Query().Where(activitystatusevent.EventTypeEQ(activitystatusevent.EventTypeDISPATCH_ATTEMPT)).
			CountX(sweepSys); n != len(due) {
			t.Fatalf("%d DISPATCH_ATTEMPT events, want %d", n, len(due))
		}
	})
}

// TestDispatchDueKeepsTheChannelRate: a channel definition allowing 2
// dispatches a minute lets the sweep send 2 of 4 due tasks; the others wait a
// minute with nothing recorded, and another channel is not held back.
func TestDispatchDueKeepsTheChannelRate(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := newSweepFix(t, env, "Acme")
		c, svc := env.App.DB.Client, env.App.Activities
		// EMAIL goes through a definition limited to 2 a minute.
		p := env.Do("POST", "/api/dispatch-providers", map[string]any{"name": "Mail", "channel": "EMAIL", "kind": "log"}, acme.th).Map(t)["id"].(string)
		def := env.Do("POST", "/api/dispatch-providers/"+p+"/channel-definitions", map[string]any{"name": "slow", "rate_per_minute": 2}, acme.th)
		if def.Status != 201 {
			t.Fatalf("definition: %d %s", def.Status, def.Body)
		}
		if res := env.Do("PUT", "/api/projects/"+acme.ten.ProjectID.String()+"/dispatch-configs/EMAIL",
			map[string]any{"provider_id": p, "channel_definition_id": def.Map(t)["id"]}, acme.th); res.Status != 201 {
			t.Fatalf("config: %d %s", res.Status, res.Body)
		}
		now := time.Now().UTC()
		past := now.Add(-time.Minute)
		var mails []*ent.Activity
		for range 4 {
			mails = append(mails, acme.retrying("TASK", "EMAIL", &past))
		}
		sms := acme.retrying("TASK", "SMS", &past)

		n, err := svc.DispatchDue(context.Background(), now)
		if err != nil || n != 3 {
			t.Fatalf("DispatchDue = %d, %v; want 3 (2 mails, 1 sms)", n, err)
		}
		expectSwept(t, c, sms)
		// Two sent; the first refused waits a minute; the channel is then
		// skipped, so the last one is left due for the next run.
		swept, waiting, skipped := 0, 0, 0
		for _, m := range mails {
			got := c.Activity.GetX(sweepSys, m.ID)
			names, _ := sweepEvents(t, c, m.ID)
			idle := got.Status == entact.StatusRETRYING && got.DispatchAttempts == 1 && len(names) == 0 && got.NextDispatchAt != nil
			switch {
			case got.Status == entact.StatusDISPATCHED:
				expectSwept(t, c, m)
				swept++
			case idle && got.NextDispatchAt.Equal(now.Add(time.Minute).Truncate(time.Microsecond)):
				waiting++
			case idle && got.NextDispatchAt.Equal(past.Truncate(time.Microsecond)):
				skipped++
			default:
				t.Fatalf("mail task: %s, %d attempts, next %v, events %v", got.Status, got.DispatchAttempts, got.NextDispatchAt, names)
			}
		}
		if swept != 2 || waiting != 1 || skipped != 1 {
			t.Fatalf("%d mails sent, %d waiting, %d skipped; want 2, 1, 1", swept, waiting, skipped)
		}
		// Within the same minute the rate stays spent: the last one waits too.
		if n, err := svc.DispatchDue(context.Background(), now); err != nil || n != 0 {
			t.Fatalf("same minute: DispatchDue = %d, %v; want 0", n, err)
		}
		if n := c.Activity.Query().Where(entact.ChannelEQ(entact.ChannelEMAIL), entact.StatusEQ(entact.StatusRETRYING),
			entact.NextDispatchAt(now.Add(time.Minute).Truncate(time.Microsecond))).CountX(sweepSys); n != 2 {
			t.Fatalf("%d mails waiting a minute after the second run, want 2", n)
		}
	})
}
