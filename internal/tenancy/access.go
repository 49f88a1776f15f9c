package tenancy

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/viewer"
)

// Access is what admitting a request to its line of Matrix resolved: the
// line, the principal, and the tenant and project the operation acts in.
// The two guards (the REST router and the GraphQL field guard) admit every
// request with Admit; services read the access with From and never restate
// a line's permission or scope.
type Access struct {
	// Entry is the admitted line of Matrix.
	Entry Entry
	// Viewer is the principal: the user, or the API key and its owner.
	Viewer *viewer.Viewer
	// TenantID is the active tenant.
	TenantID uuid.UUID
	// ProjectID is the project the operation acts in: the active project of
	// a project-scoped line, that of a project-optional line when the
	// request names one, uuid.Nil otherwise (a tenant-level line acts in
	// the whole tenant).
	ProjectID uuid.UUID
}

// UserID returns the acting user (the owner of an API key).
func (a Access) UserID() uuid.UUID {
	if a.Viewer == nil {
		return uuid.Nil
	}
	return a.Viewer.UserID
}

// Actor returns the acting user for the created_by and actor columns, nil
// when there is none.
func (a Access) Actor() *uuid.UUID {
	if id := a.UserID(); id != uuid.Nil {
		return &id
	}
	return nil
}

// TenantWide returns ctx for the reads of a tenant-level operation whose
// references may name rows of any project of the tenant (a snapshot's AGC,
// the results sync). GraphQL keeps the request's project (x-project-id, or
// a project key's) on the viewer for the whole request, so that the edges a
// document selects stay narrowed to it; a tenant-level operation's own
// references must not be, as on REST, whose tenant-level routes carry no
// project. For any other scope ctx is returned as it is.
func (a Access) TenantWide(ctx context.Context) context.Context {
	v := viewer.FromContext(ctx)
	if a.Entry.Scope != TenantLevel || v == nil || v.ProjectID == uuid.Nil {
		return ctx
	}
	wide := *v
	wide.ProjectID = uuid.Nil
	return viewer.NewContext(ctx, &wide)
}

type accessKey struct{}

// ErrNoAccess is the cause of the error From returns for a context that no
// line was admitted to.
var ErrNoAccess = errors.New("tenancy: no matrix line admitted in this context (enter one with tenancy.Enter)")

// From returns the access of ctx. A context that was admitted to no line
// is refused with a 500 wrapping ErrNoAccess, whatever its viewer may
// hold: a service never runs unguarded. The guards admit every request;
// any other caller (a background job, `reten demo`, a test) enters the
// line of the operation it performs with Enter, which applies the guards'
// checks. A service called by another within an operation runs under that
// operation's access.
func From(ctx context.Context) (Access, error) {
	if a, ok := ctx.Value(accessKey{}).(Access); ok {
		return a, nil
	}
	return Access{}, apperr.Internal(ErrNoAccess)
}

// Actor returns the acting user of the access of ctx for the created_by,
// owner and actor columns; nil without one (the system: a background job).
func Actor(ctx context.Context) *uuid.UUID {
	a, err := From(ctx)
	if err != nil {
		return nil
	}
	return a.Actor()
}

// MsgSessionOnlyFmt is the 403 of an operation API keys cannot perform
// (%s: what it does, "administer tenants").
const MsgSessionOnlyFmt = "This operation needs a user session; API keys cannot %s"

// Session returns the principal of the access of ctx when it is a user
// session; an API key is refused with 403 refusal.
func Session(ctx context.Context, refusal string) (*viewer.Viewer, error) {
	a, err := From(ctx)
	if err != nil {
		return nil, err
	}
	if a.Viewer.IsAPIKey() {
		return nil, apperr.Forbidden(refusal)
	}
	return a.Viewer, nil
}

// Tenant returns the tenant of the access of ctx (see From).
func Tenant(ctx context.Context) (uuid.UUID, error) {
	a, err := From(ctx)
	return a.TenantID, err
}

// Project returns the tenant and project of the access of ctx (see From),
// for the services that act in one project: an access without a project
// (any line but a project-scoped one) is the SPEC.md 400, so such a service
// never acts tenant-wide by mistake.
func Project(ctx context.Context) (tenantID, projectID uuid.UUID, err error) {
	a, err := From(ctx)
	if err != nil {
		return uuid.Nil, uuid.Nil, err
	}
	if a.ProjectID == uuid.Nil {
		return uuid.Nil, uuid.Nil, apperr.Invalid(MsgProjectHeaderNeeded)
	}
	return a.TenantID, a.ProjectID, nil
}

// Admit checks the viewer v against line e in the SPEC.md order (the
// project the scope needs, then the permission) and returns ctx carrying v
// and the access. The guards call it once they have authenticated the
// request and resolved its project; it is the only place that applies a
// line's scope and permission.
func Admit(ctx context.Context, v *viewer.Viewer, e Entry) (context.Context, error) {
	if v == nil || v.TenantID == uuid.Nil {
		return ctx, apperr.Unauthorized(auth.MsgUnauthorized)
	}
	if e.Scope == ProjectScoped && v.ProjectID == uuid.Nil {
		return ctx, apperr.Invalid(MsgProjectHeaderNeeded)
	}
	if e.Permission != "" {
		if err := auth.Require(v, e.Permission); err != nil {
			return ctx, err
		}
	}
	a := Access{Entry: e, Viewer: v, TenantID: v.TenantID}
	if e.Scope == ProjectScoped || e.Scope == ProjectOptional {
		a.ProjectID = v.ProjectID
	}
	return context.WithValue(viewer.NewContext(ctx, v), accessKey{}, a), nil
}

// Enter admits the viewer of ctx to the line key (see Entry.Key), as a
// guard would: for the callers that no guard admitted.
func Enter(ctx context.Context, key string) (context.Context, error) {
	e, ok := Lookup(key)
	if !ok {
		return ctx, apperr.Internal(fmt.Errorf("tenancy: no matrix line %q", key))
	}
	return Admit(ctx, viewer.FromContext(ctx), e)
}

// EnterAsSuperAdmin admits a super_admin of tenantID (userID; uuid.Nil for
// the system) in projectID (uuid.Nil for a tenant-level line) to line, as
// a guard would: for the trusted callers that act for a tenant without a
// request (`reten demo`, the engine's runs, tests).
func EnterAsSuperAdmin(ctx context.Context, userID, tenantID, projectID uuid.UUID, line string) (context.Context, error) {
	return Enter(viewer.NewContext(ctx, &viewer.Viewer{UserID: userID, TenantID: tenantID, ProjectID: projectID,
		Roles: []string{auth.RoleSuperAdmin}, Permissions: auth.PermissionsOf([]string{auth.RoleSuperAdmin})}), line)
}
