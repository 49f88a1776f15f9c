package trash

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activationconfig"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/audience"
	"github.com/reten-io/reten/ent/audiencecomposition"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/engagementconfig"
	"github.com/reten-io/reten/ent/eventfilter"
	"github.com/reten-io/reten/ent/operator"
	"github.com/reten-io/reten/ent/queryblock"
	"github.com/reten-io/reten/ent/resurrectionconfig"
	"github.com/reten-io/reten/ent/route"
	"github.com/reten-io/reten/ent/supervisor"
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/internal/auth"
)

// kindOps is how the trash handles the records of one kind.
type kindOps struct {
	// deletePermission is the permission that deletes (archives) such a
	// record; restoring one needs it too.
	deletePermission string
	// restore clears archived_at of the record (and of the rows archived with
	// it) and returns how many records it brought back (0: the row is gone).
	restore func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error)
	// purge deletes the record for good (children cascade) and returns how
	// many rows it deleted.
	purge func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error)
}

var kinds = map[trashrecord.Kind]kindOps{
	KindCommerce: {
		deletePermission: auth.PermCommerceDelete,
		restore: func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
			return tx.Commerce.Update().Where(commerce.ID(id), commerce.ArchivedAtNotNil()).ClearArchivedAt().Save(ctx)
		},
		purge: func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
			return tx.Commerce.Delete().Where(commerce.ID(id), commerce.ArchivedAtNotNil()).Exec(ctx)
		},
	},
	KindOperator: {
		deletePermission: auth.PermOperatorDelete,
		restore: func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
			return tx.Operator.Update().Where(operator.ID(id), operator.ArchivedAtNotNil()).ClearArchivedAt().Save(ctx)
		},
		purge: func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
			return tx.Operator.Delete().Where(operator.ID(id), operator.ArchivedAtNotNil()).Exec(ctx)
		},
	},
	KindRoute: {
		deletePermission: auth.PermRouteDelete,
		restore: func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
			return tx.Route.Update().Where(route.ID(id), route.ArchivedAtNotNil()).ClearArchivedAt().Save(ctx)
		},
		purge: func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
			return tx.Route.Delete().Where(route.ID(id), route.ArchivedAtNotNil()).Exec(ctx)
		},
	},
	KindSupervisor: {
		deletePermission: auth.PermSupervisorDelete,
		restore: func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
			return tx.Supervisor.Update().Where(supervisor.ID(id), supervisor.ArchivedAtNotNil()).ClearArchivedAt().Save(ctx)
		},
		purge: func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
			return tx.Supervisor.Delete().Where(supervisor.ID(id), supervisor.ArchivedAtNotNil()).Exec(ctx)
		},
	},
	KindAudience: {
		deletePermission: auth.PermAudienceDelete,
		restore: func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
			return tx.Audience.Update().Where(audience.ID(id), audience.ArchivedAtNotNil()).ClearArchivedAt().Save(ctx)
		},
		purge: func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
			// Its own query blocks and compositions go with it; a composition
			// of another audience that uses it as operand blocks the purge.
			if _, err := tx.QueryBlock.Delete().Where(queryblock.AudienceID(id)).Exec(ctx); err != nil {
				return 0, err
			}
			if _, err := tx.AudienceComposition.Delete().Where(audiencecomposition.AudienceID(id)).Exec(ctx); err != nil {
				return 0, err
			}
			return tx.Audience.Delete().Where(audience.ID(id), audience.ArchivedAtNotNil()).Exec(ctx)
		},
	},
	KindEventFilter: {
		deletePermission: auth.PermEventCriteriaDelete,
		restore: func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
			return tx.EventFilter.Update().Where(eventfilter.ID(id), eventfilter.ArchivedAtNotNil()).ClearArchivedAt().Save(ctx)
		},
		purge: func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
			if _, err := tx.QueryBlock.Delete().Where(queryblock.EventFilterID(id)).Exec(ctx); err != nil {
				return 0, err
			}
			return tx.EventFilter.Delete().Where(eventfilter.ID(id), eventfilter.ArchivedAtNotNil()).Exec(ctx)
		},
	},
	KindAGC: {
		deletePermission: auth.PermAGCDelete,
		restore: func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
			n, err := tx.ActivityGenerationConfig.Update().
				Where(activitygenerationconfig.ID(id), activitygenerationconfig.ArchivedAtNotNil()).ClearArchivedAt().Save(ctx)
			if err != nil || n == 0 {
				return n, err
			}
			// The three pillars were archived with the AGC.
			if err := tx.ActivationConfig.Update().Where(activationconfig.ActivityGenerationConfigID(id)).
				ClearArchivedAt().Exec(ctx); err != nil {
				return 0, err
			}
			if err := tx.EngagementConfig.Update().Where(engagementconfig.ActivityGenerationConfigID(id)).
				ClearArchivedAt().Exec(ctx); err != nil {
				return 0, err
			}
			if err := tx.ResurrectionConfig.Update().Where(resurrectionconfig.ActivityGenerationConfigID(id)).
				ClearArchivedAt().Exec(ctx); err != nil {
				return 0, err
			}
			return n, nil
		},
		purge: func(ctx context.Context, tx *ent.Client, id uuid.UUID) (int, error) {
			// The pillars (and their moments, levels, thresholds) cascade.
			return tx.ActivityGenerationConfig.Delete().
				Where(activitygenerationconfig.ID(id), activitygenerationconfig.ArchivedAtNotNil()).Exec(ctx)
		},
	},
}

func opsOf(k trashrecord.Kind) (kindOps, error) {
	ops, ok := kinds[k]
	if !ok {
		return kindOps{}, fmt.Errorf("trash: unknown kind %s", k)
	}
	return ops, nil
}

// DeletePermission returns the permission that deletes (and so restores)
// records of kind k, or "" for an unknown kind.
func DeletePermission(k trashrecord.Kind) string { return kinds[k].deletePermission }
