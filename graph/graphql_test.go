package graph_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
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

const connectionQuery = `query($first: Int, $after: Cursor, $last: Int, $before: Cursor, $orderBy: ProjectOrder, $where: ProjectWhereInput) {
  projects(first: $first, after: $after, last: $last, before: $before, orderBy: $orderBy, where: $where) {
    totalCount
    edges { cursor node { id name isMain } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`

type connection struct {
	Data struct {
		Projects struct {
			TotalCount int `json:"totalCount"`
			Edges      []struct {
				Cursor string `json:"cursor"`
				Node   struct {
					ID     string `json:"id"`
					Name   string `json:"name"`
					IsMain bool   `json:"isMain"`
				} `json:"node"`
			} `json:"edges"`
			PageInfo struct {
				HasNextPage     bool    `json:"hasNextPage"`
				HasPreviousPage bool    `json:"hasPreviousPage"`
				StartCursor     *string `json:"startCursor"`
				EndCursor       *string `json:"endCursor"`
			} `json:"pageInfo"`
		} `json:"projects"`
	} `json:"data"`
	Errors []any `json:"errors"`
}

func queryConnection(t *testing.T, env *apptest.Env, h apptest.Headers, vars M) connection {
	t.Helper()
	res := env.GraphQL(connectionQuery, vars, h)
	if res.Status != http.StatusOK {
		t.Fatalf("status = %d; body %s", res.Status, res.Body)
	}
	var c connection
	res.JSON(t, &c)
	if c.Errors != nil {
		t.Fatalf("errors: %s", res.Body)
	}
	if len(c.Data.Projects.Edges) > 0 {
		pi := c.Data.Projects.PageInfo
		e := c.Data.Projects.Edges
		if pi.StartCursor == nil || *pi.StartCursor != e[0].Cursor || pi.EndCursor == nil || *pi.EndCursor != e[len(e)-1].Cursor {
			t.Fatalf("pageInfo cursors do not match the edges: %s", res.Body)
		}
	}
	return c
}

// names returns "name/isMain" of each edge, with the id checked against ids.
func names(t *testing.T, c connection, ids map[string]uuid.UUID) string {
	t.Helper()
	var out []string
	for _, e := range c.Data.Projects.Edges {
		if ids[e.Node.Name].String() != e.Node.ID {
			t.Fatalf("project %q has id %s, want %s", e.Node.Name, e.Node.ID, ids[e.Node.Name])
		}
		out = append(out, fmt.Sprintf("%s/%t", e.Node.Name, e.Node.IsMain))
	}
	return strings.Join(out, ",")
}

func TestProjectsConnection(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		env.Bootstrap("Beta") // its project never shows in Acme
		ids := map[string]uuid.UUID{
			"Principal": acme.ProjectID,
			"Ventas":    newProject(t, env, acme.TenantID, "Ventas"),
			"Compras":   newProject(t, env, acme.TenantID, "Compras"),
		}
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		asc := M{"field": "NAME", "direction": "ASC"}

		check := func(t *testing.T, c connection, total int, want string, next, prev bool) {
			t.Helper()
			if got := names(t, c, ids); got != want {
				t.Fatalf("projects = %q, want %q", got, want)
			}
			p := c.Data.Projects
			if p.TotalCount != total || p.PageInfo.HasNextPage != next || p.PageInfo.HasPreviousPage != prev {
				t.Fatalf("totalCount=%d hasNext=%t hasPrev=%t, want %d %t %t",
					p.TotalCount, p.PageInfo.HasNextPage, p.PageInfo.HasPreviousPage, total, next, prev)
			}
		}

		t.Run("order by name", func(t *testing.T) {
			check(t, queryConnection(t, env, h, M{"orderBy": asc}), 3, "Compras/false,Principal/true,Ventas/false", false, false)
			check(t, queryConnection(t, env, h, M{"orderBy": M{"field": "NAME", "direction": "DESC"}}), 3,
				"Ventas/false,Principal/true,Compras/false", false, false)
		})

		t.Run("where", func(t *testing.T) {
			check(t, queryConnection(t, env, h, M{"where": M{"nameContainsFold": "VEN"}}), 1, "Ventas/false", false, false)
			check(t, queryConnection(t, env, h, M{"orderBy": asc, "where": M{"isMain": false}}), 2,
				"Compras/false,Ventas/false", false, false)
			check(t, queryConnection(t, env, h, M{"where": M{"nameEqualFold": "principal"}}), 1, "Principal/true", false, false)
			check(t, queryConnection(t, env, h, M{"where": M{"nameContainsFold": "nada"}}), 0, "", false, false)
		})

		t.Run("forward pagination", func(t *testing.T) {
			page1 := queryConnection(t, env, h, M{"first": 2, "orderBy": asc})
			check(t, page1, 3, "Compras/false,Principal/true", true, false)
			page2 := queryConnection(t, env, h, M{"first": 2, "after": *page1.Data.Projects.PageInfo.EndCursor, "orderBy": asc})
			check(t, page2, 3, "Ventas/false", false, true)
			one := queryConnection(t, env, h, M{"first": 1, "after": page1.Data.Projects.Edges[0].Cursor, "orderBy": asc})
			check(t, one, 3, "Principal/true", true, true)
		})

		t.Run("backward pagination", func(t *testing.T) {
			last := queryConnection(t, env, h, M{"last": 2, "orderBy": asc})
			check(t, last, 3, "Principal/true,Ventas/false", false, true)
			before := queryConnection(t, env, h, M{"last": 2, "before": *last.Data.Projects.PageInfo.StartCursor, "orderBy": asc})
			check(t, before, 3, "Compras/false", true, false)
		})
	})
}

