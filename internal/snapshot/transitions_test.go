package snapshot_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/reten-io/reten/ent"
	tr "github.com/reten-io/reten/ent/commercelifecycletransition"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/snapshot"
)

// hist is a transition as the test compares it.
type hist struct {
	from, to, hash, source string
	at                     time.Time
}

func history(t *testing.T, f *fixture, db *dbtest.DB) []hist {
	t.Helper()
	rows, err := db.Client.CommerceLifecycleTransition.Query().Where(tr.CommerceID(f.commerce)).
		Order(ent.Asc(tr.FieldStateChangedAt), ent.Asc(tr.FieldCreatedAt)).All(f.admin)
	dbtest.NoError(t, err)
	out := make([]hist, len(rows))
	for i, r := range rows {
		h := hist{to: string(r.ToStage) + "/" + r.ToCode, source: string(r.Source), at: r.StateChangedAt.UTC()}
		if r.FromStage != nil {
			h.from = string(*r.FromStage) + "/" + *r.FromCode
		}
		if r.ConfigHash != nil {
			h.hash = *r.ConfigHash
		}
		if r.RunID != nil || r.LastComputedAt.IsZero() || r.TenantID != f.acme.TenantID || r.ActivityGenerationConfigID != f.agc {
			t.Errorf("transition %d: run %v, last computed %v, tenant %v, agc %v", i, r.RunID, r.LastComputedAt, r.TenantID, r.ActivityGenerationConfigID)
		}
		out[i] = h
	}
	return out
}

// TestHistoryOneRowPerChange: every write through the API that changes
// (stage, code) appends exactly one transition (creation with no from), and
// no other write does: unchanged, stale, a later last_computed_at alone.
// Duplicates of one key in a batch apply in order, each change recorded.
func TestHistoryOneRowPerChange(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := setup(t, db)
		db.Client.ActivityGenerationConfig.UpdateOneID(f.agc).SetConfigHashes(map[string]string{
			"activation": "ha", "engagement": "he", "resurrection": "hr"}).ExecX(f.admin)
		t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		for _, it := range []snapshot.Item{
			f.item("new", "ACTIVATION", t0),                      // created
			f.item("new", "ACTIVATION", t0),                      // unchanged
			f.item("new", "ACTIVATION", t0.Add(time.Hour)),       // refreshed only
			f.item("engaged", "ENGAGEMENT", t0.Add(2*time.Hour)), // change
			f.item("new", "ACTIVATION", t0.Add(time.Hour)),       // stale
			f.item("engaged", "ENGAGEMENT", t0.Add(3*time.Hour)), // refreshed only
		} {
			_, _, err := f.svc.Upsert(f.admin, it)
			dbtest.NoError(t, err)
		}
		res, err := f.svc.BatchUpsert(f.admin, []snapshot.Item{
			f.item("new", "ACTIVATION", t0.Add(4*time.Hour)),
			f.item("new", "ACTIVATION", t0.Add(5*time.Hour)),
			f.item("engaged", "ENGAGEMENT", t0.Add(6*time.Hour)),
		})
		dbtest.NoError(t, err)
		if res.Updated != 3 || len(res.Errors) != 0 {
			t.Fatalf("batch: %+v", res)
		}
		want := []hist{
			{"", "ACTIVATION/new", "ha", "API", t0},
			{"ACTIVATION/new", "ENGAGEMENT/engaged", "he", "API", t0.Add(2 * time.Hour)},
			{"ENGAGEMENT/engaged", "ACTIVATION/new", "ha", "API", t0.Add(4 * time.Hour)},
			{"ACTIVATION/new", "ENGAGEMENT/engaged", "he", "API", t0.Add(6 * time.Hour)},
		}
		got := history(t, f, db)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("history:\n got %v\nwant %v", got, want)
		}
	})
}

// TestHistoryUnderConcurrentWriters: writers racing on one snapshot with
// alternating states leave a history that is a chain (each transition
// starts where the previous one ended) ending at the stored state, with one
// row per change the snapshot went through.
func TestHistoryUnderConcurrentWriters(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := setup(t, db)
		t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		var wg sync.WaitGroup
		errs := make(chan error, 40)
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 10 {
					it := f.item("new", "ACTIVATION", t0.Add(time.Duration(i*4+w)*time.Minute))
					if (i+w)%2 == 1 {
						it = f.item("engaged", "ENGAGEMENT", t0.Add(time.Duration(i*4+w)*time.Minute))
					}
					if _, _, err := f.svc.Upsert(f.admin, it); err != nil {
						errs <- err
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		got := history(t, f, db)
		if len(got) == 0 || got[0].from != "" {
			t.Fatalf("history must start with a creation: %v", got)
		}
		for i := 1; i < len(got); i++ {
			if got[i].from != got[i-1].to || got[i].from == got[i].to {
				t.Fatalf("transition %d does not continue the chain: %v", i, got)
			}
		}
		sn := db.Client.CommerceLifecycleSnapshot.Query().OnlyX(f.admin)
		if last := got[len(got)-1]; last.to != string(sn.Stage)+"/"+sn.Code || !last.at.Equal(sn.StateChangedAt.UTC()) {
			t.Fatalf("last transition %v, snapshot %s/%s changed at %v", last, sn.Stage, sn.Code, sn.StateChangedAt)
		}
	})
}
