package agc_test

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/retentionstatusconfig"
	"github.com/reten-io/reten/internal/agc"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/patch"
	"github.com/reten-io/reten/internal/tenancy"
)

// fixture is a tenant with one active retention status per stage.
type fixture struct {
	db                   *dbtest.DB
	svc                  *agc.Service
	acme                 dbtest.Tenant
	admin                context.Context
	newID, engID, lostID uuid.UUID
}

func setup(t *testing.T, db *dbtest.DB) *fixture {
	f := &fixture{db: db, svc: agc.NewService(db.Client, nil), acme: db.Tenant(t, "Acme")}
	f.admin = f.acme.Admin()
	status := func(code, stage string) uuid.UUID {
		return db.Client.RetentionStatusConfig.Create().SetTenantID(f.acme.TenantID).SetCode(code).SetLabel(code).
			SetStage(retentionstatusconfig.Stage(stage)).SaveX(f.admin).ID
	}
	f.newID, f.engID, f.lostID = status("new", "ACTIVATION"), status("engaged", "ENGAGEMENT"), status("lost", "RESURRECTION")
	return f
}

func pillar(name string) agc.PillarFields {
	return agc.PillarFields{Name: new(name), SourceTable: new("events"), DateColumn: new("event_timestamp")}
}

func (f *fixture) input(name string) agc.CreateInput {
	return agc.CreateInput{
		Name: name,
		Activation: &agc.ActivationInput{PillarFields: pillar("A"), AggregationMethod: new("count"),
			Moments: &[]agc.MomentInput{{StatusCode: "new", UserRetentionStatusConfigID: f.newID, MinActions: new(1), Priority: 1}}},
		Engagement: &agc.EngagementInput{PillarFields: pillar("E"), EngagementWindowDays: new(30),
			MinLifetimeActionsForEngaged: new(1), CountingMethod: new("count"),
			Levels: &[]agc.LevelInput{{StatusCode: "engaged", UserRetentionStatusConfigID: f.engID, Label: "High", MinThreshold: 3, Order: 1}}},
		Resurrection: &agc.ResurrectionInput{PillarFields: pillar("R"),
			Thresholds: &[]agc.ThresholdInput{{StatusCode: "lost", UserRetentionStatusConfigID: f.lostID, Label: "Lost", ThresholdDays: 60, Order: 1}}},
	}
}

// TestCreateRules: the body rules come in one 400 (one message per broken
// rule); a child's status must be an active status of its pillar's stage.
func TestCreateRules(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := setup(t, db)
		_, err := f.svc.Create(f.admin, agc.CreateInput{Name: "  "})
		dbtest.ExpectError(t, err, http.StatusBadRequest, agc.MsgNameEmpty, "activation should not be empty",
			"engagement should not be empty", "resurrection should not be empty")

		in := f.input("Retail")
		in.Activation.AggregationMethod = new("median")
		(*in.Engagement.Levels)[0].MaxThreshold = new(1)
		(*in.Resurrection.Thresholds)[0].ThresholdDays = -1
		_, err = f.svc.Create(f.admin, in)
		dbtest.ExpectError(t, err, http.StatusBadRequest,
			"activation.aggregation_method must be one of the following values: nunique, count, sum, active_weeks",
			"engagement.levels.0.max_threshold must not be less than min_threshold",
			"resurrection.thresholds.0.threshold_days must not be less than 0")

		in = f.input("Retail")
		(*in.Activation.Moments)[0].UserRetentionStatusConfigID = f.engID
		_, err = f.svc.Create(f.admin, in)
		dbtest.ExpectError(t, err, http.StatusBadRequest, fmt.Sprintf(agc.MsgStatusRefFmt, "activation.moments.0", "new"))

		created, err := f.svc.Create(f.admin, f.input("Retail"))
		dbtest.NoError(t, err)
		if created.Status != activitygenerationconfig.StatusDraft || len(created.Edges.ActivationConfig.Edges.ActivationMoments) != 1 {
			t.Fatalf("created = %+v", created.ActivityGenerationConfig)
		}
		_, err = f.svc.Create(f.admin, f.input("Retail"))
		dbtest.ExpectError(t, err, http.StatusConflict, fmt.Sprintf(agc.MsgDuplicateNameFmt, "Retail"))
	})
}

