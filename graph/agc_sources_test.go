package graph_test

import (
	"testing"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/demo"
)

// TestAGCSourcesCheckedOverGraphQL: the pillar source check of the service,
// with its paths in GraphQL names.
func TestAGCSourcesCheckedOverGraphQL(t *testing.T) {
	each(t, newAGCSetup, func(t *testing.T, env *apptest.Env, s agcSetup) {
		apptest.DemoDataset(t, env, s.acme.TenantID, demo.Options{Commerces: 3, Products: 2, Events: 5, Transactions: 5})
		in := s.input("Orders")
		act := in["activationConfig"].(M)
		act["sourceTable"], act["dateColumn"], act["aggregationMethod"], act["sourceColumns"] = "transactions", "transacted_at", "sum", L{"status"}
		res := env.GraphQL(`mutation($in: CreateActivityGenerationConfigInput!) { createActivityGenerationConfig(input: $in) { id } }`, M{"in": in}, s.ph)
		expectInvalid(t, res, "createActivityGenerationConfig",
			`activationConfig.sourceColumns[0] must be a numeric column for the sum method`,
			`engagementConfig.sourceTable "orders" is not a table of the dataset catalog`,
			`resurrectionConfig.sourceTable "orders" is not a table of the dataset catalog`)
	})
}
