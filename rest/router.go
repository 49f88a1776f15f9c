package rest

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/reten-io/reten/internal/apikey"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/audience"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/project"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/tenant"
	"github.com/reten-io/reten/internal/user"
	"github.com/reten-io/reten/internal/viewer"
)

// Deps are the services the REST adapter calls.
type Deps struct {
	Auth          *auth.Service
	Tenancy       *tenancy.Resolver
	Projects      *project.Service
	Tenants       *tenant.Service
	Audiences     *audience.Service
	APIKeys       *apikey.Service
	Users         *user.Service
	SecureCookies bool
}

// Route is one entry of the REST route table: the single place that states
// each route's scope and permission (the authorization matrix reads it).
type Route struct {
	Method     string
	Pattern    string // relative to /api
	Scope      tenancy.Scope
	Permission string // "" when the route needs none beyond authentication
	handle     func(w http.ResponseWriter, r *http.Request) error
}

type api struct{ Deps }

func (a *api) routes() []Route {
	return []Route{
		{"GET", "/openapi.yaml", tenancy.Public, "", a.openAPI},
		{"POST", "/auth/login", tenancy.Public, "", a.login},
		{"POST", "/auth/refresh", tenancy.Public, "", a.refresh},
		{"POST", "/auth/logout", tenancy.Public, "", a.logout},
		{"POST", "/auth/register", tenancy.TenantLevel, auth.PermUserUpdate, a.register},
		{"GET", "/tenant/mine", tenancy.TenantLevel, "", a.myTenants},
		{"GET", "/tenants", tenancy.TenantLevel, auth.PermTenantManage, a.listTenants},
		{"POST", "/tenants", tenancy.TenantLevel, auth.PermTenantManage, a.createTenant},
		{"PATCH", "/tenants/{id}", tenancy.TenantLevel, auth.PermTenantManage, a.updateTenant},
		{"GET", "/projects", tenancy.TenantLevel, auth.PermProjectView, a.listProjects},
		{"POST", "/projects", tenancy.TenantLevel, auth.PermProjectCreate, a.createProject},
		{"PATCH", "/projects/{id}", tenancy.TenantLevel, auth.PermProjectUpdate, a.renameProject},
		{"POST", "/api-keys", tenancy.TenantLevel, auth.PermAPIKeyManage, a.createAPIKey},
		{"GET", "/api-keys", tenancy.TenantLevel, auth.PermAPIKeyManage, a.listAPIKeys},
		{"GET", "/api-keys/{id}", tenancy.TenantLevel, auth.PermAPIKeyManage, a.getAPIKey},
		{"DELETE", "/api-keys/{id}", tenancy.TenantLevel, auth.PermAPIKeyManage, a.revokeAPIKey},
		{"PUT", "/api-keys/{id}/permissions", tenancy.TenantLevel, auth.PermAPIKeyManage, a.setAPIKeyPermissions},
		{"GET", "/users", tenancy.TenantLevel, auth.PermUserView, a.listUsers},
		{"GET", "/users/{id}", tenancy.TenantLevel, auth.PermUserView, a.getUser},
		{"PATCH", "/users/{id}", tenancy.TenantLevel, auth.PermUserUpdate, a.updateUser},
		{"PUT", "/user/{id}/roles", tenancy.TenantLevel, auth.PermUserUpdate, a.setUserRoles},
		{"GET", "/audience-criterias/{id}", tenancy.ProjectScoped, auth.PermAudienceView, a.getAudience},
	}
}

// Routes returns the route table (without handlers' dependencies), for the
// authorization matrix test and documentation.
func Routes() []Route { return (&api{}).routes() }

// NewRouter returns the /api router.
func NewRouter(d Deps) http.Handler {
	a := &api{Deps: d}
	r := chi.NewRouter()
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		WriteError(w, r, apperr.NotFound(fmt.Sprintf("Cannot %s %s", r.Method, r.URL.Path)))
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		WriteError(w, r, apperr.NotFound(fmt.Sprintf("Cannot %s %s", r.Method, r.URL.Path)))
	})
	for _, rt := range a.routes() {
		r.Method(rt.Method, rt.Pattern, a.guard(rt))
	}
	return r
}

// guard authenticates, resolves tenant and project, then checks the
// permission, in the SPEC.md order, before the handler decodes the body.
func (a *api) guard(rt Route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rt.Scope != tenancy.Public {
			v, err := a.Tenancy.Resolve(r.Context(), CredentialsFrom(r), rt.Scope)
			if err != nil {
				WriteError(w, r, err)
				return
			}
			if rt.Permission != "" {
				if err := auth.Require(v, rt.Permission); err != nil {
					WriteError(w, r, err)
					return
				}
			}
			r = r.WithContext(viewer.NewContext(r.Context(), v))
		}
		if err := rt.handle(w, r); err != nil {
			WriteError(w, r, err)
		}
	})
}

// CredentialsFrom reads the credential headers of a request.
func CredentialsFrom(r *http.Request) tenancy.Credentials {
	c := tenancy.Credentials{
		APIKey:       r.Header.Get("x-api-key"),
		TenantHeader: strings.TrimSpace(r.Header.Get("x-tenant-id")),
	}
	if h := r.Header.Get("Authorization"); len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		c.Bearer = strings.TrimSpace(h[7:])
	}
	if vals, ok := r.Header[http.CanonicalHeaderKey("x-project-id")]; ok && len(vals) > 0 {
		c.HasProject = true
		c.ProjectHeader = strings.TrimSpace(vals[0])
	}
	return c
}

func urlParam(r *http.Request, name string) string { return chi.URLParam(r, name) }
