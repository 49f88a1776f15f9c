package engine

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/lifecyclerun"
	"github.com/reten-io/reten/ent/predicate"
	"github.com/reten-io/reten/ent/retentionstatusconfig"
	"github.com/reten-io/reten/ent/tenantdataset"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/lifecycle"
	"github.com/reten-io/reten/internal/paging"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/snapshot"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/webhook"
)

// Messages of the runs.
const (
	MsgRunNotFound = "Lifecycle run not found"
	// MsgRunBigQuery refuses a run on a BigQuery dataset: Reten does not
	// execute BigQuery; the tenant schedules the statement there.
	MsgRunBigQuery = "A BigQuery dataset is not run by Reten: schedule the statement of GET /api/activity-generation-configs/:id/lifecycle-sql in BigQuery and post its rows through POST /api/commerce-lifecycle-snapshots/batch-upsert"
	MsgDryRunBool  = "dry_run must be a boolean value"
)

// Runs starts and reads lifecycle engine runs, and executes them (worker.go).
type Runs struct {
	client    *ent.Client
	engine    *Service // its AGCs and datasets too
	snapshots *snapshot.Service
	// wake tells this replica's worker that a run was queued.
	wake chan struct{}
	// Lease is how long a claim holds without renewal; the worker renews it
	// every third of it while the run works.
	Lease time.Duration
	// Finished, when set, is called after a run that wrote states
	// succeeded (activity generation reads what it queued).
	Finished func()
	// Events records lifecycle_run.finished with the end of each run
	// (webhooks); nil records none.
	Events *webhook.Service
}

// NewRuns returns the runs service.
func NewRuns(client *ent.Client, engine *Service, snapshots *snapshot.Service) *Runs {
	return &Runs{client: client, engine: engine, snapshots: snapshots, wake: make(chan struct{}, 1), Lease: 2 * time.Minute}
}

func (r *Runs) db(ctx context.Context) *ent.Client { return txn.Client(ctx, r.client) }

// StartInput is the body of POST .../lifecycle-runs: the instant (empty:
// now) and whether to write.
type StartInput struct {
	AsOf   string
	DryRun bool
}

// Start queues a run of AGC id at the instant (POST
// /api/activity-generation-configs/:id/lifecycle-runs, 202). What can be
// known before running is checked first, with the lifecycle-sql checks and
// order: the instant (400), the AGC (404), the dataset (404), the AGC's
// sources (422); then a BigQuery dataset (422 MsgRunBigQuery) and the
// retention status configs of the codes the rules can give (422). The run
// is executed by a replica's worker.
func (r *Runs) Start(ctx context.Context, id uuid.UUID, in StartInput) (*ent.LifecycleRun, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	asOf, err := AsOf(in.AsOf)
	if err != nil {
		return nil, err
	}
	a, _, err := r.prepare(ctx, id, asOf)
	if err != nil {
		return nil, err
	}
	run, err := r.db(ctx).LifecycleRun.Create().SetTenantID(tid).SetProjectID(pid).SetActivityGenerationConfigID(a.ID).
		SetAsOf(asOf).SetDryRun(in.DryRun).SetCounts(lifecycle.RunCounts{}).SetByState([]lifecycle.StateCount{}).Save(ctx)
	if err != nil {
		return nil, err
	}
	r.Wake()
	return run, nil
}

