package snapshot

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	snap "github.com/reten-io/reten/ent/commercelifecyclesnapshot"
	"github.com/reten-io/reten/internal/lifecycle"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// EngineRow is one row of an AGC's classification statement: an identity
// of its audience and the state the rules give it (both empty when
// unclassified).
type EngineRow struct {
	Identity    string
	Stage, Code string
	// Metrics are the metrics behind the state, as a JSON object of texts
	// (kept on the transition when the state changes; "" for none).
	Metrics string
}

// EngineWrite is the frame of an engine run's writes (in the tenant of the
// run's access).
type EngineWrite struct {
	AGCID, RunID uuid.UUID
	// At is the run's instant: every snapshot written has last_computed_at At.
	At     time.Time
	DryRun bool
}

// ChunkReport is what one chunk of an engine run found and wrote.
// WithSnapshot counts the commerces of the population that had a snapshot
// under the AGC before the chunk (the run derives leftAudience from it).
type ChunkReport struct {
	Counts       lifecycle.RunCounts
	ByState      map[[2]string]int
	WithSnapshot int
}

// EngineChunk writes one chunk of an engine run (at most chunkSize rows,
// each identity once) through the guarded upsert, in one transaction: the
// identities with no commerce of the tenant are unknown, the unclassified
// commerces are left untouched, the classified ones are upserted with
// last_computed_at At and their changes appended to the transition history
// with the run's id. A dry run writes nothing and reports the outcome each
// write would have had.
func (s *Service) EngineChunk(ctx context.Context, w EngineWrite, rows []EngineRow) (*ChunkReport, error) {
	if len(rows) > chunkSize {
		return nil, fmt.Errorf("engine chunk of %d rows: at most %d", len(rows), chunkSize)
	}
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	items := make([]Item, len(rows))
	for i, r := range rows {
		items[i] = Item{ExternalID: r.Identity, AGCID: w.AGCID.String(), Code: r.Code, Stage: r.Stage, LastComputedAt: &w.At, metrics: r.Metrics}
	}
	rep := &ChunkReport{ByState: map[[2]string]int{}}
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		r, err := loadRefs(ctx, tx, s.dialect, tenantID, items, true)
		if err != nil {
			return err
		}
		var write []*row
		var unclassified []uuid.UUID
		for i, it := range items {
			c, ok := r.commerces[it.ExternalID]
			switch {
			case !ok:
				rep.Counts.UnknownIdentities++
				continue
			case it.Code == "":
				rep.Counts.Unclassified++
				unclassified = append(unclassified, c.ID)
				continue
			}
			rep.Counts.Classified++
			rep.ByState[[2]string{it.Stage, it.Code}]++
			wr, f := r.resolve(it, true)
			if f != nil {
				return fmt.Errorf("commerce %s: %s", it.ExternalID, f.msgs[0])
			}
			wr.pos = i
			write = append(write, wr)
		}
		rep.Counts.Evaluated = rep.Counts.Classified + rep.Counts.Unclassified
		if w.DryRun {
			return dryRun(ctx, tx, tenantID, w, write, unclassified, rep)
		}
		n, err := countSnapshots(ctx, tx, tenantID, w.AGCID, unclassified)
		if err != nil {
			return err
		}
		rep.WithSnapshot = n
		if len(write) == 0 {
			return nil
		}
		outcomes := make([]string, len(items))
		if err := s.writeRound(ctx, tx, tenantID, write, outcomes, origin{source: SourceEngine, run: &w.RunID}); err != nil {
			return err
		}
		for _, wr := range write {
			rep.count(outcomes[wr.pos])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// count adds one write outcome; every outcome but created means the
// commerce had a snapshot.
func (r *ChunkReport) count(outcome string) {
	switch outcome {
	case Created:
		r.Counts.Created++
		return
	case Updated:
		r.Counts.Updated++
	case Unchanged:
		r.Counts.Unchanged++
	case Stale:
		r.Counts.Stale++
	}
	r.WithSnapshot++
}

// countSnapshots counts the snapshots under the AGC of the commerces.
func countSnapshots(ctx context.Context, tx *ent.Client, tenantID, agcID uuid.UUID, commerces []uuid.UUID) (int, error) {
	if len(commerces) == 0 {
		return 0, nil
	}
	return tx.CommerceLifecycleSnapshot.Query().Where(snap.TenantID(tenantID), snap.ActivityGenerationConfigID(agcID),
		snap.CommerceIDIn(commerces...)).Count(ctx)
}

// dryRun reports the outcome each write would have, from the stored
// snapshots, as the guarded upsert decides it.
func dryRun(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, w EngineWrite, write []*row, unclassified []uuid.UUID, rep *ChunkReport) error {
	ids := append([]uuid.UUID{}, unclassified...)
	for _, wr := range write {
		ids = append(ids, wr.k.commerce)
	}
	if len(ids) == 0 {
		return nil
	}
	stored, err := tx.CommerceLifecycleSnapshot.Query().Where(snap.TenantID(tenantID), snap.ActivityGenerationConfigID(w.AGCID),
		snap.CommerceIDIn(ids...)).Select(snap.FieldCommerceID, snap.FieldStage, snap.FieldCode, snap.FieldLabel,
		snap.FieldExternalID, snap.FieldLastComputedAt).All(ctx)
	if err != nil {
		return err
	}
	by := make(map[uuid.UUID]*ent.CommerceLifecycleSnapshot, len(stored))
	for _, sn := range stored {
		by[sn.CommerceID] = sn
	}
	for _, id := range unclassified {
		if by[id] != nil {
			rep.WithSnapshot++
		}
	}
	for _, wr := range write {
		sn := by[wr.k.commerce]
		switch {
		case sn == nil:
			rep.count(Created)
		case wr.at.Before(sn.LastComputedAt):
			rep.count(Stale)
		case string(sn.Stage) == wr.stage && sn.Code == wr.code && sn.Label == wr.label && sn.LastComputedAt.Equal(wr.at) &&
			equalPtr(sn.ExternalID, wr.externalID):
			rep.count(Unchanged)
		default:
			rep.count(Updated)
		}
	}
	return nil
}

func equalPtr(a, b *string) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// CountSnapshots counts the snapshots of the caller's tenant under an AGC
// (an engine run reads it before writing, to report the commerces that left
// the audience).
func (s *Service) CountSnapshots(ctx context.Context, agcID uuid.UUID) (int, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return 0, err
	}
	return s.db(ctx).CommerceLifecycleSnapshot.Query().
		Where(snap.TenantID(tenantID), snap.ActivityGenerationConfigID(agcID)).Count(ctx)
}

// ChunkSize is the number of statement rows an engine run writes per chunk.
const ChunkSize = chunkSize

// Writers is how many engine chunks may be written at once: PostgreSQL
// takes concurrent transactions; SQLite has a single writer.
func (s *Service) Writers() int {
	if s.dialect == dialect.Postgres {
		return 4
	}
	return 1
}
