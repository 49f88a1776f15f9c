package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/engine"
	"github.com/reten-io/reten/internal/lifecycle"
	"github.com/reten-io/reten/internal/paging"
)

// lifecycleRunDTO is a lifecycle engine run (camelCase, like AGCs).
type lifecycleRunDTO struct {
	ID                         uuid.UUID               `json:"id"`
	ActivityGenerationConfigID uuid.UUID               `json:"activityGenerationConfigId"`
	Status                     string                  `json:"status"`
	Trigger                    string                  `json:"trigger"`
	AsOf                       time.Time               `json:"asOf"`
	DryRun                     bool                    `json:"dryRun"`
	ConfigHashes               *lifecycle.ConfigHashes `json:"configHashes"`
	StartedAt                  *time.Time              `json:"startedAt"`
	FinishedAt                 *time.Time              `json:"finishedAt"`
	Counts                     lifecycle.RunCounts     `json:"counts"`
	ByState                    []lifecycle.StateCount  `json:"byState"`
	Error                      *string                 `json:"error"`
	stamps
}

func presentLifecycleRun(r *ent.LifecycleRun) lifecycleRunDTO {
	d := lifecycleRunDTO{ID: r.ID, ActivityGenerationConfigID: r.ActivityGenerationConfigID, Status: string(r.Status),
		Trigger: string(r.Trigger), AsOf: r.AsOf, DryRun: r.DryRun, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt,
		Counts: r.Counts, ByState: r.ByState, Error: r.Error, stamps: stamps{r.CreatedAt, r.UpdatedAt}}
	if r.ConfigHashes != (lifecycle.ConfigHashes{}) {
		d.ConfigHashes = &r.ConfigHashes
	}
	if d.ByState == nil {
		d.ByState = []lifecycle.StateCount{}
	}
	return d
}

// lifecycleRunBody is the body of POST .../lifecycle-runs: {as_of?, dry_run?}.
var lifecycleRunBody = bodyOf(func(b *body) engine.StartInput {
	return engine.StartInput{AsOf: b.str("as_of", engine.MsgAsOf).OrZero(), DryRun: b.boolean("dry_run", engine.MsgDryRunBool).OrZero()}
}, "as_of", "dry_run")

// startLifecycleRun answers POST /activity-generation-configs/:id/lifecycle-runs (202).
func (a *api) startLifecycleRun() handler {
	return route(http.StatusAccepted, idParam, lifecycleRunBody, func(ctx context.Context, ids []uuid.UUID, in engine.StartInput) (*ent.LifecycleRun, error) {
		return a.Runs.Start(ctx, ids[0], in)
	}, presentLifecycleRun)
}

// lifecycleRuns answers GET /activity-generation-configs/:id/lifecycle-runs.
func (a *api) lifecycleRuns() handler {
	return pagesUnder(idParam, func(ctx context.Context, ids []uuid.UUID, p paging.Page) (*paging.List[*ent.LifecycleRun], error) {
		return a.Runs.List(ctx, ids[0], p)
	}, presentLifecycleRun)
}

// lifecycleRun answers GET /lifecycle-runs/:runId.
func (a *api) lifecycleRun() handler {
	return route(http.StatusOK, []string{"runId"}, noBody, func(ctx context.Context, ids []uuid.UUID, _ struct{}) (*ent.LifecycleRun, error) {
		return a.Runs.Get(ctx, ids[0])
	}, presentLifecycleRun)
}

// LifecycleRunJSON is a lifecycle engine run as the REST routes present it:
// `reten engine run` prints it.
func LifecycleRunJSON(r *ent.LifecycleRun) any { return presentLifecycleRun(r) }
