package graph_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/project"
	"github.com/reten-io/reten/internal/viewer"
)

// M and L build expected JSON documents.
type (
	M = map[string]any
	L = []any
)

// canon returns the canonical JSON of v (a JSON string, raw bytes or a Go
// value): objects with sorted keys, numbers as JSON numbers.
func canon(t testing.TB, v any) string {
	t.Helper()
	var raw []byte
	switch x := v.(type) {
	case string:
		raw = []byte(x)
	case []byte:
		raw = x
	case json.RawMessage:
		raw = x
	default:
		b, err := json.Marshal(x)
		if err != nil {
			t.Fatalf("encode %#v: %v", v, err)
		}
		raw = b
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("not JSON: %v: %s", err, raw)
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// expectBody asserts the HTTP status and the whole JSON body.
func expectBody(t testing.TB, res *apptest.Response, status int, want any) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status = %d, want %d; body %s", res.Status, status, res.Body)
	}
	if g, w := canon(t, res.Body), canon(t, want); g != w {
		t.Fatalf("body = %s\nwant   %s", g, w)
	}
}

// expectData asserts a 200 answer with exactly this data and no errors.
func expectData(t testing.TB, res *apptest.Response, data any) {
	t.Helper()
	expectBody(t, res, http.StatusOK, M{"data": data})
}

// expectUnordered asserts a 200 answer with exactly this data and these
// errors in any order (sibling fields resolve concurrently).
func expectUnordered(t testing.TB, res *apptest.Response, data any, errs L) {
	t.Helper()
	if res.Status != http.StatusOK {
		t.Fatalf("status = %d, want 200; body %s", res.Status, res.Body)
	}
	var body struct {
		Data   json.RawMessage   `json:"data"`
		Errors []json.RawMessage `json:"errors"`
	}
	res.JSON(t, &body)
	got := make([]string, len(body.Errors))
	for i, e := range body.Errors {
		got[i] = canon(t, e)
	}
	want := make([]string, len(errs))
	for i, e := range errs {
		want[i] = canon(t, e)
	}
	slices.Sort(got)
	slices.Sort(want)
	if canon(t, body.Data) != canon(t, data) || !slices.Equal(got, want) {
		t.Fatalf("body = %s\nwant data %s\nand errors %v", res.Body, canon(t, data), want)
	}
}

// fieldError is the GraphQL error of a resolver failing with a typed error.
func fieldError(path L, message, code string, status int) M {
	return M{"message": message, "path": path, "extensions": M{"code": code, "statusCode": status}}
}

// preError is the body of a request rejected before execution.
func preError(message, code string, status int) M {
	return M{"errors": L{M{"message": message, "extensions": M{"code": code, "statusCode": status}}}}
}

func sysCtx() context.Context { return viewer.SystemContext(context.Background()) }

// newProject adds a (non-main) project with its root audience to tenantID.
func newProject(t testing.TB, env *apptest.Env, tenantID uuid.UUID, name string) uuid.UUID {
	t.Helper()
	p, err := project.Create(sysCtx(), env.App.DB.Client, tenantID, name, false, uuid.Nil)
	if err != nil {
		t.Fatalf("create project %q: %v", name, err)
	}
	return p.ID
}

// rootAudience returns the root audience id of a project.
func rootAudience(t testing.TB, env *apptest.Env, projectID uuid.UUID) uuid.UUID {
	t.Helper()
	p, err := env.App.DB.Client.Project.Get(sysCtx(), projectID)
	if err != nil {
		t.Fatalf("load project: %v", err)
	}
	if p.RootAudienceID == nil {
		t.Fatalf("project %s has no root audience", projectID)
	}
	return *p.RootAudienceID
}

// projectName reads a project's name from the database.
func projectName(t testing.TB, env *apptest.Env, projectID uuid.UUID) string {
	t.Helper()
	p, err := env.App.DB.Client.Project.Get(sysCtx(), projectID)
	if err != nil {
		t.Fatalf("load project: %v", err)
	}
	return p.Name
}

func addMembership(t testing.TB, env *apptest.Env, tenantID, userID uuid.UUID, roles ...string) {
	t.Helper()
	if err := env.App.DB.Client.Membership.Create().SetTenantID(tenantID).SetUserID(userID).
		SetRoles(roles).Exec(sysCtx()); err != nil {
		t.Fatalf("add membership: %v", err)
	}
}

const viewerQuery = `query {
  viewer {
    user { id email username }
    roles
    permissions
    tenants { id name }
    projects { id name isMain rootAudienceID }
    activeTenantID
    activeProjectID
    isAPIKey
  }
}`

func strs(list []string) L {
	out := L{}
	for _, s := range list {
		out = append(out, s)
	}
	return out
}

