package graph_test

import (
	"strings"
	"testing"
	"time"

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

// TestLifecycleSQLOverGraphQL: the classification statement through the
// same service, the dialect an enum, the instant a Time.
func TestLifecycleSQLOverGraphQL(t *testing.T) {
	each(t, newAGCSetup, func(t *testing.T, env *apptest.Env, s agcSetup) {
		apptest.DemoDataset(t, env, s.acme.TenantID, demo.Options{Commerces: 3, Products: 2, Events: 5, Transactions: 5})
		in := s.input("Lifecycle")
		for _, p := range []string{"activationConfig", "engagementConfig", "resurrectionConfig"} {
			in[p].(M)["sourceTable"], in[p].(M)["dateColumn"], in[p].(M)["sourceColumns"] = "transactions", "transacted_at", L{"transaction_id"}
		}
		out := gqlOK(t, env, s.ph, `mutation($in: CreateActivityGenerationConfigInput!) { createActivityGenerationConfig(input: $in) { id } }`, M{"in": in})
		id := str(t, out, "createActivityGenerationConfig", "id")
		q := `query($id: ID!, $at: Time) { lifecycleSQL(activityGenerationConfigID: $id, dialect: BIGQUERY, asOf: $at) { dialect query params } }`
		got := gqlOK(t, env, s.ph, q, M{"id": id, "at": "2026-01-02T03:04:05.5Z"})
		if str(t, got, "lifecycleSQL", "dialect") != "BIGQUERY" || !strings.Contains(str(t, got, "lifecycleSQL", "query"), "`transactions`") ||
			str(t, got, "lifecycleSQL", "params", "p0") != "2026-01-02T03:04:05.5Z" {
			t.Fatalf("lifecycleSQL = %v", got)
		}
		res := env.GraphQL(q, M{"id": id, "at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}, s.ph)
		expectInvalid(t, res, "lifecycleSQL", "asOf must not be in the future")
	})
}
