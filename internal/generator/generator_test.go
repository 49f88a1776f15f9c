package generator_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activityattribute"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/activitystatusevent"
	"github.com/reten-io/reten/ent/commerceuser"
	gd "github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/ent/generationrule"
	"github.com/reten-io/reten/ent/retentionstatusconfig"
	"github.com/reten-io/reten/ent/routeoperator"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/generation"
	"github.com/reten-io/reten/internal/generator"
	"github.com/reten-io/reten/internal/snapshot"
	"github.com/reten-io/reten/internal/viewer"
)

// fix is a tenant (zone America/Santiago) with an active AGC, the states
// new (ACTIVATION) and at_risk (RESURRECTION), a route R1 led by Lena with
// the salesmen Max and Mia, and the generator.
type fix struct {
	db             *dbtest.DB
	acme           dbtest.Tenant
	admin, sys     context.Context
	snaps          *snapshot.Service
	gen            *generator.Service
	agc            uuid.UUID
	route          uuid.UUID
	lead, max, mia uuid.UUID
	tz             *time.Location
}

func newFix(t *testing.T, db *dbtest.DB) *fix {
	t.Helper()
	f := &fix{db: db, acme: db.Tenant(t, "Acme"), sys: viewer.SystemContext(context.Background())}
	f.admin = f.acme.Admin()
	f.snaps, f.gen = snapshot.NewService(db.Client, db.Dialect), generator.New(db.Client, db.Dialect)
	c := db.Client
	c.Tenant.UpdateOneID(f.acme.TenantID).SetTimeZone("America/Santiago").ExecX(f.sys)
	f.tz, _ = time.LoadLocation("America/Santiago")
	f.agc = c.ActivityGenerationConfig.Create().SetTenantID(f.acme.TenantID).SetProjectID(f.acme.ProjectID).SetName("Retail").
		SetStatus(activitygenerationconfig.StatusActive).SaveX(f.admin).ID
	for code, stage := range map[string]retentionstatusconfig.Stage{"new": "ACTIVATION", "at_risk": "RESURRECTION", "engaged": "ENGAGEMENT"} {
		c.RetentionStatusConfig.Create().SetTenantID(f.acme.TenantID).SetCode(code).SetLabel("L-" + code).SetStage(stage).SaveX(f.admin)
	}
	f.route = c.Route.Create().SetTenantID(f.acme.TenantID).SetCode("R1").SetName("Norte").SaveX(f.admin).ID
	op := func(name string, role routeoperator.Role) uuid.UUID {
		id := c.Operator.Create().SetTenantID(f.acme.TenantID).SetName(name).SetType("SALESMAN").SaveX(f.admin).ID
		c.RouteOperator.Create().SetTenantID(f.acme.TenantID).SetRouteID(f.route).SetOperatorID(id).SetRole(role).ExecX(f.admin)
		return id
	}
	f.lead, f.max, f.mia = op("Lena", routeoperator.RoleLEAD), op("Max", routeoperator.RoleMEMBER), op("Mia", routeoperator.RoleMEMBER)
	return f
}

// rule creates an active ENTER rule of the AGC; set adjusts it.
func (f *fix) rule(t *testing.T, name, stage, code string, typ generationrule.Type, channel generationrule.Channel,
	set func(*ent.GenerationRuleCreate)) *ent.GenerationRule {
	t.Helper()
	c := f.db.Client.GenerationRule.Create().SetTenantID(f.acme.TenantID).SetProjectID(f.acme.ProjectID).SetActivityGenerationConfigID(f.agc).
		SetName(name).SetTrigger(generationrule.TriggerENTER).SetStage(generationrule.Stage(stage)).SetStatusCode(code).
		SetType(typ).SetChannel(channel).SetReasonCode("reactivation").
		SetTitleTemplate("Visitar {{.commerce.name}} ({{.state.label}}, {{.commerce.external_id}})")
	if typ == generationrule.TypeTASK {
		c.SetAssignment(generationrule.AssignmentROUTE_LEAD)
	} else {
		c.SetTargetRole(generationrule.TargetRoleOWNER)
	}
	if set != nil {
		set(c)
	}
	return c.SaveX(f.admin)
}

