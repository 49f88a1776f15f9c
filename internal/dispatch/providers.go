package dispatch

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/dispatchconfig"
	"github.com/reten-io/reten/ent/dispatchprovider"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// CreateProviderInput is the body of POST /api/dispatch-providers.
type CreateProviderInput struct {
	Name        string
	Channel     string
	Kind        string
	Settings    map[string]any
	Credentials map[string]any // write-only; stored encrypted
	IsActive    *bool
}

// UpdateProviderInput is the body of PATCH /api/dispatch-providers/:id; nil
// fields are left unchanged. Channel and kind are fixed at creation.
type UpdateProviderInput struct {
	Name     *string
	Settings *map[string]any
	// Credentials replaces the stored credentials; a pointer to a nil or
	// empty map removes them.
	Credentials *map[string]any
	IsActive    *bool
}

// ProviderFilter narrows the provider list.
type ProviderFilter struct {
	Channel string // "" for every channel
}

func (in *CreateProviderInput) validate() []string {
	in.Name = strings.TrimSpace(in.Name)
	msgs := validateName(in.Name)
	if !ValidChannel(in.Channel) {
		msgs = append(msgs, MsgChannel)
	}
	if !slices.Contains(Kinds, in.Kind) {
		msgs = append(msgs, MsgKind)
	}
	return append(msgs, validateSettings(in.Kind, in.Settings)...)
}

// provider loads a provider of the tenant.
func (s *Service) provider(ctx context.Context, c *ent.Client, id uuid.UUID) (*ent.DispatchProvider, error) {
	p, err := c.DispatchProvider.Query().
		Where(dispatchprovider.ID(id), dispatchprovider.TenantID(viewer.FromContext(ctx).TenantID)).Only(ctx)
	return p, apperr.FromEnt(err, MsgProviderNotFound, "")
}

func (s *Service) nameTaken(ctx context.Context, c *ent.Client, name string, except uuid.UUID) error {
	return apperr.ConflictIfExists(ctx, c.DispatchProvider.Query().Where(dispatchprovider.TenantID(viewer.FromContext(ctx).TenantID),
		dispatchprovider.Name(name), dispatchprovider.IDNEQ(except)), fmt.Sprintf(MsgProviderNameTakenFmt, name))
}

// CreateProvider adds a dispatch provider to the tenant.
func (s *Service) CreateProvider(ctx context.Context, in CreateProviderInput) (*ent.DispatchProvider, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	if msgs := in.validate(); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	if err := s.nameTaken(ctx, s.db(ctx), in.Name, uuid.Nil); err != nil {
		return nil, err
	}
	id, now := uuid.New(), clock.Now()
	sealed, err := s.seal(id, in.Credentials)
	if err != nil {
		return nil, err
	}
	p, err := txn.Value(ctx, s.client, func(ctx context.Context, tx *ent.Client) (*ent.DispatchProvider, error) {
		b := tx.DispatchProvider.Create().SetID(id).SetTenantID(tid).
			SetName(in.Name).SetChannel(dispatchprovider.Channel(in.Channel)).SetKind(in.Kind).
			SetSettings(orEmpty(in.Settings)).SetNillableIsActive(in.IsActive).SetCreatedAt(now).SetUpdatedAt(now)
		if sealed != nil {
			b.SetCredentialsEncrypted(sealed)
		}
		return b.Save(ctx)
	})
	if err != nil {
		return nil, apperr.FromEnt(err, "", fmt.Sprintf(MsgProviderNameTakenFmt, in.Name))
	}
	return p, nil
}

// ListProviders returns a page of the tenant's providers by name.
func (s *Service) ListProviders(ctx context.Context, f ProviderFilter, p paging.Page) (*paging.List[*ent.DispatchProvider], error) {
	q := s.db(ctx).DispatchProvider.Query()
	if f.Channel != "" {
		if !ValidChannel(f.Channel) {
			return nil, apperr.Validation(MsgChannel)
		}
		q.Where(dispatchprovider.ChannelEQ(dispatchprovider.Channel(f.Channel)))
	}
	return tenancy.List(ctx, q, dispatchprovider.TenantID, paging.Asc(dispatchprovider.FieldName, dispatchprovider.FieldID), p)
}

// ProviderConnection pages through the tenant's dispatch providers (GraphQL).
func (s *Service) ProviderConnection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.DispatchProviderOrder, where *ent.DispatchProviderWhereInput) (*ent.DispatchProviderConnection, error) {
	return tenancy.Connection(ctx, s.db(ctx).DispatchProvider.Query(), dispatchprovider.TenantID, after, first, before, last,
		ent.WithDispatchProviderOrder(orderBy), ent.WithDispatchProviderFilter(where.Filter))
}

// GetProvider returns one provider of the tenant.
func (s *Service) GetProvider(ctx context.Context, id uuid.UUID) (*ent.DispatchProvider, error) {
	if _, err := tenancy.From(ctx); err != nil {
		return nil, err
	}
	return s.provider(ctx, s.db(ctx), id)
}

// UpdateProvider changes a provider of the tenant.
func (s *Service) UpdateProvider(ctx context.Context, id uuid.UUID, in UpdateProviderInput) (*ent.DispatchProvider, error) {
	if _, err := tenancy.From(ctx); err != nil {
		return nil, err
	}
	var msgs []string
	if in.Name != nil {
		*in.Name = strings.TrimSpace(*in.Name)
		msgs = append(msgs, validateName(*in.Name)...)
	}
	if len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	var out *ent.DispatchProvider
	err := txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		p, err := s.provider(ctx, tx, id)
		if err != nil {
			return err
		}
		if in.Settings != nil {
			if msgs := validateSettings(p.Kind, *in.Settings); len(msgs) > 0 {
				return apperr.Validation(msgs...)
			}
		}
		u := tx.DispatchProvider.UpdateOne(p).SetNillableIsActive(in.IsActive).SetUpdatedAt(clock.Now())
		if in.Name != nil {
			if err := s.nameTaken(ctx, tx, *in.Name, p.ID); err != nil {
				return err
			}
			u.SetName(*in.Name)
		}
		if in.Settings != nil {
			u.SetSettings(orEmpty(*in.Settings))
		}
		if in.Credentials != nil {
			sealed, err := s.seal(p.ID, *in.Credentials)
			if err != nil {
				return err
			}
			if sealed == nil {
				u.ClearCredentialsEncrypted()
			} else {
				u.SetCredentialsEncrypted(sealed)
			}
		}
		out, err = u.Save(ctx)
		if err != nil {
			name := p.Name
			if in.Name != nil {
				name = *in.Name
			}
			return apperr.FromEnt(err, MsgProviderNotFound, fmt.Sprintf(MsgProviderNameTakenFmt, name))
		}
		return nil
	})
	return out, err
}

// DeleteProvider removes a provider of the tenant for good, with its channel
// definitions; a provider a dispatch config uses answers 409.
func (s *Service) DeleteProvider(ctx context.Context, id uuid.UUID) error {
	if _, err := tenancy.From(ctx); err != nil {
		return err
	}
	return txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		p, err := s.provider(ctx, tx, id)
		if err != nil {
			return err
		}
		used, err := tx.DispatchConfig.Query().Where(dispatchconfig.ProviderID(p.ID)).Exist(ctx)
		if err != nil {
			return err
		}
		if used {
			return apperr.Conflict(MsgProviderInUse)
		}
		return apperr.FromEnt(tx.DispatchProvider.DeleteOne(p).Exec(ctx), MsgProviderNotFound, MsgProviderInUse)
	})
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