// TestReplaceLifecycleReconcilesChildren: children sent with an id are
// updated in place, children without one are created, the others are
// deleted; an id of another config or sent twice is rejected and nothing is
// written.
func TestReplaceLifecycleReconcilesChildren(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := setup(t, db)
		a, err := f.svc.Create(f.admin, f.input("Retail"))
		dbtest.NoError(t, err)
		other, err := f.svc.Create(f.admin, f.input("Other"))
		dbtest.NoError(t, err)
		kept := a.Edges.ActivationConfig.Edges.ActivationMoments[0].ID
		foreign := other.Edges.ActivationConfig.Edges.ActivationMoments[0].ID
		moments := func(ms ...agc.MomentInput) agc.LifecycleInput {
			return agc.LifecycleInput{Activation: &agc.ActivationInput{Moments: &ms}}
		}
		moment := func(id *uuid.UUID, priority int) agc.MomentInput {
			return agc.MomentInput{ID: id, StatusCode: "new", UserRetentionStatusConfigID: f.newID, Priority: priority}
		}

		err = f.svc.ReplaceLifecycle(f.admin, a.ID, moments(moment(&foreign, 1)))
		dbtest.ExpectError(t, err, http.StatusBadRequest,
			fmt.Sprintf(agc.MsgForeignChildFmt, "activation.moments.0", foreign, "activation"))
		err = f.svc.ReplaceLifecycle(f.admin, a.ID, moments(moment(&kept, 1), moment(&kept, 2)))
		dbtest.ExpectError(t, err, http.StatusBadRequest, fmt.Sprintf(agc.MsgDuplicateIDFmt, "activation.moments.1", kept))

		// The kept moment loses min_actions (a replacement: nil clears it).
		dbtest.NoError(t, f.svc.ReplaceLifecycle(f.admin, a.ID, moments(moment(nil, 1), moment(&kept, 2))))
		got, err := f.svc.Get(f.admin, a.ID)
		dbtest.NoError(t, err)
		ms := got.Edges.ActivationConfig.Edges.ActivationMoments
		if len(ms) != 2 || ms[0].ID == kept || ms[1].ID != kept || ms[1].MinActions != nil || ms[1].Priority != 2 {
			t.Fatalf("moments = %+v", ms)
		}
		if maps.Equal(got.ConfigHashes, a.ConfigHashes) {
			t.Fatal("config hashes were not recomputed")
		}

		// An empty array deletes every level; the other pillars are untouched.
		dbtest.NoError(t, f.svc.ReplaceLifecycle(f.admin, a.ID, agc.LifecycleInput{
			Engagement: &agc.EngagementInput{Levels: &[]agc.LevelInput{}}}))
		got, err = f.svc.Get(f.admin, a.ID)
		dbtest.NoError(t, err)
		if n := len(got.Edges.EngagementConfig.Edges.EngagementLevels); n != 0 {
			t.Fatalf("levels = %d, want 0", n)
		}
		if n := len(got.Edges.ResurrectionConfig.Edges.ResurrectionThresholds); n != 1 {
			t.Fatalf("thresholds = %d, want 1", n)
		}
	})
}

// TestStatusMoves: draft -> active -> paused -> active; the moves that the
// state does not allow answer 409.
func TestStatusMoves(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := setup(t, db)
		a, err := f.svc.Create(f.admin, f.input("Retail"))
		dbtest.NoError(t, err)
		_, err = f.svc.Pause(f.admin, a.ID)
		dbtest.ExpectError(t, err, http.StatusConflict, fmt.Sprintf(agc.MsgPauseNotActiveFmt, a.ID, "draft"))
		for _, step := range []struct {
			move func(context.Context, uuid.UUID) (*agc.AGC, error)
			want activitygenerationconfig.Status
		}{{f.svc.Publish, activitygenerationconfig.StatusActive}, {f.svc.Pause, activitygenerationconfig.StatusPaused},
			{f.svc.Publish, activitygenerationconfig.StatusActive}} {
			got, err := step.move(f.admin, a.ID)
			dbtest.NoError(t, err)
			if got.Status != step.want {
				t.Fatalf("status = %s, want %s", got.Status, step.want)
			}
		}
		_, err = f.svc.Publish(f.admin, a.ID)
		dbtest.ExpectError(t, err, http.StatusConflict, fmt.Sprintf(agc.MsgAlreadyActiveFmt, a.ID))
	})
}

// TestTenancy: another tenant's or another project's AGC is not found, a
// caller without the permission is refused, a deleted AGC is gone.
func TestTenancy(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		f := setup(t, db)
		a, err := f.svc.Create(f.admin, f.input("Retail"))
		dbtest.NoError(t, err)
		notFound := fmt.Sprintf(agc.MsgNotFoundFmt, a.ID)

		beta := db.Tenant(t, "Beta").Admin()
		_, err = f.svc.Get(beta, a.ID)
		dbtest.ExpectError(t, err, http.StatusNotFound, notFound)
		_, err = f.svc.Update(beta, a.ID, agc.UpdateInput{Name: patch.Of("Mine")})
		dbtest.ExpectError(t, err, http.StatusNotFound, notFound)
		dbtest.ExpectError(t, f.svc.Delete(beta, a.ID), http.StatusNotFound, notFound)

		otherProject := db.Project(t, f.acme, "Second")
		_, err = f.svc.Get(f.acme.InProject(otherProject, auth.PermAGCView), a.ID)
		dbtest.ExpectError(t, err, http.StatusNotFound, notFound)

		// The permission is the matrix line's, applied on entering it.
		_, err = tenancy.Enter(f.acme.As(auth.PermAGCCreate), "GET /activity-generation-configs/{id}")
		dbtest.ExpectError(t, err, http.StatusForbidden, "Required permissions: "+auth.PermAGCView)
		if _, err := f.svc.Get(f.acme.As(auth.PermAGCView), a.ID); err != nil {
			t.Fatalf("get with exactly %s: %v", auth.PermAGCView, err)
		}

		dbtest.NoError(t, f.svc.Delete(f.admin, a.ID))
		_, err = f.svc.Get(f.admin, a.ID)
		dbtest.ExpectError(t, err, http.StatusNotFound, notFound)
		if n := db.Client.TrashRecord.Query().CountX(f.admin); n != 1 {
			t.Fatalf("trash records = %d, want 1", n)
		}
	})
}
