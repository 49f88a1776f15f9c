package graph_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/demo"
)

// TestLifecycleRunsOverGraphQL: startLifecycleRun queues a run through the
// same service as REST, the worker executes it, and lifecycleRuns and node
// read it with typed counts, states and hashes; another tenant sees none.
func TestLifecycleRunsOverGraphQL(t *testing.T) {
	each(t, newAGCSetup, func(t *testing.T, env *apptest.Env, s agcSetup) {
		db, prefix := apptest.DemoDataset(t, env, s.acme.TenantID, demo.Options{Commerces: 6, Products: 2, Events: 5, Transactions: 60})
		rows, err := db.Query("SELECT commerce_id FROM " + prefix + "commerces")
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			var ext string
			if err := rows.Scan(&ext); err != nil {
				t.Fatal(err)
			}
			gqlOK(t, env, s.h, `mutation($e: String!) { createCommerce(input: {name: $e, externalID: $e}) { id } }`, M{"e": ext})
			n++
		}
		rows.Close()
		in := s.input("Lifecycle")
		for _, p := range []string{"activationConfig", "engagementConfig", "resurrectionConfig"} {
			in[p].(M)["sourceTable"], in[p].(M)["dateColumn"], in[p].(M)["sourceColumns"] = "transactions", "transacted_at", L{"transaction_id"}
		}
		id := str(t, gqlOK(t, env, s.ph, `mutation($in: CreateActivityGenerationConfigInput!) { createActivityGenerationConfig(input: $in) { id } }`,
			M{"in": in}), "createActivityGenerationConfig", "id")

		start := `mutation($in: StartLifecycleRunInput!) { startLifecycleRun(input: $in) { id status trigger dryRun asOf } }`
		out := gqlOK(t, env, s.ph, start, M{"in": M{"activityGenerationConfigID": id, "asOf": "2026-11-01T10:00:00Z"}})
		run := get(t, out, "startLifecycleRun").(M)
		if run["status"] != "QUEUED" || run["trigger"] != "MANUAL" || run["dryRun"] != false || run["asOf"] != "2026-11-01T10:00:00Z" {
			t.Fatalf("started run = %v", run)
		}
		if done, err := env.App.Runs.Work(context.Background(), time.Now()); err != nil || done != 1 {
			t.Fatalf("work: %d %v", done, err)
		}
		q := `query($id: ID) { lifecycleRuns(activityGenerationConfigID: $id, first: 10) { totalCount edges { node {
			id status error counts { evaluated classified unclassified unknownIdentities leftAudience created updated unchanged stale }
			byState { stage code count } configHashes { activation engagement resurrection } activityGenerationConfig { id } } } } }`
		got := gqlOK(t, env, s.ph, q, M{"id": id})
		node := get(t, got, "lifecycleRuns", "edges", 0, "node").(M)
		counts := node["counts"].(M)
		classified, sum := counts["classified"].(float64), 0.0
		for _, st := range node["byState"].([]any) {
			sum += st.(M)["count"].(float64)
		}
		if node["status"] != "SUCCEEDED" || node["error"] != nil || counts["evaluated"] != float64(n) ||
			classified+counts["unclassified"].(float64) != float64(n) || counts["created"] != classified || sum != classified ||
			str(t, node, "configHashes", "activation") == "" || str(t, node, "activityGenerationConfig", "id") != id {
			t.Fatalf("run = %v", node)
		}
		nodeQ := fmt.Sprintf(`{ node(id: %q) { ... on LifecycleRun { status counts { created } } } }`, node["id"])
		if got := gqlOK(t, env, s.ph, nodeQ, nil); get(t, got, "node", "status") != "SUCCEEDED" {
			t.Fatalf("node = %v", got)
		}
		if got := gqlOK(t, env, s.bph, q, M{"id": nil}); get(t, got, "lifecycleRuns", "totalCount") != 0.0 {
			t.Fatalf("another tenant sees runs: %v", got)
		}
		res := env.GraphQL(start, M{"in": M{"activityGenerationConfigID": id, "asOf": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}}, s.ph)
		expectInvalid(t, res, "startLifecycleRun", "asOf must not be in the future")
	})
}
