package trash

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/ent/trashsetting"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// Messages of the trash.
const (
	MsgNotFound         = "Trash record not found"
	MsgRecordGone       = "The archived record no longer exists"
	MsgRestoreConflict  = "Cannot restore: another record now uses the same unique value"
	MsgPurgeConflict    = "Cannot delete permanently: other records still reference this record"
	MsgRetentionMissing = "retention_days should not be empty"
	MsgRetentionInt     = "retention_days must be an integer number"
	MsgRetentionMin     = "retention_days must not be less than 1"
	MsgRetentionMax     = "retention_days must not be greater than 3650"
)

// Bounds of the retention window, in days.
const (
	MinRetentionDays = 1
	MaxRetentionDays = 3650
)

// KindValues lists the kinds in the order of the schema.
var KindValues = []string{
	string(KindAudience), string(KindCommerce), string(KindOperator), string(KindRoute),
	string(KindSupervisor), string(KindAGC), string(KindEventFilter), string(KindGenerationRule),
}

// MsgKind is the message of an unknown kind filter.
var MsgKind = "kind must be one of the following values: " + strings.Join(KindValues, ", ")

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// Filter narrows the trash list.
type Filter struct {
	// Kind is one of KindValues; "" lists every kind.
	Kind string
}

// List returns a page of the tenant's trash, newest first.
func (s *Service) List(ctx context.Context, f Filter, p paging.Page) (*paging.List[*ent.TrashRecord], error) {
	q := s.db(ctx).TrashRecord.Query()
	if f.Kind != "" {
		k := trashrecord.Kind(f.Kind)
		if trashrecord.KindValidator(k) != nil {
			return nil, apperr.Validation(MsgKind)
		}
		q.Where(trashrecord.KindEQ(k))
	}
	return tenancy.List(ctx, q, trashrecord.TenantID, paging.Desc(trashrecord.FieldDeletedAt, trashrecord.FieldID), p)
}

// Connection pages through the tenant's trash (GraphQL).
func (s *Service) Connection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.TrashRecordOrder, where *ent.TrashRecordWhereInput) (*ent.TrashRecordConnection, error) {
	return tenancy.Connection(ctx, s.db(ctx).TrashRecord.Query(), trashrecord.TenantID, after, first, before, last,
		ent.WithTrashRecordOrder(orderBy), ent.WithTrashRecordFilter(where.Filter))
}

// Get returns one trash record of the tenant.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*ent.TrashRecord, error) {
	if _, err := tenancy.From(ctx); err != nil {
		return nil, err
	}
	return s.get(ctx, s.db(ctx), id)
}

func (s *Service) get(ctx context.Context, c *ent.Client, id uuid.UUID) (*ent.TrashRecord, error) {
	r, err := c.TrashRecord.Query().
		Where(trashrecord.ID(id), trashrecord.TenantID(viewer.FromContext(ctx).TenantID)).Only(ctx)
	return r, apperr.FromEnt(err, MsgNotFound, "")
}

// Restore brings a trashed record back (same id, children untouched) and
// removes its trash entry, in one transaction. Beyond its line's permission
// it needs the delete permission of the record's kind (DeletePermission). A unique value taken meanwhile
// by a live record answers 409. The returned trash record is the removed entry.
func (s *Service) Restore(ctx context.Context, id uuid.UUID) (*ent.TrashRecord, error) {
	acc, err := tenancy.From(ctx)
	if err != nil {
		return nil, err
	}
	ctx = viewer.WithArchived(ctx)
	var out *ent.TrashRecord
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		rec, err := s.get(ctx, tx, id)
		if err != nil {
			return err
		}
		ops, err := opsOf(rec.Kind)
		if err != nil {
			return err
		}
		if err := auth.Require(acc.Viewer, DeletePermission(rec.Kind)); err != nil {
			return err
		}
		n, err := ops.restore(ctx, tx, rec.RecordID)
		if err != nil {
			return apperr.FromEnt(err, MsgRecordGone, MsgRestoreConflict)
		}
		if n == 0 {
			return apperr.NotFound(MsgRecordGone)
		}
		if err := tx.TrashRecord.DeleteOne(rec).Exec(ctx); err != nil {
			return err
		}
		out = rec
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Purge deletes a trashed record for good with its trash entry (children
// cascade). A record still referenced by rows that do not cascade (a
// commerce with activities) answers 409.
func (s *Service) Purge(ctx context.Context, id uuid.UUID) error {
	if _, err := tenancy.From(ctx); err != nil {
		return err
	}
	ctx = viewer.WithArchived(ctx)
	return txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		rec, err := s.get(ctx, tx, id)
		if err != nil {
			return err
		}
		return purgeRecord(ctx, tx, rec)
	})
}

// purgeRecord deletes the record of rec and rec itself, inside tx.
func purgeRecord(ctx context.Context, tx *ent.Client, rec *ent.TrashRecord) error {
	ops, err := opsOf(rec.Kind)
	if err != nil {
		return err
	}
	if _, err := ops.purge(ctx, tx, rec.RecordID); err != nil {
		if ent.IsConstraintError(err) {
			return &apperr.Error{Kind: apperr.KindConflict, Messages: []string{MsgPurgeConflict}, Err: err}
		}
		return err
	}
	return tx.TrashRecord.DeleteOne(rec).Exec(ctx)
}

// Settings are a tenant's trash settings.
type Settings struct {
	RetentionDays int
}

// Settings returns the tenant's trash settings (the defaults until the first
// update).
func (s *Service) Settings(ctx context.Context) (Settings, error) {
	if _, err := tenancy.From(ctx); err != nil {
		return Settings{}, err
	}
	days, err := RetentionDays(ctx, s.db(ctx))
	return Settings{RetentionDays: days}, err
}

// SettingsInput is the body of PATCH /api/trash/settings; nil RetentionDays
// means it was not sent.
type SettingsInput struct {
	RetentionDays *int
}

// ValidateRetentionDays applies the 1..3650 rule.
func ValidateRetentionDays(days int) []string {
	switch {
	case days < MinRetentionDays:
		return []string{MsgRetentionMin}
	case days > MaxRetentionDays:
		return []string{MsgRetentionMax}
	}
	return nil
}

// UpdateSettings stores the tenant's retention window (creating the settings
// row on first use) and moves the purge date of the records already in the
// trash to their deletion date plus the new window.
func (s *Service) UpdateSettings(ctx context.Context, in SettingsInput) (Settings, error) {
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return Settings{}, err
	}
	if in.RetentionDays == nil {
		return Settings{}, apperr.Validation(MsgRetentionMissing)
	}
	days := *in.RetentionDays
	if msgs := ValidateRetentionDays(days); len(msgs) > 0 {
		return Settings{}, apperr.Validation(msgs...)
	}
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		err := tx.TrashSetting.Create().SetTenantID(tenantID).SetRetentionDays(days).
			OnConflictColumns(trashsetting.FieldTenantID).UpdateRetentionDays().UpdateUpdatedAt().Exec(ctx)
		if err != nil {
			return fmt.Errorf("trash settings: %w", err)
		}
		recs, err := tx.TrashRecord.Query().Where(trashrecord.TenantID(tenantID)).All(ctx)
		if err != nil {
			return err
		}
		for _, r := range recs {
			if err := tx.TrashRecord.UpdateOne(r).SetPurgeAfter(r.DeletedAt.AddDate(0, 0, days)).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Settings{}, err
	}
	return Settings{RetentionDays: days}, nil
}