// commerce creates a commerce (on route R1 when routed) with an OWNER
// whose primary WHATSAPP contact is phone ("" for none).
func (f *fix) commerce(t *testing.T, name string, routed bool, phone string) uuid.UUID {
	t.Helper()
	c := f.db.Client
	id := c.Commerce.Create().SetTenantID(f.acme.TenantID).SetName(name).SetExternalID("X-" + name).SaveX(f.admin).ID
	if routed {
		c.CommerceRoute.Create().SetTenantID(f.acme.TenantID).SetCommerceID(id).SetRouteID(f.route).ExecX(f.admin)
	}
	u := c.CommerceUser.Create().SetTenantID(f.acme.TenantID).SetCommerceID(id).SetName("Dueño " + name).SaveX(f.admin)
	c.CommerceUserRole.Create().SetTenantID(f.acme.TenantID).SetCommerceUserID(u.ID).SetRole("OWNER").ExecX(f.admin)
	if phone != "" {
		f.contact(u.ID, phone)
	}
	return id
}

func (f *fix) contact(user uuid.UUID, phone string) {
	f.db.Client.CommerceContact.Create().SetTenantID(f.acme.TenantID).SetCommerceUserID(user).SetContactType("WHATSAPP").
		SetValue(phone).SetSource("RETEN").SetIsPrimary(true).ExecX(f.admin)
}

// enter writes the commerces' states at at (through the snapshot API path).
func (f *fix) enter(t *testing.T, at time.Time, stage, code string, commerces ...uuid.UUID) {
	t.Helper()
	items := make([]snapshot.Item, len(commerces))
	for i, c := range commerces {
		items[i] = snapshot.Item{CommerceID: c.String(), AGCID: f.agc.String(), Stage: stage, Code: code, LastComputedAt: &at}
	}
	res, err := f.snaps.BatchUpsert(f.admin, items)
	dbtest.NoError(t, err)
	if len(res.Errors) != 0 {
		t.Fatalf("upsert: %+v", res.Errors)
	}
}

