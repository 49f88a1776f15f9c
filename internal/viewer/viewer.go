// Package viewer carries the authenticated principal of a request through
// context.Context. It is a leaf package (no project imports) so that both the
// data layer (ent privacy rules) and the services can read it.
package viewer

import (
	"context"
	"slices"

	"entgo.io/ent/privacy"
	"github.com/google/uuid"
)

// Viewer is who is acting, in which tenant and project, with which permissions.
type Viewer struct {
	// UserID is the authenticated user (the key owner for API keys).
	UserID uuid.UUID
	// TenantID is the active tenant; uuid.Nil when none was resolved yet.
	TenantID uuid.UUID
	// ProjectID is the active project; uuid.Nil when the request has none.
	ProjectID uuid.UUID
	// APIKeyID is set when the request authenticated with an API key.
	APIKeyID uuid.UUID
	// KeyProjectID is the project of a project-scoped API key.
	KeyProjectID uuid.UUID
	// Roles held in the active tenant (empty for API keys).
	Roles []string
	// Permissions are the effective permissions in the active tenant, sorted.
	Permissions []string
}

// Has reports whether the viewer holds the permission.
func (v *Viewer) Has(permission string) bool {
	if v == nil {
		return false
	}
	_, found := slices.BinarySearch(v.Permissions, permission)
	return found
}

// IsAPIKey reports whether the request authenticated with an API key.
func (v *Viewer) IsAPIKey() bool { return v != nil && v.APIKeyID != uuid.Nil }

type ctxKey struct{}

// NewContext returns a context carrying v.
func NewContext(ctx context.Context, v *Viewer) context.Context {
	return context.WithValue(ctx, ctxKey{}, v)
}

// FromContext returns the viewer of ctx, or nil.
func FromContext(ctx context.Context) *Viewer {
	v, _ := ctx.Value(ctxKey{}).(*Viewer)
	return v
}

// TenantID returns the active tenant of ctx.
func TenantID(ctx context.Context) (uuid.UUID, bool) {
	if v := FromContext(ctx); v != nil && v.TenantID != uuid.Nil {
		return v.TenantID, true
	}
	return uuid.Nil, false
}

// ProjectID returns the active project of ctx.
func ProjectID(ctx context.Context) (uuid.UUID, bool) {
	if v := FromContext(ctx); v != nil && v.ProjectID != uuid.Nil {
		return v.ProjectID, true
	}
	return uuid.Nil, false
}

// SystemContext marks ctx as trusted internal work (authentication look-ups,
// bootstrap, tenant creation): the data layer lets it through without a
// tenant filter, and the viewer is dropped so that nothing is stamped with
// the caller's tenant. Never derive it from request input.
func SystemContext(ctx context.Context) context.Context {
	return privacy.DecisionContext(NewContext(ctx, nil), privacy.Allow)
}

type archivedKey struct{}

// WithArchived lets queries of ctx see archived (trashed) rows; only the trash
// itself (listing, restore, purge) uses it.
func WithArchived(ctx context.Context) context.Context {
	return context.WithValue(ctx, archivedKey{}, true)
}

// IncludesArchived reports whether ctx sees archived rows.
func IncludesArchived(ctx context.Context) bool {
	v, _ := ctx.Value(archivedKey{}).(bool)
	return v
}
