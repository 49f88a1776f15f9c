package agc

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activationconfig"
	"github.com/reten-io/reten/ent/activationmoment"
	"github.com/reten-io/reten/ent/engagementlevel"
	"github.com/reten-io/reten/ent/resurrectionthreshold"
	"github.com/reten-io/reten/ent/retentionstatusconfig"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/fields"
)

// reconciler writes pillars and children inside one transaction; every write
// is checked as it goes, so a failure midway rolls back what came before.
type reconciler struct {
	tx                         *ent.Client
	tenantID, projectID, agcID uuid.UUID
	by                         *uuid.UUID
}

// checkStatus verifies that id is an active retention status config of the
// tenant whose code is code and whose stage is the pillar's (an activation
// moment cannot carry an engagement state).
func (r *reconciler) checkStatus(ctx context.Context, path string, id uuid.UUID, code string, stage retentionstatusconfig.Stage) error {
	ok, err := r.tx.RetentionStatusConfig.Query().Where(retentionstatusconfig.ID(id),
		retentionstatusconfig.TenantID(r.tenantID), retentionstatusconfig.IsActive(true),
		retentionstatusconfig.Code(code), retentionstatusconfig.StageEQ(stage)).Exist(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.Validation(fmt.Sprintf(MsgStatusRefFmt, path, code))
	}
	return nil
}

func cols(p *[]string) []string {
	if p == nil || *p == nil {
		return []string{}
	}
	return *p
}

func (r *reconciler) createActivation(ctx context.Context, in *ActivationInput) error {
	c, err := r.tx.ActivationConfig.Create().SetTenantID(r.tenantID).SetProjectID(r.projectID).
		SetActivityGenerationConfigID(r.agcID).SetName(*in.Name).SetNillableDescription(in.Description).
		SetSourceTable(*in.SourceTable).SetSourceColumns(cols(in.SourceColumns)).SetDateColumn(*in.DateColumn).
		SetAggregationMethod(activationconfig.AggregationMethod(*in.AggregationMethod)).
		SetNillableUpdatedBy(r.by).Save(ctx)
	if err != nil {
		return err
	}
	return r.moments(ctx, c.ID, *in.Moments)
}

func (r *reconciler) createEngagement(ctx context.Context, in *EngagementInput) error {
	c, err := r.tx.EngagementConfig.Create().SetTenantID(r.tenantID).SetProjectID(r.projectID).
		SetActivityGenerationConfigID(r.agcID).SetName(*in.Name).SetNillableDescription(in.Description).
		SetSourceTable(*in.SourceTable).SetSourceColumns(cols(in.SourceColumns)).SetDateColumn(*in.DateColumn).
		SetEngagementWindowDays(*in.EngagementWindowDays).
		SetMinLifetimeActionsForEngaged(*in.MinLifetimeActionsForEngaged).SetCountingMethod(*in.CountingMethod).
		SetNillableUpdatedBy(r.by).Save(ctx)
	if err != nil {
		return err
	}
	return r.levels(ctx, c.ID, *in.Levels)
}

func (r *reconciler) createResurrection(ctx context.Context, in *ResurrectionInput) error {
	c, err := r.tx.ResurrectionConfig.Create().SetTenantID(r.tenantID).SetProjectID(r.projectID).
		SetActivityGenerationConfigID(r.agcID).SetName(*in.Name).SetNillableDescription(in.Description).
		SetSourceTable(*in.SourceTable).SetSourceColumns(cols(in.SourceColumns)).SetDateColumn(*in.DateColumn).
		SetNillableUpdatedBy(r.by).Save(ctx)
	if err != nil {
		return err
	}
	return r.thresholds(ctx, c.ID, *in.Thresholds)
}

// childRef is what every child of a pillar (moment, level, threshold)
// carries: its id when it edits an existing child, and the retention status
// it maps to.
type childRef struct {
	id     *uuid.UUID
	code   string
	status uuid.UUID
}

func (m MomentInput) ref() childRef {
	return childRef{m.ID, m.StatusCode, m.UserRetentionStatusConfigID}
}