func TestViewer(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		// The Acme admin is also a viewer of Beta.
		addMembership(t, env, beta.TenantID, acme.UserID, auth.RoleViewer)
		ventas := newProject(t, env, acme.TenantID, "Ventas")
		compras := newProject(t, env, acme.TenantID, "Compras")
		token := env.Login(acme.Email)

		user := M{"id": acme.UserID.String(), "email": acme.Email, "username": "acme-admin"}
		tenants := L{
			M{"id": acme.TenantID.String(), "name": "Acme"},
			M{"id": beta.TenantID.String(), "name": "Beta"},
		}
		proj := func(id uuid.UUID, name string, isMain bool) M {
			return M{"id": id.String(), "name": name, "isMain": isMain, "rootAudienceID": rootAudience(t, env, id).String()}
		}
		// Main project first, then by name.
		acmeProjects := L{proj(acme.ProjectID, "Principal", true), proj(compras, "Compras", false), proj(ventas, "Ventas", false)}

		t.Run("jwt without project", func(t *testing.T) {
			res := env.GraphQL(viewerQuery, nil, apptest.JWT(token, acme.TenantID, uuid.Nil))
			expectData(t, res, M{"viewer": M{
				"user":            user,
				"roles":           L{"super_admin"},
				"permissions":     strs(auth.PermissionsOf([]string{"super_admin"})),
				"tenants":         tenants,
				"projects":        acmeProjects,
				"activeTenantID":  acme.TenantID.String(),
				"activeProjectID": nil,
				"isAPIKey":        false,
			}})
		})

		t.Run("jwt with project", func(t *testing.T) {
			res := env.GraphQL(viewerQuery, nil, apptest.JWT(token, acme.TenantID, ventas))
			expectData(t, res, M{"viewer": M{
				"user":            user,
				"roles":           L{"super_admin"},
				"permissions":     strs(auth.PermissionsOf([]string{"super_admin"})),
				"tenants":         tenants,
				"projects":        acmeProjects,
				"activeTenantID":  acme.TenantID.String(),
				"activeProjectID": ventas.String(),
				"isAPIKey":        false,
			}})
		})

		t.Run("jwt in second tenant", func(t *testing.T) {
			res := env.GraphQL(viewerQuery, nil, apptest.JWT(token, beta.TenantID, uuid.Nil))
			expectData(t, res, M{"viewer": M{
				"user":            user,
				"roles":           L{"viewer"},
				"permissions":     strs(auth.PermissionsOf([]string{"viewer"})),
				"tenants":         tenants,
				"projects":        L{proj(beta.ProjectID, "Principal", true)},
				"activeTenantID":  beta.TenantID.String(),
				"activeProjectID": nil,
				"isAPIKey":        false,
			}})
		})

		t.Run("tenant key", func(t *testing.T) {
			// A viewer-role owner: the key's project:update is not effective.
			vera := env.CreateUser(acme.TenantID, "vera", auth.RoleViewer)
			plain, _ := env.CreateKey(acme.TenantID, vera.ID, uuid.Nil,
				auth.PermUserView, auth.PermProjectUpdate, auth.PermProjectView)
			res := env.GraphQL(viewerQuery, nil, apptest.Key(plain))
			expectData(t, res, M{"viewer": M{
				"user":            M{"id": vera.ID.String(), "email": "vera@example.test", "username": "vera"},
				"roles":           L{},
				"permissions":     L{"project:view", "user:view"},
				"tenants":         L{M{"id": acme.TenantID.String(), "name": "Acme"}},
				"projects":        acmeProjects,
				"activeTenantID":  acme.TenantID.String(),
				"activeProjectID": nil,
				"isAPIKey":        true,
			}})
		})

		t.Run("project key", func(t *testing.T) {
			plain, _ := env.CreateKey(acme.TenantID, acme.UserID, ventas, auth.PermActivityView, auth.PermAPIKeyManage)
			res := env.GraphQL(viewerQuery, nil, apptest.Key(plain))
			// api-key:manage is never effective on a key; without project:view
			// the projects list is empty (not an error).
			expectData(t, res, M{"viewer": M{
				"user":            user,
				"roles":           L{},
				"permissions":     L{"activity:view"},
				"tenants":         L{M{"id": acme.TenantID.String(), "name": "Acme"}},
				"projects":        L{},
				"activeTenantID":  acme.TenantID.String(),
				"activeProjectID": ventas.String(),
				"isAPIKey":        true,
			}})
		})
	})
}

