package dispatch

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/channeldefinition"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// DefinitionInput is the body of POST and PATCH
// /api/dispatch-providers/:providerId/channel-definitions[/:definitionId];
// nil fields are not sent (POST requires Name; Channel defaults to the
// provider's).
type DefinitionInput struct {
	Name          *string
	Channel       *string
	Template      *string
	Sender        *string
	RatePerMinute *int
	// ClearRatePerMinute removes the rate limit (rate_per_minute: null on PATCH).
	ClearRatePerMinute bool
	Settings           *map[string]any
	IsActive           *bool
}

func (in *DefinitionInput) validate(create bool) []string {
	var msgs []string
	switch {
	case in.Name != nil:
		*in.Name = strings.TrimSpace(*in.Name)
		msgs = append(msgs, validateName(*in.Name)...)
	case create:
		msgs = append(msgs, MsgNameEmpty)
	}
	if in.Channel != nil && !ValidChannel(*in.Channel) {
		msgs = append(msgs, MsgChannel)
	}
	if in.RatePerMinute != nil && *in.RatePerMinute < 1 {
		msgs = append(msgs, MsgRateMin)
	}
	return msgs
}

// checkChannel applies "a definition serves its provider's channel".
func checkChannel(p *ent.DispatchProvider, channel *string) error {
	if channel != nil && *channel != string(p.Channel) {
		return apperr.Unprocessable(fmt.Sprintf(MsgChannelMismatchFmt, p.Channel, *channel))
	}
	return nil
}

func (s *Service) definitionNameTaken(ctx context.Context, c *ent.Client, providerID uuid.UUID, name string, except uuid.UUID) error {
	return apperr.ConflictIfExists(ctx, c.ChannelDefinition.Query().Where(channeldefinition.ProviderID(providerID),
		channeldefinition.Name(name), channeldefinition.IDNEQ(except)), fmt.Sprintf(MsgDefinitionNameTakenFmt, name))
}

// CreateDefinition adds a channel definition to a provider of the tenant.
func (s *Service) CreateDefinition(ctx context.Context, providerID uuid.UUID, in DefinitionInput) (*ent.ChannelDefinition, error) {
	return s.writeDefinition(ctx, providerID, &in, true, func(ctx context.Context, tx *ent.Client, p *ent.DispatchProvider) (*ent.ChannelDefinition, error) {
		if err := checkChannel(p, in.Channel); err != nil {
			return nil, err
		}
		if err := s.definitionNameTaken(ctx, tx, p.ID, *in.Name, uuid.Nil); err != nil {
			return nil, err
		}
		b := tx.ChannelDefinition.Create().SetTenantID(p.TenantID).SetProviderID(p.ID).SetName(*in.Name).
			SetChannel(channeldefinition.Channel(p.Channel)).SetNillableTemplate(in.Template).
			SetNillableSender(in.Sender).SetNillableRatePerMinute(in.RatePerMinute).SetNillableIsActive(in.IsActive).
			SetSettings(map[string]any{})
		now := clock.Now()
		b.SetCreatedAt(now).SetUpdatedAt(now)
		if in.Settings != nil {
			b.SetSettings(orEmpty(*in.Settings))
		}
		d, err := b.Save(ctx)
		return d, apperr.FromEnt(err, "", fmt.Sprintf(MsgDefinitionNameTakenFmt, *in.Name))
	})
}

// writeDefinition checks the input's rules (create: a new definition's),
// then runs fn on the tenant's provider providerID (404
// otherwise) in one transaction.
func (s *Service) writeDefinition(ctx context.Context, providerID uuid.UUID, in *DefinitionInput, create bool,
	fn func(ctx context.Context, tx *ent.Client, p *ent.DispatchProvider) (*ent.ChannelDefinition, error)) (*ent.ChannelDefinition, error) {
	if _, err := tenancy.From(ctx); err != nil {
		return nil, err
	}
	if msgs := in.validate(create); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	return txn.Value(ctx, s.client, func(ctx context.Context, tx *ent.Client) (*ent.ChannelDefinition, error) {
		p, err := s.provider(ctx, tx, providerID)
		if err != nil {
			return nil, err
		}
		return fn(ctx, tx, p)
	})
}

// ListDefinitions returns a page of a provider's channel definitions by name.
func (s *Service) ListDefinitions(ctx context.Context, providerID uuid.UUID, pg paging.Page) (*paging.List[*ent.ChannelDefinition], error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	p, err := s.provider(ctx, s.db(ctx), providerID)
	if err != nil {
		return nil, err
	}
	q := s.db(ctx).ChannelDefinition.Query().Where(channeldefinition.ProviderID(p.ID),
		channeldefinition.TenantID(tid))
	return paging.Fetch(ctx, q, paging.Asc(channeldefinition.FieldName, channeldefinition.FieldID), pg)
}

// definition loads a channel definition of the provider (another provider's answers 404).
func (s *Service) definition(ctx context.Context, c *ent.Client, providerID, id uuid.UUID) (*ent.ChannelDefinition, error) {
	d, err := c.ChannelDefinition.Query().Where(channeldefinition.ID(id), channeldefinition.ProviderID(providerID),
		channeldefinition.TenantID(viewer.FromContext(ctx).TenantID)).Only(ctx)
	return d, apperr.FromEnt(err, MsgDefinitionNotFound, "")
}

// UpdateDefinition changes a channel definition of a provider of the tenant.
func (s *Service) UpdateDefinition(ctx context.Context, providerID, id uuid.UUID, in DefinitionInput) (*ent.ChannelDefinition, error) {
	return s.writeDefinition(ctx, providerID, &in, false, func(ctx context.Context, tx *ent.Client, p *ent.DispatchProvider) (*ent.ChannelDefinition, error) {
		d, err := s.definition(ctx, tx, p.ID, id)
		if err != nil {
			return nil, err
		}
		if err := checkChannel(p, in.Channel); err != nil {
			return nil, err
		}
		u := tx.ChannelDefinition.UpdateOne(d).SetNillableTemplate(in.Template).SetNillableSender(in.Sender).
			SetNillableRatePerMinute(in.RatePerMinute).SetNillableIsActive(in.IsActive).SetUpdatedAt(clock.Now())
		if in.ClearRatePerMinute {
			u.ClearRatePerMinute()
		}
		if in.Settings != nil {
			u.SetSettings(orEmpty(*in.Settings))
		}
		name := d.Name
		if in.Name != nil {
			name = *in.Name
			if err := s.definitionNameTaken(ctx, tx, p.ID, name, d.ID); err != nil {
				return nil, err
			}
			u.SetName(name)
		}
		d, err = u.Save(ctx)
		return d, apperr.FromEnt(err, MsgDefinitionNotFound, fmt.Sprintf(MsgDefinitionNameTakenFmt, name))
	})
}