// decisions are the tenant's decisions as "commerce/rule kind reason".
func (f *fix) decisions(t *testing.T, names map[uuid.UUID]string) []string {
	t.Helper()
	ds, err := f.db.Client.GenerationDecision.Query().Where(gd.TenantID(f.acme.TenantID)).All(f.sys)
	dbtest.NoError(t, err)
	var out []string
	for _, d := range ds {
		s := fmt.Sprintf("%s/%s %s", names[d.CommerceID], names[d.RuleID], d.Kind)
		if d.Reason != nil {
			s += " " + string(*d.Reason)
		}
		if (d.Kind == gd.KindGENERATED) != (d.ActivityID != nil) {
			t.Errorf("decision %s: activity %v", s, d.ActivityID)
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func (f *fix) drain(t *testing.T, now time.Time) int {
	t.Helper()
	n, err := f.gen.Drain(context.Background(), func() time.Time { return now })
	dbtest.NoError(t, err)
	return n
}

func attrs(t *testing.T, c *ent.Client, id uuid.UUID) map[string]string {
	t.Helper()
	as, err := c.ActivityAttribute.Query().Where(activityattribute.ActivityID(id)).All(viewer.SystemContext(context.Background()))
	dbtest.NoError(t, err)
	out := map[string]string{}
	for _, a := range as {
		out[a.Key] = a.Value
	}
	return out
}

func events(t *testing.T, c *ent.Client, id uuid.UUID) []string {
	t.Helper()
	es, err := c.ActivityStatusEvent.Query().Where(activitystatusevent.ActivityID(id)).
		Order(activitystatusevent.ByOccurredAt()).All(viewer.SystemContext(context.Background()))
	dbtest.NoError(t, err)
	var out []string
	for _, e := range es {
		out = append(out, fmt.Sprintf("%s->%s", e.EventType, e.ToStatus))
	}
	return out
}

// TestGenerateFromTransitions: a transition queued by the snapshot write
// fires the AGC's ENTER rules of the state it entered: a task assigned to
// the route's lead, a message to the owner's WhatsApp, an unresolved
// message (UNRESOLVED with RESOLUTION_FAILED) and an unrouted task (no
// operator, flagged); one decision per rule, commerce and entry, and
// nothing more on a second pass or a re-delivery of the transition.
func TestGenerateFromTransitions(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		visit := f.rule(t, "Visita", "RESURRECTION", "at_risk", generationrule.TypeTASK, generationrule.ChannelSALESMAN, func(c *ent.GenerationRuleCreate) {
			c.SetOffsetDays(1).SetTimeOfDay("10:30").SetExpiresAfterDays(3).SetAttributes(map[string]string{"campaña": "otoño"})
		})
		wa := f.rule(t, "WhatsApp", "ACTIVATION", "new", generationrule.TypeMESSAGE, generationrule.ChannelWHATSAPP, nil)
		routed := f.commerce(t, "Kiosko", true, "+56911111111")
		lone := f.commerce(t, "Bazar", false, "")
		shop := f.commerce(t, "Almacen", false, "+56911111111")
		mute := f.commerce(t, "Mudo", true, "")
		names := map[uuid.UUID]string{visit.ID: "visit", wa.ID: "wa", routed: "kiosko", lone: "bazar", shop: "almacen", mute: "mudo"}

		// Entered Wednesday 2026-11-25 08:00 in Santiago (UTC-3).
		at := time.Date(2026, 11, 25, 11, 0, 0, 0, time.UTC)
		now := at.Add(time.Hour)
		f.enter(t, at, "RESURRECTION", "at_risk", routed, lone)
		f.enter(t, at.Add(time.Minute), "ACTIVATION", "new", shop, mute)
		if n := f.drain(t, now); n != 4 {
			t.Fatalf("drained %d transitions, want 4", n)
		}
		want := []string{"almacen/wa GENERATED", "bazar/visit GENERATED", "kiosko/visit GENERATED", "mudo/wa GENERATED"}
		if got := f.decisions(t, names); !slices.Equal(got, want) {
			t.Fatalf("decisions = %v, want %v", got, want)
		}
		acts, err := db.Client.Activity.Query().Where(activity.TenantID(f.acme.TenantID)).All(f.sys)
		dbtest.NoError(t, err)
		byKey := map[string]*ent.Activity{}
		for _, a := range acts {
			byKey[names[a.CommerceID]+"/"+string(a.Type)] = a
		}
		task := byKey["kiosko/TASK"]
		due := time.Date(2026, 11, 26, 13, 30, 0, 0, time.UTC) // Thursday 10:30 in Santiago
		if task == nil || task.Status != activity.StatusREADY || task.OperatorID == nil || *task.OperatorID != f.lead ||
			task.RouteID == nil || *task.RouteID != f.route || !task.ScheduledAt.Equal(due) || task.ExpiresAt == nil ||
			!task.ExpiresAt.Equal(due.Add(72*time.Hour)) || task.Title != "Visitar Kiosko (L-at_risk, X-Kiosko)" ||
			task.ReasonCode != "reactivation" || task.ActivityGenerationConfigID == nil || *task.ActivityGenerationConfigID != f.agc ||
			task.ProjectID != f.acme.ProjectID || task.Channel != activity.ChannelSALESMAN {
			t.Fatalf("task = %+v", task)
		}
		if got := attrs(t, db.Client, task.ID); fmt.Sprint(got) != fmt.Sprint(map[string]string{"campaña": "otoño", "generation_rule_id": visit.ID.String()}) {
			t.Fatalf("task attributes = %v", got)
		}
		if got := events(t, db.Client, task.ID); !slices.Equal(got, []string{"CREATED->READY"}) {
			t.Fatalf("task events = %v", got)
		}
		unrouted := byKey["bazar/TASK"]
		if unrouted.OperatorID != nil || unrouted.RouteID != nil || attrs(t, db.Client, unrouted.ID)["unassigned"] != "NO_ROUTE" {
			t.Fatalf("unrouted task = %+v %v", unrouted, attrs(t, db.Client, unrouted.ID))
		}
		msg := byKey["almacen/MESSAGE"]
		if got := attrs(t, db.Client, msg.ID); msg.Status != activity.StatusREADY || got["recipient"] != "+56911111111" ||
			got["target_role"] != "OWNER" || got["recipient_user_id"] == "" || msg.ExpiresAt != nil {
			t.Fatalf("message = %+v %v", msg, got)
		}
		// Entered 08:01 local, due 09:00 local the same day.
		if !msg.ScheduledAt.Equal(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)) {
			t.Fatalf("message scheduled at %v", msg.ScheduledAt)
		}
		lost := byKey["mudo/MESSAGE"]
		if got := events(t, db.Client, lost.ID); lost.Status != activity.StatusUNRESOLVED ||
			!slices.Equal(got, []string{"CREATED->READY", "RESOLUTION_FAILED->UNRESOLVED"}) || attrs(t, db.Client, lost.ID)["recipient"] != "" {
			t.Fatalf("unresolved message = %+v %v", lost, got)
		}

		// A second pass finds nothing; a re-delivered transition decides nothing again.
		if n := f.drain(t, now); n != 0 {
			t.Fatalf("second pass drained %d", n)
		}
		tr := db.Client.CommerceLifecycleTransition.Query().FirstX(f.sys)
		db.Client.GenerationOutbox.Create().SetID(tr.ID).SetTenantID(tr.TenantID).SetCreatedAt(now).ExecX(f.sys)
		if n := f.drain(t, now.Add(time.Minute)); n != 1 {
			t.Fatalf("re-delivery drained %d", n)
		}
		if got := f.decisions(t, names); !slices.Equal(got, want) {
			t.Fatalf("after re-delivery decisions = %v", got)
		}
		if n := db.Client.Activity.Query().CountX(f.sys); n != 4 {
			t.Fatalf("%d activities after re-delivery, want 4", n)
		}
	})
}

