package graph_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

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
	eachAcme(t, func(t *testing.T, env *apptest.Env, acme apptest.Tenant, h apptest.Headers) {
		ventas := newProject(t, env, acme.TenantID, "Ventas")
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
