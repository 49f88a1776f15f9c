package app

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/lifecyclerun"
	"github.com/reten-io/reten/ent/user"
	"github.com/reten-io/reten/internal/agc"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/catalog"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/commerce"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/demo"
	"github.com/reten-io/reten/internal/engine"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/viewer"
)

// The demo's lifecycle: the AGC `reten demo` creates and what it reads.
const (
	DemoAGCName       = "Ciclo de vida"
	demoAGCSource     = demo.TableTransactions
	demoAGCColumn     = "transaction_id"
	demoAGCDateColumn = "transacted_at"
	// demoIdentity and demoName are the columns of the demo's commerces
	// table the platform commerces are made of.
	demoIdentity = "commerce_id"
	demoName     = "name"
)

// momentLabels label the retention status configs of the lifecycle
// defaults' activation moments, which carry no label (levels and thresholds
// do); a code missing here is its own label.
var momentLabels = map[string]string{"activated": "Activado", "new": "Nuevo"}

// DemoResult is what `reten demo` prints: the demo tenant and dataset, and
// the AGC to run (`reten engine run --tenant <tenantId> --agc
// <activityGenerationConfigId>`). The AGC already has a history when the
// demo returns: DemoHistoryWeeks weekly runs, their transitions, decisions
// and activities (see Demo).
type DemoResult struct {
	*dataset.DemoResult
	ActivityGenerationConfigID string `json:"activityGenerationConfigId"`
}

// DemoHistoryWeeks is how many weekly runs the demo replays: one a week,
// from DemoHistoryWeeks weeks before the demo's reference time to one week
// before it.
const DemoHistoryWeeks = 12

// Demo creates, idempotently, the demo tenant and its dataset
// (dataset.Service.Demo), then, as its super_admin would through the API:
// four salesmen on two routes, one platform commerce per row of the
// dataset's commerces table (external id its commerce_id, through the
// commerce batch upsert, with its route and its owner's WhatsApp), the
// retention status configs of the lifecycle defaults that the tenant
// lacks, the active AGC DemoAGCName in the main project with the defaults'
// pillars on the transactions table, and its generation rules (a visit
// when a commerce becomes at_risk, a WhatsApp message when it becomes new)
// with a 20% holdout group.
//
// Then, when the AGC has no lifecycle run yet, it replays the past so that
// a console has a history to show: DemoHistoryWeeks runs of the AGC, one a
// week, oldest first, at the demo's reference time (in.Options.Now, the
// instant the data is generated up to; now when zero or later, truncated to
// the second) minus DemoHistoryWeeks weeks, ..., minus one week. Each is a
// run as RunEngine makes it, whose transitions are generated with that
// instant as now: the transitions, decisions and activities (their
// creation, schedule and expiry) are dated at the run's instant, as if the
// service had run every week. The decisions older than the uplift report's
// window (30 days by default) are measured there: treated against the
// holdout. The runs themselves are created, started and finished now.
// Running Demo again creates nothing twice (the AGC has runs: no replay).
func (a *App) Demo(ctx context.Context, in dataset.DemoInput) (*DemoResult, error) {
	ds, err := a.Dataset.Demo(ctx, in)
	if err != nil {
		return nil, err
	}
	tid, pid := uuid.MustParse(ds.TenantID), uuid.MustParse(ds.ProjectID)
	u, err := a.DB.Client.User.Query().Where(user.EmailKey(dataset.DemoEmail)).Only(viewer.SystemContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("demo user: %w", err)
	}
	as := func(projectID uuid.UUID, line string) (context.Context, error) {
		return tenancy.EnterAsSuperAdmin(ctx, u.ID, tid, projectID, line)
	}
	if err := a.demoFieldOrg(as); err != nil {
		return nil, fmt.Errorf("demo: field organisation: %w", err)
	}
	if err := a.demoCommerces(as); err != nil {
		return nil, fmt.Errorf("demo: commerces: %w", err)
	}
	statuses, err := a.demoStatuses(as)
	if err != nil {
		return nil, fmt.Errorf("demo: retention status configs: %w", err)
	}
	id, err := a.demoAGC(as, pid, statuses)
	if err != nil {
		return nil, fmt.Errorf("demo: activity generation config: %w", err)
	}
	if err := a.demoGeneration(as, pid, id); err != nil {
		return nil, fmt.Errorf("demo: activity generation: %w", err)
	}
	if err := a.demoHistory(ctx, tid, id, demoReference(in.Options.Now)); err != nil {
		return nil, fmt.Errorf("demo: history: %w", err)
	}
	return &DemoResult{DemoResult: ds, ActivityGenerationConfigID: id.String()}, nil
}

