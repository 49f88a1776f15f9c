package trash

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activationconfig"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/audiencecomposition"
	"github.com/reten-io/reten/ent/commercelifecycletransition"
	"github.com/reten-io/reten/ent/engagementconfig"
	"github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/ent/predicate"
	"github.com/reten-io/reten/ent/queryblock"
	"github.com/reten-io/reten/ent/resurrectionconfig"
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/project"
	"github.com/reten-io/reten/internal/tenancy"
)

// kindOps is how the trash handles the records of one kind.
type kindOps struct {
	// deleteLine is the matrix line (tenancy.Entry.Key) that deletes
	// (archives) such a record; restoring one needs its permission too.
	deleteLine string
	// archive sets archived_at on the live record (and on the rows archived
	// with it), restore clears it again, and purge deletes the archived
	// record for good (children cascade); each returns how many records it
	// changed (0: the record is not in the state the write needs).
	tableOps
}

var kinds = map[trashrecord.Kind]kindOps{
	// The transition history and the generation decisions have no foreign
	// keys (ent/schema TenantLogMixin): a purged commerce's or AGC's
	// transitions and decisions, and a purged rule's decisions, are deleted
	// with it.
	KindCommerce: {"DELETE /commerces/{id}", table[predicate.Commerce](func(c *ent.Client) *ent.CommerceClient { return c.Commerce }).
		purgeThen(func(ctx context.Context, tx *ent.Client, id uuid.UUID) error {
			if _, err := tx.CommerceLifecycleTransition.Delete().Where(commercelifecycletransition.CommerceID(id)).Exec(ctx); err != nil {
				return err
			}
			_, err := tx.GenerationDecision.Delete().Where(generationdecision.CommerceID(id)).Exec(ctx)
			return err
		})},
	KindOperator:   {"DELETE /operators/{id}", table[predicate.Operator](func(c *ent.Client) *ent.OperatorClient { return c.Operator })},
	KindRoute:      {"DELETE /routes/{id}", table[predicate.Route](func(c *ent.Client) *ent.RouteClient { return c.Route })},
	KindSupervisor: {"DELETE /supervisors/{id}", table[predicate.Supervisor](func(c *ent.Client) *ent.SupervisorClient { return c.Supervisor })},
	// An audience's own query blocks and compositions go with it when it is
	// purged; a composition of another audience that uses it as operand
	// blocks the purge.
	KindAudience: {"DELETE /audience-criterias/{id}", table[predicate.Audience](func(c *ent.Client) *ent.AudienceClient { return c.Audience }).
		purgeAfter(func(ctx context.Context, tx *ent.Client, id uuid.UUID) error {
			if _, err := tx.QueryBlock.Delete().Where(queryblock.AudienceID(id)).Exec(ctx); err != nil {
				return err
			}
			_, err := tx.AudienceComposition.Delete().Where(audiencecomposition.AudienceID(id)).Exec(ctx)
			return err
		})},
	KindEventFilter: {"DELETE /event-criterias/{id}", table[predicate.EventFilter](func(c *ent.Client) *ent.EventFilterClient { return c.EventFilter }).
		purgeAfter(func(ctx context.Context, tx *ent.Client, id uuid.UUID) error {
			_, err := tx.QueryBlock.Delete().Where(queryblock.EventFilterID(id)).Exec(ctx)
			return err
		})},
	KindGenerationRule: {"DELETE /generation-rules/{ruleId}", table[predicate.GenerationRule](
		func(c *ent.Client) *ent.GenerationRuleClient { return c.GenerationRule }).
		purgeThen(func(ctx context.Context, tx *ent.Client, id uuid.UUID) error {
			_, err := tx.GenerationDecision.Delete().Where(generationdecision.RuleID(id)).Exec(ctx)
			return err
		})},
	// The three pillars are archived and restored with their AGC; when it is
	// purged they (and their moments, levels, thresholds) cascade.
	KindAGC: {"DELETE /activity-generation-configs/{id}", table[predicate.ActivityGenerationConfig](
		func(c *ent.Client) *ent.ActivityGenerationConfigClient { return c.ActivityGenerationConfig }).withRows(agcRows).
		purgeThen(func(ctx context.Context, tx *ent.Client, id uuid.UUID) error {
			if _, err := tx.CommerceLifecycleTransition.Delete().Where(commercelifecycletransition.ActivityGenerationConfigID(id)).Exec(ctx); err != nil {
				return err
			}
			_, err := tx.GenerationDecision.Delete().Where(generationdecision.ActivityGenerationConfigID(id)).Exec(ctx)
			return err
		})},
}