// TestCapsPriorityAndHoldout: the decisions' order of precedence.
func TestCapsPriorityAndHoldout(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		first := f.rule(t, "First", "RESURRECTION", "at_risk", generationrule.TypeTASK, generationrule.ChannelSALESMAN,
			func(c *ent.GenerationRuleCreate) { c.SetPriority(5) })
		second := f.rule(t, "Second", "RESURRECTION", "at_risk", generationrule.TypeTASK, generationrule.ChannelCALLCENTER,
			func(c *ent.GenerationRuleCreate) { c.SetPriority(7) })
		welcome := f.rule(t, "Welcome", "ACTIVATION", "new", generationrule.TypeTASK, generationrule.ChannelSALESMAN, nil)
		a := f.commerce(t, "A", true, "")
		names := map[uuid.UUID]string{first.ID: "first", second.ID: "second", welcome.ID: "welcome", a: "a"}
		// Policy: 2 per 10 days, 2 days apart.
		db.Client.GenerationPolicy.Create().SetTenantID(f.acme.TenantID).SetProjectID(f.acme.ProjectID).SetMaxPerCommerce(2).
			SetWindowDays(10).SetMinGapDays(2).SetControlSalt("s").ExecX(f.admin)

		day := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
		f.enter(t, day, "RESURRECTION", "at_risk", a)
		f.drain(t, day)
		// The next day it enters new: the gap (2 days) caps welcome.
		f.enter(t, day.Add(24*time.Hour), "ACTIVATION", "new", a)
		f.drain(t, day.Add(24*time.Hour))
		// Back at risk on day 3: first's task is still open.
		f.enter(t, day.Add(72*time.Hour), "RESURRECTION", "at_risk", a)
		f.drain(t, day.Add(72*time.Hour))
		want := []string{"a/first CAPPED OPEN_ACTIVITY", "a/first GENERATED", "a/second GENERATED", "a/second SUPPRESSED PRIORITY",
			"a/welcome CAPPED MIN_GAP"}
		if got := f.decisions(t, names); !slices.Equal(got, want) {
			t.Fatalf("decisions = %v, want %v", got, want)
		}
		// The window's maximum (2): first and second created; back in new on day 5.
		f.enter(t, day.Add(96*time.Hour), "ACTIVATION", "new", a)
		f.drain(t, day.Add(120*time.Hour))
		if got := f.decisions(t, names); !slices.Contains(got, "a/welcome CAPPED MAX_PER_WINDOW") {
			t.Fatalf("decisions = %v, want a MAX_PER_WINDOW cap", got)
		}

		// Holdout: 30% of the AGC and a 20% control group; who is held out is InGroup's answer.
		settingsSalt, controlSalt := "agc-salt", "control-salt"
		db.Client.GenerationSettings.Create().SetTenantID(f.acme.TenantID).SetProjectID(f.acme.ProjectID).SetActivityGenerationConfigID(f.agc).
			SetHoldoutPercent(30).SetHoldoutSalt(settingsSalt).ExecX(f.admin)
		db.Client.GenerationPolicy.Update().SetControlPercent(20).SetControlSalt(controlSalt).SetMaxPerCommerce(100).SetMinGapDays(0).ExecX(f.sys)
		var many []uuid.UUID
		for i := range 60 {
			many = append(many, f.commerce(t, fmt.Sprintf("M%02d", i), true, ""))
		}
		later := day.Add(30 * 24 * time.Hour)
		f.enter(t, later, "ACTIVATION", "new", many...)
		f.drain(t, later)
		ds := db.Client.GenerationDecision.Query().Where(gd.RuleID(welcome.ID), gd.CommerceIDIn(many...)).AllX(f.sys)
		if len(ds) != 60 {
			t.Fatalf("%d decisions, want 60", len(ds))
		}
		kinds := map[string]int{}
		for _, d := range ds {
			want := "GENERATED"
			switch {
			case generation.InGroup(controlSalt, d.CommerceID, 20):
				want = "HELD_OUT CONTROL_GROUP"
			case generation.InGroup(settingsSalt, d.CommerceID, 30):
				want = "HELD_OUT AGC_HOLDOUT"
			}
			got := string(d.Kind)
			if d.Reason != nil {
				got += " " + string(*d.Reason)
			}
			if got != want {
				t.Errorf("commerce %s: %s, want %s", d.CommerceID, got, want)
			}
			kinds[got]++
		}
		if kinds["GENERATED"] == 0 || kinds["HELD_OUT CONTROL_GROUP"] == 0 || kinds["HELD_OUT AGC_HOLDOUT"] == 0 {
			t.Fatalf("kinds = %v: every group should be represented among 60 commerces", kinds)
		}
	})
}