// Wake tells this replica's worker to claim queued runs now.
func (r *Runs) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// prepare checks that AGC id can run at asOf and returns it with its
// classification statement in the dataset's dialect: the lifecycle-sql
// checks (404 AGC, 404 dataset, 422 sources), then a BigQuery dataset (422
// MsgRunBigQuery) and the status configs of the codes the rules can give.
func (r *Runs) prepare(ctx context.Context, id uuid.UUID, asOf time.Time) (*ent.ActivityGenerationConfig, *qb.Compiled, error) {
	src, err := r.engine.source(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if src.dataset.Engine == tenantdataset.EngineBigquery {
		return nil, nil, apperr.Unprocessable(MsgRunBigQuery)
	}
	if msgs, err := r.statusIssues(ctx, src.agc.TenantID, src.rules); err != nil || len(msgs) > 0 {
		if err == nil {
			err = &apperr.Error{Kind: apperr.KindUnprocessable, Messages: msgs, List: true}
		}
		return nil, nil, err
	}
	c, err := src.compile(asOf, nil)
	if err != nil {
		return nil, nil, err
	}
	return src.agc, c, nil
}

// statusIssues checks that every code the rules can give (the active
// children's) is an active retention status config of its stage: the
// snapshot upsert refuses any other.
func (r *Runs) statusIssues(ctx context.Context, tenantID uuid.UUID, rules lifecycle.Rules) ([]string, error) {
	want := map[string]string{}
	for _, m := range rules.ActiveMoments() {
		want[m.StatusCode] = string(retentionstatusconfig.StageACTIVATION)
	}
	for _, l := range rules.ActiveLevels() {
		want[l.StatusCode] = string(retentionstatusconfig.StageENGAGEMENT)
	}
	for _, t := range rules.ActiveThresholds() {
		want[t.StatusCode] = string(retentionstatusconfig.StageRESURRECTION)
	}
	codes := make([]string, 0, len(want))
	for code := range want {
		codes = append(codes, code)
	}
	slices.Sort(codes)
	got, err := r.db(ctx).RetentionStatusConfig.Query().Where(retentionstatusconfig.TenantID(tenantID),
		retentionstatusconfig.CodeIn(codes...), retentionstatusconfig.IsActive(true)).All(ctx)
	if err != nil {
		return nil, err
	}
	stages := map[string]string{}
	for _, st := range got {
		stages[st.Code] = string(st.Stage)
	}
	var msgs []string
	for _, code := range codes {
		switch stage, ok := stages[code]; {
		case !ok:
			msgs = append(msgs, fmt.Sprintf(snapshot.MsgStatusInactiveFmt, code))
		case stage != want[code]:
			msgs = append(msgs, fmt.Sprintf(snapshot.MsgStageMismatchFmt, want[code], code, stage))
		}
	}
	return msgs, nil
}

// inProject narrows runs to the caller's project, on top of the data
// layer's filter.
func inProject(tenantID, projectID uuid.UUID) predicate.LifecycleRun {
	return lifecyclerun.And(lifecyclerun.TenantID(tenantID), lifecyclerun.ProjectID(projectID))
}

// Get returns run id of the active project (404 MsgRunNotFound).
func (r *Runs) Get(ctx context.Context, id uuid.UUID) (*ent.LifecycleRun, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	run, err := r.db(ctx).LifecycleRun.Query().Where(inProject(tid, pid), lifecyclerun.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound(MsgRunNotFound)
	}
	return run, err
}

// List returns page p of AGC id's runs, newest first (404 for an AGC that
// is not the project's).
func (r *Runs) List(ctx context.Context, id uuid.UUID, p paging.Page) (*paging.List[*ent.LifecycleRun], error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := r.engine.agcs.Get(ctx, id); err != nil {
		return nil, err
	}
	q := r.db(ctx).LifecycleRun.Query().Where(inProject(tid, pid), lifecyclerun.ActivityGenerationConfigID(id))
	return paging.Fetch(ctx, q, paging.Desc(lifecyclerun.FieldCreatedAt, lifecyclerun.FieldID), p)
}

// Connection pages through the active project's runs (of one AGC when agcID
// is set), newest first unless an order is given.
func (r *Runs) Connection(ctx context.Context, agcID *uuid.UUID, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	order *ent.LifecycleRunOrder) (*ent.LifecycleRunConnection, error) {
	q := r.db(ctx).LifecycleRun.Query()
	if agcID != nil {
		q.Where(lifecyclerun.ActivityGenerationConfigID(*agcID))
	}
	if order == nil {
		order = &ent.LifecycleRunOrder{Direction: "DESC", Field: ent.LifecycleRunOrderFieldCreatedAt}
	}
	return tenancy.ProjectConnection(ctx, q, inProject, after, first, before, last, ent.WithLifecycleRunOrder(order))
}

// now is the engine's clock.
func now() time.Time { return clock.Now().UTC() }
