package graph_test

import (
	"net/http"
	"testing"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

// TestQueryBlockReadNeedsItsOwnersPermission: a block is read with the
// permission of its owner, through the owner's edge and through node().
func TestQueryBlockReadNeedsItsOwnersPermission(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		admin := apptest.JWT(env.Login(acme.Email), acme.TenantID, acme.ProjectID)
		auGraphDataset(t, env, acme.TenantID)
		f := gqlOK(t, env, admin, `mutation($b: [Map!]!) { createEventFilter(input: {name: "F", queryBlocks: $b}) { queryBlocks { id } } }`,
			M{"b": L{efGraphBlock(0, nil)}})
		efBlock := get(t, f, "createEventFilter", "queryBlocks").([]any)[0].(M)["id"].(string)
		a := gqlOK(t, env, admin, `mutation($b: [Map!]!) { createAudience(input: {name: "A", queryBlocks: $b}) { queryBlocks { id } } }`,
			M{"b": L{auBlock(0, "segment", "pharmacy")}})
		auBlockID := get(t, a, "createAudience", "queryBlocks").([]any)[0].(M)["id"].(string)

		plain, _ := env.CreateKey(acme.TenantID, acme.UserID, acme.ProjectID, auth.PermEventCriteriaView)
		key := apptest.Key(plain)
		out := gqlOK(t, env, key, `{ eventFilters { edges { node { queryBlocks { id from } } } } }`, nil)
		if got := get(t, out, "eventFilters", "edges").([]any); len(got) != 1 {
			t.Fatalf("eventFilters = %v", out)
		}
		node := `query($id: ID!) { node(id: $id) { id } }`
		expectData(t, env.GraphQL(node, M{"id": efBlock}, key), M{"node": M{"id": efBlock}})
		expectBody(t, env.GraphQL(node, M{"id": auBlockID}, key), http.StatusOK, M{"data": M{"node": nil},
			"errors": L{fieldError(L{"node"}, "Required permissions: audience-criteria:view", "FORBIDDEN", 403)}})
	})
}
