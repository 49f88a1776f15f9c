package engine

import (
	"context"
	"log/slog"
	"time"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/lifecyclerun"
	enttenant "github.com/reten-io/reten/ent/tenant"
	"github.com/reten-io/reten/internal/cutoff"
	"github.com/reten-io/reten/internal/lifecycle"
	"github.com/reten-io/reten/internal/viewer"
)

// scheduleBatch bounds the AGCs one schedule pass enqueues runs for.
const scheduleBatch = 500

// Schedule queues the daily run of every active AGC of the tenants whose
// lifecycle_run_time has passed today (in the tenant's time zone): one
// SCHEDULED run per AGC and local day (unique, so replicas racing here
// queue it once), at the instant of that time. It returns how many it
// queued.
func (r *Runs) Schedule(ctx context.Context, at time.Time) (int, error) {
	sys := viewer.SystemContext(ctx)
	tenants, err := r.client.Tenant.Query().Where(enttenant.LifecycleRunTimeNotNil(), enttenant.IsActive(true)).
		Order(ent.Asc(enttenant.FieldID)).All(sys)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, t := range tenants {
		s, err := cutoff.Parse(t.TimeZone, *t.LifecycleRunTime)
		if err != nil {
			slog.WarnContext(ctx, "lifecycle schedule: bad tenant settings", "tenant", t.ID, "err", err)
			continue
		}
		day := cutoff.DayOf(at, s)
		due := cutoff.CloseAt(day, s) // the instant of lifecycle_run_time today
		if at.Before(due) {
			continue
		}
		// The AGCs without today's run: a NOT EXISTS keeps the pass short
		// once the day's runs are queued.
		agcs, err := r.client.ActivityGenerationConfig.Query().Where(activitygenerationconfig.TenantID(t.ID),
			activitygenerationconfig.StatusEQ(activitygenerationconfig.StatusActive),
			activitygenerationconfig.Not(activitygenerationconfig.HasLifecycleRunsWith(lifecyclerun.ScheduledFor(day.String())))).
			Limit(scheduleBatch).All(sys)
		if err != nil {
			return n, err
		}
		for _, a := range agcs {
			err := r.client.LifecycleRun.Create().SetTenantID(t.ID).SetProjectID(a.ProjectID).SetActivityGenerationConfigID(a.ID).
				SetTrigger(lifecyclerun.TriggerSCHEDULED).SetScheduledFor(day.String()).SetAsOf(due.UTC()).
				SetCounts(lifecycle.RunCounts{}).SetByState([]lifecycle.StateCount{}).Exec(sys)
			switch {
			case ent.IsConstraintError(err): // another replica queued it
			case err != nil:
				return n, err
			default:
				n++
			}
		}
	}
	return n, nil
}
