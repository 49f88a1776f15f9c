package generator

import (
	"context"
	"fmt"
	"slices"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/commerce"
	snap "github.com/reten-io/reten/ent/commercelifecyclesnapshot"
	tr "github.com/reten-io/reten/ent/commercelifecycletransition"
	gd "github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/ent/generationpolicy"
	"github.com/reten-io/reten/ent/generationrule"
	"github.com/reten-io/reten/ent/generationsettings"
	"github.com/reten-io/reten/ent/tenant"
	"github.com/reten-io/reten/internal/cutoff"
	"github.com/reten-io/reten/internal/viewer"
)

// group is a holdout or control group: who is in it is InGroup(salt, id, percent).
type group struct {
	percent int
	salt    string
}

// caps are a project's frequency caps and control group (the policy's
// defaults when the project never read or set it: no control group).
type caps struct {
	maxPerCommerce, windowDays, minGapDays int
	control                                group
}

type ruleCommerce struct{ rule, commerce uuid.UUID }
type stateKey struct{ agc, commerce uuid.UUID }
type entryKey struct {
	agc, commerce uuid.UUID
	at            int64 // the entry's instant, in microseconds
}
type projectCommerce struct{ project, commerce uuid.UUID }
type decisionKey struct {
	rule, commerce uuid.UUID
	enteredAt      time.Time
}

// member is an operator linked to a route.
type member struct {
	operator *ent.Operator
	lead     bool
}

// recipient is a commerce user a message may go to.
type recipient struct {
	user     *ent.CommerceUser
	roles    []string
	contacts map[string]string // active primary contacts by type
}

// world is everything the decisions of one tenant's batch of entries read,
// loaded in a bounded number of statements whatever the batch's size.
type world struct {
	tenant    uuid.UUID
	tz        cutoff.Settings
	now       time.Time
	agcs      map[uuid.UUID]*ent.ActivityGenerationConfig // live, active
	rules     map[uuid.UUID][]*ent.GenerationRule         // ENTER rules by AGC, by (priority, id)
	caps      map[uuid.UUID]caps                          // by project
	holdout   map[uuid.UUID]group                         // by AGC
	states    map[stateKey]*ent.CommerceLifecycleSnapshot
	metrics   map[entryKey]map[string]string // the engine's metrics of each entry (its transition's)
	commerces map[uuid.UUID]*ent.Commerce    // live (locked while deciding)
	decided   map[decisionKey]bool
	generated map[projectCommerce][]generated // GENERATED decisions of the lookback, oldest first
	open      map[ruleCommerce]bool           // a rule's activity for the commerce is still open
	routes    map[uuid.UUID][]*ent.Route      // live active routes by commerce, by code
	members   map[uuid.UUID][]member          // active links of live active operators by route
	assigned  map[uuid.UUID]time.Time         // an operator's last generated task
	users     map[uuid.UUID][]recipient       // active users by commerce, oldest first
	created   int                             // activities built so far (each created a microsecond after the last)
}

// generated is a GENERATED decision the caps count.
type generated struct {
	at   time.Time
	rule string
}

// openStatuses are the statuses of an activity not finished yet.
var openStatuses = []activity.Status{activity.StatusREADY, activity.StatusUNRESOLVED, activity.StatusDISPATCHED, activity.StatusRETRYING}

