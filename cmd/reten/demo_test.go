package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/commercecontact"
	"github.com/reten-io/reten/ent/commercelifecyclesnapshot"
	"github.com/reten-io/reten/ent/commercelifecycletransition"
	"github.com/reten-io/reten/ent/commerceuser"
	"github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/ent/generationrule"
	"github.com/reten-io/reten/ent/generationsettings"
	"github.com/reten-io/reten/ent/lifecyclerun"
	"github.com/reten-io/reten/ent/retentionstatusconfig"
	"github.com/reten-io/reten/ent/routeoperator"
	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/demo"
	"github.com/reten-io/reten/internal/generation"
	"github.com/reten-io/reten/internal/lifecycle"
	"github.com/reten-io/reten/internal/viewer"
)

// demoLine is the JSON line `reten demo` prints.
type demoLine struct {
	TenantID  string         `json:"tenantId"`
	ProjectID string         `json:"projectId"`
	Email     string         `json:"email"`
	Password  *string        `json:"password"`
	Engine    string         `json:"engine"`
	Tables    map[string]int `json:"tables"`
	Rows      int            `json:"rows"`
	AGCID     string         `json:"activityGenerationConfigId"`
}

// runDemo runs `reten demo args...` and decodes its one output line.
func runDemo(t *testing.T, args ...string) demoLine {
	t.Helper()
	var out bytes.Buffer
	if err := run(append([]string{"demo"}, args...), &out); err != nil {
		t.Fatalf("reten demo %v: %v", args, err)
	}
	if strings.Count(out.String(), "\n") != 1 {
		t.Fatalf("want one line, got %q", out.String())
	}
	var line demoLine
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&line); err != nil {
		t.Fatalf("output %q: %v", out.String(), err)
	}
	return line
}

// TestDemoCommand runs the real command end to end on SQLite and, when
// TEST_DATABASE_URL is set, on PostgreSQL.
func TestDemoCommand(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		t.Setenv("DATABASE_URL", "sqlite://"+filepath.Join(dir, "reten.db"))
		t.Setenv("RETEN_JWT_SECRET", "")
		t.Setenv("RETEN_LOG_LEVEL", "error")
		line := runDemo(t, "--password", "secret-pw-1")
		checkDemo(t, line, "sqlite", "secret-pw-1")
		file := filepath.Join(dir, "demo-"+strings.ReplaceAll(line.TenantID, "-", "")[:8]+".db")
		if _, err := os.Stat(file); err != nil {
			t.Fatalf("demo dataset file: %v", err)
		}
	})
	if base := os.Getenv("TEST_DATABASE_URL"); base != "" {
		t.Run("postgres", func(t *testing.T) {
			t.Setenv("DATABASE_URL", apptest.PostgresSchema(t))
			t.Setenv("RETEN_JWT_SECRET", strings.Repeat("j", 32))
			t.Setenv("RETEN_LOG_LEVEL", "error")
			db, err := sql.Open("postgres", base)
			if err != nil {
				t.Fatal(err)
			}
			var (
				schema   string
				tenantID uuid.UUID
			)
			t.Cleanup(func() {
				if schema != "" {
					if _, err := db.Exec(`DROP SCHEMA IF EXISTS "` + schema + `" CASCADE`); err != nil {
						t.Errorf("drop %s: %v", schema, err)
					}
				}
				if tenantID != uuid.Nil {
					if err := dataset.DropReader(context.Background(), db, tenantID); err != nil {
						t.Errorf("drop reader role: %v", err)
					}
				}
				_ = db.Close()
			})
			line := runDemo(t, "--password", "secret-pw-1")
			schema, tenantID = "demo_"+strings.ReplaceAll(line.TenantID, "-", "")[:8], uuid.MustParse(line.TenantID)
			var n int
			if err := db.QueryRow(`SELECT count(*) FROM "` + schema + `"."events"`).Scan(&n); err != nil || n != demo.DefaultEvents {
				t.Fatalf("%s.events: %d rows, %v", schema, n, err)
			}
			checkDemo(t, line, "postgres", "secret-pw-1")
		})
	}
}

