// Package tenancy turns request credentials and headers into the viewer of
// the request (who, which tenant, which project) and admits the request to
// its line of the authorization matrix (Matrix), the only statement of a
// route's scope and permission. It applies SPEC.md "Authentication" and
// "Project context" with their exact messages and check order
// (authentication, then project, then permission); services read the
// admitted access (From), never the matrix's facts again.
package tenancy

import (
	"context"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/viewer"
)

// Scope says how an endpoint relates to projects.
type Scope int

// The endpoint scopes of SPEC.md "Project context".
const (
	// Public endpoints need no credentials.
	Public Scope = iota
	// TenantLevel endpoints ignore x-project-id.
	TenantLevel
	// ProjectScoped endpoints need exactly one active project.
	ProjectScoped
	// ProjectOptional endpoints narrow to a project when one is given.
	ProjectOptional
)

func (s Scope) String() string {
	return [...]string{"public", "tenant-level", "project-scoped", "project-optional"}[s]
}

// Project context messages (SPEC.md "Project errors").
const (
	MsgProjectKeyMismatch  = "La API key pertenece a un proyecto distinto del que declara el header x-project-id."
	MsgProjectHeaderNeeded = "Falta el header obligatorio x-project-id."
	MsgProjectHeaderUUID   = "El header x-project-id debe ser un UUID válido."
	MsgProjectNotFound     = "El proyecto no existe."
	// MsgResultNeedsProject is the project-less 400 of a result without activity_id.
	MsgResultNeedsProject = "Falta el header obligatorio x-project-id: un resultado sin activity_id necesita proyecto."
)

// Credentials are what a request presents, transport-neutral.
type Credentials struct {
	APIKey        string // x-api-key
	Bearer        string // Authorization: Bearer <token>
	TenantHeader  string // x-tenant-id
	ProjectHeader string // x-project-id
	HasProject    bool   // x-project-id was sent
}

// Resolver authenticates credentials and resolves tenant and project.
type Resolver struct {
	auth *auth.Service
}

// NewResolver returns a Resolver.
func NewResolver(a *auth.Service) *Resolver {
	return &Resolver{auth: a}
}

// Resolve returns the viewer for credentials on an endpoint of the given
// scope. The project a project-scoped or project-optional request names is
// read with its credential, in the same statement (none when both were
// checked in the last auth.CredentialTTL); the errors keep SPEC.md's order.
func (r *Resolver) Resolve(ctx context.Context, c Credentials, scope Scope) (*viewer.Viewer, error) {
	project := uuid.Nil
	if c.HasProject && (scope == ProjectScoped || scope == ProjectOptional) {
		project, _ = uuid.Parse(c.ProjectHeader) // uuid.Nil when invalid: resolveProject says so
	}
	v, found, err := r.authenticate(ctx, c, project)
	if err != nil {
		return nil, err
	}
	if err := resolveProject(v, c, scope, found); err != nil {
		return nil, err
	}
	return v, nil
}

// authenticate applies the credential rules: a value of x-api-key counts as a
// key only with the svc_sk_ prefix; a JWT needs x-tenant-id naming one of the
// user's tenants. It reports whether project is a project of the viewer's
// tenant.
func (r *Resolver) authenticate(ctx context.Context, c Credentials, project uuid.UUID) (*viewer.Viewer, bool, error) {
	if auth.LooksLikeAPIKey(c.APIKey) {
		return r.auth.KeyViewer(ctx, c.APIKey, project)
	}
	if c.Bearer == "" {
		if c.TenantHeader == "" {
			return nil, false, apperr.Invalid(auth.MsgMissingTenantHeader)
		}
		return nil, false, apperr.Unauthorized(auth.MsgUnauthorized)
	}
	userID, err := r.auth.UserFromAccessToken(c.Bearer)
	if err != nil {
		return nil, false, err
	}
	if c.TenantHeader == "" {
		return nil, false, apperr.Invalid(auth.MsgMissingTenantHeader)
	}
	tenantID, err := uuid.Parse(c.TenantHeader)
	if err != nil {
		return nil, false, apperr.Invalid(auth.MsgInvalidTenantHeader)
	}
	return r.auth.UserViewer(ctx, userID, tenantID, project)
}

// resolveProject sets the viewer's project from the key's or the header's
// (found: the header names a project of the viewer's tenant).
func resolveProject(v *viewer.Viewer, c Credentials, scope Scope, found bool) error {
	if scope != ProjectScoped && scope != ProjectOptional {
		return nil
	}
	if v.KeyProjectID != uuid.Nil {
		if c.HasProject {
			// Compared as UUIDs (any letter case); a non-UUID names no project of the key.
			if pid, err := uuid.Parse(c.ProjectHeader); err != nil || pid != v.KeyProjectID {
				return apperr.Forbidden(MsgProjectKeyMismatch)
			}
		}
		v.ProjectID = v.KeyProjectID
		return nil
	}
	if !c.HasProject {
		if scope == ProjectScoped {
			return apperr.Invalid(MsgProjectHeaderNeeded)
		}
		return nil
	}
	pid, err := uuid.Parse(c.ProjectHeader)
	if err != nil {
		return apperr.Invalid(MsgProjectHeaderUUID)
	}
	// Another tenant's project is indistinguishable from a missing one.
	if !found {
		return apperr.NotFound(MsgProjectNotFound)
	}
	v.ProjectID = pid
	return nil
}
