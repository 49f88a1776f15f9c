package graph_test

import (
	"testing"
	"time"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/demo"
	"github.com/reten-io/reten/internal/lifecycle"
)

// TestLifecycleExplainOverGraphQL: the explanation through the same
// service, typed: the rule an enum, the stage the snapshot stage enum, a
// moment without a window a null windowDays, an unclassified commerce's
// stage and code null; the errors in GraphQL names.
func TestLifecycleExplainOverGraphQL(t *testing.T) {
	each(t, newAGCSetup, func(t *testing.T, env *apptest.Env, s agcSetup) {
		at := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
		db, prefix := apptest.DemoDataset(t, env, s.acme.TenantID, demo.Options{Commerces: 3, Products: 2, Events: 5, Transactions: 5})
		// COM-00001's only order is exactly 60 days before T; COM-00002 has none.
		apptest.ReplaceTransactions(t, db, prefix, apptest.Transaction{ID: "t1", Commerce: "COM-00001", At: at.Add(-60 * lifecycle.Day)})
		in := s.input("Lifecycle")
		for _, p := range []string{"activationConfig", "engagementConfig", "resurrectionConfig"} {
			in[p].(M)["sourceTable"], in[p].(M)["dateColumn"], in[p].(M)["sourceColumns"] = "transactions", "transacted_at", L{"transaction_id"}
		}
		out := gqlOK(t, env, s.ph, `mutation($in: CreateActivityGenerationConfigInput!) { createActivityGenerationConfig(input: $in) { id } }`, M{"in": in})
		id := str(t, out, "createActivityGenerationConfig", "id")
		ids := map[string]string{}
		for _, ext := range []string{"COM-00001", "COM-00002"} {
			ids[ext] = env.App.DB.Client.Commerce.Create().SetTenantID(s.acme.TenantID).SetName(ext).SetExternalID(ext).SaveX(sysCtx()).ID.String()
		}
		q := `query($id: ID!, $c: String!, $at: Time) { lifecycleExplain(activityGenerationConfigID: $id, commerce: $c, asOf: $at) {
			commerceID externalID asOf inAudience rule stage code reasons
			metrics { lifetime daysSinceLast engagement activation { statusCode windowDays value } } } }`
		metrics := func(lifetime, days any, moNew, moActivated float64) M {
			return M{"lifetime": lifetime, "daysSinceLast": days, "engagement": 0, "activation": L{
				M{"statusCode": "new", "windowDays": 30, "value": moNew}, M{"statusCode": "activated", "windowDays": nil, "value": moActivated}}}
		}
		expectData(t, env.GraphQL(q, M{"id": id, "c": "COM-00001", "at": "2026-03-02T00:00:00Z"}, s.ph), M{"lifecycleExplain": M{
			"commerceID": ids["COM-00001"], "externalID": "COM-00001", "asOf": "2026-03-02T00:00:00Z", "inAudience": true,
			"rule": "RESURRECTION", "stage": "RESURRECTION", "code": "dormant", "metrics": metrics(1, 60, 0, 1),
			"reasons": L{"Resurrection applies: 60 days since the last row; threshold dormant starts at 60 days.",
				"Activation does not apply: resurrection applied first.", "Engagement does not apply: resurrection applied first."}}})
		expectData(t, env.GraphQL(q, M{"id": id, "c": ids["COM-00002"], "at": "2026-03-02T00:00:00Z"}, s.ph), M{"lifecycleExplain": M{
			"commerceID": ids["COM-00002"], "externalID": "COM-00002", "asOf": "2026-03-02T00:00:00Z", "inAudience": true,
			"rule": "UNCLASSIFIED", "stage": nil, "code": nil, "metrics": metrics(0, nil, 0, 0),
			"reasons": L{"Resurrection does not apply: no row in its source before the instant.",
				"Activation applies: lifetime 0 < 3; no active moment's conditions hold, so the commerce is unclassified.",
				"Engagement does not apply: activation applied first."}}})

		expectInvalid(t, env.GraphQL(q, M{"id": id, "c": "", "at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}, s.ph),
			"lifecycleExplain", "commerce should not be empty", "asOf must not be in the future")
		expectFieldError(t, env.GraphQL(q, M{"id": id, "c": "COM-00003"}, s.ph), "lifecycleExplain", "Commerce not found", "NOT_FOUND", 404)
		expectFieldError(t, env.GraphQL(q, M{"id": id, "c": "COM-00001"}, s.bph), "lifecycleExplain",
			"Activity generation config "+id+" not found", "NOT_FOUND", 404)
	})
}
