package agc

import (
	"context"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activationconfig"
	"github.com/reten-io/reten/ent/activationmoment"
	"github.com/reten-io/reten/ent/engagementconfig"
	"github.com/reten-io/reten/ent/engagementlevel"
	"github.com/reten-io/reten/ent/resurrectionconfig"
	"github.com/reten-io/reten/ent/resurrectionthreshold"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/tenancy"
)

func (s *Service) activationQuery(ctx context.Context) (*ent.ActivationConfigQuery, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	return s.db(ctx).ActivationConfig.Query().
		Where(activationconfig.TenantID(tid), activationconfig.ProjectID(pid)).
		WithActivationMoments(func(q *ent.ActivationMomentQuery) {
			q.Order(activationmoment.ByPriority(), activationmoment.ByID())
		}).Order(activationconfig.ByName(), activationconfig.ByID()), nil
}

// ListActivations returns the activation configs of the active project with their moments.
func (s *Service) ListActivations(ctx context.Context) ([]*ent.ActivationConfig, error) {
	q, err := s.activationQuery(ctx)
	if err != nil {
		return nil, err
	}
	return q.All(ctx)
}

// GetActivation returns one activation config of the active project.
func (s *Service) GetActivation(ctx context.Context, id uuid.UUID) (*ent.ActivationConfig, error) {
	q, err := s.activationQuery(ctx)
	if err != nil {
		return nil, err
	}
	c, err := q.Where(activationconfig.ID(id)).Only(ctx)
	return c, apperr.FromEnt(err, MsgActivationNotFound, "")
}

func (s *Service) engagementQuery(ctx context.Context) (*ent.EngagementConfigQuery, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	return s.db(ctx).EngagementConfig.Query().
		Where(engagementconfig.TenantID(tid), engagementconfig.ProjectID(pid)).
		WithEngagementLevels(func(q *ent.EngagementLevelQuery) {
			q.Order(engagementlevel.ByOrder(), engagementlevel.ByID())
		}).Order(engagementconfig.ByName(), engagementconfig.ByID()), nil
}

// ListEngagements returns the engagement configs of the active project with their levels.
func (s *Service) ListEngagements(ctx context.Context) ([]*ent.EngagementConfig, error) {
	q, err := s.engagementQuery(ctx)
	if err != nil {
		return nil, err
	}
	return q.All(ctx)
}

// GetEngagement returns one engagement config of the active project.
func (s *Service) GetEngagement(ctx context.Context, id uuid.UUID) (*ent.EngagementConfig, error) {
	q, err := s.engagementQuery(ctx)
	if err != nil {
		return nil, err
	}
	c, err := q.Where(engagementconfig.ID(id)).Only(ctx)
	return c, apperr.FromEnt(err, MsgEngagementNotFound, "")
}

func (s *Service) resurrectionQuery(ctx context.Context) (*ent.ResurrectionConfigQuery, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	return s.db(ctx).ResurrectionConfig.Query().
		Where(resurrectionconfig.TenantID(tid), resurrectionconfig.ProjectID(pid)).
		WithResurrectionThresholds(func(q *ent.ResurrectionThresholdQuery) {
			q.Order(resurrectionthreshold.ByOrder(), resurrectionthreshold.ByID())
		}).Order(resurrectionconfig.ByName(), resurrectionconfig.ByID()), nil
}

// ListResurrections returns the resurrection configs of the active project with their thresholds.
func (s *Service) ListResurrections(ctx context.Context) ([]*ent.ResurrectionConfig, error) {
	q, err := s.resurrectionQuery(ctx)
	if err != nil {
		return nil, err
	}
	return q.All(ctx)
}

// GetResurrection returns one resurrection config of the active project.
func (s *Service) GetResurrection(ctx context.Context, id uuid.UUID) (*ent.ResurrectionConfig, error) {
	q, err := s.resurrectionQuery(ctx)
	if err != nil {
		return nil, err
	}
	c, err := q.Where(resurrectionconfig.ID(id)).Only(ctx)
	return c, apperr.FromEnt(err, MsgResurrectNotFound, "")
}
