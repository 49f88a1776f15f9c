package webhook

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/outbound"
	"github.com/reten-io/reten/internal/patch"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// TestEmitWakesAfterCommit: recording events wakes this replica's delivery
// job once the transaction commits, not before (a pass before the commit
// would find nothing), and not when it rolls back.
func TestEmitWakesAfterCommit(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		acme := db.Tenant(t, "Acme")
		s := New(db.Client, db.Dialect, make([]byte, 32), outbound.Allowlist{})
		_, err := s.CreateEndpoint(acme.Admin(), EndpointFields{URL: patch.Of("https://hooks.example.com/x"),
			EventTypes: patch.Of([]string{TypeDecisionRecorded})})
		dbtest.NoError(t, err)
		sys := viewer.SystemContext(context.Background())
		emit := func(ctx context.Context, tx *ent.Client) error {
			return s.Emit(ctx, tx, acme.TenantID, Event{ID: uuid.New(), Type: TypeDecisionRecorded, At: time.Now(), Data: 1})
		}
		err = txn.Run(sys, db.Client, func(ctx context.Context, tx *ent.Client) error {
			if err := emit(ctx, tx); err != nil {
				return err
			}
			if len(s.wake) != 0 {
				t.Error("woken before the commit")
			}
			return nil
		})
		dbtest.NoError(t, err)
		if len(s.wake) != 1 {
			t.Fatal("not woken after the commit")
		}
		<-s.wake
		_ = txn.Run(sys, db.Client, func(ctx context.Context, tx *ent.Client) error {
			if err := emit(ctx, tx); err != nil {
				return err
			}
			return context.Canceled // roll back
		})
		if len(s.wake) != 0 {
			t.Fatal("woken by a rolled back transaction")
		}
	})
}
