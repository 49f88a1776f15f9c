// Package trash archives deleted records (audiences, commerces, operators,
// routes, supervisors, ...) so they can be restored within the tenant's
// retention window, and purges them afterwards.
package trash

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/ent/trashsetting"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/viewer"
)

// DefaultRetentionDays applies to tenants without trash settings.
const DefaultRetentionDays = 30

// Kinds of trashed records.
const (
	KindAudience       = trashrecord.KindAUDIENCE_CRITERIA
	KindCommerce       = trashrecord.KindCOMMERCE
	KindOperator       = trashrecord.KindOPERATOR
	KindRoute          = trashrecord.KindROUTE
	KindSupervisor     = trashrecord.KindSUPERVISOR
	KindAGC            = trashrecord.KindACTIVITY_GENERATION_CONFIG
	KindEventFilter    = trashrecord.KindEVENT_CRITERIA
	KindGenerationRule = trashrecord.KindGENERATION_RULE
)

// Record describes a record being archived.
type Record struct {
	Kind      trashrecord.Kind
	RecordID  uuid.UUID
	Label     string     // what the trash lists (a name or code)
	ProjectID *uuid.UUID // for project-owned records
}

// Service lists, restores and purges trashed records.
type Service struct {
	client *ent.Client
	now    func() time.Time
}

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client, now: time.Now} }

// RetentionDays returns the tenant's retention window.
func RetentionDays(ctx context.Context, c *ent.Client) (int, error) {
	q := c.TrashSetting.Query()
	if tid, ok := viewer.TenantID(ctx); ok {
		q.Where(trashsetting.TenantID(tid))
	}
	s, err := q.Only(ctx)
	if ent.IsNotFound(err) {
		return DefaultRetentionDays, nil
	}
	if err != nil {
		return 0, err
	}
	return s.RetentionDays, nil
}

// Move archives a live record of kind r.Kind (sets archived_at on it and on
// the rows archived with it) and writes its trash record, inside the
// caller's transaction: deletion and trash entry commit together. A record
// that is not live answers ent's not-found error.
func Move(ctx context.Context, tx *ent.Client, r Record) error {
	ops, err := opsOf(r.Kind)
	if err != nil {
		return err
	}
	n, err := ops.archive(ctx, tx, r.RecordID)
	if err != nil {
		return fmt.Errorf("archive %s %s: %w", r.Kind, r.RecordID, err)
	}
	if n == 0 {
		return fmt.Errorf("archive %s %s: %w", r.Kind, r.RecordID, &ent.NotFoundError{})
	}
	return Archive(ctx, tx, r)
}

// Archive writes the trash record of a record the caller has just archived
// (set archived_at on), inside the caller's transaction: deletion and trash
// entry commit together. Callers use it as:
//
//	err := txn.Run(ctx, client, func(ctx context.Context, tx *ent.Client) error {
//		c, err := tx.Commerce.UpdateOneID(id).SetArchivedAt(now).Save(ctx)
//		...
//		return trash.Archive(ctx, tx, trash.Record{Kind: trash.KindCommerce, RecordID: id, Label: c.Name})
//	})
func Archive(ctx context.Context, tx *ent.Client, r Record) error {
	days, err := RetentionDays(ctx, tx)
	if err != nil {
		return err
	}
	now := clock.Now()
	b := tx.TrashRecord.Create().SetKind(r.Kind).SetRecordID(r.RecordID).SetLabel(r.Label).
		SetNillableProjectID(r.ProjectID).SetDeletedAt(now).SetPurgeAfter(now.AddDate(0, 0, days))
	if v := viewer.FromContext(ctx); v != nil {
		b.SetDeletedBy(v.UserID)
	}
	if err := b.Exec(ctx); err != nil {
		return fmt.Errorf("trash %s %s: %w", r.Kind, r.RecordID, err)
	}
	return nil
}
