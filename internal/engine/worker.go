package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"
	"golang.org/x/sync/errgroup"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/lifecyclerun"
	"github.com/reten-io/reten/ent/predicate"
	"github.com/reten-io/reten/internal/agc"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/jobs"
	"github.com/reten-io/reten/internal/lifecycle"
	"github.com/reten-io/reten/internal/snapshot"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
	"github.com/reten-io/reten/internal/webhook"
)

// runLine is the matrix line a run is executed under, as if its request
// had been admitted to it.
const runLine = "POST /activity-generation-configs/{id}/lifecycle-runs"

// MsgRunFailed is the error of a run that failed for a reason the service
// does not show (it is logged).
const MsgRunFailed = "The run failed on an internal error; it is logged"

// ErrLostClaim ends a run whose claim another replica took over (its lease
// ran out).
var ErrLostClaim = errors.New("lifecycle run: the claim was lost")

// Claim takes the oldest claimable run, queued or running with an expired
// lease, for this caller: RUNNING, a fresh claim token and a lease. Replicas
// skip the runs another holds (SKIP LOCKED on PostgreSQL; SQLite write
// transactions are exclusive). nil when there is none.
func (r *Runs) Claim(ctx context.Context, at time.Time) (*ent.LifecycleRun, error) {
	return r.claim(ctx, at)
}

// claim is Claim among the runs that match where.
func (r *Runs) claim(ctx context.Context, at time.Time, where ...predicate.LifecycleRun) (*ent.LifecycleRun, error) {
	ctx = viewer.SystemContext(ctx)
	var run *ent.LifecycleRun
	err := txn.Run(ctx, r.client, func(ctx context.Context, tx *ent.Client) error {
		for {
			got, err := tx.LifecycleRun.Query().Where(claimable(at)).Where(where...).
				Order(ent.Asc(lifecyclerun.FieldCreatedAt), ent.Asc(lifecyclerun.FieldID)).Limit(1).
				Where(jobs.SkipLocked).All(ctx)
			if err != nil || len(got) == 0 {
				return err
			}
			if got[0].Attempts < MaxAttempts {
				run, err = got[0].Update().SetStatus(lifecyclerun.StatusRUNNING).SetClaim(uuid.New()).
					SetLeaseUntil(at.Add(r.Lease)).SetStartedAt(at).AddAttempts(1).Save(ctx)
				return err
			}
			// Its replicas stopped MaxAttempts times while running it: fail
			// it rather than take down the next one, and look again.
			failed, err := got[0].Update().SetStatus(lifecyclerun.StatusFAILED).SetError(MsgRunAbandoned).SetFinishedAt(at).
				ClearLeaseUntil().ClearClaim().Save(ctx)
			if err != nil {
				return err
			}
			if err := r.Events.Emit(ctx, tx, failed.TenantID, webhook.RunEvent(failed)); err != nil {
				return err
			}
		}
	})
	return run, err
}

// claimable are the runs a replica may claim at at: queued, or running
// with a lease that ran out.
func claimable(at time.Time) predicate.LifecycleRun {
	return lifecyclerun.Or(lifecyclerun.StatusEQ(lifecyclerun.StatusQUEUED),
		lifecyclerun.And(lifecyclerun.StatusEQ(lifecyclerun.StatusRUNNING), lifecyclerun.LeaseUntilLT(at)))
}

// MaxAttempts bounds the claims of one run: a run whose replica stopped
// (its lease ran out) that many times is FAILED with MsgRunAbandoned.
const MaxAttempts = 3

// MsgRunAbandoned is the error of a run abandoned MaxAttempts times.
var MsgRunAbandoned = fmt.Sprintf("The run was abandoned %d times (the replica running it stopped); start a new run", MaxAttempts)

// recordTimeout bounds recording the end of a run that hit its deadline.
const recordTimeout = 30 * time.Second

// RunNow starts a run of AGC id and executes it in this process (the CLI's
// `reten engine run`), returning the finished run.
func (r *Runs) RunNow(ctx context.Context, id uuid.UUID, in StartInput) (*ent.LifecycleRun, error) {
	ctx, cancel := context.WithTimeout(ctx, RunDeadline)
	defer cancel()
	run, err := r.Start(ctx, id, in)
	if err != nil {
		return nil, err
	}
	claimed, err := r.claim(ctx, now(), lifecyclerun.ID(run.ID))
	switch {
	case err != nil:
		return nil, err
	case claimed == nil: // a server's worker took it first: wait for it
		return r.await(ctx, run.ID)
	}
	return r.Execute(ctx, claimed)
}

