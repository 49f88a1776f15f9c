// Package user reads and manages users of the viewer's tenant.
package user

import (
	"context"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// Service reads users.
type Service struct{ client *ent.Client }

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client} }

// Viewer returns the authenticated caller of ctx: the principal of its access.
func (s *Service) Viewer(ctx context.Context) (*viewer.Viewer, error) {
	acc, err := tenancy.From(ctx)
	if err != nil {
		return nil, err
	}
	return acc.Viewer, nil
}

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// Me returns the caller's own user record (the key owner for API keys).
func (s *Service) Me(ctx context.Context) (*ent.User, error) {
	v, err := s.Viewer(ctx)
	if err != nil {
		return nil, err
	}
	u, err := s.db(ctx).User.Get(ctx, v.UserID)
	return u, apperr.FromEnt(err, "User not found", "")
}