// TestStateLeftInactiveAndExpired: a transition read after the commerce
// left the state, an inactive commerce, and an activity whose expiry had
// passed when the rule was evaluated create nothing.
func TestStateLeftInactiveAndExpired(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		r := f.rule(t, "Visita", "RESURRECTION", "at_risk", generationrule.TypeTASK, generationrule.ChannelSALESMAN,
			func(c *ent.GenerationRuleCreate) { c.SetExpiresAfterDays(2) })
		left, idle, late := f.commerce(t, "Left", true, ""), f.commerce(t, "Idle", true, ""), f.commerce(t, "Late", true, "")
		db.Client.Commerce.UpdateOneID(idle).SetIsActive(false).ExecX(f.sys)
		at := time.Date(2026, 5, 4, 15, 0, 0, 0, time.UTC)
		f.enter(t, at, "RESURRECTION", "at_risk", left, idle)
		f.enter(t, at.Add(time.Hour), "ENGAGEMENT", "engaged", left)
		f.enter(t, at.Add(-10*24*time.Hour), "RESURRECTION", "at_risk", late)
		f.drain(t, at.Add(2*time.Hour))
		want := []string{"idle/r SUPPRESSED COMMERCE_INACTIVE", "late/r EXPIRED_RULE EXPIRED", "left/r EXPIRED_RULE STATE_LEFT"}
		if got := f.decisions(t, map[uuid.UUID]string{r.ID: "r", left: "left", idle: "idle", late: "late"}); !slices.Equal(got, want) {
			t.Fatalf("decisions = %v, want %v", got, want)
		}
		if n := db.Client.Activity.Query().CountX(f.sys); n != 0 {
			t.Fatalf("%d activities, want none", n)
		}
	})
}