func TestPreExecutionErrors(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		ventas := newProject(t, env, acme.TenantID, "Ventas")
		token := env.Login(acme.Email)
		projectKey, _ := env.CreateKey(acme.TenantID, acme.UserID, acme.ProjectID, auth.PermProjectView)
		tenantKey, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermProjectView)
		revokedKey, revoked := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermProjectView)
		if err := env.App.DB.Client.APIKey.UpdateOneID(revoked.ID).SetRevokedAt(time.Now()).Exec(sysCtx()); err != nil {
			t.Fatal(err)
		}
		const q = `{ viewer { activeProjectID } }`

		cases := []struct {
			name    string
			h       apptest.Headers
			status  int
			message string
			code    string
		}{
			{"no credentials", nil, 400, "Missing required header: x-tenant-id", "BAD_REQUEST"},
			{"non-key x-api-key counts as none", apptest.Headers{"x-api-key": "hello"}, 400, "Missing required header: x-tenant-id", "BAD_REQUEST"},
			{"tenant header only", apptest.Headers{"x-tenant-id": acme.TenantID.String()}, 401, "Unauthorized", "UNAUTHENTICATED"},
			{"unknown key", apptest.Key("svc_sk_" + strings.Repeat("0", 48)), 401, "Invalid or revoked API key", "UNAUTHENTICATED"},
			{"revoked key", apptest.Key(revokedKey), 401, "Invalid or revoked API key", "UNAUTHENTICATED"},
			{"jwt without tenant", apptest.Headers{"Authorization": "Bearer " + token}, 400, "Missing required header: x-tenant-id", "BAD_REQUEST"},
			{"jwt with bad tenant", apptest.Headers{"Authorization": "Bearer " + token, "x-tenant-id": "acme"}, 400,
				"The x-tenant-id header must be a valid UUID", "BAD_REQUEST"},
			{"bad jwt", apptest.JWT("not.a.jwt", acme.TenantID, uuid.Nil), 401, "Unauthorized", "UNAUTHENTICATED"},
			{"jwt project not uuid", apptest.JWT(token, acme.TenantID, uuid.Nil).With("x-project-id", "nope"), 400,
				"El header x-project-id debe ser un UUID válido.", "BAD_REQUEST"},
			{"tenant key project not uuid", apptest.Key(tenantKey).With("x-project-id", "nope"), 400,
				"El header x-project-id debe ser un UUID válido.", "BAD_REQUEST"},
			{"jwt other tenant's project", apptest.JWT(token, acme.TenantID, beta.ProjectID), 404, "El proyecto no existe.", "NOT_FOUND"},
			{"jwt unknown project", apptest.JWT(token, acme.TenantID, uuid.New()), 404, "El proyecto no existe.", "NOT_FOUND"},
			{"tenant key other tenant's project", apptest.Key(tenantKey).With("x-project-id", beta.ProjectID.String()), 404,
				"El proyecto no existe.", "NOT_FOUND"},
			{"project key names another project", apptest.Key(projectKey).With("x-project-id", ventas.String()), 403,
				"La API key pertenece a un proyecto distinto del que declara el header x-project-id.", "FORBIDDEN"},
			{"jwt not a member", apptest.JWT(env.Login(beta.Email), acme.TenantID, uuid.Nil), 403,
				"You are not a member of this tenant", "FORBIDDEN"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				expectBody(t, env.GraphQL(q, nil, c.h), c.status, preError(c.message, c.code, c.status))
			})
		}

		t.Run("accepted", func(t *testing.T) {
			expectData(t, env.GraphQL(q, nil, apptest.Key(projectKey)), M{"viewer": M{"activeProjectID": acme.ProjectID.String()}})
			expectData(t, env.GraphQL(q, nil, apptest.Key(projectKey).With("x-project-id", acme.ProjectID.String())),
				M{"viewer": M{"activeProjectID": acme.ProjectID.String()}})
			expectData(t, env.GraphQL(q, nil, apptest.Key(tenantKey).With("x-project-id", ventas.String())),
				M{"viewer": M{"activeProjectID": ventas.String()}})
			expectData(t, env.GraphQL(q, nil, apptest.JWT(token, acme.TenantID, uuid.Nil).With("x-project-id", strings.ToUpper(ventas.String()))),
				M{"viewer": M{"activeProjectID": ventas.String()}})
		})
	})
}

// eachCounting runs fn on SQLite, and on PostgreSQL when TEST_DATABASE_URL
// is set, with an app whose ent client counts the SQL statements it runs.
func eachCounting(t *testing.T, fn func(t *testing.T, env *apptest.Env, statements *atomic.Int64)) {
	kinds := []string{"sqlite"}
	if os.Getenv("TEST_DATABASE_URL") != "" {
		kinds = append(kinds, "postgres")
	}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			var statements atomic.Int64
			env := apptest.NewWith(t, kind, func(c *app.Config) {
				c.EntOptions = []ent.Option{ent.Debug(), ent.Log(func(args ...any) {
					// dialect.Debug logs one line per statement ("... query=... args=...")
					// besides transaction begin/commit lines.
					if strings.Contains(fmt.Sprint(args...), " query=") {
						statements.Add(1)
					}
				})}
			})
			fn(t, env, &statements)
		})
	}
}
