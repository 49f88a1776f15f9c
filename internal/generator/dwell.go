package generator

import (
	"context"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/commerce"
	snap "github.com/reten-io/reten/ent/commercelifecyclesnapshot"
	gd "github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/ent/generationrule"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/jobs"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// EvaluateDwell fires the active DWELL rules of active AGCs: a commerce
// that has stayed in a rule's state dwellDays days, and whose entry into
// it has no decision of the rule yet, is decided like a transition. One
// transaction handles up to Batch entries; the rules it reads are locked
// (SKIP LOCKED), so two replicas never evaluate one rule at once. Every
// worker pass runs it, so a rule fires within a pass of the day the
// commerce reaches dwellDays.
func (g *Service) EvaluateDwell(ctx context.Context, now time.Time) (int, error) {
	ctx, now = viewer.SystemContext(ctx), clock.Stored(now)
	var n int
	err := txn.Run(ctx, g.client, func(ctx context.Context, tx *ent.Client) error {
		rules, err := tx.GenerationRule.Query().Where(generationrule.TriggerEQ(generationrule.TriggerDWELL), generationrule.IsActive(true),
			generationrule.HasActivityGenerationConfigWith(activitygenerationconfig.StatusEQ(activitygenerationconfig.StatusActive),
				activitygenerationconfig.ArchivedAtIsNil()), jobs.SkipLocked).
			Order(generationrule.ByID()).All(ctx)
		if err != nil || len(rules) == 0 {
			return err
		}
		var entries []entry
		for _, r := range rules {
			if len(entries) >= g.Batch || r.DwellDays == nil {
				continue
			}
			states, err := tx.CommerceLifecycleSnapshot.Query().Where(snap.TenantID(r.TenantID), snap.ActivityGenerationConfigID(r.ActivityGenerationConfigID),
				snap.StageEQ(snap.Stage(r.Stage)), snap.Code(r.StatusCode), snap.StateChangedAtLTE(now.Add(-days(*r.DwellDays))),
				snap.HasCommerceWith(commerce.ArchivedAtIsNil()), undecided(r)).
				Order(snap.ByStateChangedAt(), snap.ByID()).Limit(g.Batch - len(entries)).All(ctx)
			if err != nil {
				return err
			}
			for _, s := range states {
				entries = append(entries, entry{tenant: s.TenantID, commerce: s.CommerceID, agc: s.ActivityGenerationConfigID,
					stage: string(s.Stage), code: s.Code, enteredAt: s.StateChangedAt, trigger: generationrule.TriggerDWELL, rule: r})
			}
		}
		n = len(entries)
		if n == 0 {
			return nil
		}
		_, err = g.apply(ctx, tx, entries, now, true)
		return err
	})
	return n, err
}

// undecided keeps the snapshots whose current state entry has no decision
// of rule r.
func undecided(r *ent.GenerationRule) func(*sql.Selector) {
	return func(s *sql.Selector) {
		d := sql.Table(gd.Table)
		s.Where(sql.NotExists(sql.SelectExpr(sql.Raw("1")).From(d).Where(sql.And(
			sql.EQ(d.C(gd.FieldRuleID), r.ID),
			sql.ColumnsEQ(d.C(gd.FieldCommerceID), s.C(snap.FieldCommerceID)),
			sql.ColumnsEQ(d.C(gd.FieldEnteredAt), s.C(snap.FieldStateChangedAt))))))
	}
}