// TestRoundRobin: ROUTE_MEMBERS_ROUND_ROBIN hands the route's members the
// tasks in turn (the lead is not a member), whatever the batch.
func TestRoundRobin(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		f.rule(t, "Ronda", "RESURRECTION", "at_risk", generationrule.TypeTASK, generationrule.ChannelSALESMAN, func(c *ent.GenerationRuleCreate) {
			c.SetAssignment(generationrule.AssignmentROUTE_MEMBERS_ROUND_ROBIN).SetOperatorType(generationrule.OperatorTypeSALESMAN)
		})
		var cs []uuid.UUID
		for i := range 6 {
			cs = append(cs, f.commerce(t, fmt.Sprintf("C%d", i), true, ""))
		}
		at := time.Date(2026, 5, 4, 15, 0, 0, 0, time.UTC)
		f.enter(t, at, "RESURRECTION", "at_risk", cs[:3]...)
		f.drain(t, at)
		f.enter(t, at, "RESURRECTION", "at_risk", cs[3:]...)
		f.drain(t, at.Add(time.Minute))
		count := map[uuid.UUID]int{}
		for _, a := range db.Client.Activity.Query().AllX(f.sys) {
			if a.OperatorID == nil {
				t.Fatalf("task %s has no operator", a.ID)
			}
			count[*a.OperatorID]++
		}
		if count[f.max] != 3 || count[f.mia] != 3 || count[f.lead] != 0 {
			t.Fatalf("tasks per operator: max %d, mia %d, lead %d; want 3, 3, 0", count[f.max], count[f.mia], count[f.lead])
		}
	})
}

// TestResolutionRetryAndExpiry: an unresolved message is retried when its
// commerce's contacts change (RESOLUTION_RETRY_SUCCESS -> READY) or after
// RetryEvery (RESOLUTION_RETRY_FAILED, unchanged); an open activity past
// its expiry is canceled with a CANCELED event.
func TestResolutionRetryAndExpiry(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		f.rule(t, "WhatsApp", "ACTIVATION", "new", generationrule.TypeMESSAGE, generationrule.ChannelWHATSAPP,
			func(c *ent.GenerationRuleCreate) { c.SetExpiresAfterDays(5) })
		fixed, stuck := f.commerce(t, "Fixed", false, ""), f.commerce(t, "Stuck", false, "")
		at := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
		f.enter(t, at, "ACTIVATION", "new", fixed, stuck)
		f.drain(t, time.Now().UTC())
		get := func(c uuid.UUID) *ent.Activity {
			return db.Client.Activity.Query().Where(activity.CommerceID(c)).OnlyX(f.sys)
		}
		if get(fixed).Status != activity.StatusUNRESOLVED || get(stuck).Status != activity.StatusUNRESOLVED {
			t.Fatal("both messages should start UNRESOLVED")
		}
		retry := func(now time.Time, want int) {
			t.Helper()
			n, err := f.gen.RetryResolution(context.Background(), now)
			dbtest.NoError(t, err)
			if n != want {
				t.Fatalf("retried %d, want %d", n, want)
			}
		}
		// Nothing changed and RetryEvery has not passed: no retry.
		retry(time.Now(), 0)
		time.Sleep(5 * time.Millisecond) // the contact is written after the message's last change
		f.contact(db.Client.CommerceUser.Query().Where(commerceuser.CommerceID(fixed)).OnlyIDX(f.sys), "+56922222222")
		retry(time.Now(), 1)
		a := get(fixed)
		if got := events(t, db.Client, a.ID); a.Status != activity.StatusREADY || attrs(t, db.Client, a.ID)["recipient"] != "+56922222222" ||
			!slices.Equal(got, []string{"CREATED->READY", "RESOLUTION_FAILED->UNRESOLVED", "RESOLUTION_RETRY_SUCCESS->READY"}) {
			t.Fatalf("fixed message = %+v %v", a, got)
		}
		// RetryEvery later the other is retried and stays UNRESOLVED.
		retry(time.Now().Add(f.gen.RetryEvery+time.Minute), 1)
		a = get(stuck)
		if got := events(t, db.Client, a.ID); a.Status != activity.StatusUNRESOLVED ||
			!slices.Equal(got, []string{"CREATED->READY", "RESOLUTION_FAILED->UNRESOLVED", "RESOLUTION_RETRY_FAILED->UNRESOLVED"}) {
			t.Fatalf("stuck message = %+v %v", a, got)
		}
		retry(time.Now(), 0)

		// Expiry: 5 days after the due day; not before.
		n, err := f.gen.ExpireDue(context.Background(), time.Now().Add(24*time.Hour))
		dbtest.NoError(t, err)
		if n != 0 {
			t.Fatalf("expired %d early", n)
		}
		n, err = f.gen.ExpireDue(context.Background(), time.Now().Add(7*24*time.Hour))
		dbtest.NoError(t, err)
		if n != 2 {
			t.Fatalf("expired %d, want 2", n)
		}
		for _, c := range []uuid.UUID{fixed, stuck} {
			a := get(c)
			es, _ := db.Client.ActivityStatusEvent.Query().Where(activitystatusevent.ActivityID(a.ID)).
				Order(activitystatusevent.ByOccurredAt()).All(f.sys)
			last := es[len(es)-1]
			if a.Status != activity.StatusCANCELED || last.EventType != activitystatusevent.EventTypeCANCELED || last.Detail["reason"] != "expired" {
				t.Fatalf("expired activity = %+v, last event %+v", a, last)
			}
		}
	})
}

