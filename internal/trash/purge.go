package trash

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/jobs"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// PurgeExpired permanently deletes, across all tenants, the trashed records
// whose purge date is before or at now, each with its trash entry, and
// returns how many it purged. Each record is claimed and purged in a
// transaction of its own, so replicas running it at the same time purge
// every record exactly once. A record that cannot be deleted (still
// referenced by rows that do not cascade) is logged and left in the trash.
func (s *Service) PurgeExpired(ctx context.Context, now time.Time) (int, error) {
	ctx = viewer.WithArchived(viewer.SystemContext(ctx))
	purged := 0
	var blocked []uuid.UUID
	for {
		if err := ctx.Err(); err != nil {
			return purged, err
		}
		var claimed *ent.TrashRecord
		err := txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
			q := tx.TrashRecord.Query().Where(trashrecord.PurgeAfterLTE(now))
			if len(blocked) > 0 {
				q.Where(trashrecord.IDNotIn(blocked...))
			}
			rec, err := q.Where(jobs.SkipLocked).
				Order(ent.Asc(trashrecord.FieldPurgeAfter), ent.Asc(trashrecord.FieldID)).First(ctx)
			if ent.IsNotFound(err) {
				return nil
			}
			if err != nil {
				return err
			}
			claimed = rec
			return purgeRecord(ctx, tx, rec)
		})
		switch e, typed := apperr.As(err); {
		case err == nil && claimed == nil:
			return purged, nil
		case err == nil:
			purged++
		case typed && e.Kind == apperr.KindConflict && claimed != nil:
			slog.WarnContext(ctx, "trash purge: record still referenced, kept", "kind", claimed.Kind,
				"record_id", claimed.RecordID, "tenant_id", claimed.TenantID, "err", errors.Unwrap(e))
			blocked = append(blocked, claimed.ID)
		default:
			return purged, err
		}
	}
}

// RunPurger purges expired trash now and then every interval until ctx ends.
// Safe to run on every replica (see PurgeExpired).
func (s *Service) RunPurger(ctx context.Context, every time.Duration) {
	jobs.Every(ctx, "trash purge", every, s.now, s.PurgeExpired)
}
