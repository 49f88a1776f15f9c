package agc

import (
	"context"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activationconfig"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// ReplaceLifecycle edits the pillars sent (fields sent, and children by id
// when an array is sent) atomically, then recomputes the config hashes.
func (s *Service) ReplaceLifecycle(ctx context.Context, id uuid.UUID, in LifecycleInput) error {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return err
	}
	var msgs []string
	if in.Activation != nil {
		msgs = append(msgs, in.Activation.validate("activation", false)...)
	}
	if in.Engagement != nil {
		msgs = append(msgs, in.Engagement.validate("engagement", false)...)
	}
	if in.Resurrection != nil {
		msgs = append(msgs, in.Resurrection.validate("resurrection", false)...)
	}
	if len(msgs) > 0 {
		return apperr.Validation(msgs...)
	}
	a, err := s.load(ctx, tid, pid, id)
	if err != nil {
		return err
	}
	if err := s.checkSources(ctx, editedSources(a, in)); err != nil {
		return err
	}
	return txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		r := reconciler{tx: tx, tenantID: tid, projectID: pid, agcID: id, by: tenancy.Actor(ctx)}
		if in.Activation != nil && a.Edges.ActivationConfig != nil {
			p := in.Activation
			u := tx.ActivationConfig.UpdateOneID(a.Edges.ActivationConfig.ID).SetNillableName(p.Name).
				SetNillableDescription(p.Description).SetNillableSourceTable(p.SourceTable).
				SetNillableDateColumn(p.DateColumn).SetNillableUpdatedBy(r.by)
			if p.SourceColumns != nil {
				u.SetSourceColumns(cols(p.SourceColumns))
			}
			if p.AggregationMethod != nil {
				u.SetAggregationMethod(activationconfig.AggregationMethod(*p.AggregationMethod))
			}
			if err := u.Exec(ctx); err != nil {
				return err
			}
			if p.Moments != nil {
				if err := r.moments(ctx, a.Edges.ActivationConfig.ID, *p.Moments); err != nil {
					return err
				}
			}
		}
		if in.Engagement != nil && a.Edges.EngagementConfig != nil {
			p := in.Engagement
			u := tx.EngagementConfig.UpdateOneID(a.Edges.EngagementConfig.ID).SetNillableName(p.Name).
				SetNillableDescription(p.Description).SetNillableSourceTable(p.SourceTable).
				SetNillableDateColumn(p.DateColumn).SetNillableEngagementWindowDays(p.EngagementWindowDays).
				SetNillableMinLifetimeActionsForEngaged(p.MinLifetimeActionsForEngaged).
				SetNillableCountingMethod(p.CountingMethod).SetNillableUpdatedBy(r.by)
			if p.SourceColumns != nil {
				u.SetSourceColumns(cols(p.SourceColumns))
			}
			if err := u.Exec(ctx); err != nil {
				return err
			}
			if p.Levels != nil {
				if err := r.levels(ctx, a.Edges.EngagementConfig.ID, *p.Levels); err != nil {
					return err
				}
			}
		}
		if in.Resurrection != nil && a.Edges.ResurrectionConfig != nil {
			p := in.Resurrection
			u := tx.ResurrectionConfig.UpdateOneID(a.Edges.ResurrectionConfig.ID).SetNillableName(p.Name).
				SetNillableDescription(p.Description).SetNillableSourceTable(p.SourceTable).
				SetNillableDateColumn(p.DateColumn).SetNillableUpdatedBy(r.by)
			if p.SourceColumns != nil {
				u.SetSourceColumns(cols(p.SourceColumns))
			}
			if err := u.Exec(ctx); err != nil {
				return err
			}
			if p.Thresholds != nil {
				if err := r.thresholds(ctx, a.Edges.ResurrectionConfig.ID, *p.Thresholds); err != nil {
					return err
				}
			}
		}
		if err := tx.ActivityGenerationConfig.UpdateOneID(id).SetNillableUpdatedBy(r.by).Exec(ctx); err != nil {
			return err
		}
		return storeHashes(ctx, tx, tid, pid, id)
	})
}

// storeHashes recomputes and stores the config hashes of an AGC.
func storeHashes(ctx context.Context, tx *ent.Client, tenantID, projectID, id uuid.UUID) error {
	a, err := withPillars(tx.ActivityGenerationConfig.Query().Where(activitygenerationconfig.ID(id),
		inProject(tenantID, projectID))).Only(ctx)
	if err != nil {
		return err
	}
	return tx.ActivityGenerationConfig.UpdateOneID(id).SetConfigHashes(Hashes(a)).Exec(ctx)
}
