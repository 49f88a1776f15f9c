package dispatch

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/channeldefinition"
	"github.com/reten-io/reten/ent/dispatchconfig"
	"github.com/reten-io/reten/ent/project"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// ConfigInput is the body of PUT /api/projects/:projectId/dispatch-configs/:channel.
// PUT replaces the whole config: omitted fields take their defaults.
type ConfigInput struct {
	ProviderID          uuid.UUID
	ChannelDefinitionID *uuid.UUID
	MaxAttempts         *int // 1..10, default 3
	RetryBackoffSeconds *int // >= 0, default 300
	IsActive            *bool
}

func (in ConfigInput) validate(channel string) []string {
	var msgs []string
	if !ValidChannel(channel) {
		msgs = append(msgs, MsgChannel)
	}
	if in.ProviderID == uuid.Nil {
		msgs = append(msgs, MsgProviderIDEmpty)
	}
	if in.MaxAttempts != nil {
		switch {
		case *in.MaxAttempts < 1:
			msgs = append(msgs, MsgMaxAttemptsMin)
		case *in.MaxAttempts > MaxMaxAttempts:
			msgs = append(msgs, MsgMaxAttemptsMax)
		}
	}
	if in.RetryBackoffSeconds != nil && *in.RetryBackoffSeconds < 0 {
		msgs = append(msgs, MsgBackoffMin)
	}
	return msgs
}

// checkProject answers 404 "El proyecto no existe." unless projectID is a
// project of the tenant.
func (s *Service) checkProject(ctx context.Context, c *ent.Client, projectID uuid.UUID) error {
	// A project-scoped API key reaches only its own project.
	if v := viewer.FromContext(ctx); v.KeyProjectID != uuid.Nil && v.KeyProjectID != projectID {
		return apperr.NotFound(tenancy.MsgProjectNotFound)
	}
	ok, err := c.Project.Query().Where(project.ID(projectID), project.TenantID(viewer.FromContext(ctx).TenantID)).Exist(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.NotFound(tenancy.MsgProjectNotFound)
	}
	return nil
}

// ListConfigs returns a page of a project's dispatch configs by channel.
func (s *Service) ListConfigs(ctx context.Context, projectID uuid.UUID, p paging.Page) (*paging.List[*ent.DispatchConfig], error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.checkProject(ctx, s.db(ctx), projectID); err != nil {
		return nil, err
	}
	q := s.db(ctx).DispatchConfig.Query().Where(dispatchconfig.ProjectID(projectID),
		dispatchconfig.TenantID(tid))
	return paging.Fetch(ctx, q, paging.Asc(dispatchconfig.FieldChannel, dispatchconfig.FieldID), p)
}

// PutConfig creates or replaces the dispatch config of a project's channel
// and reports whether it was created. The provider must serve the channel,
// and the channel definition, when given, must be one of the provider's.
func (s *Service) PutConfig(ctx context.Context, projectID uuid.UUID, channel string, in ConfigInput) (*ent.DispatchConfig, bool, error) {
	if _, err := tenancy.From(ctx); err != nil {
		return nil, false, err
	}
	if msgs := in.validate(channel); len(msgs) > 0 {
		return nil, false, apperr.Validation(msgs...)
	}
	maxAttempts, backoff, active := DefaultMaxAttempts, DefaultRetryBackoffSeconds, true
	if in.MaxAttempts != nil {
		maxAttempts = *in.MaxAttempts
	}
	if in.RetryBackoffSeconds != nil {
		backoff = *in.RetryBackoffSeconds
	}
	if in.IsActive != nil {
		active = *in.IsActive
	}
	var (
		out     *ent.DispatchConfig
		created bool
	)
	put := func(ctx context.Context, tx *ent.Client) error {
		if err := s.checkProject(ctx, tx, projectID); err != nil {
			return err
		}
		p, err := s.provider(ctx, tx, in.ProviderID)
		if err != nil {
			return err
		}
		if string(p.Channel) != channel {
			return apperr.Unprocessable(fmt.Sprintf(MsgChannelMismatchFmt, p.Channel, channel))
		}
		if in.ChannelDefinitionID != nil {
			d, err := s.definitionOfTenant(ctx, tx, *in.ChannelDefinitionID)
			if err != nil {
				return err
			}
			if d.ProviderID != p.ID {
				return apperr.Unprocessable(MsgDefinitionOtherProvider)
			}
		}
		cur, err := tx.DispatchConfig.Query().Where(dispatchconfig.ProjectID(projectID),
			dispatchconfig.ChannelEQ(dispatchconfig.Channel(channel))).Only(ctx)
		switch {
		case ent.IsNotFound(err):
			created = true
			now := clock.Now()
			out, err = tx.DispatchConfig.Create().SetCreatedAt(now).SetUpdatedAt(now).SetTenantID(p.TenantID).SetProjectID(projectID).
				SetChannel(dispatchconfig.Channel(channel)).SetProviderID(p.ID).
				SetNillableChannelDefinitionID(in.ChannelDefinitionID).SetMaxAttempts(maxAttempts).
				SetRetryBackoffSeconds(backoff).SetIsActive(active).Save(ctx)
			return err
		case err != nil:
			return err
		}
		u := tx.DispatchConfig.UpdateOne(cur).SetProviderID(p.ID).SetMaxAttempts(maxAttempts).
			SetRetryBackoffSeconds(backoff).SetIsActive(active).SetUpdatedAt(clock.Now())
		if in.ChannelDefinitionID != nil {
			u.SetChannelDefinitionID(*in.ChannelDefinitionID)
		} else {
			u.ClearChannelDefinitionID()
		}
		out, err = u.Save(ctx)
		return err
	}
	err := txn.Run(ctx, s.client, put)
	if err != nil && ent.IsConstraintError(err) && created {
		// Another request created the config meanwhile: replace it.
		created = false
		err = txn.Run(ctx, s.client, put)
	}
	if err != nil {
		return nil, false, err
	}
	return out, created, nil
}

// definitionOfTenant loads a channel definition of the tenant by id.
func (s *Service) definitionOfTenant(ctx context.Context, c *ent.Client, id uuid.UUID) (*ent.ChannelDefinition, error) {
	d, err := c.ChannelDefinition.Query().
		Where(channeldefinition.ID(id), channeldefinition.TenantID(viewer.FromContext(ctx).TenantID)).Only(ctx)
	return d, apperr.FromEnt(err, MsgDefinitionNotFound, "")
}