const updateMutation = `mutation($id: ID!, $name: String!) {
  updateProject(id: $id, input: {name: $name}) { id name isMain }
}`

func TestUpdateProject(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		ventas := newProject(t, env, acme.TenantID, "Ventas")
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		rename := func(id uuid.UUID, name string, h apptest.Headers) *apptest.Response {
			return env.GraphQL(updateMutation, M{"id": id.String(), "name": name}, h)
		}
		failed := func(t *testing.T, res *apptest.Response, message, code string, status int) {
			t.Helper()
			expectBody(t, res, http.StatusOK, M{"data": nil, "errors": L{fieldError(L{"updateProject"}, message, code, status)}})
		}
		invalid := func(t *testing.T, res *apptest.Response, message string) {
			t.Helper()
			expectBody(t, res, http.StatusOK, M{"data": nil, "errors": L{M{
				"message": message, "path": L{"updateProject"},
				"extensions": M{"code": "BAD_REQUEST", "statusCode": 400, "messages": L{message}},
			}}})
		}

		t.Run("renames", func(t *testing.T) {
			res := rename(acme.ProjectID, "  Central  ", h)
			expectData(t, res, M{"updateProject": M{"id": acme.ProjectID.String(), "name": "Central", "isMain": true}})
			if got := projectName(t, env, acme.ProjectID); got != "Central" {
				t.Fatalf("stored name = %q", got)
			}
			// A project may change its own casing.
			expectData(t, rename(ventas, "VENTAS", h), M{"updateProject": M{"id": ventas.String(), "name": "VENTAS", "isMain": false}})
			expectData(t, rename(ventas, "Ventas", h), M{"updateProject": M{"id": ventas.String(), "name": "Ventas", "isMain": false}})
			// 255 characters is the maximum, counted in characters.
			long := strings.Repeat("ñ", 255)
			expectData(t, rename(ventas, long, h), M{"updateProject": M{"id": ventas.String(), "name": long, "isMain": false}})
			expectData(t, rename(ventas, "Ventas", h), M{"updateProject": M{"id": ventas.String(), "name": "Ventas", "isMain": false}})
		})

		t.Run("name required", func(t *testing.T) {
			invalid(t, rename(ventas, "", h), "El nombre del proyecto es obligatorio.")
			invalid(t, rename(ventas, "   ", h), "El nombre del proyecto es obligatorio.")
		})

		t.Run("name too long", func(t *testing.T) {
			invalid(t, rename(ventas, strings.Repeat("a", 256), h), "El nombre del proyecto no puede superar los 255 caracteres.")
			if got := projectName(t, env, ventas); got != "Ventas" {
				t.Fatalf("stored name = %q, want unchanged", got)
			}
		})

		t.Run("duplicate name", func(t *testing.T) {
			failed(t, rename(acme.ProjectID, "vEnTaS", h), `Ya existe un proyecto con el nombre "vEnTaS".`, "CONFLICT", 409)
			failed(t, rename(acme.ProjectID, " ventas ", h), `Ya existe un proyecto con el nombre "ventas".`, "CONFLICT", 409)
			if got := projectName(t, env, acme.ProjectID); got != "Central" {
				t.Fatalf("stored name = %q, want unchanged", got)
			}
		})

		t.Run("unknown project", func(t *testing.T) {
			failed(t, rename(uuid.New(), "Otro", h), "El proyecto no existe.", "NOT_FOUND", 404)
		})

		t.Run("viewer role lacks project:update", func(t *testing.T) {
			env.CreateUser(acme.TenantID, "vera", auth.RoleViewer)
			vh := apptest.JWT(env.Login("vera"), acme.TenantID, uuid.Nil)
			failed(t, rename(ventas, "Mías", vh), "Required permissions: project:update", "FORBIDDEN", 403)
			// The permission is checked before the body.
			failed(t, rename(ventas, "", vh), "Required permissions: project:update", "FORBIDDEN", 403)
			if got := projectName(t, env, ventas); got != "Ventas" {
				t.Fatalf("stored name = %q, want unchanged", got)
			}
		})

		t.Run("key without project:view", func(t *testing.T) {
			plain, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermActivityView)
			res := env.GraphQL(`{ projects { totalCount } }`, nil, apptest.Key(plain))
			expectBody(t, res, http.StatusOK, M{"data": nil, "errors": L{
				fieldError(L{"projects"}, "Required permissions: project:view", "FORBIDDEN", 403),
			}})
		})

		t.Run("key with project:view and project:update", func(t *testing.T) {
			plain, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermProjectView, auth.PermProjectUpdate)
			expectData(t, rename(ventas, "Ventas 2", apptest.Key(plain)),
				M{"updateProject": M{"id": ventas.String(), "name": "Ventas 2", "isMain": false}})
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

func TestTenantIsolation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		ah := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		bh := apptest.JWT(env.Login(beta.Email), beta.TenantID, uuid.Nil)
		acmeRoot := rootAudience(t, env, acme.ProjectID)

		t.Run("projects connection", func(t *testing.T) {
			q := `query($where: ProjectWhereInput) { projects(where: $where) { totalCount edges { node { id name } } } }`
			expectData(t, env.GraphQL(q, nil, bh), M{"projects": M{"totalCount": 1, "edges": L{
				M{"node": M{"id": beta.ProjectID.String(), "name": "Principal"}},
			}}})
			// Filters cannot widen the tenant.
			for _, where := range []M{{"id": acme.ProjectID.String()}, {"tenantID": acme.TenantID.String()}} {
				expectData(t, env.GraphQL(q, M{"where": where}, bh), M{"projects": M{"totalCount": 0, "edges": L{}}})
			}
		})

		t.Run("node", func(t *testing.T) {
			q := `query($id: ID!) { node(id: $id) { id ... on Project { name } } }`
			for _, id := range []uuid.UUID{acme.ProjectID, acmeRoot, acme.TenantID, acme.UserID} {
				expectBody(t, env.GraphQL(q, M{"id": id.String()}, bh), http.StatusOK, M{
					"data":   M{"node": nil},
					"errors": L{fieldError(L{"node"}, "Node not found", "NOT_FOUND", 404)},
				})
			}
		})

		t.Run("nodes", func(t *testing.T) {
			q := `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Project { name } } }`
			res := env.GraphQL(q, M{"ids": L{acme.ProjectID.String(), beta.ProjectID.String(), uuid.New().String()}}, bh)
			expectData(t, res, M{"nodes": L{nil, M{"id": beta.ProjectID.String(), "name": "Principal"}, nil}})
		})

		t.Run("updateProject", func(t *testing.T) {
			res := env.GraphQL(updateMutation, M{"id": acme.ProjectID.String(), "name": "Hackeado"}, bh)
			expectBody(t, res, http.StatusOK, M{"data": nil, "errors": L{
				fieldError(L{"updateProject"}, "El proyecto no existe.", "NOT_FOUND", 404),
			}})
			q := `query($id: ID!) { node(id: $id) { ... on Project { name } } }`
			expectData(t, env.GraphQL(q, M{"id": acme.ProjectID.String()}, ah), M{"node": M{"name": "Principal"}})
			// Beta may still take the name for its own project: names are unique per tenant.
			expectData(t, env.GraphQL(updateMutation, M{"id": beta.ProjectID.String(), "name": "Ventas"}, bh),
				M{"updateProject": M{"id": beta.ProjectID.String(), "name": "Ventas", "isMain": true}})
			newProject(t, env, acme.TenantID, "Ventas")
		})

		t.Run("foreign tenant header", func(t *testing.T) {
			res := env.GraphQL(`{ viewer { activeTenantID } }`, nil, bh.With("x-tenant-id", acme.TenantID.String()))
			expectBody(t, res, http.StatusForbidden, preError("You are not a member of this tenant", "FORBIDDEN", 403))
		})
	})
}

