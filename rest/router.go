package rest

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/agc"
	"github.com/reten-io/reten/internal/apikey"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/audience"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/catalog"
	"github.com/reten-io/reten/internal/commerce"
	"github.com/reten-io/reten/internal/cutoff"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/dispatch"
	"github.com/reten-io/reten/internal/engine"
	"github.com/reten-io/reten/internal/eventfilter"
	"github.com/reten-io/reten/internal/fieldorg"
	"github.com/reten-io/reten/internal/generation"
	"github.com/reten-io/reten/internal/generator"
	"github.com/reten-io/reten/internal/idempotency"
	"github.com/reten-io/reten/internal/project"
	"github.com/reten-io/reten/internal/ratelimit"
	"github.com/reten-io/reten/internal/result"
	"github.com/reten-io/reten/internal/resulttype"
	"github.com/reten-io/reten/internal/snapshot"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/tenant"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/uplift"
	"github.com/reten-io/reten/internal/user"
	"github.com/reten-io/reten/internal/webhook"
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
	Limiter       *ratelimit.Limiter
	Commerces     *commerce.Service
	FieldOrg      *fieldorg.Service
	Trash         *trash.Service
	Dispatch      *dispatch.Service
	Catalog       *catalog.Service
	AGCs          *agc.Service
	Engine        *engine.Service
	Runs          *engine.Runs
	Rules         *generation.Service
	Generator     *generator.Service
	Snapshots     *snapshot.Service
	Dataset       *dataset.Service
	EventFilters  *eventfilter.Service
	Activities    *activity.Service
	SecureCookies bool

	// ResultTypes and TenantSettings serve the result type configs and the day settings.
	ResultTypes    *resulttype.Service
	TenantSettings *cutoff.Service

	// Results registers and updates activity results.
	Results *result.Service

	// Idempotency replays the first response of an Idempotency-Key request.
	Idempotency *idempotency.Service

	// Webhooks manages the webhook endpoints; Uplift measures the
	// generated activities against the holdout.
	Webhooks *webhook.Service
	Uplift   *uplift.Service
}

// Route is a REST route: its line of the authorization matrix and its handler.
type Route struct {
	tenancy.Entry
	handle func(w http.ResponseWriter, r *http.Request) error
}

type api struct{ Deps }

// routes pairs every REST line of the matrix with its handler; a line without
// a handler (or a handler without a line) is a programming error.
func (a *api) routes() []Route {
	hs := a.handlers()
	var out []Route
	for _, e := range tenancy.Matrix {
		if e.IsGraphQL() {
			continue
		}
		h, ok := hs[e.Key()]
		if !ok {
			panic("rest: no handler for " + e.Key())
		}
		delete(hs, e.Key())
		out = append(out, Route{Entry: e, handle: h})
	}
	for k := range hs {
		panic("rest: handler " + k + " is missing from tenancy.Matrix")
	}
	return out
}

// Routes returns the REST routes (for the authorization matrix test and docs).
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
		r.Method(rt.Method, rt.Path, a.guard(rt))
	}
	return r
}

// guard authenticates and resolves tenant and project, then admits the
// request to its matrix line (tenancy.Admit: the project the scope needs,
// then the permission, the SPEC.md order) before the handler decodes the
// body; the handler's services read the access from the context.
func (a *api) guard(rt Route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rt.Scope != tenancy.Public {
			v, err := a.Tenancy.Resolve(r.Context(), CredentialsFrom(r), rt.Scope)
			if err == nil {
				err = a.Limiter.Credential(w, r, v)
			}
			var ctx context.Context
			if err == nil {
				ctx, err = tenancy.Admit(r.Context(), v, rt.Entry)
			}
			if err != nil {
				WriteError(w, r, err)
				return
			}
			r = r.WithContext(ctx)
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
	// An empty x-project-id counts as not sent.
	if v := strings.TrimSpace(r.Header.Get("x-project-id")); v != "" {
		c.HasProject = true
		c.ProjectHeader = v
	}
	return c
}

func urlParam(r *http.Request, name string) string { return chi.URLParam(r, name) }
