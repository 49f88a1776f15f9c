package uplift_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activityresult"
	tr "github.com/reten-io/reten/ent/commercelifecycletransition"
	gd "github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/ent/generationrule"
	"github.com/reten-io/reten/ent/retentionstatusconfig"
	"github.com/reten-io/reten/internal/agc"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/dbtest"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/resulttype"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/testpg"
	"github.com/reten-io/reten/internal/uplift"
	"github.com/reten-io/reten/internal/viewer"
)

// now is the instant every report of the tests is computed at.
var now = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

// day is an instant of April 2026.
func day(d, hour int) time.Time { return time.Date(2026, 4, d, hour, 0, 0, 0, time.UTC) }

// fix is tenant Acme with an AGC (engagement levels low, min 1, and high,
// min 5; every pillar reading the dataset's visits), its rules R1 (TASK,
// SALESMAN) and R2 (MESSAGE, WHATSAPP), a second AGC whose engagement
// source the catalog lacks, and the services.
type fix struct {
	db        *dbtest.DB
	acme      dbtest.Tenant
	admin     context.Context
	sys       context.Context
	agcs      *agc.Service
	datasets  *dataset.Service
	svc       *uplift.Service
	agc, agc2 uuid.UUID
	r1, r2    uuid.UUID
	other     uuid.UUID // a rule of agc2
	commerces map[string]uuid.UUID
	decisions map[string]uuid.UUID // by name
	acts      map[string]uuid.UUID // the activities of the GENERATED decisions, by name
	url       string               // the service database's, for the dataset guard
	// dropVisits drops the hosted dataset's table behind its catalog's back.
	dropVisits func(t *testing.T)
}

func newFix(t *testing.T, db *dbtest.DB) *fix {
	t.Helper()
	f := &fix{db: db, acme: db.Tenant(t, "Acme"), sys: viewer.SystemContext(context.Background()),
		commerces: map[string]uuid.UUID{}, decisions: map[string]uuid.UUID{}, acts: map[string]uuid.UUID{}}
	f.admin = f.acme.Admin()
	f.url = "sqlite://" + filepath.Join(t.TempDir(), "reten.db")
	if db.Kind == "postgres" {
		f.url = testpg.URL()
	}
	var err error
	f.datasets, err = dataset.NewService(db.Client, make([]byte, 32), dataset.Host{DB: db.SQL, URL: f.url})
	dbtest.NoError(t, err)
	t.Cleanup(func() { _ = f.datasets.Close() })
	f.agcs = agc.NewService(db.Client, nil)
	f.svc = uplift.NewService(db.Client, f.agcs, f.datasets, resulttype.NewService(db.Client))
	f.svc.SetClock(func() time.Time { return now })
	f.agc = f.createAGC(t, f.acme, f.admin, "Retail", "visits")
	f.agc2 = f.createAGC(t, f.acme, f.admin, "Other", "orders")
	f.r1 = f.rule(t, f.acme, f.admin, f.agc, "R1", generationrule.TypeTASK, generationrule.ChannelSALESMAN)
	f.r2 = f.rule(t, f.acme, f.admin, f.agc, "R2", generationrule.TypeMESSAGE, generationrule.ChannelWHATSAPP)
	f.other = f.rule(t, f.acme, f.admin, f.agc2, "R1", generationrule.TypeTASK, generationrule.ChannelSALESMAN)
	return f
}