// enterFn admits the demo's super_admin to a line, in a project or not.
type enterFn func(projectID uuid.UUID, line string) (context.Context, error)

// demoCommerces upserts one commerce per row of the dataset's commerces
// table, in batches of the batch upsert's size: unchanged ones are not
// written.
func (a *App) demoCommerces(as enterFn) error {
	ctx, err := as(uuid.Nil, "POST /integration/commerces/batch-upsert")
	if err != nil {
		return err
	}
	db, _, qualifier, err := a.Dataset.Open(ctx)
	if err != nil {
		return err
	}
	table := pq.QuoteIdentifier(demo.TableCommerces)
	if qualifier != "" {
		table = pq.QuoteIdentifier(qualifier) + "." + table
	}
	rows, err := db.QueryContext(ctx, "SELECT "+pq.QuoteIdentifier(demoIdentity)+", "+pq.QuoteIdentifier(demoName)+
		" FROM "+table+" ORDER BY 1")
	if err != nil {
		return err
	}
	defer rows.Close()
	batch := make([]commerce.BatchItem, 0, commerce.MaxBatchItems)
	n := 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		res, err := a.Commerces.BatchUpsert(ctx, batch)
		if err == nil && len(res.Errors) > 0 {
			e := res.Errors[0]
			err = fmt.Errorf("%s: %s", batch[e.Index].ExternalID, strings.Join(e.Messages, "; "))
		}
		batch = batch[:0]
		return err
	}
	for rows.Next() {
		var id, name sql.NullString
		if err := rows.Scan(&id, &name); err != nil {
			return err
		}
		if !id.Valid || strings.TrimSpace(id.String) == "" {
			continue
		}
		if strings.TrimSpace(name.String) == "" {
			name.String = id.String
		}
		item := commerce.BatchItem{ExternalID: id.String, Name: name.String}
		demoCommerceExtras(&item, n)
		n++
		batch = append(batch, item)
		if len(batch) == commerce.MaxBatchItems {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return flush()
}

// demoStatuses creates the retention status configs of the lifecycle
// defaults the tenant lacks (a code it has is kept as it is) and returns
// the id of each code.
func (a *App) demoStatuses(as enterFn) (map[string]uuid.UUID, error) {
	ctx, err := as(uuid.Nil, "GET /lifecycle-defaults")
	if err != nil {
		return nil, err
	}
	d, err := a.AGCs.LifecycleDefaults(ctx)
	if err != nil {
		return nil, err
	}
	if ctx, err = as(uuid.Nil, "POST /retention-status-configs"); err != nil {
		return nil, err
	}
	have, err := a.Catalog.ListStatuses(ctx, catalog.StatusFilter{})
	if err != nil {
		return nil, err
	}
	ids := map[string]uuid.UUID{}
	for _, st := range have {
		ids[st.Code] = st.ID
	}
	for _, in := range defaultStatuses(d) {
		if _, ok := ids[in.Code]; ok {
			continue
		}
		st, err := a.Catalog.CreateStatus(ctx, in)
		if err != nil {
			return nil, err
		}
		ids[st.Code] = st.ID
	}
	return ids, nil
}

// defaultStatuses are the retention status configs the lifecycle defaults
// name: every code with its pillar's stage and its label.
func defaultStatuses(d agc.Defaults) []catalog.StatusInput {
	var out []catalog.StatusInput
	for _, m := range d.Activation.Moments {
		label, ok := momentLabels[m.StatusCode]
		if !ok {
			label = m.StatusCode
		}
		out = append(out, catalog.StatusInput{Code: m.StatusCode, Label: label, Stage: "ACTIVATION"})
	}
	for _, l := range d.Engagement.Levels {
		out = append(out, catalog.StatusInput{Code: l.StatusCode, Label: l.Label, Stage: "ENGAGEMENT"})
	}
	for _, t := range d.Resurrection.Thresholds {
		out = append(out, catalog.StatusInput{Code: t.StatusCode, Label: t.Label, Stage: "RESURRECTION"})
	}
	return out
}

// demoAGC returns the project's AGC DemoAGCName, created from the lifecycle
// defaults when missing and published when not active.
func (a *App) demoAGC(as enterFn, projectID uuid.UUID, statuses map[string]uuid.UUID) (uuid.UUID, error) {
	ctx, err := as(projectID, "POST /activity-generation-configs")
	if err != nil {
		return uuid.Nil, err
	}
	all, err := a.AGCs.List(ctx)
	if err != nil {
		return uuid.Nil, err
	}
	var g *agc.AGC
	for _, x := range all {
		if x.Name == DemoAGCName {
			g = x
		}
	}
	if g == nil {
		d, err := a.AGCs.LifecycleDefaults(ctx)
		if err != nil {
			return uuid.Nil, err
		}
		if g, err = a.AGCs.Create(ctx, demoAGCInput(d, statuses)); err != nil {
			return uuid.Nil, err
		}
	}
	if g.Status != activitygenerationconfig.StatusActive {
		if ctx, err = as(projectID, "POST /activity-generation-configs/{id}/publish"); err != nil {
			return uuid.Nil, err
		}
		if _, err := a.AGCs.Publish(ctx, g.ID); err != nil {
			return uuid.Nil, err
		}
	}
	return g.ID, nil
}

// demoAGCInput is the create body of the demo's AGC: the lifecycle defaults,
// every pillar reading the demo's transactions.
func demoAGCInput(d agc.Defaults, statuses map[string]uuid.UUID) agc.CreateInput {
	source := func(name string) agc.PillarFields {
		table, date := demoAGCSource, demoAGCDateColumn
		return agc.PillarFields{Name: &name, SourceTable: &table, SourceColumns: &[]string{demoAGCColumn}, DateColumn: &date}
	}
	moments := []agc.MomentInput{}
	for _, m := range d.Activation.Moments {
		moments = append(moments, agc.MomentInput{StatusCode: m.StatusCode, UserRetentionStatusConfigID: statuses[m.StatusCode],
			MinActions: m.MinActions, WindowDays: m.WindowDays, TimeWindow: m.TimeWindow, Priority: m.Priority})
	}
	levels := []agc.LevelInput{}
	for _, l := range d.Engagement.Levels {
		levels = append(levels, agc.LevelInput{StatusCode: l.StatusCode, UserRetentionStatusConfigID: statuses[l.StatusCode],
			Label: l.Label, MinThreshold: l.MinThreshold, MaxThreshold: l.MaxThreshold, Order: l.Order})
	}
	thresholds := []agc.ThresholdInput{}
	for _, t := range d.Resurrection.Thresholds {
		thresholds = append(thresholds, agc.ThresholdInput{StatusCode: t.StatusCode, UserRetentionStatusConfigID: statuses[t.StatusCode],
			Label: t.Label, ThresholdDays: t.ThresholdDays, Order: t.Order})
	}
	e := d.Engagement
	description := "The lifecycle defaults (GET /api/lifecycle-defaults) on the demo's transactions."
	return agc.CreateInput{Name: DemoAGCName, Description: &description,
		Activation: &agc.ActivationInput{PillarFields: source(d.Activation.Name),
			AggregationMethod: &d.Activation.AggregationMethod, Moments: &moments},
		Engagement: &agc.EngagementInput{PillarFields: source(e.Name), EngagementWindowDays: &e.EngagementWindowDays,
			MinLifetimeActionsForEngaged: &e.MinLifetimeActionsForEngaged, CountingMethod: &e.CountingMethod, Levels: &levels},
		Resurrection: &agc.ResurrectionInput{PillarFields: source(d.Resurrection.Name), Thresholds: &thresholds},
	}
}

// demoReference is the instant the demo's history ends at: the data's
// reference time, now when zero or later (runs are never in the future),
// truncated to the second.
func demoReference(dataNow time.Time) time.Time {
	now := clock.Now()
	if dataNow.IsZero() || dataNow.After(now) {
		dataNow = now
	}
	return dataNow.UTC().Truncate(time.Second)
}

// demoHistory replays DemoHistoryWeeks weekly runs of AGC agcID ending one
// week before ref, oldest first, each generated at its own instant (see
// Demo); an AGC that has any run already is left as it is.
func (a *App) demoHistory(ctx context.Context, tenantID, agcID uuid.UUID, ref time.Time) error {
	ran, err := a.DB.Client.LifecycleRun.Query().Where(lifecyclerun.TenantID(tenantID),
		lifecyclerun.ActivityGenerationConfigID(agcID)).Exist(viewer.SystemContext(ctx))
	if err != nil || ran {
		return err
	}
	// The outbox is shared by every tenant: what is already queued is
	// generated now, as RunEngine would, so that only the replay's own
	// transitions are generated at a past instant.
	if _, err := a.Generator.Drain(ctx, func() time.Time { return clock.Now().UTC() }); err != nil {
		return fmt.Errorf("activity generation: %w", err)
	}
	for w := DemoHistoryWeeks; w >= 1; w-- {
		asOf := ref.AddDate(0, 0, -7*w)
		run, err := a.runEngine(ctx, tenantID, agcID, engine.StartInput{AsOf: asOf.Format(time.RFC3339Nano)},
			func() time.Time { return asOf })
		if err != nil {
			return fmt.Errorf("run as of %s: %w", asOf.Format(time.RFC3339), err)
		}
		if run.Status != lifecyclerun.StatusSUCCEEDED {
			msg := ""
			if run.Error != nil {
				msg = *run.Error
			}
			return fmt.Errorf("run %s as of %s %s: %s", run.ID, asOf.Format(time.RFC3339), run.Status, msg)
		}
	}
	return nil
}

// RunEngine runs AGC agcID of tenant tenantID at once in this process
// (`reten engine run`), as a super_admin of the AGC's project starting it
// through POST .../lifecycle-runs would, and returns the finished run
// (SUCCEEDED or FAILED). An AGC that is not the tenant's is a 404.
func (a *App) RunEngine(ctx context.Context, tenantID, agcID uuid.UUID, in engine.StartInput) (*ent.LifecycleRun, error) {
	return a.runEngine(ctx, tenantID, agcID, in, func() time.Time { return clock.Now().UTC() })
}

// runEngine is RunEngine generating the run's transitions (and whatever
// else the outbox holds) at now: the instant their decisions are decided
// and their activities created.
func (a *App) runEngine(ctx context.Context, tenantID, agcID uuid.UUID, in engine.StartInput, now func() time.Time) (*ent.LifecycleRun, error) {
	g, err := a.DB.Client.ActivityGenerationConfig.Query().
		Where(activitygenerationconfig.ID(agcID), activitygenerationconfig.TenantID(tenantID)).Only(viewer.SystemContext(ctx))
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound(fmt.Sprintf(agc.MsgNotFoundFmt+" in tenant %s", agcID, tenantID))
	}
	if err != nil {
		return nil, err
	}
	if ctx, err = tenancy.EnterAsSuperAdmin(ctx, uuid.Nil, tenantID, g.ProjectID, "POST /activity-generation-configs/{id}/lifecycle-runs"); err != nil {
		return nil, err
	}
	run, err := a.Runs.RunNow(ctx, agcID, in)
	if err != nil {
		return nil, err
	}
	// The run's transitions become activities before the command returns.
	if _, err := a.Generator.Drain(ctx, now); err != nil {
		return run, fmt.Errorf("activity generation: %w", err)
	}
	return run, nil
}