func TestNode(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		ventas := newProject(t, env, acme.TenantID, "Ventas")
		root := rootAudience(t, env, acme.ProjectID)
		ventasRoot := rootAudience(t, env, ventas)
		admin := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		env.CreateUser(acme.TenantID, "vera", auth.RoleViewer)
		env.CreateUser(acme.TenantID, "otto", auth.RoleOperator)
		vh := apptest.JWT(env.Login("vera"), acme.TenantID, uuid.Nil)
		oh := apptest.JWT(env.Login("otto"), acme.TenantID, uuid.Nil)

		const nodeQ = `query($id: ID!) {
  node(id: $id) {
    __typename
    id
    ... on Project { name isMain rootAudienceID }
    ... on Audience { name isRoot projectID }
    ... on User { username }
  }
}`
		projectNode := M{"node": M{"__typename": "Project", "id": acme.ProjectID.String(), "name": "Principal",
			"isMain": true, "rootAudienceID": root.String()}}
		audienceNode := M{"node": M{"__typename": "Audience", "id": root.String(), "name": "Audiencia raíz",
			"isRoot": true, "projectID": acme.ProjectID.String()}}
		node := func(id uuid.UUID, h apptest.Headers) *apptest.Response {
			return env.GraphQL(nodeQ, M{"id": id.String()}, h)
		}

		t.Run("super_admin", func(t *testing.T) {
			expectData(t, node(acme.ProjectID, admin), projectNode)
			expectData(t, node(root, admin), audienceNode)
			expectData(t, node(acme.UserID, admin), M{"node": M{"__typename": "User", "id": acme.UserID.String(), "username": "acme-admin"}})
			expectBody(t, node(uuid.New(), admin), http.StatusOK, M{"data": M{"node": nil},
				"errors": L{fieldError(L{"node"}, "Node not found", "NOT_FOUND", 404)}})
		})

		t.Run("active project narrows project-owned nodes", func(t *testing.T) {
			inVentas := apptest.JWT(env.Login(acme.Email), acme.TenantID, ventas)
			expectBody(t, node(root, inVentas), http.StatusOK, M{"data": M{"node": nil},
				"errors": L{fieldError(L{"node"}, "Node not found", "NOT_FOUND", 404)}})
			expectData(t, node(ventasRoot, inVentas), M{"node": M{"__typename": "Audience", "id": ventasRoot.String(),
				"name": "Audiencia raíz", "isRoot": true, "projectID": ventas.String()}})
			// Projects themselves are tenant-level.
			expectData(t, node(acme.ProjectID, inVentas), projectNode)
		})

		t.Run("viewer role", func(t *testing.T) {
			expectData(t, node(acme.ProjectID, vh), projectNode)
			expectData(t, node(root, vh), audienceNode)
		})

		t.Run("operator lacks audience-criteria:view", func(t *testing.T) {
			expectData(t, node(acme.ProjectID, oh), projectNode)
			expectBody(t, node(root, oh), http.StatusOK, M{"data": M{"node": nil},
				"errors": L{fieldError(L{"node"}, "Required permissions: audience-criteria:view", "FORBIDDEN", 403)}})
			// nodes fails as a whole on a permission error (only not-found ids become null).
			res := env.GraphQL(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`,
				M{"ids": L{acme.ProjectID.String(), root.String()}}, oh)
			expectBody(t, res, http.StatusOK, M{"data": nil,
				"errors": L{fieldError(L{"nodes"}, "Required permissions: audience-criteria:view", "FORBIDDEN", 403)}})
		})

		t.Run("edges apply the read permission of their type", func(t *testing.T) {
			// node(rootAudience) is forbidden to an operator; so is the same
			// audience through the Project.rootAudience edge.
			const msg = "Required permissions: audience-criteria:view"
			res := env.GraphQL(`{ projects(orderBy: {field: NAME}) { edges { node { name rootAudience { name } } } } }`, nil, oh)
			expectUnordered(t, res, M{"projects": M{"edges": L{
				M{"node": M{"name": "Principal", "rootAudience": nil}},
				M{"node": M{"name": "Ventas", "rootAudience": nil}},
			}}}, L{
				fieldError(L{"projects", "edges", 0, "node", "rootAudience"}, msg, "FORBIDDEN", 403),
				fieldError(L{"projects", "edges", 1, "node", "rootAudience"}, msg, "FORBIDDEN", 403),
			})
			res = env.GraphQL(`{ viewer { projects { name rootAudience { name } } } }`, nil, oh)
			expectUnordered(t, res, M{"viewer": M{"projects": L{
				M{"name": "Principal", "rootAudience": nil},
				M{"name": "Ventas", "rootAudience": nil},
			}}}, L{
				fieldError(L{"viewer", "projects", 0, "rootAudience"}, msg, "FORBIDDEN", 403),
				fieldError(L{"viewer", "projects", 1, "rootAudience"}, msg, "FORBIDDEN", 403),
			})
			// A viewer-role user holds audience-criteria:view.
			res = env.GraphQL(`{ viewer { projects { name rootAudience { name isRoot } } } }`, nil, vh)
			expectData(t, res, M{"viewer": M{"projects": L{
				M{"name": "Principal", "rootAudience": M{"name": "Audiencia raíz", "isRoot": true}},
				M{"name": "Ventas", "rootAudience": M{"name": "Audiencia raíz", "isRoot": true}},
			}}})
		})

		t.Run("key permissions", func(t *testing.T) {
			plain, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermAudienceView)
			expectData(t, node(root, apptest.Key(plain)), audienceNode)
			expectBody(t, node(acme.ProjectID, apptest.Key(plain)), http.StatusOK, M{"data": M{"node": nil},
				"errors": L{fieldError(L{"node"}, "Required permissions: project:view", "FORBIDDEN", 403)}})
		})
	})
}

// TestMutationAuthorizationAndKeyProjectCase: updateProject is authorised by
// project:update alone (as PATCH is), and a project key's own id is accepted
// in any letter case.
func TestMutationAuthorizationAndKeyProjectCase(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")

		t.Run("updateProject needs project:update only", func(t *testing.T) {
			// PATCH /api/projects/:id needs project:update alone; the GraphQL
			// mutation must authorize the same way and name that permission.
			update, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermProjectUpdate)
			expectData(t, env.GraphQL(updateMutation, M{"id": acme.ProjectID.String(), "name": "Central"}, apptest.Key(update)),
				M{"updateProject": M{"id": acme.ProjectID.String(), "name": "Central", "isMain": true}})
			other, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermActivityView)
			expectBody(t, env.GraphQL(updateMutation, M{"id": acme.ProjectID.String(), "name": "Otro"}, apptest.Key(other)),
				http.StatusOK, M{"data": nil, "errors": L{
					fieldError(L{"updateProject"}, "Required permissions: project:update", "FORBIDDEN", 403),
				}})
		})

		t.Run("project key accepts its own id in any case", func(t *testing.T) {
			plain, _ := env.CreateKey(acme.TenantID, acme.UserID, acme.ProjectID, auth.PermProjectView)
			res := env.GraphQL(`{ viewer { activeProjectID } }`, nil,
				apptest.Key(plain).With("x-project-id", strings.ToUpper(acme.ProjectID.String())))
			expectData(t, res, M{"viewer": M{"activeProjectID": acme.ProjectID.String()}})
		})
	})
}

func TestGETTransport(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		get := func(q string, vars M, h apptest.Headers) *apptest.Response {
			path := "/graphql?query=" + url.QueryEscape(q)
			if vars != nil {
				raw, _ := json.Marshal(vars)
				path += "&variables=" + url.QueryEscape(string(raw))
			}
			return env.Do("GET", path, nil, h)
		}

		t.Run("query", func(t *testing.T) {
			expectData(t, get(`{ viewer { activeTenantID isAPIKey } projects { totalCount } }`, nil, h),
				M{"viewer": M{"activeTenantID": acme.TenantID.String(), "isAPIKey": false}, "projects": M{"totalCount": 1}})
		})

		t.Run("variables", func(t *testing.T) {
			expectData(t, get(`query($id: ID!) { node(id: $id) { ... on Project { name } } }`, M{"id": acme.ProjectID.String()}, h),
				M{"node": M{"name": "Principal"}})
		})

		t.Run("mutation refused", func(t *testing.T) {
			res := get(`mutation { updateProject(id: "`+acme.ProjectID.String()+`", input: {name: "Otro"}) { name } }`, nil, h)
			expectBody(t, res, http.StatusNotAcceptable, M{"data": nil, "errors": L{M{"message": "GET requests only allow query operations"}}})
			if got := projectName(t, env, acme.ProjectID); got != "Principal" {
				t.Fatalf("stored name = %q, want unchanged", got)
			}
		})

		t.Run("credentials checked", func(t *testing.T) {
			expectBody(t, get(`{ viewer { isAPIKey } }`, nil, nil), http.StatusBadRequest,
				preError("Missing required header: x-tenant-id", "BAD_REQUEST", 400))
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