// createAGC creates an AGC of tn whose pillars read source (its statuses
// created the first time).
func (f *fix) createAGC(t *testing.T, tn dbtest.Tenant, ctx context.Context, name, source string) uuid.UUID {
	t.Helper()
	c := f.db.Client
	ids := map[string]uuid.UUID{}
	for code, stage := range map[string]string{"new": "ACTIVATION", "low": "ENGAGEMENT", "high": "ENGAGEMENT", "lost": "RESURRECTION"} {
		s, err := c.RetentionStatusConfig.Query().Where(retentionstatusconfig.TenantID(tn.TenantID), retentionstatusconfig.Code(code)).Only(ctx)
		if ent.IsNotFound(err) {
			s, err = c.RetentionStatusConfig.Create().SetTenantID(tn.TenantID).SetCode(code).SetLabel(code).
				SetStage(retentionstatusconfig.Stage(stage)).Save(ctx)
		}
		dbtest.NoError(t, err)
		ids[code] = s.ID
	}
	pillar := func(n string) agc.PillarFields {
		return agc.PillarFields{Name: new(n), SourceTable: new(source), DateColumn: new("visited_at")}
	}
	a, err := f.agcs.Create(ctx, agc.CreateInput{
		Name: name,
		Activation: &agc.ActivationInput{PillarFields: pillar("A"), AggregationMethod: new("count"),
			Moments: &[]agc.MomentInput{{StatusCode: "new", UserRetentionStatusConfigID: ids["new"], MinActions: new(0), Priority: 1}}},
		Engagement: &agc.EngagementInput{PillarFields: pillar("E"), EngagementWindowDays: new(30),
			MinLifetimeActionsForEngaged: new(1), CountingMethod: new("count"),
			Levels: &[]agc.LevelInput{
				// The higher band first in order: "higher" reads the thresholds.
				{StatusCode: "high", UserRetentionStatusConfigID: ids["high"], Label: "High", MinThreshold: 5, Order: 1},
				{StatusCode: "low", UserRetentionStatusConfigID: ids["low"], Label: "Low", MinThreshold: 1, MaxThreshold: new(4), Order: 2},
			}},
		Resurrection: &agc.ResurrectionInput{PillarFields: pillar("R"),
			Thresholds: &[]agc.ThresholdInput{{StatusCode: "lost", UserRetentionStatusConfigID: ids["lost"], Label: "Lost", ThresholdDays: 60, Order: 1}}},
	})
	dbtest.NoError(t, err)
	return a.ID
}

func (f *fix) rule(t *testing.T, tn dbtest.Tenant, ctx context.Context, agcID uuid.UUID, name string, typ generationrule.Type,
	channel generationrule.Channel) uuid.UUID {
	t.Helper()
	c := f.db.Client.GenerationRule.Create().SetTenantID(tn.TenantID).SetProjectID(tn.ProjectID).SetActivityGenerationConfigID(agcID).
		SetName(name).SetTrigger(generationrule.TriggerENTER).SetStage(generationrule.StageACTIVATION).SetStatusCode("new").
		SetType(typ).SetChannel(channel).SetReasonCode("reactivation").SetTitleTemplate("Visitar {{.commerce.name}}")
	if typ == generationrule.TypeTASK {
		c.SetAssignment(generationrule.AssignmentROUTE_LEAD)
	} else {
		c.SetTargetRole(generationrule.TargetRoleOWNER)
	}
	return c.SaveX(ctx).ID
}

// commerce creates commerce name of tn with external id ext ("" for none).
func (f *fix) commerce(tn dbtest.Tenant, ctx context.Context, name, ext string) uuid.UUID {
	c := f.db.Client.Commerce.Create().SetTenantID(tn.TenantID).SetName(name)
	if ext != "" {
		c.SetExternalID(ext)
	}
	id := c.SaveX(ctx).ID
	f.commerces[name] = id
	return id
}

// decision is a decision to write.
type decision struct {
	name     string
	tn       dbtest.Tenant
	agc      uuid.UUID
	rule     uuid.UUID
	commerce uuid.UUID
	kind     gd.Kind
	reason   gd.Reason
	stage    string
	code     string
	at       time.Time
}

// decide writes d (with its activity when GENERATED), as the generator
// would have.
func (f *fix) decide(ctx context.Context, d decision) {
	c := f.db.Client
	create := c.GenerationDecision.Create().SetTenantID(d.tn.TenantID).SetProjectID(d.tn.ProjectID).SetActivityGenerationConfigID(d.agc).
		SetRuleID(d.rule).SetCommerceID(d.commerce).SetTrigger(gd.TriggerENTER).SetStage(gd.Stage(d.stage)).SetStatusCode(d.code).
		SetEnteredAt(d.at.Add(-time.Hour)).SetKind(d.kind).SetDetail(d.name).SetDecidedAt(d.at)
	if d.reason != "" {
		create.SetReason(d.reason)
	}
	if d.kind == gd.KindGENERATED {
		a := c.Activity.Create().SetTenantID(d.tn.TenantID).SetProjectID(d.tn.ProjectID).SetCommerceID(d.commerce).
			SetActivityGenerationConfigID(d.agc).SetType(activity.TypeTASK).SetChannel(activity.ChannelSALESMAN).
			SetScheduledAt(d.at).SaveX(ctx)
		create.SetActivityID(a.ID)
		f.acts[d.name] = a.ID
	}
	f.decisions[d.name] = create.SaveX(ctx).ID
}

