package rest_test

import (
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

// TestTenantIsolation: a second tenant's token or key sees nothing of the
// first, and another tenant's ids answer 404.
func TestTenantIsolation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		acmeRoot := rootAudience(t, env, acme.ProjectID)
		betaJWT := apptest.JWT(env.Login(beta.Email), beta.TenantID, uuid.Nil)
		betaKey, _ := env.CreateKey(beta.TenantID, beta.UserID, uuid.Nil, auth.PermProjectView, auth.PermProjectUpdate, auth.PermAudienceView)
		betaProjectKey, _ := env.CreateKey(beta.TenantID, beta.UserID, beta.ProjectID, auth.PermAudienceView)

		for name, h := range map[string]apptest.Headers{"token": betaJWT, "key": apptest.Key(betaKey)} {
			t.Run(name, func(t *testing.T) {
				res := env.Do("GET", "/api/projects", nil, h)
				var ps []projectBody
				res.JSON(t, &ps)
				if res.Status != 200 || len(ps) != 1 || ps[0].ID != beta.ProjectID {
					t.Fatalf("projects: %d %s", res.Status, res.Body)
				}
				apptest.ExpectError(t, env.Do("PATCH", "/api/projects/"+acme.ProjectID.String(), map[string]string{"name": "Mine"}, h),
					404, "El proyecto no existe.")
				apptest.ExpectError(t, env.Do("GET", "/api/audience-criterias/"+acmeRoot.String(), nil, h.With("x-project-id", acme.ProjectID.String())),
					404, "El proyecto no existe.")
				apptest.ExpectError(t, env.Do("GET", "/api/audience-criterias/"+acmeRoot.String(), nil, h.With("x-project-id", beta.ProjectID.String())),
					404, "Audience criteria not found")
			})
		}
		apptest.ExpectError(t, env.Do("GET", "/api/audience-criterias/"+acmeRoot.String(), nil, apptest.Key(betaProjectKey)),
			404, "Audience criteria not found")
		// A key of Beta cannot switch tenant with x-tenant-id.
		res := env.Do("GET", "/api/projects", nil, apptest.Key(betaKey).With("x-tenant-id", acme.TenantID.String()))
		var ps []projectBody
		res.JSON(t, &ps)
		if res.Status != 200 || len(ps) != 1 || ps[0].ID != beta.ProjectID {
			t.Fatalf("key with a foreign x-tenant-id: %d %s", res.Status, res.Body)
		}
		p, err := env.App.DB.Client.Project.Get(sys, acme.ProjectID)
		if err != nil || p.Name != "Principal" {
			t.Fatalf("acme's project changed: %v %v", p, err)
		}
	})
}

// TestProjectKeyReachesOnlyItsProjectsDispatchConfigs: dispatch configs are
// tenant-level routes with the project in the path; a project-scoped key
// still reaches only its own project.
func TestProjectKeyReachesOnlyItsProjectsDispatchConfigs(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		other := secondProject(t, env, acme.TenantID, "Ventas")
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		provider := dispatchOK(t, env.Do("POST", "/api/dispatch-providers", map[string]any{"name": "Log", "channel": "SMS", "kind": "log"}, h), 201)["id"]
		key, _ := env.CreateKey(acme.TenantID, acme.UserID, acme.ProjectID, auth.PermDispatchView, auth.PermDispatchManage)
		body := map[string]any{"provider_id": provider}

		dispatchOK(t, env.Do("PUT", "/api/projects/"+acme.ProjectID.String()+"/dispatch-configs/SMS", body, apptest.Key(key)), 201)
		apptest.ExpectError(t, env.Do("PUT", "/api/projects/"+other.ID.String()+"/dispatch-configs/SMS", body, apptest.Key(key)),
			404, "El proyecto no existe.")
		apptest.ExpectError(t, env.Do("GET", "/api/projects/"+other.ID.String()+"/dispatch-configs", nil, apptest.Key(key)),
			404, "El proyecto no existe.")
		// A user session (or a tenant key) reaches every project of the tenant.
		dispatchOK(t, env.Do("PUT", "/api/projects/"+other.ID.String()+"/dispatch-configs/SMS", body, h), 201)
	})
}