func (l LevelInput) ref() childRef {
	return childRef{l.ID, l.StatusCode, l.UserRetentionStatusConfigID}
}

func (t ThresholdInput) ref() childRef {
	return childRef{t.ID, t.StatusCode, t.UserRetentionStatusConfigID}
}

// childSet is one child array of a pillar config: where it sits in the body,
// the stage its statuses must have, and how its rows are read and written.
type childSet[T interface{ ref() childRef }] struct {
	path, pillar string // "activation.moments", "activation"
	stage        retentionstatusconfig.Stage
	ids          func(ctx context.Context) ([]uuid.UUID, error)
	update       func(ctx context.Context, id uuid.UUID, item T) error
	create       func(ctx context.Context, item T) error
	remove       func(ctx context.Context, ids []uuid.UUID) error
}

// reconcileChildren makes the children of one config what items say: an
// item with an id updates that child (which must belong to the config and
// appear once), one without creates a child, and children no item names are
// deleted. Every status must be an active one of the set's stage.
func reconcileChildren[T interface{ ref() childRef }](ctx context.Context, r *reconciler, set childSet[T], items []T) error {
	ids, err := set.ids(ctx)
	if err != nil {
		return err
	}
	existing, used := idSet(ids), map[uuid.UUID]bool{}
	for i, it := range items {
		ref, p := it.ref(), fmt.Sprintf("%s.%d", set.path, i)
		if ref.id != nil {
			if err := seen(p, set.pillar, *ref.id, existing, used); err != nil {
				return err
			}
		}
		if err := r.checkStatus(ctx, p, ref.status, ref.code, set.stage); err != nil {
			return err
		}
		if ref.id != nil {
			err = set.update(ctx, *ref.id, it)
		} else {
			err = set.create(ctx, it)
		}
		if err != nil {
			return err
		}
	}
	if gone := unused(existing, used); len(gone) > 0 {
		return set.remove(ctx, gone)
	}
	return nil
}

// seen tracks child ids of one array: ids must belong to the pillar and
// appear once.
func seen(p, pillar string, id uuid.UUID, existing map[uuid.UUID]bool, used map[uuid.UUID]bool) error {
	if !existing[id] {
		return apperr.Validation(fmt.Sprintf(MsgForeignChildFmt, p, id, pillar))
	}
	if used[id] {
		return apperr.Validation(fmt.Sprintf(MsgDuplicateIDFmt, p, id))
	}
	used[id] = true
	return nil
}