// TestReplicas: two generators draining one outbox at once decide every
// (rule, commerce, entry) exactly once and create one activity per
// GENERATED decision.
func TestReplicas(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		f.rule(t, "A", "RESURRECTION", "at_risk", generationrule.TypeTASK, generationrule.ChannelSALESMAN, nil)
		f.rule(t, "B", "RESURRECTION", "at_risk", generationrule.TypeTASK, generationrule.ChannelCALLCENTER, func(c *ent.GenerationRuleCreate) { c.SetPriority(200) })
		var cs []uuid.UUID
		for i := range 120 {
			cs = append(cs, f.commerce(t, fmt.Sprintf("C%03d", i), true, ""))
		}
		at := time.Date(2026, 5, 4, 15, 0, 0, 0, time.UTC)
		f.enter(t, at, "RESURRECTION", "at_risk", cs...)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range 2 {
			g := generator.New(db.Client, db.Dialect)
			g.Batch = 25
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = g.Drain(context.Background(), func() time.Time { return at })
			}()
		}
		wg.Wait()
		for _, err := range errs {
			dbtest.NoError(t, err)
		}
		ds := db.Client.GenerationDecision.Query().AllX(f.sys)
		kinds := map[string]int{}
		for _, d := range ds {
			kinds[string(d.Kind)]++
		}
		if len(ds) != 240 || kinds["GENERATED"] != 120 || kinds["SUPPRESSED"] != 120 {
			t.Fatalf("%d decisions %v, want 240: 120 GENERATED, 120 SUPPRESSED", len(ds), kinds)
		}
		if n := db.Client.Activity.Query().CountX(f.sys); n != 120 {
			t.Fatalf("%d activities, want 120", n)
		}
		if n := db.Client.GenerationOutbox.Query().CountX(f.sys); n != 0 {
			t.Fatalf("%d transitions left in the outbox", n)
		}
	})
}