// checkDemo checks the output of a first run, that a second run is
// idempotent (it creates nothing twice), that the demo user reaches the
// stored dataset, and that `reten engine run` runs the demo's AGC.
func checkDemo(t *testing.T, line demoLine, engine, password string) {
	t.Helper()
	asOf := time.Now().UTC().Truncate(time.Millisecond).Format(time.RFC3339Nano) // after the demo data's reference time
	wantTables := map[string]int{"commerces": demo.DefaultCommerces, "events": demo.DefaultEvents,
		"product_properties": demo.DefaultProducts, "transactions": demo.DefaultTransactions}
	if line.Email != "demo@reten.local" || line.Password == nil || *line.Password != password || line.Engine != engine ||
		!reflect.DeepEqual(line.Tables, wantTables) || line.Rows != 43700 {
		t.Fatalf("output = %+v", line)
	}
	for _, id := range []string{line.TenantID, line.ProjectID, line.AGCID} {
		if _, err := uuid.Parse(id); err != nil {
			t.Fatalf("id %q: %v", id, err)
		}
	}

	// Idempotent: same tenant, tables and AGC; the user exists, so no
	// password; nothing is created twice.
	cfg, err := app.LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	created := countDemo(t, a, uuid.MustParse(line.TenantID))
	// A commerce per dataset commerce, the 8 states of the lifecycle
	// defaults, one AGC and its history of weekly runs.
	if want := [4]int{demo.DefaultCommerces, 8, 1, app.DemoHistoryWeeks}; created != want {
		t.Fatalf("commerces, status configs, AGCs, runs = %v, want %v", created, want)
	}
	again := runDemo(t)
	want := line
	want.Password = nil
	if !reflect.DeepEqual(again, want) {
		t.Fatalf("second run = %+v, want %+v", again, want)
	}
	if after := countDemo(t, a, uuid.MustParse(line.TenantID)); after != created {
		t.Fatalf("after a second run: commerces, status configs, AGCs, runs = %v, want %v", after, created)
	}

	// The demo user logs in and sees the dataset and its catalog.
	call := func(method, path, body string, h map[string]string) (int, map[string]any) {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range h {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		a.Handler.ServeHTTP(rec, req)
		var out map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &out)
		return rec.Code, out
	}
	status, session := call("POST", "/api/auth/login", `{"identifier":"demo@reten.local","password":"`+password+`"}`, nil)
	if status != http.StatusCreated {
		t.Fatalf("login: %d %v", status, session)
	}
	h := map[string]string{"Authorization": "Bearer " + session["accessToken"].(string), "x-tenant-id": line.TenantID}
	status, ds := call("GET", "/api/tenant-dataset", "", h)
	if status != 200 || ds["engine"] != engine || ds["hasConnection"] != true {
		t.Fatalf("GET /api/tenant-dataset: %d %v", status, ds)
	}
	status, cat := call("GET", "/api/tenant-dataset/catalog", "", h)
	if tables, _ := cat["tables"].([]any); status != 200 || len(tables) != 4 {
		t.Fatalf("GET /api/tenant-dataset/catalog: %d %v", status, cat)
	}

	// The demo's AGC runs, and gives every state of the lifecycle defaults.
	status, defaults := call("GET", "/api/lifecycle-defaults", "", h)
	if status != 200 {
		t.Fatalf("GET /api/lifecycle-defaults: %d %v", status, defaults)
	}
	// The history measures the decisions of its first weeks.
	status, report := call("GET", "/api/activity-generation-configs/"+line.AGCID+"/uplift", "",
		map[string]string{"Authorization": h["Authorization"], "x-tenant-id": line.TenantID, "x-project-id": line.ProjectID})
	checkUplift(t, status, report)
	checkDemoEngineRun(t, a, line, asOf, defaultCodes(t, defaults))
	checkGeneration(t, a, line)
}

// checkUplift: the uplift report `reten demo` leaves has measured treated
// and control decisions (the history's older than the 30-day window), the
// younger ones pending, and an uplift for ENGAGED and IMPROVED.
func checkUplift(t *testing.T, status int, report map[string]any) {
	t.Helper()
	num := func(v any) float64 { f, _ := v.(float64); return f }
	group := func(name string) float64 { g, _ := report[name].(map[string]any); return num(g["decisions"]) }
	outcomes, _ := report["outcomes"].([]any)
	if status != http.StatusOK || num(report["windowDays"]) != 30 || group("treated") == 0 || group("control") == 0 ||
		num(report["pending"]) == 0 || len(outcomes) != 3 {
		t.Fatalf("GET .../uplift: %d %v", status, report)
	}
	for _, o := range outcomes {
		o := o.(map[string]any)
		if computed := o["outcome"] != "POSITIVE_RESULT"; (o["uplift"] != nil) != computed {
			t.Fatalf("uplift outcome %v", o)
		}
	}
	t.Logf("uplift: treated %v, control %v, pending %v decisions", group("treated"), group("control"), report["pending"])
}

