package graph_test

import (
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

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

		// viewer is the Acme admin's viewer on a JWT without a project; each
		// case states what differs from it.
		viewer := func(changes M) M {
			v := M{"user": user, "roles": L{"super_admin"}, "permissions": strs(auth.PermissionsOf([]string{"super_admin"})),
				"tenants": tenants, "projects": acmeProjects, "activeTenantID": acme.TenantID.String(), "activeProjectID": nil,
				"isAPIKey": false}
			maps.Copy(v, changes)
			return M{"viewer": v}
		}
		acmeOnly := L{M{"id": acme.TenantID.String(), "name": "Acme"}}

		t.Run("jwt without project", func(t *testing.T) {
			expectData(t, env.GraphQL(viewerQuery, nil, apptest.JWT(token, acme.TenantID, uuid.Nil)), viewer(nil))
		})

		t.Run("jwt with project", func(t *testing.T) {
			expectData(t, env.GraphQL(viewerQuery, nil, apptest.JWT(token, acme.TenantID, ventas)),
				viewer(M{"activeProjectID": ventas.String()}))
		})

		t.Run("jwt in second tenant", func(t *testing.T) {
			expectData(t, env.GraphQL(viewerQuery, nil, apptest.JWT(token, beta.TenantID, uuid.Nil)), viewer(M{
				"roles": L{"viewer"}, "permissions": strs(auth.PermissionsOf([]string{"viewer"})),
				"projects": L{proj(beta.ProjectID, "Principal", true)}, "activeTenantID": beta.TenantID.String()}))
		})

		t.Run("tenant key", func(t *testing.T) {
			// A viewer-role owner: the key's project:update is not effective.
			vera := env.CreateUser(acme.TenantID, "vera", auth.RoleViewer)
			plain, _ := env.CreateKey(acme.TenantID, vera.ID, uuid.Nil,
				auth.PermUserView, auth.PermProjectUpdate, auth.PermProjectView)
			expectData(t, env.GraphQL(viewerQuery, nil, apptest.Key(plain)), viewer(M{
				"user":  M{"id": vera.ID.String(), "email": "vera@example.test", "username": "vera"},
				"roles": L{}, "permissions": L{"project:view", "user:view"}, "tenants": acmeOnly, "isAPIKey": true}))
		})

		t.Run("project key", func(t *testing.T) {
			plain, _ := env.CreateKey(acme.TenantID, acme.UserID, ventas, auth.PermActivityView, auth.PermAPIKeyManage)
			// api-key:manage is never effective on a key; without project:view
			// the projects list is empty (not an error).
			expectData(t, env.GraphQL(viewerQuery, nil, apptest.Key(plain)), viewer(M{
				"roles": L{}, "permissions": L{"activity:view"}, "tenants": acmeOnly, "projects": L{},
				"activeProjectID": ventas.String(), "isAPIKey": true}))
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
