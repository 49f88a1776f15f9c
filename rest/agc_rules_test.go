package rest_test

import (
	"fmt"
	"testing"

	"github.com/reten-io/reten/internal/apptest"
)

// TestAGCStatusStageNameTrimAndPatchOrder: a pillar child must reference a
// status config of its pillar's stage; names are trimmed (so " Foo " and
// "Foo" collide); a null name is empty; another project's AGC answers 404
// whatever the PATCH body says.
func TestAGCStatusStageNameTrimAndPatchOrder(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAGCFix(t, env, "Acme")

		// An engagement status on an activation moment.
		b := f.createBody("Wrong stage")
		moments := b["activation"].(map[string]any)["moments"].([]any)
		moments[0] = map[string]any{"status_code": "low", "user_retention_status_config_id": f.status["low"], "priority": 2}
		apptest.ExpectError(t, env.Do("POST", "/api/activity-generation-configs", b, f.h), 400,
			[]string{`activation.moments.0.user_retention_status_config_id must reference an active retention status config with code "low"`})

		created := f.create(t, "  Retail  ")
		if created["name"] != "Retail" {
			t.Fatalf("name = %q, want it trimmed", created["name"])
		}
		apptest.ExpectError(t, env.Do("POST", "/api/activity-generation-configs", f.createBody("Retail"), f.h), 409,
			`An activity generation config with name "Retail" already exists`)

		path := fmt.Sprintf("/api/activity-generation-configs/%v", created["id"])
		apptest.ExpectError(t, env.Do("PATCH", path, map[string]any{"name": nil}, f.h), 400, []string{"name should not be empty"})

		other := secondProject(t, env, f.tenant.TenantID, "Ventas")
		oh := f.h.With("x-project-id", other.ID.String())
		apptest.ExpectError(t, env.Do("PATCH", path, map[string]any{"name": ""}, oh), 404,
			fmt.Sprintf("Activity generation config %v not found", created["id"]))
	})
}
