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
	"fmt"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/project"
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
	client *ent.Client
	auth   *auth.Service
}

// NewResolver returns a Resolver.
func NewResolver(client *ent.Client, a *auth.Service) *Resolver {
	return &Resolver{client: client, auth: a}
}

// Resolve returns the viewer for credentials on an endpoint of the given scope.
func (r *Resolver) Resolve(ctx context.Context, c Credentials, scope Scope) (*viewer.Viewer, error) {
	v, err := r.authenticate(ctx, c)
	if err != nil {
		return nil, err
	}
	if err := r.resolveProject(ctx, v, c, scope); err != nil {
		return nil, err
	}
	return v, nil
}

// authenticate applies the credential rules: a value of x-api-key counts as a
// key only with the svc_sk_ prefix; a JWT needs x-tenant-id naming one of the
// user's tenants.
func (r *Resolver) authenticate(ctx context.Context, c Credentials) (*viewer.Viewer, error) {
	if auth.LooksLikeAPIKey(c.APIKey) {
		return r.auth.KeyViewer(ctx, c.APIKey)
	}
	if c.Bearer == "" {
		if c.TenantHeader == "" {
			return nil, apperr.Invalid(auth.MsgMissingTenantHeader)
		}
		return nil, apperr.Unauthorized(auth.MsgUnauthorized)
	}
	userID, err := r.auth.UserFromAccessToken(c.Bearer)
	if err != nil {
		return nil, err
	}
	if c.TenantHeader == "" {
		return nil, apperr.Invalid(auth.MsgMissingTenantHeader)
	}
	tenantID, err := uuid.Parse(c.TenantHeader)
	if err != nil {
		return nil, apperr.Invalid(auth.MsgInvalidTenantHeader)
	}
	return r.auth.UserViewer(ctx, userID, tenantID)
}

func (r *Resolver) resolveProject(ctx context.Context, v *viewer.Viewer, c Credentials, scope Scope) error {
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
	// The lookup runs as the viewer: the data layer adds the tenant filter,
	// so another tenant's project is indistinguishable from a missing one.
	ok, err := r.client.Project.Query().Where(project.ID(pid)).Exist(viewer.NewContext(ctx, v))
	if err != nil {
		return fmt.Errorf("resolve project: %w", err)
	}
	if !ok {
		return apperr.NotFound(MsgProjectNotFound)
	}
	v.ProjectID = pid
	return nil
}
