package trash_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activationconfig"
	"github.com/reten-io/reten/ent/commercelifecycletransition"
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

// TestPurgeDeletesLogs: the transition history and the generation
// decisions name commerces, AGCs and rules without foreign keys, so purging
// one deletes its transitions and decisions, and only its own.
func TestPurgeDeletesLogs(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		acme := db.Tenant(t, "Acme")
		admin, c, svc := acme.Admin(), db.Client, trash.NewService(db.Client)
		shops := []*ent.Commerce{c.Commerce.Create().SetName("Uno").SaveX(admin), c.Commerce.Create().SetName("Dos").SaveX(admin)}
		agcs := []*ent.ActivityGenerationConfig{
			c.ActivityGenerationConfig.Create().SetProjectID(acme.ProjectID).SetName("Retail").SaveX(admin),
			c.ActivityGenerationConfig.Create().SetProjectID(acme.ProjectID).SetName("Mayoristas").SaveX(admin),
		}
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		rules := map[uuid.UUID]*ent.GenerationRule{}
		for _, agc := range agcs {
			rules[agc.ID] = c.GenerationRule.Create().SetProjectID(acme.ProjectID).SetActivityGenerationConfigID(agc.ID).SetName("R").
				SetTrigger("ENTER").SetStage("ACTIVATION").SetStatusCode("new").SetType("TASK").SetChannel("SALESMAN").
				SetReasonCode("r").SetTitleTemplate("t").SaveX(admin)
		}
		for _, shop := range shops {
			for _, agc := range agcs {
				c.CommerceLifecycleTransition.Create().SetCommerceID(shop.ID).SetActivityGenerationConfigID(agc.ID).
					SetToStage(commercelifecycletransition.ToStageACTIVATION).SetToCode("new").SetStateChangedAt(at).SetLastComputedAt(at).
					SetSource(commercelifecycletransition.SourceAPI).SaveX(admin)
				c.GenerationDecision.Create().SetProjectID(acme.ProjectID).SetActivityGenerationConfigID(agc.ID).SetRuleID(rules[agc.ID].ID).
					SetCommerceID(shop.ID).SetTrigger("ENTER").SetStage("ACTIVATION").SetStatusCode("new").SetEnteredAt(at).
					SetKind("HELD_OUT").SetReason("AGC_HOLDOUT").SetDetail("d").SetDecidedAt(at).SaveX(admin)
			}
		}
		purge := func(rec trash.Record) {
			t.Helper()
			dbtest.NoError(t, txn.Run(admin, c, func(ctx context.Context, tx *ent.Client) error { return trash.Move(ctx, tx, rec) }))
			recs, err := svc.List(admin, trash.Filter{}, pageOne)
			dbtest.NoError(t, err)
			dbtest.NoError(t, svc.Purge(admin, recs.Items[0].ID))
		}
		left := func() []string {
			var out []string
			for _, tr := range c.CommerceLifecycleTransition.Query().Order(commercelifecycletransition.ByID()).AllX(admin) {
				var shop, agc string
				for _, s := range shops {
					if s.ID == tr.CommerceID {
						shop = s.Name
					}
				}
				for _, a := range agcs {
					if a.ID == tr.ActivityGenerationConfigID {
						agc = a.Name
					}
				}
				out = append(out, shop+"/"+agc)
			}
			for _, d := range c.GenerationDecision.Query().AllX(admin) {
				var shop, agc string
				for _, s := range shops {
					if s.ID == d.CommerceID {
						shop = s.Name
					}
				}
				for _, a := range agcs {
					if a.ID == d.ActivityGenerationConfigID && rules[a.ID].ID == d.RuleID {
						agc = a.Name
					}
				}
				out = append(out, "decision "+shop+"/"+agc)
			}
			slices.Sort(out)
			return out
		}

		purge(trash.Record{Kind: trash.KindCommerce, RecordID: shops[0].ID, Label: shops[0].Name})
		if got := left(); !slices.Equal(got, []string{"Dos/Mayoristas", "Dos/Retail", "decision Dos/Mayoristas", "decision Dos/Retail"}) {
			t.Fatalf("after purging commerce Uno: transitions %v", got)
		}
		purge(trash.Record{Kind: trash.KindAGC, RecordID: agcs[0].ID, Label: agcs[0].Name, ProjectID: &acme.ProjectID})
		if got := left(); !slices.Equal(got, []string{"Dos/Mayoristas", "decision Dos/Mayoristas"}) {
			t.Fatalf("after purging AGC Retail: transitions %v", got)
		}
		r := rules[agcs[1].ID]
		purge(trash.Record{Kind: trash.KindGenerationRule, RecordID: r.ID, Label: r.Name, ProjectID: &acme.ProjectID})
		if got := left(); !slices.Equal(got, []string{"Dos/Mayoristas"}) {
			t.Fatalf("after purging rule R: %v", got)
		}
	})
}
