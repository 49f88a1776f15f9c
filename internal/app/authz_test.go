package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"github.com/reten-io/reten/graph/generated"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/project"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/viewer"
	"github.com/reten-io/reten/rest"
)

// TestMatrixCoversEveryRouteAndOperation fails when a REST route or a GraphQL
// root field exists without its line in tenancy.Matrix (or the reverse).
func TestMatrixCoversEveryRouteAndOperation(t *testing.T) {
	var want, got []string
	for _, e := range tenancy.Matrix {
		want = append(want, e.Key())
	}
	router, ok := rest.NewRouter(rest.Deps{}).(chi.Routes)
	if !ok {
		t.Fatal("the REST router is not a chi router")
	}
	if err := chi.Walk(router, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		got = append(got, method+" "+route)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	for _, typ := range []string{"Query", "Mutation"} {
		for _, f := range schema.Types[typ].Fields {
			if !strings.HasPrefix(f.Name, "__") {
				got = append(got, typ+"."+f.Name)
			}
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(want, got) {
		t.Fatalf("matrix and router/schema differ:\nmatrix: %v\nserved: %v", want, got)
	}
}

// fixture is tenant A's data that every probe points at, and tenant B's
// super_admin who must never reach it.
type fixture struct {
	env            *apptest.Env
	a, b           apptest.Tenant
	aToken, bToken string
	aRoot          uuid.UUID
	aUser          uuid.UUID
	aKey           uuid.UUID
	aOperator      string // tenant A's operator, route and supervisor (field organisation probes)
	aRoute         string
	aSupervisor    string
}

// probe is how to call one matrix line: a REST request or a GraphQL operation,
// and what another tenant's super_admin must get.
type probe struct {
	body      func() any
	path      func(f *fixture) string // REST path with tenant A's ids; nil = the matrix path
	id        func(f *fixture) string // with a nil path: tenant A's record in place of the matrix path's {id}
	query     string                  // GraphQL document
	vars      func(f *fixture) map[string]any
	crossCode int    // REST status for B on A's resource; 0 = a list or creation (B's own data)
	crossMsg  string // message of that error
	// extra are permissions the allowed call needs beyond the line's, by
	// design: a restore also needs the delete permission of the record's
	// kind, node and nodes need the read permission of the probed entity.
	extra []string
	// session marks the lines API keys cannot call (SPEC.md: they need a
	// user session); their exact-permission run is a user's.
	session bool
}

var seq int

func unique(prefix string) string {
	seq++
	return fmt.Sprintf("%s%d%s", prefix, seq, uuid.NewString()[:6])
}

// probes holds how to call each matrix line; each authz_<domain>_test.go
// adds its domain's probes in an init function.
var probes = map[string]probe{}

// aCtx is tenant A's data-layer context.
func (f *fixture) aCtx() context.Context {
	return viewer.NewContext(context.Background(), &viewer.Viewer{TenantID: f.a.TenantID, UserID: f.a.UserID})
}

// call sends the probe for entry e with headers h (project header added for
// project-scoped lines when project is set).
func (f *fixture) call(e tenancy.Entry, p probe, h apptest.Headers) *apptest.Response {
	if e.IsGraphQL() {
		var vars map[string]any
		if p.vars != nil {
			vars = p.vars(f)
		}
		return f.env.GraphQL(p.query, vars, h)
	}
	path := e.Path
	switch {
	case p.path != nil:
		path = p.path(f)
	case p.id != nil:
		path = strings.Replace(path, "{id}", p.id(f), 1)
	}
	var body any
	if p.body != nil {
		body = p.body()
	}
	return f.env.Do(e.Method, "/api"+path, body, h)
}

// gqlErr is one GraphQL error of a response.
type gqlErr struct {
	Message    string `json:"message"`
	Path       []any  `json:"path"`
	Extensions struct {
		StatusCode int `json:"statusCode"`
	} `json:"extensions"`
}

// gqlErrors returns the GraphQL errors of a response.
func gqlErrors(t *testing.T, res *apptest.Response) []gqlErr {
	t.Helper()
	var out struct {
		Errors []gqlErr `json:"errors"`
	}
	if err := json.Unmarshal(res.Body, &out); err != nil {
		t.Fatalf("graphql body %s: %v", res.Body, err)
	}
	return out.Errors
}

// gqlError returns the first GraphQL error's message and statusCode.
func gqlError(t *testing.T, res *apptest.Response) (string, int) {
	t.Helper()
	errs := gqlErrors(t, res)
	if len(errs) == 0 {
		return "", 0
	}
	return errs[0].Message, errs[0].Extensions.StatusCode
}

// expect checks a REST envelope or a GraphQL error against status and message.
func expect(t *testing.T, e tenancy.Entry, res *apptest.Response, status int, msg string) {
	t.Helper()
	if !e.IsGraphQL() {
		apptest.ExpectError(t, res, status, msg)
		return
	}
	if res.Status != http.StatusOK && res.Status != status {
		t.Fatalf("graphql HTTP status = %d, want %d; body %s", res.Status, status, res.Body)
	}
	gotMsg, gotStatus := gqlError(t, res)
	if gotStatus != status || gotMsg != msg {
		t.Fatalf("graphql error = %d %q, want %d %q; body %s", gotStatus, gotMsg, status, msg, res.Body)
	}
}

// TestAuthorizationMatrix walks every line of the matrix: without
// credentials, with a key lacking the permission, as another tenant, and
// allowed twice: with exactly the line's permission, then as tenant A's
// super_admin.
func TestAuthorizationMatrix(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newFixture(t, env)
		for _, e := range tenancy.Matrix {
			if e.Method == "GET" && e.Path == "/openapi.yaml" || e.Scope == tenancy.Public && !e.IsGraphQL() {
				continue // public routes have their own tests (auth_test.go, openapi_test.go)
			}
			pr, ok := probes[e.Key()]
			if !ok {
				t.Fatalf("no probe for %s: add one to probes", e.Key())
			}
			t.Run(e.Key(), func(t *testing.T) {
				f.aKey = f.newKey(f.a.UserID)
				withProject := func(h apptest.Headers, pid uuid.UUID) apptest.Headers {
					if e.Scope == tenancy.ProjectScoped {
						return h.With("x-project-id", pid.String())
					}
					return h
				}

				// 1. No credentials.
				expect(t, e, f.call(e, pr, nil), 400, "Missing required header: x-tenant-id")
				expect(t, e, f.call(e, pr, apptest.Headers{"x-tenant-id": f.a.TenantID.String()}), 401, "Unauthorized")

				// 2. A key without the permission.
				if e.Permission != "" {
					other := auth.PermProjectView
					if e.Permission == other {
						other = auth.PermUserView
					}
					plain, _ := env.CreateKey(f.a.TenantID, f.a.UserID, uuid.Nil, other)
					expect(t, e, f.call(e, pr, withProject(apptest.Key(plain), f.a.ProjectID)), 403, "Required permissions: "+e.Permission)
				}

				// 3. Another tenant's super_admin.
				bh := withProject(apptest.JWT(f.bToken, f.b.TenantID, uuid.Nil), f.b.ProjectID)
				if pr.crossCode != 0 {
					expect(t, e, f.call(e, pr, bh), pr.crossCode, pr.crossMsg)
				} else if res := f.call(e, pr, bh); strings.Contains(string(res.Body), f.a.TenantID.String()) && e.Path != "/tenant/mine" ||
					strings.Contains(string(res.Body), f.a.ProjectID.String()) || strings.Contains(string(res.Body), f.aRoot.String()) {
					t.Fatalf("tenant B saw tenant A's ids: %s", res.Body)
				}

				// 4. Allowed with exactly the line's permission (plus the
				// probe's extra ones, which the line needs by design).
				h, owner := f.exactCaller(t, e, pr)
				f.aKey = f.newKey(owner)
				expectAllowed(t, e, f.call(e, pr, withProject(h, f.a.ProjectID)), true)

				// 5. Allowed: tenant A's super_admin.
				f.aKey = f.newKey(f.a.UserID)
				expectAllowed(t, e, f.call(e, pr, withProject(apptest.JWT(f.aToken, f.a.TenantID, uuid.Nil), f.a.ProjectID)), false)
			})
		}
	})
}

// newFixture bootstraps tenants A and B and tenant A's field organisation
// records (operator, route with the operator, supervisor).
func newFixture(t *testing.T, env *apptest.Env) *fixture {
	t.Helper()
	f := &fixture{env: env, a: env.Bootstrap("Acme"), b: env.Bootstrap("Beta")}
	f.aToken, f.bToken = env.Login(f.a.Email), env.Login(f.b.Email)
	p, err := env.App.DB.Client.Project.Get(viewer.SystemContext(context.Background()), f.a.ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	f.aRoot = *p.RootAudienceID
	f.aUser = env.CreateUser(f.a.TenantID, "vito", auth.RoleViewer).ID
	if _, err := project.Create(viewer.SystemContext(context.Background()), env.App.DB.Client, f.b.TenantID, "Extra", false, uuid.Nil); err != nil {
		t.Fatal(err)
	}
	aHeaders := apptest.JWT(f.aToken, f.a.TenantID, uuid.Nil)
	for _, c := range []struct {
		path string
		body map[string]any
		dst  *string
	}{
		{"/api/operators", map[string]any{"type": "SALESMAN", "name": "Probe"}, &f.aOperator},
		{"/api/routes", map[string]any{"code": "PROBE", "name": "Probe"}, &f.aRoute},
		{"/api/supervisors", map[string]any{"name": "Probe"}, &f.aSupervisor},
	} {
		res := env.Do("POST", c.path, c.body, aHeaders)
		if res.Status != 201 {
			t.Fatalf("fixture %s: %d %s", c.path, res.Status, res.Body)
		}
		*c.dst = res.Map(t)["id"].(string)
	}
	if res := env.Do("POST", "/api/routes/"+f.aRoute+"/operators", map[string]any{"operator_id": f.aOperator}, aHeaders); res.Status != 201 {
		t.Fatalf("fixture link: %d %s", res.Status, res.Body)
	}
	return f
}

// newKey stores a tenant-A key owned by owner (the key the API key probes
// name: its owner may manage it).
func (f *fixture) newKey(owner uuid.UUID) uuid.UUID {
	_, k := f.env.CreateKey(f.a.TenantID, owner, uuid.Nil, auth.PermProjectView)
	return k.ID
}

// exactCaller returns the headers of a tenant-A caller holding exactly the
// line's permission and the probe's extra ones, and the caller's user. It
// is a tenant key holding only them; an API key never holds api-key:manage
// (auth.KeyViewer) and session lines refuse keys, so those run as a user of
// the least role that holds the permissions (roles are fixed bundles).
func (f *fixture) exactCaller(t *testing.T, e tenancy.Entry, pr probe) (apptest.Headers, uuid.UUID) {
	t.Helper()
	perms := slices.DeleteFunc(append([]string{e.Permission}, pr.extra...), func(p string) bool { return p == "" })
	if !pr.session && !slices.Contains(perms, auth.PermAPIKeyManage) {
		plain, _ := f.env.CreateKey(f.a.TenantID, f.a.UserID, uuid.Nil, perms...)
		return apptest.Key(plain), f.a.UserID
	}
	for i := len(auth.Hierarchy) - 1; i >= 0; i-- {
		role := auth.Hierarchy[i]
		held := auth.PermissionsOf([]string{role})
		if slices.ContainsFunc(perms, func(p string) bool { return !slices.Contains(held, p) }) {
			continue
		}
		u := f.env.CreateUser(f.a.TenantID, unique(strings.ReplaceAll(role, "_", "")), role)
		return apptest.JWT(f.env.Login(u.Email), f.a.TenantID, uuid.Nil), u.ID
	}
	t.Fatalf("no role holds %v", perms)
	return nil, uuid.Nil
}

// expectAllowed fails when an allowed call was refused (401, 403) or
// failed (5xx); a GraphQL call must answer without an error, except, when
// nested is true, on fields below the root field: the caller of the
// exact-permission run may lack the read permission of an entity the
// probe's document selects, which the field guard refuses on that field.
func expectAllowed(t *testing.T, e tenancy.Entry, res *apptest.Response, nested bool) {
	t.Helper()
	if res.Status == 401 || res.Status == 403 || res.Status >= 500 {
		t.Fatalf("allowed call: %d %s", res.Status, res.Body)
	}
	if !e.IsGraphQL() {
		return
	}
	for _, ge := range gqlErrors(t, res) {
		if nested && len(ge.Path) > 1 && ge.Extensions.StatusCode < 500 {
			continue
		}
		t.Fatalf("allowed call: graphql error %d %q at %v; body %s", ge.Extensions.StatusCode, ge.Message, ge.Path, res.Body)
	}
}
