package trash_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activationconfig"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

var pageOne = paging.Page{Page: 1, PerPage: paging.DefaultPerPage}

// TestMoveRestorePurge: Move archives a live record with the rows archived
// with it (an AGC's pillars) and lists it in the trash; Restore brings both
// back; a record that is no longer live cannot be moved; Purge deletes it
// for good, in the caller's tenant only.
func TestMoveRestorePurge(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		acme := db.Tenant(t, "Acme")
		admin, c, svc := acme.Admin(), db.Client, trash.NewService(db.Client)
		a := c.ActivityGenerationConfig.Create().SetTenantID(acme.TenantID).SetProjectID(acme.ProjectID).SetName("Retail").SaveX(admin)
		c.ActivationConfig.Create().SetTenantID(acme.TenantID).SetProjectID(acme.ProjectID).SetActivityGenerationConfigID(a.ID).
			SetName("A").SetSourceTable("events").SetDateColumn("d").SetAggregationMethod("count").SaveX(admin)
		move := func() error {
			return txn.Run(admin, c, func(ctx context.Context, tx *ent.Client) error {
				return trash.Move(ctx, tx, trash.Record{Kind: trash.KindAGC, RecordID: a.ID, Label: a.Name, ProjectID: &acme.ProjectID})
			})
		}
		live := func() (agcs, pillars int) {
			return c.ActivityGenerationConfig.Query().CountX(admin), c.ActivationConfig.Query().
				Where(activationconfig.ActivityGenerationConfigID(a.ID)).CountX(admin)
		}

		dbtest.NoError(t, move())
		if n, p := live(); n != 0 || p != 0 {
			t.Fatalf("after Move: %d AGCs, %d pillars live, want none", n, p)
		}
		if err := move(); !ent.IsNotFound(err) {
			t.Fatalf("moving an archived record: %v, want not found", err)
		}
		recs, err := svc.List(admin, trash.Filter{}, pageOne)
		dbtest.NoError(t, err)
		if recs.Total != 1 || recs.Items[0].RecordID != a.ID || recs.Items[0].Label != "Retail" {
			t.Fatalf("trash = %+v", recs.Items)
		}
		rec := recs.Items[0]
		_, err = svc.Restore(db.Tenant(t, "Beta").Admin(), rec.ID)
		dbtest.ExpectError(t, err, http.StatusNotFound, trash.MsgNotFound)
		_, err = svc.Restore(admin, rec.ID)
		dbtest.NoError(t, err)
		if n, p := live(); n != 1 || p != 1 {
			t.Fatalf("after Restore: %d AGCs, %d pillars live, want 1 and 1", n, p)
		}

		dbtest.NoError(t, move())
		recs, err = svc.List(admin, trash.Filter{}, pageOne)
		dbtest.NoError(t, err)
		dbtest.NoError(t, svc.Purge(admin, recs.Items[0].ID))
		if n := c.ActivityGenerationConfig.Query().CountX(viewer.WithArchived(admin)); n != 0 {
			t.Fatalf("after Purge: %d AGCs, want 0", n)
		}
		if n := c.ActivationConfig.Query().CountX(viewer.WithArchived(admin)); n != 0 {
			t.Fatalf("after Purge: %d pillars, want 0 (cascade)", n)
		}
	})
}
