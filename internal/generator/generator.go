// Package generator runs activity generation: it reads the state entries of
// commerces (the transitions the snapshot writes queue in the generation
// outbox, and the daily DWELL scan), applies the AGC's generation rules with
// the project's caps and holdout groups, records one decision per rule,
// commerce and state entry, and creates the tasks and messages, resolving
// their assignee or recipient (docs/generation.md).
package generator

import (
	"context"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/reten-io/reten/ent"
	tr "github.com/reten-io/reten/ent/commercelifecycletransition"
	"github.com/reten-io/reten/ent/generationoutbox"
	"github.com/reten-io/reten/ent/generationrule"
	act "github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/jobs"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
	"github.com/reten-io/reten/internal/webhook"
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
	// Machine applies the status machine (resolution retries, expiry) and
	// Machine.Events records the webhook events of what generation writes.
	Machine act.Machine
	// wake asks the loop for a pass now (a run or an upsert queued entries).
	wake chan struct{}
}

// New returns a Service over client, whose driver speaks dialect.
func New(client *ent.Client, dialect string) *Service {
	return &Service{client: client, dialect: dialect, Batch: 1000, RetryEvery: 6 * time.Hour, wake: make(chan struct{}, 1)}
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
	// change is the transition's commerce_lifecycle.state_changed data
	// (ENTER entries of the outbox), recorded when they are processed.
	change *webhook.StateChanged
}

// ProcessOutbox claims up to Batch queued transitions, decides and writes
// what the rules make of them and deletes them, in one transaction: a
// transition is processed exactly once, or not at all when the transaction
// fails (it stays queued for the next pass). It returns how many it handled.
func (g *Service) ProcessOutbox(ctx context.Context, now time.Time) (int, error) {
	ctx, now = viewer.SystemContext(ctx), clock.Stored(now)
	var n int
	err := txn.Run(ctx, g.client, func(ctx context.Context, tx *ent.Client) error {
		queued, entries, err := g.claim(ctx, tx)
		if err != nil || len(queued) == 0 {
			return err
		}
		n = len(queued)
		if _, err := g.apply(ctx, tx, entries, now, true); err != nil {
			return err
		}
		if g.postgres() {
			ids := make([]string, len(queued))
			for i, id := range queued {
				ids[i] = id.String()
			}
			_, err = tx.ExecContext(ctx, `DELETE FROM `+generationoutbox.Table+` WHERE id = ANY($1::uuid[])`, pq.Array(ids))
		} else {
			_, err = tx.GenerationOutbox.Delete().Where(generationoutbox.IDIn(queued...)).Exec(ctx)
		}
		return err
	})
	return n, err
}

// claim locks (SKIP LOCKED) and reads up to Batch queued transitions, the
// oldest first, in one statement: the claimed ids, and the entries of the
// transitions still there (one purged meanwhile, with its commerce or AGC,
// has nothing left to generate).
func (g *Service) claim(ctx context.Context, tx *ent.Client) ([]uuid.UUID, []entry, error) {
	q := `SELECT o.id, t.tenant_id, t.commerce_id, t.activity_generation_config_id, t.to_stage, t.to_code, t.state_changed_at,
 t.from_stage, t.from_code, t.source, t.run_id, t.created_at
FROM ` + generationoutbox.Table + ` o LEFT JOIN ` + tr.Table + ` t ON t.id = o.id ORDER BY o.created_at, o.id LIMIT ?`
	if g.postgres() {
		q = strings.Replace(q, "?", "$1", 1) + " FOR UPDATE OF o SKIP LOCKED"
	}
	rs, err := tx.QueryContext(ctx, q, g.Batch)
	if err != nil {
		return nil, nil, fmt.Errorf("generation: claim the outbox: %w", err)
	}
	defer rs.Close()
	var ids []uuid.UUID
	var entries []entry
	for rs.Next() {
		var id uuid.UUID
		var tenant, commerce, agc *uuid.UUID
		var stage, code, fromStage, fromCode, source *string
		var run *uuid.UUID
		var at, written any // times (PostgreSQL) or their text (SQLite)
		if err := rs.Scan(&id, &tenant, &commerce, &agc, &stage, &code, &at, &fromStage, &fromCode, &source, &run, &written); err != nil {
			return nil, nil, err
		}
		ids = append(ids, id)
		if tenant == nil {
			continue
		}
		enteredAt, err := timeOf(at)
		if err != nil {
			return nil, nil, err
		}
		writtenAt, err := timeOf(written)
		if err != nil {
			return nil, nil, err
		}
		entries = append(entries, entry{tenant: *tenant, commerce: *commerce, agc: *agc, stage: *stage, code: *code,
			enteredAt: enteredAt.UTC(), trigger: generationrule.TriggerENTER, transition: &id,
			change: &webhook.StateChanged{TransitionID: id, CommerceID: *commerce, ActivityGenerationConfigID: *agc,
				FromStage: fromStage, FromCode: fromCode, ToStage: *stage, ToCode: *code, StateChangedAt: enteredAt.UTC(),
				Source: *source, RunID: run, WrittenAt: writtenAt.UTC()}})
	}
	return ids, entries, rs.Err()
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
	jobs.Woken(ctx, "activity generation", every, g.wake, jobs.RunTimeout, g.Pass)
}

func (g *Service) postgres() bool { return g.dialect == dialect.Postgres }