// purgeAfter returns t whose purge first runs first (deleting rows that do
// not cascade).
func (t tableOps) purgeAfter(first func(ctx context.Context, tx *ent.Client, id uuid.UUID) error) tableOps {
	purge := t.purge
	t.purge = func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
		if err := first(ctx, tx, id); err != nil {
			return 0, err
		}
		return purge(ctx, tx, id)
	}
	return t
}

// purgeThen returns t whose purge, once it deleted the record, runs then
// (deleting the rows that name the record without a foreign key).
func (t tableOps) purgeThen(then func(ctx context.Context, tx *ent.Client, id uuid.UUID) error) tableOps {
	purge := t.purge
	t.purge = func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
		n, err := purge(ctx, tx, id)
		if err != nil || n == 0 {
			return n, err
		}
		return n, then(ctx, tx, id)
	}
	return t
}

// withRows returns t whose archive and restore also archive (or restore)
// the rows rows writes, once the record itself changed.
func (t tableOps) withRows(rows func(ctx context.Context, tx *ent.Client, id uuid.UUID, archive bool) error) tableOps {
	also := func(w rowWrite, archive bool) rowWrite {
		return func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
			n, err := w(ctx, tx, id)
			if err != nil || n == 0 {
				return n, err
			}
			return n, rows(ctx, tx, id, archive)
		}
	}
	t.archive, t.restore = also(t.archive, true), also(t.restore, false)
	return t
}

// agcRows archives or restores the pillars of an AGC. A restored AGC
// without an audience of its own falls back on the project's root audience
// again: it locks that audience as every such write does
// (project.LockRootAudience).
func agcRows(ctx context.Context, tx *ent.Client, id uuid.UUID, archive bool) error {
	if !archive {
		a, err := tx.ActivityGenerationConfig.Query().Where(activitygenerationconfig.ID(id)).Only(ctx)
		if err != nil {
			return fmt.Errorf("trash: restored AGC %s: %w", id, err)
		}
		if a.AudienceID == nil {
			if err := project.LockRootAudience(ctx, tx, a.TenantID, a.ProjectID, false); err != nil {
				return err
			}
		}
	}
	return agcPillars(ctx, tx, id, archive)
}

// agcPillars sets (archive) or clears archived_at on the three pillars of
// an AGC.
func agcPillars(ctx context.Context, tx *ent.Client, id uuid.UUID, archive bool) error {
	a := tx.ActivationConfig.Update().Where(activationconfig.ActivityGenerationConfigID(id))
	e := tx.EngagementConfig.Update().Where(engagementconfig.ActivityGenerationConfigID(id))
	r := tx.ResurrectionConfig.Update().Where(resurrectionconfig.ActivityGenerationConfigID(id))
	if archive {
		now := clock.Now()
		a.SetArchivedAt(now)
		e.SetArchivedAt(now)
		r.SetArchivedAt(now)
	} else {
		a.ClearArchivedAt()
		e.ClearArchivedAt()
		r.ClearArchivedAt()
	}
	for _, exec := range []func(context.Context) error{a.Exec, e.Exec, r.Exec} {
		if err := exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func opsOf(k trashrecord.Kind) (kindOps, error) {
	ops, ok := kinds[k]
	if !ok {
		return kindOps{}, fmt.Errorf("trash: unknown kind %s", k)
	}
	return ops, nil
}

// DeletePermission returns the permission that deletes (and so restores)
// records of kind k: the permission of its delete line in tenancy.Matrix,
// or "" for an unknown kind.
func DeletePermission(k trashrecord.Kind) string {
	e, _ := tenancy.Lookup(kinds[k].deleteLine)
	return e.Permission
}
