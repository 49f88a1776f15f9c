package snapshot_test

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/retentionstatusconfig"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/snapshot"
	"github.com/reten-io/reten/internal/tenancy"
)

// fixture is a tenant with a commerce (external id C1), an AGC and the
// statuses "new" (ACTIVATION) and "engaged" (ENGAGEMENT, inactive "gone").
type fixture struct {
	svc            *snapshot.Service
	acme           dbtest.Tenant
	admin          context.Context
	commerce, agc  uuid.UUID
	otherTenantAGC uuid.UUID
}

func setup(t *testing.T, db *dbtest.DB) *fixture {
	f := &fixture{svc: snapshot.NewService(db.Client, db.Dialect), acme: db.Tenant(t, "Acme")}
	f.admin = f.acme.Admin()
	c := db.Client
	f.commerce = c.Commerce.Create().SetTenantID(f.acme.TenantID).SetName("Kiosko").SetExternalID("C1").SaveX(f.admin).ID
	f.agc = c.ActivityGenerationConfig.Create().SetTenantID(f.acme.TenantID).SetProjectID(f.acme.ProjectID).SetName("Retail").
		SaveX(f.admin).ID
	for _, s := range []struct {
		code   string
		stage  retentionstatusconfig.Stage
		active bool
	}{{"new", "ACTIVATION", true}, {"engaged", "ENGAGEMENT", true}, {"gone", "RESURRECTION", false}} {
		c.RetentionStatusConfig.Create().SetTenantID(f.acme.TenantID).SetCode(s.code).SetLabel(s.code).SetStage(s.stage).
			SetIsActive(s.active).SaveX(f.admin)
	}
	beta := db.Tenant(t, "Beta")
	f.otherTenantAGC = c.ActivityGenerationConfig.Create().SetTenantID(beta.TenantID).SetProjectID(beta.ProjectID).
		SetName("Theirs").SaveX(beta.Admin()).ID
	return f
}

func (f *fixture) item(code, stage string, at time.Time) snapshot.Item {
	return snapshot.Item{CommerceID: f.commerce.String(), AGCID: f.agc.String(), Code: code, Stage: stage, LastComputedAt: &at}
}

// TestUpsertOutcomes: a snapshot is created, updated on a change of state,
// unchanged when nothing changes and stale when last_computed_at is older
// than the stored one (which is then kept).
func TestUpsertOutcomes(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := setup(t, db)
		t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		for _, step := range []struct {
			it        snapshot.Item
			outcome   string
			wantCode  string
			wantStage string
		}{
			{f.item("new", "ACTIVATION", t0), snapshot.Created, "new", "ACTIVATION"},
			{f.item("new", "ACTIVATION", t0), snapshot.Unchanged, "new", "ACTIVATION"},
			{f.item("engaged", "ENGAGEMENT", t0.Add(time.Hour)), snapshot.Updated, "engaged", "ENGAGEMENT"},
			{f.item("new", "ACTIVATION", t0), snapshot.Stale, "engaged", "ENGAGEMENT"},
		} {
			sn, outcome, err := f.svc.Upsert(f.admin, step.it)
			dbtest.NoError(t, err)
			if outcome != step.outcome || sn.Code != step.wantCode || string(sn.Stage) != step.wantStage {
				t.Fatalf("upsert %s: %s %s/%s, want %s %s/%s", step.it.Code, outcome, sn.Code, sn.Stage,
					step.outcome, step.wantCode, step.wantStage)
			}
		}
	})
}