// load reads the world of entries, all of one tenant. lock locks the
// entries' commerce rows (in id order, so two replicas never deadlock):
// whoever decides for a commerce holds it, so the caps read here stay true
// until the decisions are written.
func (g *Service) load(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, entries []entry, now time.Time, lock bool) (*world, error) {
	w := &world{tenant: tenantID, now: now, agcs: map[uuid.UUID]*ent.ActivityGenerationConfig{}, rules: map[uuid.UUID][]*ent.GenerationRule{},
		caps: map[uuid.UUID]caps{}, holdout: map[uuid.UUID]group{}, states: map[stateKey]*ent.CommerceLifecycleSnapshot{}, metrics: map[entryKey]map[string]string{},
		commerces: map[uuid.UUID]*ent.Commerce{}, decided: map[decisionKey]bool{}, generated: map[projectCommerce][]generated{},
		open: map[ruleCommerce]bool{}, routes: map[uuid.UUID][]*ent.Route{}, members: map[uuid.UUID][]member{},
		assigned: map[uuid.UUID]time.Time{}, users: map[uuid.UUID][]recipient{}}
	t, err := tx.Tenant.Query().Where(tenant.ID(tenantID)).Select(tenant.FieldTimeZone, tenant.FieldDayCutoff).Only(ctx)
	if err != nil {
		return nil, fmt.Errorf("generation: tenant: %w", err)
	}
	if w.tz, err = cutoff.Parse(t.TimeZone, t.DayCutoff); err != nil {
		return nil, err
	}
	var agcIDs, commerceIDs []uuid.UUID
	for _, e := range entries {
		agcIDs, commerceIDs = append(agcIDs, e.agc), append(commerceIDs, e.commerce)
	}
	agcIDs, commerceIDs = unique(agcIDs), unique(commerceIDs)

	agcs, err := tx.ActivityGenerationConfig.Query().Where(activitygenerationconfig.TenantID(tenantID),
		activitygenerationconfig.IDIn(agcIDs...), activitygenerationconfig.StatusEQ(activitygenerationconfig.StatusActive)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("generation: AGCs: %w", err)
	}
	var projects []uuid.UUID
	for _, a := range agcs {
		w.agcs[a.ID] = a
		projects = append(projects, a.ProjectID)
	}
	rules, err := tx.GenerationRule.Query().Where(generationrule.TenantID(tenantID), generationrule.ActivityGenerationConfigIDIn(agcIDs...),
		generationrule.IsActive(true), generationrule.TriggerEQ(generationrule.TriggerENTER)).
		Order(generationrule.ByPriority(), generationrule.ByID()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("generation: rules: %w", err)
	}
	for _, r := range rules {
		w.rules[r.ActivityGenerationConfigID] = append(w.rules[r.ActivityGenerationConfigID], r)
	}
	policies, err := tx.GenerationPolicy.Query().Where(generationpolicy.TenantID(tenantID), generationpolicy.ProjectIDIn(unique(projects)...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("generation: policies: %w", err)
	}
	for _, p := range unique(projects) {
		w.caps[p] = caps{maxPerCommerce: 3, windowDays: 7, minGapDays: 1} // the policy's defaults
	}
	for _, p := range policies {
		w.caps[p.ProjectID] = caps{maxPerCommerce: p.MaxPerCommerce, windowDays: p.WindowDays, minGapDays: p.MinGapDays,
			control: group{p.ControlPercent, p.ControlSalt}}
	}
	settings, err := tx.GenerationSettings.Query().Where(generationsettings.TenantID(tenantID),
		generationsettings.ActivityGenerationConfigIDIn(agcIDs...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("generation: settings: %w", err)
	}
	for _, s := range settings {
		w.holdout[s.ActivityGenerationConfigID] = group{s.HoldoutPercent, s.HoldoutSalt}
	}

	cq := tx.Commerce.Query().Where(commerce.TenantID(tenantID), commerce.IDIn(commerceIDs...)).Order(commerce.ByID())
	if lock && g.postgres() {
		cq.ForUpdate()
	}
	cs, err := cq.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("generation: commerces: %w", err)
	}
	for _, c := range cs {
		w.commerces[c.ID] = c
	}
	states, err := tx.CommerceLifecycleSnapshot.Query().Where(snap.TenantID(tenantID), snap.CommerceIDIn(commerceIDs...),
		snap.ActivityGenerationConfigIDIn(agcIDs...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("generation: states: %w", err)
	}
	for _, s := range states {
		w.states[stateKey{s.ActivityGenerationConfigID, s.CommerceID}] = s
	}
	if err := w.loadMetrics(ctx, tx, commerceIDs, agcIDs, entries); err != nil {
		return nil, err
	}
	if err := w.loadDecisions(ctx, tx, commerceIDs, entries); err != nil {
		return nil, err
	}
	// What the batch's rules create decides what to resolve.
	var tasks, messages, roundRobin bool
	for _, e := range entries {
		for _, r := range append(slices.Clone(w.rules[e.agc]), e.rule) {
			switch {
			case r == nil:
			case r.Type == generationrule.TypeMESSAGE:
				messages = true
			default:
				tasks = true
				roundRobin = roundRobin || (r.Assignment != nil && *r.Assignment == generationrule.AssignmentROUTE_MEMBERS_ROUND_ROBIN)
			}
		}
	}
	if tasks {
		if err := w.loadRoutes(ctx, tx, commerceIDs, roundRobin); err != nil {
			return nil, err
		}
	}
	if messages {
		if err := w.loadRecipients(ctx, tx, commerceIDs); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// loadDecisions reads, in one statement, the commerces' decisions the
// idempotency key, the caps and the priority need: those on the entries
// (entered since the oldest of them), their GENERATED decisions over the
// longest lookback of the projects' caps (and today), and the GENERATED
// ones whose activity is still open.
func (w *world) loadDecisions(ctx context.Context, tx *ent.Client, commerceIDs []uuid.UUID, entries []entry) error {
	lookback := 1
	for _, c := range w.caps {
		lookback = max(lookback, c.windowDays, c.minGapDays)
	}
	since := w.now.Add(-time.Duration(lookback) * 24 * time.Hour)
	if today := cutoff.StartOf(cutoff.DayOf(w.now, w.tz), w.tz); today.Before(since) {
		since = today
	}
	oldest := entries[0].enteredAt
	for _, e := range entries {
		if e.enteredAt.Before(oldest) {
			oldest = e.enteredAt
		}
	}
	var ds []struct {
		Rule      uuid.UUID `json:"rule_id"`
		Commerce  uuid.UUID `json:"commerce_id"`
		Project   uuid.UUID `json:"project_id"`
		Kind      string    `json:"kind"`
		EnteredAt any       `json:"entered_at"` // a time (PostgreSQL) or its text (SQLite)
		DecidedAt any       `json:"decided_at"`
		Status    *string   `json:"status"`
	}
	err := tx.GenerationDecision.Query().Where(gd.TenantID(w.tenant), gd.CommerceIDIn(commerceIDs...)).Modify(func(s *sql.Selector) {
		a := sql.Table(activity.Table)
		generated := sql.EQ(s.C(gd.FieldKind), gd.KindGENERATED)
		s.LeftJoin(a).On(s.C(gd.FieldActivityID), a.C(activity.FieldID)).
			Where(sql.Or(sql.GTE(s.C(gd.FieldEnteredAt), oldest),
				sql.And(generated, sql.Or(sql.GTE(s.C(gd.FieldDecidedAt), since), sql.In(a.C(activity.FieldStatus), anys(openStatuses)...))))).
			Select(s.C(gd.FieldRuleID), s.C(gd.FieldCommerceID), s.C(gd.FieldProjectID), s.C(gd.FieldKind), s.C(gd.FieldEnteredAt),
				s.C(gd.FieldDecidedAt), sql.As(a.C(activity.FieldStatus), "status")).
			OrderBy(s.C(gd.FieldDecidedAt), s.C(gd.FieldID))
	}).Scan(ctx, &ds)
	if err != nil {
		return fmt.Errorf("generation: decisions of the commerces: %w", err)
	}
	var ruleIDs []uuid.UUID
	for _, d := range ds {
		if d.Kind == string(gd.KindGENERATED) {
			ruleIDs = append(ruleIDs, d.Rule)
		}
	}
	names := map[uuid.UUID]string{}
	if len(ruleIDs) > 0 {
		// Rules in the trash too: the detail names whichever rule created.
		rs, err := tx.GenerationRule.Query().Where(generationrule.IDIn(unique(ruleIDs)...)).
			Select(generationrule.FieldName).All(viewer.WithArchived(ctx))
		if err != nil {
			return fmt.Errorf("generation: rule names: %w", err)
		}
		for _, r := range rs {
			names[r.ID] = r.Name
		}
	}
	for _, d := range ds {
		entered, err := timeOf(d.EnteredAt)
		if err != nil {
			return err
		}
		decided, err := timeOf(d.DecidedAt)
		if err != nil {
			return err
		}
		w.decided[decisionKey{d.Rule, d.Commerce, entered.UTC()}] = true
		if d.Kind != string(gd.KindGENERATED) {
			continue
		}
		if !decided.Before(since) {
			k := projectCommerce{d.Project, d.Commerce}
			w.generated[k] = append(w.generated[k], generated{at: decided, rule: names[d.Rule]})
		}
		if d.Status != nil && slices.Contains(openStatuses, activity.Status(*d.Status)) {
			w.open[ruleCommerce{d.Rule, d.Commerce}] = true
		}
	}
	return nil
}

// loadMetrics reads the engine's metrics of the entries, kept on their
// transitions (none for a state written through the API).
func (w *world) loadMetrics(ctx context.Context, tx *ent.Client, commerceIDs, agcIDs []uuid.UUID, entries []entry) error {
	oldest := entries[0].enteredAt
	for _, e := range entries {
		if e.enteredAt.Before(oldest) {
			oldest = e.enteredAt
		}
	}
	trs, err := tx.CommerceLifecycleTransition.Query().Where(tr.TenantID(w.tenant), tr.CommerceIDIn(commerceIDs...),
		tr.ActivityGenerationConfigIDIn(agcIDs...), tr.StateChangedAtGTE(oldest), tr.MetricsNotNil()).
		Select(tr.FieldCommerceID, tr.FieldActivityGenerationConfigID, tr.FieldStateChangedAt, tr.FieldMetrics).All(ctx)
	if err != nil {
		return fmt.Errorf("generation: metrics: %w", err)
	}
	for _, t := range trs {
		w.metrics[entryKey{t.ActivityGenerationConfigID, t.CommerceID, t.StateChangedAt.UnixMicro()}] = t.Metrics
	}
	return nil
}
