package commerce

import (
	"context"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/tenancy"
)

// Resolve finds a live commerce of the active tenant named by its UUID or,
// failing that, by its external id (the snapshot routes' commerceIdentifier
// rule); 404 MsgNotFound otherwise, also for another tenant's commerce.
func (s *Service) Resolve(ctx context.Context, ident string) (*ent.Commerce, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	return Resolve(ctx, s.db(ctx), tid, ident)
}

// Resolve is Service.Resolve in tenant tenantID through db, for the
// services that read commerces inside their own operation (snapshots).
func Resolve(ctx context.Context, db *ent.Client, tid uuid.UUID, ident string) (*ent.Commerce, error) {
	if id, err := uuid.Parse(ident); err == nil {
		c, err := db.Commerce.Query().Where(commerce.TenantID(tid), commerce.ID(id)).Only(ctx)
		if err == nil || !ent.IsNotFound(err) {
			return c, err
		}
	}
	c, err := db.Commerce.Query().Where(commerce.TenantID(tid), commerce.ExternalID(ident)).First(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, MsgNotFound, "")
	}
	return c, nil
}