// await polls run id until it has finished.
func (r *Runs) await(ctx context.Context, id uuid.UUID) (*ent.LifecycleRun, error) {
	for {
		run, err := r.client.LifecycleRun.Get(viewer.SystemContext(ctx), id)
		if err != nil || run.Status == lifecyclerun.StatusSUCCEEDED || run.Status == lifecyclerun.StatusFAILED {
			return run, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// Execute runs a claimed run to its end and records it: SUCCEEDED with its
// counts, or FAILED with the reason. It returns the finished run; an error
// only when the run could not be recorded (or its claim was lost).
func (r *Runs) Execute(ctx context.Context, run *ent.LifecycleRun) (*ent.LifecycleRun, error) {
	res, err := r.execute(ctx, run)
	if errors.Is(err, ErrLostClaim) {
		return nil, err
	}
	sys := viewer.SystemContext(ctx)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		// The run hit RunDeadline: record it FAILED on a context of its own
		// (the run's is spent), rather than leave it to be claimed again.
		var cancel context.CancelFunc
		sys, cancel = context.WithTimeout(context.WithoutCancel(sys), recordTimeout)
		defer cancel()
	}
	wrote := err == nil && !run.DryRun
	msg := ""
	if err != nil {
		msg = MsgRunFailed
		if e, ok := apperr.As(err); ok && e.Kind != apperr.KindInternal {
			msg = e.Error()
		} else {
			slog.ErrorContext(ctx, "lifecycle run failed", "run", run.ID, "err", err)
		}
	}
	// The end and its lifecycle_run.finished event, in one transaction.
	var finished *ent.LifecycleRun
	err = txn.Run(sys, r.client, func(ctx context.Context, tx *ent.Client) error {
		upd := tx.LifecycleRun.Update().Where(lifecyclerun.ID(run.ID), lifecyclerun.ClaimEQ(*run.Claim)).
			SetFinishedAt(now()).ClearLeaseUntil().ClearClaim()
		if msg != "" {
			upd.SetStatus(lifecyclerun.StatusFAILED).SetError(msg)
		} else {
			upd.SetStatus(lifecyclerun.StatusSUCCEEDED).SetCounts(res.counts).SetByState(res.byState).SetConfigHashes(res.hashes)
		}
		n, err := upd.Save(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return ErrLostClaim
		}
		if finished, err = tx.LifecycleRun.Get(ctx, run.ID); err != nil {
			return err
		}
		return r.Events.Emit(ctx, tx, finished.TenantID, webhook.RunEvent(finished))
	})
	if err != nil {
		return nil, err
	}
	if wrote && r.Finished != nil {
		r.Finished()
	}
	return finished, nil
}

// result is what a successful run records.
type result struct {
	counts  lifecycle.RunCounts
	byState []lifecycle.StateCount
	hashes  lifecycle.ConfigHashes
}

// execute classifies the population of the run's AGC at its instant and
// writes the states chunk by chunk (docs/lifecycle.md "Runs").
func (r *Runs) execute(ctx context.Context, run *ent.LifecycleRun) (*result, error) {
	ctx, err := tenancy.EnterAsSuperAdmin(ctx, uuid.Nil, run.TenantID, run.ProjectID, runLine)
	if err != nil {
		return nil, err
	}
	a, c, err := r.prepare(ctx, run.ActivityGenerationConfigID, run.AsOf)
	if err != nil {
		return nil, err
	}
	res := &result{hashes: hashesOf(a)}
	before, err := r.snapshots.CountSnapshots(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	db, _, _, err := r.engine.datasets.OpenEngine(ctx)
	if err != nil {
		return nil, err
	}
	w := snapshot.EngineWrite{AGCID: a.ID, RunID: run.ID, At: run.AsOf, DryRun: run.DryRun}
	byState := map[[2]string]int{}
	withSnapshot := 0
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go r.keepLease(ctx, run, cancel)
	// Chunks are written as they arrive, by up to Writers transactions at
	// once (a run's chunks name disjoint commerces, so they never wait on
	// one another's rows); the group's limit holds the stream back, so at
	// most Writers+1 chunks are in memory.
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(r.snapshots.Writers())
	var mu sync.Mutex
	var moments []string
	for _, m := range RulesOf(a).ActiveMoments() {
		moments = append(moments, m.StatusCode)
	}
	err = stream(gctx, db, c, moments, snapshot.ChunkSize, func(rows []snapshot.EngineRow) error {
		chunk := slices.Clone(rows)
		g.Go(func() error {
			rep, err := r.snapshots.EngineChunk(gctx, w, chunk)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			res.counts.Add(rep.Counts)
			withSnapshot += rep.WithSnapshot
			for k, n := range rep.ByState {
				byState[k] += n
			}
			return nil
		})
		return nil
	})
	if werr := g.Wait(); werr != nil {
		err = werr
	}
	if cause := context.Cause(ctx); errors.Is(cause, ErrLostClaim) {
		return nil, cause
	}
	if err != nil {
		return nil, dataset.QueryFailed(ctx, err)
	}
	res.counts.LeftAudience = max(0, before-withSnapshot)
	res.byState = make([]lifecycle.StateCount, 0, len(byState))
	for k, n := range byState {
		res.byState = append(res.byState, lifecycle.StateCount{Stage: k[0], Code: k[1], Count: n})
	}
	slices.SortFunc(res.byState, func(a, b lifecycle.StateCount) int {
		return cmp.Or(cmp.Compare(a.Stage, b.Stage), cmp.Compare(a.Code, b.Code))
	})
	return res, nil
}

// hashesOf reads an AGC's per-pillar hashes.
func hashesOf(a *ent.ActivityGenerationConfig) lifecycle.ConfigHashes {
	h := agc.ConfigHashes(a)
	return lifecycle.ConfigHashes{Activation: h["activation"], Engagement: h["engagement"], Resurrection: h["resurrection"]}
}

// keepLease renews the run's lease every third of it until ctx ends; a
// claim another replica took over ends the run (cancel with ErrLostClaim).
func (r *Runs) keepLease(ctx context.Context, run *ent.LifecycleRun, cancel context.CancelCauseFunc) {
	t := time.NewTicker(r.Lease / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		n, err := r.client.LifecycleRun.Update().Where(lifecyclerun.ID(run.ID), lifecyclerun.ClaimEQ(*run.Claim)).
			SetLeaseUntil(now().Add(r.Lease)).Save(viewer.SystemContext(ctx))
		switch {
		case err == nil && n == 0:
			cancel(ErrLostClaim)
			return
		case err != nil && ctx.Err() == nil:
			slog.WarnContext(ctx, "lifecycle run: lease renewal failed", "run", run.ID, "err", err)
		}
	}
}
