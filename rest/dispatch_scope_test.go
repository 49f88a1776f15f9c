package rest_test

import (
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

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