// TestUpsertRules: the item rules in one 400; an unknown commerce or another
// tenant's AGC is not found; an inactive status or a stage that is not the
// status's own is a 400.
func TestUpsertRules(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := setup(t, db)
		_, _, err := f.svc.Upsert(f.admin, snapshot.Item{CommerceID: "C1", AGCID: "x", Stage: "DORMANT"})
		dbtest.ExpectError(t, err, http.StatusBadRequest, snapshot.MsgCommerceIDUUID, snapshot.MsgAGCUUID,
			snapshot.MsgCodeEmpty, snapshot.MsgStageValues, snapshot.MsgLastComputedEmpty)

		at := time.Now()
		missing := uuid.New()
		it := f.item("new", "ACTIVATION", at)
		it.CommerceID = missing.String()
		_, _, err = f.svc.Upsert(f.admin, it)
		dbtest.ExpectError(t, err, http.StatusNotFound, fmt.Sprintf(snapshot.MsgCommerceIDFmt, missing))
		it = f.item("new", "ACTIVATION", at)
		it.AGCID = f.otherTenantAGC.String()
		_, _, err = f.svc.Upsert(f.admin, it)
		dbtest.ExpectError(t, err, http.StatusNotFound, fmt.Sprintf(snapshot.MsgAGCNotFoundFmt, f.otherTenantAGC))
		_, _, err = f.svc.Upsert(f.admin, f.item("gone", "RESURRECTION", at))
		dbtest.ExpectError(t, err, http.StatusBadRequest, fmt.Sprintf(snapshot.MsgStatusInactiveFmt, "gone"))
		_, _, err = f.svc.Upsert(f.admin, f.item("new", "ENGAGEMENT", at))
		dbtest.ExpectError(t, err, http.StatusBadRequest, fmt.Sprintf(snapshot.MsgStageMismatchFmt, "ENGAGEMENT", "new", "ACTIVATION"))
	})
}

// TestBatchUpsert: one identifier type per request; invalid items are
// reported by index and change nothing while the valid ones are written.
func TestBatchUpsert(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := setup(t, db)
		_, err := f.svc.BatchUpsert(f.admin, nil)
		dbtest.ExpectError(t, err, http.StatusBadRequest, snapshot.MsgItemsEmpty)
		at := time.Now()
		byExt := f.item("new", "ACTIVATION", at)
		byExt.CommerceID, byExt.ExternalID = "", "C1"
		_, err = f.svc.BatchUpsert(f.admin, []snapshot.Item{f.item("new", "ACTIVATION", at), byExt})
		dbtest.ExpectError(t, err, http.StatusBadRequest, snapshot.MsgItemsMixed)

		unknown := byExt
		unknown.ExternalID = "C9"
		noCode := byExt
		noCode.Code = ""
		res, err := f.svc.BatchUpsert(f.admin, []snapshot.Item{unknown, byExt, noCode})
		dbtest.NoError(t, err)
		want := []snapshot.ItemError{{Index: 0, Messages: []string{fmt.Sprintf(snapshot.MsgCommerceExtFmt, "C9")}},
			{Index: 2, Messages: []string{snapshot.MsgCodeEmpty}}}
		if res.Created != 1 || !reflect.DeepEqual(res.Results, []snapshot.ItemResult{{Index: 1, Outcome: snapshot.Created}}) ||
			!reflect.DeepEqual(res.Errors, want) {
			t.Fatalf("batch = %+v", res)
		}
	})
}

// TestTenancy: another tenant sees none of the snapshots and cannot name
// the commerce; the routes need their permissions.
func TestTenancy(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := setup(t, db)
		_, _, err := f.svc.Upsert(f.admin, f.item("new", "ACTIVATION", time.Now()))
		dbtest.NoError(t, err)
		beta := db.Tenant(t, "Beta2").Admin()
		_, err = f.svc.ForCommerce(beta, f.commerce.String(), "")
		dbtest.ExpectError(t, err, http.StatusNotFound, snapshot.MsgCommerceNotFound)
		_, err = f.svc.ForCommerce(beta, "C1", "")
		dbtest.ExpectError(t, err, http.StatusNotFound, snapshot.MsgCommerceNotFound)
		res, err := f.svc.BatchLookup(beta, snapshot.LookupInput{ExternalIDs: []string{"C1"}})
		dbtest.NoError(t, err)
		if len(res.Snapshots) != 0 || !reflect.DeepEqual(res.Unresolved, []string{"C1"}) {
			t.Fatalf("lookup from another tenant = %+v", res)
		}

		got, err := f.svc.ForCommerce(f.acme.As(auth.PermSnapshotView), "C1", f.agc.String())
		dbtest.NoError(t, err)
		if len(got) != 1 || got[0].Code != "new" {
			t.Fatalf("for commerce = %+v", got)
		}
		_, err = f.svc.ForCommerce(f.admin, "C1", uuid.Nil.String())
		dbtest.ExpectError(t, err, http.StatusNotFound, snapshot.MsgSnapshotNotFound)
		// The permission is the matrix line's, applied on entering it.
		_, err = tenancy.Enter(f.acme.As(auth.PermSnapshotView), "PUT /commerce-lifecycle-snapshots")
		dbtest.ExpectError(t, err, http.StatusForbidden, "Required permissions: "+auth.PermSnapshotCreate)
	})
}
