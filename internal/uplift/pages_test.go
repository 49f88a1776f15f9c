package uplift_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	gd "github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/uplift"
)

// TestPages: more decisions than a page, many at one instant, stream whole
// and in order (the keyset crosses ties), and the report counts them all.
func TestPages(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := newFix(t, db)
		c := f.commerce(f.acme, f.admin, "Many", "M1")
		const n = 2345
		var batch []*ent.GenerationDecisionCreate
		for i := range n {
			at := day(1+i/700, 10) // 700 decisions per instant: pages end within an instant
			batch = append(batch, f.db.Client.GenerationDecision.Create().SetTenantID(f.acme.TenantID).SetProjectID(f.acme.ProjectID).
				SetActivityGenerationConfigID(f.agc).SetRuleID(f.r1).SetCommerceID(c).SetTrigger(gd.TriggerENTER).
				SetStage(gd.StageACTIVATION).SetStatusCode("new").SetEnteredAt(at.Add(-time.Duration(i+1)*time.Second)).
				SetKind(gd.KindHELD_OUT).SetReason(gd.ReasonAGC_HOLDOUT).SetDetail("held").SetDecidedAt(at))
			if len(batch) == 500 || i == n-1 {
				f.db.Client.GenerationDecision.CreateBulk(batch...).ExecX(f.admin)
				batch = batch[:0]
			}
		}
		seen := map[uuid.UUID]bool{}
		var last uplift.Row
		err := f.svc.Rows(f.admin, f.agc, uplift.Input{}, func(r uplift.Row) error {
			if seen[r.DecisionID] {
				return fmt.Errorf("decision %s twice", r.DecisionID)
			}
			if len(seen) > 0 && (r.DecidedAt.Before(last.DecidedAt) ||
				r.DecidedAt.Equal(last.DecidedAt) && r.DecisionID.String() <= last.DecisionID.String()) {
				return fmt.Errorf("decision %s out of order", r.DecisionID)
			}
			seen[r.DecisionID], last = true, r
			return nil
		})
		dbtest.NoError(t, err)
		if len(seen) != n {
			t.Fatalf("%d rows, want %d", len(seen), n)
		}
		r, err := f.svc.Report(f.admin, f.agc, uplift.Input{})
		dbtest.NoError(t, err)
		if r.Control.Decisions != n || r.Treated.Decisions != 0 {
			t.Fatalf("report sizes %+v %+v", r.Treated, r.Control)
		}
		// fn's error stops the stream.
		stop := fmt.Errorf("stop")
		calls := 0
		if err := f.svc.Rows(f.admin, f.agc, uplift.Input{}, func(uplift.Row) error { calls++; return stop }); err != stop || calls != 1 {
			t.Fatalf("stopped stream: %v after %d calls", err, calls)
		}
	})
}