// TestDwell: a DWELL rule fires once per state entry, when the commerce
// has stayed dwellDays days, and again only after a new entry.
func TestDwell(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		r := f.rule(t, "Tres días", "ACTIVATION", "new", generationrule.TypeTASK, generationrule.ChannelSALESMAN,
			func(c *ent.GenerationRuleCreate) { c.SetTrigger(generationrule.TriggerDWELL).SetDwellDays(3) })
		a, b := f.commerce(t, "A", true, ""), f.commerce(t, "B", true, "")
		at := time.Date(2026, 5, 4, 15, 0, 0, 0, time.UTC)
		f.enter(t, at, "ACTIVATION", "new", a)
		f.enter(t, at.Add(48*time.Hour), "ACTIVATION", "new", b)
		f.drain(t, at) // ENTER: no ENTER rule, nothing decided
		dwell := func(now time.Time, want int) {
			t.Helper()
			n, err := f.gen.EvaluateDwell(context.Background(), now)
			dbtest.NoError(t, err)
			if n != want {
				t.Fatalf("dwell at %v: %d entries, want %d", now, n, want)
			}
		}
		dwell(at.Add(71*time.Hour), 0)
		dwell(at.Add(73*time.Hour), 1) // A only
		dwell(at.Add(74*time.Hour), 0) // decided
		dwell(at.Add(5*24*time.Hour+time.Hour), 1)
		d := db.Client.GenerationDecision.Query().Where(gd.CommerceID(a)).OnlyX(f.sys)
		if d.Trigger != gd.TriggerDWELL || d.Kind != gd.KindGENERATED || d.RuleID != r.ID || !d.EnteredAt.Equal(at) || d.TransitionID != nil {
			t.Fatalf("decision = %+v", d)
		}
		task := db.Client.Activity.Query().Where(activity.CommerceID(a)).OnlyX(f.sys)
		// Due on the day A reached 3 days (Thursday 2026-05-07) at 09:00 Santiago (UTC-4).
		if want := time.Date(2026, 5, 7, 13, 0, 0, 0, time.UTC); !task.ScheduledAt.Equal(want) {
			t.Fatalf("scheduled %v, want %v", task.ScheduledAt, want)
		}
	})
}

// TestTemplatesRenderMetrics: a rule's templates render the commerce, the
// state and the engine's metrics kept on the entry's transition; a state
// written through the API has no metrics, which render empty.
func TestTemplatesRenderMetrics(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		r := f.rule(t, "Visita", "RESURRECTION", "at_risk", generationrule.TypeTASK, generationrule.ChannelSALESMAN, func(c *ent.GenerationRuleCreate) {
			c.SetTitleTemplate("{{.commerce.name}}: {{.metrics.days_since_last_row}} días sin comprar").
				SetInstructionsTemplate("{{.metrics.lifetime_actions}} compras, {{.metrics.engagement}} recientes, {{.metrics.activation}}; {{.state.code}} desde {{.state.entered_at}} ({{.state.days_in_state}} días)")
		})
		engineShop, apiShop := f.commerce(t, "Kiosko", true, ""), f.commerce(t, "Bazar", true, "")
		at := time.Date(2026, 5, 4, 15, 0, 0, 0, time.UTC)
		_, err := f.snaps.EngineChunk(f.admin, snapshot.EngineWrite{AGCID: f.agc, RunID: uuid.New(), At: at}, []snapshot.EngineRow{{
			Identity: "X-Kiosko", Stage: "RESURRECTION", Code: "at_risk",
			Metrics: `{"lifetime_actions":"12","days_since_last_row":"41","engagement":"0","activation":"2"}`}})
		dbtest.NoError(t, err)
		f.enter(t, at, "RESURRECTION", "at_risk", apiShop)
		f.drain(t, at.Add(48*time.Hour))
		for c, want := range map[uuid.UUID][2]string{
			engineShop: {"Kiosko: 41 días sin comprar", "12 compras, 0 recientes, 2; at_risk desde 2026-05-04 (2 días)"},
			apiShop:    {"Bazar:  días sin comprar", " compras,  recientes, ; at_risk desde 2026-05-04 (2 días)"},
		} {
			a := db.Client.Activity.Query().Where(activity.CommerceID(c)).OnlyX(f.sys)
			if a.Title != want[0] || a.Description != want[1] || attrs(t, db.Client, a.ID)["generation_rule_id"] != r.ID.String() {
				t.Errorf("activity of %s: %q / %q, want %q / %q", c, a.Title, a.Description, want[0], want[1])
			}
		}
	})
}
