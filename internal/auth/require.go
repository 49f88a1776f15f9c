package auth

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/viewer"
)

// Require returns the SPEC.md 403 when the viewer lacks the permission.
func Require(v *viewer.Viewer, permission string) error {
	if v.Has(permission) {
		return nil
	}
	return apperr.Forbidden(fmt.Sprintf(MsgRequiredPermissionsFm, permission))
}

// RequireCtx is Require for the viewer of ctx (used by services).
func RequireCtx(ctx context.Context, permission string) error {
	return Require(viewer.FromContext(ctx), permission)
}

// TenantFor checks the permission and returns the viewer's tenant: the first
// line of every tenant-level service method.
func TenantFor(ctx context.Context, permission string) (uuid.UUID, error) {
	if err := RequireCtx(ctx, permission); err != nil {
		return uuid.Nil, err
	}
	return viewer.FromContext(ctx).TenantID, nil
}
