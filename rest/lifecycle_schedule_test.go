package rest_test

import (
	"context"
	"testing"
	"time"

	"github.com/reten-io/reten/ent/lifecyclerun"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/engine"
)

// TestLifecycleRunSchedule: the tenant's lifecycle_run_time (in its time
// zone) queues one SCHEDULED run per active AGC and local day, at the
// instant of that time, however many replicas schedule; a draft AGC and a
// tenant without the setting get none.
func TestLifecycleRunSchedule(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newRunFix(t, env, 3)
		draft := f.create(t, "Draft")["id"]
		if res := env.Do("POST", "/api/activity-generation-configs/"+f.agc+"/publish", nil, f.h); res.Status != 200 {
			t.Fatalf("publish: %d %s", res.Status, res.Body)
		}
		apptest.ExpectError(t, env.Do("PATCH", "/api/tenant-settings", map[string]any{"lifecycle_run_time": "25:00"}, f.h), 400,
			[]string{"lifecycle_run_time must be a time of day in HH:MM format or null"})
		res := env.Do("PATCH", "/api/tenant-settings", map[string]any{"time_zone": "America/Guayaquil", "lifecycle_run_time": "06:30"}, f.h)
		if res.Status != 200 || res.Map(t)["lifecycleRunTime"] != "06:30" {
			t.Fatalf("settings: %d %s", res.Status, res.Body)
		}
		replicas := []*engine.Runs{env.App.Runs, engine.NewRuns(env.App.DB.Client, env.App.Engine, env.App.Snapshots)}
		schedule := func(at string, want int) {
			t.Helper()
			instant, _ := time.Parse(time.RFC3339, at)
			total := 0
			for _, r := range replicas {
				n, err := r.Schedule(context.Background(), instant)
				if err != nil {
					t.Fatal(err)
				}
				total += n
			}
			if total != want {
				t.Fatalf("schedule at %s queued %d runs, want %d", at, total, want)
			}
		}
		schedule("2026-11-02T11:29:59Z", 0) // 06:29:59 in Guayaquil (UTC-5)
		schedule("2026-11-02T11:30:00Z", 1)
		schedule("2026-11-02T23:00:00Z", 0) // the same local day
		schedule("2026-11-03T05:00:00Z", 0) // 00:00 on the 3rd: before 06:30
		schedule("2026-11-03T12:00:00Z", 1)
		runs := env.App.DB.Client.LifecycleRun.Query().Order(lifecyclerun.ByAsOf()).AllX(sys)
		if len(runs) != 2 {
			t.Fatalf("%d runs", len(runs))
		}
		for i, want := range []string{"2026-11-02T11:30:00Z", "2026-11-03T11:30:00Z"} {
			r := runs[i]
			if r.Trigger != lifecyclerun.TriggerSCHEDULED || r.AsOf.UTC().Format(time.RFC3339) != want || r.Status != lifecyclerun.StatusQUEUED ||
				r.ActivityGenerationConfigID.String() != f.agc || r.DryRun {
				t.Fatalf("run %d: %s %s %s %v (AGC %s, draft %v)", i, r.Trigger, r.AsOf, r.Status, r.DryRun, r.ActivityGenerationConfigID, draft)
			}
		}
		if res := env.Do("PATCH", "/api/tenant-settings", map[string]any{"lifecycle_run_time": nil}, f.h); res.Status != 200 || res.Map(t)["lifecycleRunTime"] != nil {
			t.Fatalf("clear: %d %s", res.Status, res.Body)
		}
		schedule("2026-11-04T12:00:00Z", 0)
	})
}