// checkDemoEngineRun runs the demo's AGC at asOf (after its history): a dry
// run writes nothing, a run classifies every demo commerce it can, gives
// every state of the defaults (codes), updates the commerces the history
// classified and creates the others, and a second run at the same instant
// writes nothing.
func checkDemoEngineRun(t *testing.T, a *app.App, line demoLine, asOf string, codes []string) {
	t.Helper()
	args := []string{"--tenant", line.TenantID, "--agc", line.AGCID, "--as-of", asOf}
	want, err := time.Parse(time.RFC3339Nano, asOf)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, r runLine, dryRun bool) lifecycle.RunCounts {
		t.Helper()
		c := r.Counts
		if _, err := uuid.Parse(r.ID); err != nil || r.ActivityGenerationConfigID != line.AGCID || r.Status != "SUCCEEDED" ||
			r.Trigger != "MANUAL" || !r.AsOf.Equal(want) || r.DryRun != dryRun || r.Error != nil || r.ConfigHashes == nil ||
			r.StartedAt == nil || r.FinishedAt == nil {
			t.Fatalf("%s: %+v", name, r)
		}
		if c.Evaluated != demo.DefaultCommerces || c.Classified+c.Unclassified != c.Evaluated || c.UnknownIdentities != 0 ||
			c.LeftAudience != 0 || c.Stale != 0 || c.Created+c.Updated+c.Unchanged != c.Classified {
			t.Fatalf("%s: counts %+v", name, c)
		}
		byState, sum := map[string]int{}, 0
		for _, s := range r.ByState {
			byState[s.Code] = s.Count
			sum += s.Count
		}
		if got := slices.Sorted(maps.Keys(byState)); !slices.Equal(got, codes) || sum != c.Classified {
			t.Fatalf("%s: byState %v (sum %d, classified %d), want every state of %v", name, r.ByState, sum, c.Classified, codes)
		}
		return c
	}
	before, err := a.DB.Client.CommerceLifecycleSnapshot.Query().
		Where(commercelifecyclesnapshot.ActivityGenerationConfigID(uuid.MustParse(line.AGCID))).Count(viewer.SystemContext(t.Context()))
	if err != nil {
		t.Fatal(err)
	}
	dry := check("dry run", runEngine(t, append(args, "--dry-run")...), true)
	first := check("first run", runEngine(t, args...), false)
	if first != dry || before == 0 || first.Updated != before || first.Created != first.Classified-before {
		t.Fatalf("first run %+v, dry run %+v: want the same, the %d states of the history updated", first, dry, before)
	}
	second := check("second run", runEngine(t, args...), false)
	if second.Unchanged != second.Classified || second.Created != 0 || second.Updated != 0 || second.Classified != first.Classified {
		t.Fatalf("second run at the same instant: %+v (first %+v)", second, first)
	}
}

