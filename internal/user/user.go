// Package user reads and manages users of the viewer's tenant.
package user

import (
	"context"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/viewer"
)

// Service reads users.
type Service struct{ client *ent.Client }

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client} }

// Viewer returns the authenticated caller of ctx.
func (s *Service) Viewer(ctx context.Context) (*viewer.Viewer, error) {
	v := viewer.FromContext(ctx)
	if v == nil {
		return nil, apperr.Unauthorized(auth.MsgUnauthorized)
	}
	return v, nil
}

// Me returns the caller's own user record (the key owner for API keys).
func (s *Service) Me(ctx context.Context) (*ent.User, error) {
	v, err := s.Viewer(ctx)
	if err != nil {
		return nil, err
	}
	u, err := s.client.User.Get(ctx, v.UserID)
	return u, apperr.FromEnt(err, "User not found", "")
}