// transition writes a change of the commerce's state under agcID at at.
func (f *fix) transition(tn dbtest.Tenant, agcID, commerce uuid.UUID, stage, code string, at time.Time) {
	f.db.Client.CommerceLifecycleTransition.Create().SetTenantID(tn.TenantID).SetCommerceID(commerce).SetActivityGenerationConfigID(agcID).
		SetToStage(tr.ToStage(stage)).SetToCode(code).SetStateChangedAt(at).SetLastComputedAt(at).SetSource(tr.SourceAPI).ExecX(f.sys)
}

// result records the result of a decision's activity.
func (f *fix) result(tn dbtest.Tenant, ctx context.Context, name, code string, at time.Time) {
	f.db.Client.ActivityResult.Create().SetTenantID(tn.TenantID).SetProjectID(tn.ProjectID).SetActivityID(f.acts[name]).
		SetSource(activityresult.SourceRETEN_ACTIVITY).SetResultStatus(activityresult.ResultStatusCOMPLETED).
		SetOccurredAt(at).SetResultCode(code).ExecX(ctx)
}

// visit is a row of the dataset's visits table.
type visit struct {
	commerce string
	at       time.Time
}

// hostDataset makes a dataset of its own holding visits (a SQLite file, or
// a schema of the PostgreSQL database) the tenant's hosted dataset, with
// a catalog of that one table.
func (f *fix) hostDataset(t *testing.T, tn dbtest.Tenant, visits []visit) {
	t.Helper()
	var (
		h   dataset.Hosted
		dst *sql.DB
		ts  func(time.Time) any
		typ = "TEXT"
	)
	if f.db.Kind == "postgres" {
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		h.Schema, dst, typ = "uplift_ds_"+hex.EncodeToString(b), f.db.SQL, "timestamptz"
		t.Cleanup(func() {
			_, _ = f.db.SQL.Exec(`DROP SCHEMA IF EXISTS "` + h.Schema + `" CASCADE`)
			if err := dataset.DropReader(context.Background(), f.db.SQL, tn.TenantID); err != nil {
				t.Errorf("drop the reader role: %v", err)
			}
		})
		if _, err := dst.Exec(`CREATE SCHEMA "` + h.Schema + `"`); err != nil {
			t.Fatal(err)
		}
		ts = func(v time.Time) any { return v }
	} else {
		h.File = filepath.Join(t.TempDir(), "dataset.db")
		var err error
		if dst, err = sql.Open("sqlite", "file:"+h.File); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = dst.Close() })
		ts = func(v time.Time) any { return v.UTC().Format("2006-01-02T15:04:05.000Z") }
	}
	table := `"visits"`
	mark := "?"
	if h.Schema != "" {
		table, mark = `"`+h.Schema+`"."visits"`, "$"
	}
	if _, err := dst.Exec("CREATE TABLE " + table + " (commerce_id TEXT, visited_at " + typ + ")"); err != nil {
		t.Fatal(err)
	}
	for _, v := range visits {
		q := "INSERT INTO " + table + " VALUES (?, ?)"
		if mark == "$" {
			q = "INSERT INTO " + table + " VALUES ($1, $2)"
		}
		if _, err := dst.Exec(q, v.commerce, ts(v.at)); err != nil {
			t.Fatal(err)
		}
	}
	f.dropVisits = func(t *testing.T) {
		t.Helper()
		if _, err := dst.Exec("DROP TABLE " + table); err != nil {
			t.Fatal(err)
		}
	}
	ctx, err := tenancy.EnterAsSuperAdmin(context.Background(), uuid.New(), tn.TenantID, uuid.Nil, "PUT /tenant-dataset/catalog")
	dbtest.NoError(t, err)
	dbtest.NoError(t, f.datasets.Host(ctx, tn.TenantID, h))
	_, err = f.datasets.SetCatalog(ctx, qb.Catalog{Tables: []qb.Table{{Name: "visits", Purpose: qb.PurposeEvents, Columns: []qb.Column{
		{Name: "commerce_id", Type: qb.TypeString, IsIdentity: true}, {Name: "visited_at", Type: qb.TypeTimestamp}}}}})
	dbtest.NoError(t, err)
}