// checkGeneration: the demo's history and the engine run made the demo's
// rules fire on every entry of a commerce into at_risk or new: one decision
// each (the commerces in those states now have theirs), HELD_OUT exactly
// for the AGC's holdout group, CAPPED when an earlier activity of the rule
// for the commerce was still open, otherwise a visit assigned to the
// route's lead or a WhatsApp message to the owner (UNRESOLVED for the
// owners without a number).
func checkGeneration(t *testing.T, a *app.App, line demoLine) {
	t.Helper()
	ctx, c := viewer.SystemContext(t.Context()), a.DB.Client
	tid, agcID := uuid.MustParse(line.TenantID), uuid.MustParse(line.AGCID)
	settings := c.GenerationSettings.Query().Where(generationsettings.ActivityGenerationConfigID(agcID)).OnlyX(ctx)
	rules := map[string]*ent.GenerationRule{}
	for _, r := range c.GenerationRule.Query().Where(generationrule.ActivityGenerationConfigID(agcID)).AllX(ctx) {
		rules[r.StatusCode] = r
	}
	if len(rules) != 2 || rules["at_risk"] == nil || rules["new"] == nil || settings.HoldoutPercent != 20 {
		t.Fatalf("demo rules %v, holdout %d", rules, settings.HoldoutPercent)
	}
	type entry struct {
		commerce uuid.UUID
		at       int64
	}
	generated := 0
	for code, r := range rules {
		entries := c.CommerceLifecycleTransition.Query().Where(commercelifecycletransition.ActivityGenerationConfigID(agcID),
			commercelifecycletransition.ToCode(code)).CountX(ctx)
		decisions := map[entry]*ent.GenerationDecision{}
		opened := map[uuid.UUID]time.Time{} // the commerce's first GENERATED decision of the rule
		for _, d := range c.GenerationDecision.Query().Where(generationdecision.RuleID(r.ID)).AllX(ctx) {
			decisions[entry{d.CommerceID, d.EnteredAt.UnixMicro()}] = d
			if at, ok := opened[d.CommerceID]; d.Kind == generationdecision.KindGENERATED && (!ok || d.DecidedAt.Before(at)) {
				opened[d.CommerceID] = d.DecidedAt
			}
		}
		states := c.CommerceLifecycleSnapshot.Query().Where(commercelifecyclesnapshot.ActivityGenerationConfigID(agcID),
			commercelifecyclesnapshot.Code(code)).AllX(ctx)
		if len(states) == 0 || len(decisions) != entries {
			t.Fatalf("rule %q: %d decisions for %d entries into %s", r.Name, len(decisions), entries, code)
		}
		for _, s := range states {
			if decisions[entry{s.CommerceID, s.StateChangedAt.UnixMicro()}] == nil {
				t.Fatalf("rule %q: no decision for commerce %s in %s since %v", r.Name, s.CommerceID, code, s.StateChangedAt)
			}
		}
		for _, d := range decisions {
			held := generation.InGroup(settings.HoldoutSalt, d.CommerceID, settings.HoldoutPercent)
			tr := c.CommerceLifecycleTransition.GetX(ctx, *d.TransitionID)
			capped := d.Kind == generationdecision.KindCAPPED && *d.Reason == generationdecision.ReasonOPEN_ACTIVITY &&
				!opened[d.CommerceID].IsZero() && opened[d.CommerceID].Before(d.DecidedAt)
			if tr.ToCode != code || !tr.StateChangedAt.Equal(d.EnteredAt) || (d.Kind == generationdecision.KindHELD_OUT) != held ||
				(!held && d.Kind != generationdecision.KindGENERATED && !capped) {
				t.Fatalf("rule %q, commerce %s (held out %v): decision %+v", r.Name, d.CommerceID, held, d)
			}
			if d.ActivityID == nil {
				continue
			}
			generated++
			act := c.Activity.Query().Where(activity.ID(*d.ActivityID), activity.TenantID(tid)).WithAttributes().OnlyX(ctx)
			attrs := map[string]string{}
			for _, at := range act.Edges.Attributes {
				attrs[at.Key] = at.Value
			}
			switch act.Type {
			case activity.TypeTASK:
				lead := c.RouteOperator.Query().Where(routeoperator.RouteID(*act.RouteID), routeoperator.RoleEQ(routeoperator.RoleLEAD)).OnlyX(ctx)
				if act.Status != activity.StatusREADY || act.OperatorID == nil || *act.OperatorID != lead.OperatorID || act.Channel != activity.ChannelSALESMAN {
					t.Fatalf("visit %+v", act)
				}
				// The instructions carry the engine's metrics of the entry.
				days := tr.Metrics["days_since_last_row"]
				if days == "" || !strings.Contains(act.Description, " lleva "+days+" días sin comprar (") {
					t.Fatalf("visit instructions %q, metrics %v", act.Description, tr.Metrics)
				}
			case activity.TypeMESSAGE:
				phones := c.CommerceContact.Query().Where(commercecontact.HasCommerceUserWith(commerceuser.CommerceID(d.CommerceID))).CountX(ctx)
				if (phones == 0) != (act.Status == activity.StatusUNRESOLVED) || (phones > 0 && attrs["recipient"] == "") {
					t.Fatalf("message %+v (%d numbers, attributes %v)", act, phones, attrs)
				}
			}
		}
	}
	if n := c.Activity.Query().Where(activity.TenantID(tid)).CountX(ctx); n != generated || n == 0 {
		t.Fatalf("%d activities, %d generated", n, generated)
	}
}

// countDemo counts the tenant's commerces, retention status configs, AGCs
// and lifecycle runs.
func countDemo(t *testing.T, a *app.App, tenantID uuid.UUID) [4]int {
	t.Helper()
	ctx, c := viewer.SystemContext(t.Context()), a.DB.Client
	var out [4]int
	var err error
	if out[0], err = c.Commerce.Query().Where(commerce.TenantID(tenantID)).Count(ctx); err == nil {
		if out[1], err = c.RetentionStatusConfig.Query().Where(retentionstatusconfig.TenantID(tenantID)).Count(ctx); err == nil {
			if out[2], err = c.ActivityGenerationConfig.Query().Where(activitygenerationconfig.TenantID(tenantID),
				activitygenerationconfig.Name(app.DemoAGCName), activitygenerationconfig.StatusEQ(activitygenerationconfig.StatusActive)).Count(ctx); err == nil {
				out[3], err = c.LifecycleRun.Query().Where(lifecyclerun.TenantID(tenantID)).Count(ctx)
			}
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}