func idSet(ids []uuid.UUID) map[uuid.UUID]bool {
	m := make(map[uuid.UUID]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

func unused(existing, used map[uuid.UUID]bool) []uuid.UUID {
	var out []uuid.UUID
	for id := range existing {
		if !used[id] {
			out = append(out, id)
		}
	}
	return out
}

// moments reconciles the moments of an activation config with items.
func (r *reconciler) moments(ctx context.Context, configID uuid.UUID, items []MomentInput) error {
	of := activationmoment.ActivationConfigID(configID)
	return reconcileChildren(ctx, r, childSet[MomentInput]{
		path: "activation.moments", pillar: "activation", stage: retentionstatusconfig.StageACTIVATION,
		ids: r.tx.ActivationMoment.Query().Where(of).IDs,
		update: func(ctx context.Context, id uuid.UUID, m MomentInput) error {
			u := r.tx.ActivationMoment.UpdateOneID(id).SetStatusCode(m.StatusCode).
				SetUserRetentionStatusConfigID(m.UserRetentionStatusConfigID).SetPriority(m.Priority)
			fields.SetOrClear(m.MinActions, u.SetMinActions, u.ClearMinActions)
			fields.SetOrClear(m.WindowDays, u.SetWindowDays, u.ClearWindowDays)
			fields.SetOrClear(m.TimeWindow, u.SetTimeWindow, u.ClearTimeWindow)
			return u.Exec(ctx)
		},
		create: func(ctx context.Context, m MomentInput) error {
			return r.tx.ActivationMoment.Create().SetTenantID(r.tenantID).SetProjectID(r.projectID).
				SetActivationConfigID(configID).SetStatusCode(m.StatusCode).
				SetUserRetentionStatusConfigID(m.UserRetentionStatusConfigID).SetNillableMinActions(m.MinActions).
				SetNillableWindowDays(m.WindowDays).SetNillableTimeWindow(m.TimeWindow).SetPriority(m.Priority).Exec(ctx)
		},
		remove: func(ctx context.Context, ids []uuid.UUID) error {
			_, err := r.tx.ActivationMoment.Delete().Where(activationmoment.IDIn(ids...), of).Exec(ctx)
			return err
		},
	}, items)
}

// levels reconciles the levels of an engagement config with items.
func (r *reconciler) levels(ctx context.Context, configID uuid.UUID, items []LevelInput) error {
	of := engagementlevel.EngagementConfigID(configID)
	return reconcileChildren(ctx, r, childSet[LevelInput]{
		path: "engagement.levels", pillar: "engagement", stage: retentionstatusconfig.StageENGAGEMENT,
		ids: r.tx.EngagementLevel.Query().Where(of).IDs,
		update: func(ctx context.Context, id uuid.UUID, l LevelInput) error {
			u := r.tx.EngagementLevel.UpdateOneID(id).SetStatusCode(l.StatusCode).
				SetUserRetentionStatusConfigID(l.UserRetentionStatusConfigID).SetLabel(l.Label).
				SetMinThreshold(l.MinThreshold).SetOrder(l.Order)
			fields.SetOrClear(l.MaxThreshold, u.SetMaxThreshold, u.ClearMaxThreshold)
			return u.Exec(ctx)
		},
		create: func(ctx context.Context, l LevelInput) error {
			return r.tx.EngagementLevel.Create().SetTenantID(r.tenantID).SetProjectID(r.projectID).
				SetEngagementConfigID(configID).SetStatusCode(l.StatusCode).
				SetUserRetentionStatusConfigID(l.UserRetentionStatusConfigID).SetLabel(l.Label).
				SetMinThreshold(l.MinThreshold).SetNillableMaxThreshold(l.MaxThreshold).SetOrder(l.Order).Exec(ctx)
		},
		remove: func(ctx context.Context, ids []uuid.UUID) error {
			_, err := r.tx.EngagementLevel.Delete().Where(engagementlevel.IDIn(ids...), of).Exec(ctx)
			return err
		},
	}, items)
}

// thresholds reconciles the thresholds of a resurrection config with items.
func (r *reconciler) thresholds(ctx context.Context, configID uuid.UUID, items []ThresholdInput) error {
	of := resurrectionthreshold.ResurrectionConfigID(configID)
	return reconcileChildren(ctx, r, childSet[ThresholdInput]{
		path: "resurrection.thresholds", pillar: "resurrection", stage: retentionstatusconfig.StageRESURRECTION,
		ids: r.tx.ResurrectionThreshold.Query().Where(of).IDs,
		update: func(ctx context.Context, id uuid.UUID, t ThresholdInput) error {
			return r.tx.ResurrectionThreshold.UpdateOneID(id).SetStatusCode(t.StatusCode).
				SetUserRetentionStatusConfigID(t.UserRetentionStatusConfigID).SetLabel(t.Label).
				SetThresholdDays(t.ThresholdDays).SetOrder(t.Order).Exec(ctx)
		},
		create: func(ctx context.Context, t ThresholdInput) error {
			return r.tx.ResurrectionThreshold.Create().SetTenantID(r.tenantID).SetProjectID(r.projectID).
				SetResurrectionConfigID(configID).SetStatusCode(t.StatusCode).
				SetUserRetentionStatusConfigID(t.UserRetentionStatusConfigID).SetLabel(t.Label).
				SetThresholdDays(t.ThresholdDays).SetOrder(t.Order).Exec(ctx)
		},
		remove: func(ctx context.Context, ids []uuid.UUID) error {
			_, err := r.tx.ResurrectionThreshold.Delete().Where(resurrectionthreshold.IDIn(ids...), of).Exec(ctx)
			return err
		},
	}, items)
}
