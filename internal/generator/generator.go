// Package generator runs activity generation: it reads the state entries of
// commerces (the transitions the snapshot writes queue in the generation
// outbox, and the daily DWELL scan), applies the AGC's generation rules with
// the project's caps and holdout groups, records one decision per rule,
// commerce and state entry, and creates the tasks and messages, resolving
// their assignee or recipient (docs/generation.md).
package generator

import (
	"context"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	tr "github.com/reten-io/reten/ent/commercelifecycletransition"
	"github.com/reten-io/reten/ent/generationoutbox"
	"github.com/reten-io/reten/ent/generationrule"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/jobs"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// Service generates activities. Every job claims its rows (SKIP LOCKED on
// PostgreSQL) and locks the commerces it decides for, so any number of
// replicas run it side by side.
type Service struct {
	client  *ent.Client
	dialect string
	// Batch bounds the state entries (or activities) one transaction handles.
	Batch int
	// RetryEvery is how often an unresolved message is retried when nothing
	// about its commerce's users and contacts changed.
	RetryEvery time.Duration
	// wake asks the loop for a pass now (a run or an upsert queued entries).
	wake chan struct{}
}

// New returns a Service over client, whose driver speaks dialect.
func New(client *ent.Client, dialect string) *Service {
	return &Service{client: client, dialect: dialect, Batch: 500, RetryEvery: 6 * time.Hour, wake: make(chan struct{}, 1)}
}

// entry is one entry of a commerce into a state of an AGC that rules may
// fire on.
type entry struct {
	tenant, commerce, agc uuid.UUID
	stage, code           string
	enteredAt             time.Time
	trigger               generationrule.Trigger
	transition            *uuid.UUID          // ENTER: the transition
	rule                  *ent.GenerationRule // DWELL: the one rule evaluated
}

// ProcessOutbox claims up to Batch queued transitions, decides and writes
// what the rules make of them and deletes them, in one transaction: a
// transition is processed exactly once, or not at all when the transaction
// fails (it stays queued for the next pass). It returns how many it handled.
func (g *Service) ProcessOutbox(ctx context.Context, now time.Time) (int, error) {
	ctx, now = viewer.SystemContext(ctx), clock.Stored(now)
	var n int
	err := txn.Run(ctx, g.client, func(ctx context.Context, tx *ent.Client) error {
		queued, err := tx.GenerationOutbox.Query().Where(jobs.SkipLocked).
			Order(generationoutbox.ByCreatedAt(), generationoutbox.ByID()).Limit(g.Batch).IDs(ctx)
		if err != nil || len(queued) == 0 {
			return err
		}
		n = len(queued)
		// A transition purged meanwhile (its commerce or AGC left the
		// trash for good) has nothing left to generate.
		trs, err := tx.CommerceLifecycleTransition.Query().Where(tr.IDIn(queued...)).All(ctx)
		if err != nil {
			return err
		}
		entries := make([]entry, 0, len(trs))
		for _, t := range trs {
			id := t.ID
			entries = append(entries, entry{tenant: t.TenantID, commerce: t.CommerceID, agc: t.ActivityGenerationConfigID,
				stage: string(t.ToStage), code: t.ToCode, enteredAt: t.StateChangedAt, trigger: generationrule.TriggerENTER, transition: &id})
		}
		if _, err := g.apply(ctx, tx, entries, now, true); err != nil {
			return err
		}
		_, err = tx.GenerationOutbox.Delete().Where(generationoutbox.IDIn(queued...)).Exec(ctx)
		return err
	})
	return n, err
}

// Drain processes the outbox until it is empty (or ctx ends): what
// `reten engine run` does after its run, so the activities exist when it
// returns.
func (g *Service) Drain(ctx context.Context, now func() time.Time) (int, error) {
	total := 0
	for {
		n, err := g.ProcessOutbox(ctx, now())
		total += n
		if err != nil || n == 0 {
			return total, err
		}
	}
}

// Pass is one pass of the worker: the outbox, the unresolved messages and
// the expired activities (each bounded by Batch per transaction, repeated
// while there is work), then the DWELL rules.
func (g *Service) Pass(ctx context.Context, now time.Time) (int, error) {
	total := 0
	for _, job := range []func(context.Context, time.Time) (int, error){g.ProcessOutbox, g.RetryResolution, g.ExpireDue, g.EvaluateDwell} {
		for {
			n, err := job(ctx, now)
			total += n
			if err != nil {
				return total, err
			}
			if n < g.Batch {
				break
			}
		}
	}
	return total, nil
}

// Wake asks the running worker for a pass now; it never blocks.
func (g *Service) Wake() {
	select {
	case g.wake <- struct{}{}:
	default:
	}
}

// Run is the worker of a replica: a pass every interval, and at once when
// woken.
func (g *Service) Run(ctx context.Context, every time.Duration) {
	ticks := make(chan time.Time)
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			var at time.Time
			select {
			case <-ctx.Done():
				return
			case at = <-t.C:
			case <-g.wake:
				at = time.Now()
			}
			select {
			case <-ctx.Done():
				return
			case ticks <- at.UTC():
			}
		}
	}()
	jobs.On(ctx, "activity generation", ticks, func() time.Time { return time.Now().UTC() }, jobs.RunTimeout, g.Pass)
}

func (g *Service) postgres() bool { return g.dialect == dialect.Postgres }
