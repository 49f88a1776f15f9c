package graph_test

import (
	"database/sql"
	"net/http"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/demo"
)

// auGraphDataset gives the tenant the demo dataset (apptest.DemoDataset).
func auGraphDataset(t *testing.T, env *apptest.Env, tenantID uuid.UUID) (*sql.DB, string) {
	return apptest.DemoDataset(t, env, tenantID, demo.Options{Seed: 5, Commerces: 80, Products: 20, Events: 600, Transactions: 80})
}

// auBlock is a block over commerces selecting the subject where column
// equals value, at order (setOperator null on order 0).
func auBlock(order int, column, value string) M {
	var op any
	if order > 0 {
		op = "UNION_DISTINCT"
	}
	return M{"order": order, "setOperator": op, "from": M{"table": "commerces", "joins": L{}, "unnests": L{}},
		"select": M{"distinct": false, "items": L{M{"kind": "column", "column": M{"table": "commerces", "column": "commerce_id"}}}},
		"where":  qbPred("commerces", "EQUALS", column, value)}
}

var auDetail = `id name description isRoot conditionCount updatedBy
	queryBlocks { order setOperator ` + qbClauses + ` }
	compositions { order operandAudienceID setOperator operandCriteriaName }`

func TestAudiencesOverGraphQL(t *testing.T) {
	each(t, newOrgSetup, func(t *testing.T, env *apptest.Env, s orgSetup) {
		h := s.h.With("x-project-id", s.acme.ProjectID.String())
		bh := s.bh.With("x-project-id", s.beta.ProjectID.String())
		data, prefix := auGraphDataset(t, env, s.acme.TenantID)
		count := func(where string) int {
			var n int
			if err := data.QueryRow("SELECT COUNT(*) FROM " + prefix + "commerces WHERE " + where).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		create := func(in M) M {
			return get(t, gqlOK(t, env, h, `mutation($in: CreateAudienceInput!) { createAudience(input: $in) { `+auDetail+` } }`, M{"in": in}), "createAudience").(M)
		}

		quito := create(M{"name": "Quito", "queryBlocks": L{auBlock(0, "city", "Quito")}})
		qid := quito["id"].(string)
		// Blocks come back in order whatever order they are sent in.
		a := create(M{"name": "Farmacias", "description": "d", "queryBlocks": L{auBlock(1, "segment", "bakery"), auBlock(0, "segment", "pharmacy")},
			"compositions": L{M{"operandAudienceID": qid, "setOperator": "INTERSECT_DISTINCT"}}})
		id := a["id"].(string)
		if a["isRoot"] != false || a["conditionCount"] != 2.0 || a["updatedBy"] != s.acme.UserID.String() ||
			get(t, a, "queryBlocks", 0, "order") != 0.0 || get(t, a, "queryBlocks", 1, "order") != 1.0 ||
			get(t, a, "queryBlocks", 0, "where", "value") != "pharmacy" || get(t, a, "queryBlocks", 1, "setOperator") != "UNION_DISTINCT" {
			t.Fatalf("created = %v", a)
		}
		if c := get(t, a, "compositions", 0).(M); c["operandAudienceID"] != qid || c["operandCriteriaName"] != "Quito" || c["setOperator"] != "INTERSECT_DISTINCT" || c["order"] != 0.0 {
			t.Fatalf("composition = %v", c)
		}
		if got := get(t, gqlOK(t, env, h, `query($id: ID!) { audience(id: $id) { `+auDetail+` } }`, M{"id": id}), "audience"); canon(t, got) != canon(t, a) {
			t.Fatalf("audience = %v\nwant %v", got, a)
		}

		// The connection holds the active project's live audiences only.
		conn := gqlOK(t, env, h, `{ audiences(orderBy: {field: NAME}) { totalCount edges { node { name isRoot conditionCount } } } }`, nil)
		if canon(t, conn) != canon(t, M{"audiences": M{"totalCount": 3, "edges": L{
			M{"node": M{"name": "Audiencia raíz", "isRoot": true, "conditionCount": 0}},
			M{"node": M{"name": "Farmacias", "isRoot": false, "conditionCount": 2}},
			M{"node": M{"name": "Quito", "isRoot": false, "conditionCount": 1}}}}}) {
			t.Fatalf("audiences = %v", conn)
		}
		if n := get(t, gqlOK(t, env, bh, `{ audiences { totalCount } }`, nil), "audiences", "totalCount"); n != 1.0 {
			t.Fatalf("beta sees %v audiences", n)
		}
		expectFieldError(t, env.GraphQL(`query($id: ID!) { audience(id: $id) { id } }`, M{"id": id}, bh), "audience", "Audience criteria not found", "NOT_FOUND", 404)

		// Updates: PATCH semantics, exclusive description flags, cycles.
		up := get(t, gqlOK(t, env, h, `mutation($id: ID!) { updateAudience(id: $id, input: {name: "Farmacias 2", clearDescription: true}) { `+auDetail+` } }`,
			M{"id": id}), "updateAudience").(M)
		if up["name"] != "Farmacias 2" || up["description"] != nil || len(up["queryBlocks"].([]any)) != 2 || len(up["compositions"].([]any)) != 1 {
			t.Fatalf("updated = %v", up)
		}
		expectInvalid(t, env.GraphQL(`mutation($id: ID!) { updateAudience(id: $id, input: {description: "x", clearDescription: true}) { id } }`, M{"id": id}, h),
			"updateAudience", "description and clearDescription cannot be sent together")
		expectInvalid(t, env.GraphQL(`mutation($id: ID!, $c: [AudienceCompositionInput!]) { updateAudience(id: $id, input: {compositions: $c}) { id } }`,
			M{"id": qid, "c": L{M{"operandAudienceID": id, "setOperator": "UNION_ALL"}}}, h),
			"updateAudience", "audience compositions form a cycle: an audience cannot include itself")
		expectInvalid(t, env.GraphQL(`mutation($c: [AudienceCompositionInput!]) { createAudience(input: {name: "X", queryBlocks: [], compositions: $c}) { id } }`,
			M{"c": L{M{"operandAudienceID": qid, "setOperator": "UNION_ALL"}, M{"operandAudienceID": qid, "setOperator": "UNION_ALL"}}}, h),
			"createAudience", "queryBlocks should not be empty", "compositions[1].operandAudienceID: the audience criteria is already an operand of this audience")

		// SQL, validation, previews and the membership change.
		sqlOf := gqlOK(t, env, h, `query($id: ID!) { audienceSQL(id: $id) { format query finalCteName subjectColumn params types } }`, M{"id": id})
		gen := gqlOK(t, env, h, `query($b: [QueryBlockInput!]!, $c: [AudienceCompositionInput!]) { generateAudienceSQL(queryBlocks: $b, compositions: $c) {
			format query finalCteName subjectColumn params types } }`,
			M{"b": L{auBlock(0, "segment", "pharmacy"), auBlock(1, "segment", "bakery")}, "c": L{M{"operandAudienceID": qid, "setOperator": "INTERSECT_DISTINCT"}}})
		if canon(t, get(t, sqlOf, "audienceSQL")) != canon(t, get(t, gen, "generateAudienceSQL")) || str(t, sqlOf, "audienceSQL", "subjectColumn") != "commerce_id" ||
			canon(t, get(t, sqlOf, "audienceSQL", "params")) != canon(t, M{"p0": "pharmacy", "p1": "bakery", "p2": "Quito"}) {
			t.Fatalf("sql = %v\ngenerated %v", sqlOf, gen)
		}
		want := count("segment IN ('pharmacy', 'bakery') AND city = 'Quito'")
		p := gqlOK(t, env, h, `query($id: ID!) { previewAudience(id: $id, limit: 1) { columns rowCount subjectCount rows } }`, M{"id": id})
		if get(t, p, "previewAudience", "subjectCount") != float64(want) || get(t, p, "previewAudience", "rowCount") != float64(min(1, want)) ||
			canon(t, get(t, p, "previewAudience", "columns")) != `["commerce_id"]` {
			t.Fatalf("preview = %v (want %d subjects)", p, want)
		}
		pharma := count("segment = 'pharmacy'")
		p = gqlOK(t, env, h, `query($b: [QueryBlockInput!]) { previewAudience(queryBlocks: $b) { subjectCount } }`, M{"b": L{auBlock(0, "segment", "pharmacy")}})
		if get(t, p, "previewAudience", "subjectCount") != float64(pharma) {
			t.Fatalf("preview body = %v, want %d", p, pharma)
		}
		for _, vars := range []M{{}, {"id": id, "b": L{auBlock(0, "segment", "pharmacy")}}, {"id": id, "c": L{}}} {
			expectInvalid(t, env.GraphQL(`query($id: ID, $b: [QueryBlockInput!], $c: [AudienceCompositionInput!]) { previewAudience(id: $id, queryBlocks: $b, compositions: $c) { rowCount } }`, vars, h),
				"previewAudience", "previewAudience needs exactly one of id and queryBlocks (compositions go with queryBlocks)")
		}
		change := gqlOK(t, env, h, `query($id: ID!, $c: [AudienceCompositionInput!]) { audienceMembershipChange(id: $id, compositions: $c) { before after entering leaving } }`,
			M{"id": id, "c": L{}})
		all := count("segment IN ('pharmacy', 'bakery')")
		if canon(t, change) != canon(t, M{"audienceMembershipChange": M{"before": want, "after": all, "entering": all - want, "leaving": 0}}) {
			t.Fatalf("change = %v (want %d -> %d)", change, want, all)
		}
		v := gqlOK(t, env, h, `query($b: [QueryBlockInput!]!) { validateAudience(queryBlocks: $b) { valid errors { path message } } }`,
			M{"b": L{auBlock(0, "nope", "x")}})
		if canon(t, v) != canon(t, M{"validateAudience": M{"valid": false, "errors": L{M{"path": "queryBlocks[0].where.predicate.column",
			"message": "column nope does not exist in table commerces"}}}}) {
			t.Fatalf("validate = %v", v)
		}

		// The catalog as audiences see it.
		cat := gqlOK(t, env, h, `{ audienceTables { name identityColumn defaultTimeReferenceColumn }
			audienceColumns(table: "commerces") { table columns { name isIdentity isDefaultTimeReference } } }`, nil)
		if canon(t, get(t, cat, "audienceTables", 0)) != canon(t, M{"name": "commerces", "identityColumn": "commerce_id", "defaultTimeReferenceColumn": "created_at"}) ||
			canon(t, get(t, cat, "audienceColumns", "columns", 0)) != canon(t, M{"name": "commerce_id", "isIdentity": true, "isDefaultTimeReference": false}) {
			t.Fatalf("catalog = %v", cat)
		}
		expectFieldError(t, env.GraphQL(`{ audienceTables { name } }`, nil, bh), "audienceTables", "Tenant dataset not configured", "NOT_FOUND", 404)

		// Deletion: root 409, referenced 400, then archived.
		root := get(t, gqlOK(t, env, h, `{ audiences(where: {isRoot: true}) { edges { node { id } } } }`, nil), "audiences", "edges", 0, "node", "id")
		expectFieldError(t, env.GraphQL(`mutation($id: ID!) { deleteAudience(id: $id) }`, M{"id": root}, h), "deleteAudience",
			"La audiencia raíz de un proyecto no se puede eliminar.", "CONFLICT", 409)
		expectFieldError(t, env.GraphQL(`mutation($id: ID!) { deleteAudience(id: $id) }`, M{"id": qid}, h), "deleteAudience",
			"Cannot delete an audience criteria that is referenced by another active audience criteria; remove that composition from the referencing audience criteria first.", "BAD_REQUEST", 400)
		expectFieldError(t, env.GraphQL(`mutation($id: ID!) { deleteAudience(id: $id) }`, M{"id": id}, bh), "deleteAudience", "Audience criteria not found", "NOT_FOUND", 404)
		if d := gqlOK(t, env, h, `mutation($id: ID!) { deleteAudience(id: $id) }`, M{"id": id}); d["deleteAudience"] != true {
			t.Fatalf("delete = %v", d)
		}
		if trashOf(t, env, h, id, "AUDIENCE_CRITERIA") == "" {
			t.Fatal("no trash record")
		}
		expectFieldError(t, env.GraphQL(`query($id: ID!) { audience(id: $id) { id } }`, M{"id": id}, h), "audience", "Audience criteria not found", "NOT_FOUND", 404)
		if d := gqlOK(t, env, h, `mutation($id: ID!) { deleteAudience(id: $id) }`, M{"id": qid}); d["deleteAudience"] != true {
			t.Fatalf("delete operand = %v", d)
		}
	})
}

// TestQueryBlockReadNeedsItsOwnersPermission: a block is read with the
// permission of its owner, through the owner's edge and through node().
func TestQueryBlockReadNeedsItsOwnersPermission(t *testing.T) {
	eachAcme(t, func(t *testing.T, env *apptest.Env, acme apptest.Tenant, h apptest.Headers) {
		admin := h.With("x-project-id", acme.ProjectID.String())
		auGraphDataset(t, env, acme.TenantID)
		f := gqlOK(t, env, admin, `mutation($b: [QueryBlockInput!]!) { createEventFilter(input: {name: "F", queryBlocks: $b}) { queryBlocks { id } } }`,
			M{"b": L{efGraphBlock(0, nil)}})
		efBlock := get(t, f, "createEventFilter", "queryBlocks").([]any)[0].(M)["id"].(string)
		a := gqlOK(t, env, admin, `mutation($b: [QueryBlockInput!]!) { createAudience(input: {name: "A", queryBlocks: $b}) { queryBlocks { id } } }`,
			M{"b": L{auBlock(0, "segment", "pharmacy")}})
		auBlockID := get(t, a, "createAudience", "queryBlocks").([]any)[0].(M)["id"].(string)

		plain, _ := env.CreateKey(acme.TenantID, acme.UserID, acme.ProjectID, auth.PermEventCriteriaView)
		key := apptest.Key(plain)
		out := gqlOK(t, env, key, `{ eventFilters { edges { node { queryBlocks { id from { table } } } } } }`, nil)
		if got := get(t, out, "eventFilters", "edges").([]any); len(got) != 1 {
			t.Fatalf("eventFilters = %v", out)
		}
		node := `query($id: ID!) { node(id: $id) { id } }`
		expectData(t, env.GraphQL(node, M{"id": efBlock}, key), M{"node": M{"id": efBlock}})
		expectBody(t, env.GraphQL(node, M{"id": auBlockID}, key), http.StatusOK, M{"data": M{"node": nil},
			"errors": L{fieldError(L{"node"}, "Required permissions: audience-criteria:view", "FORBIDDEN", 403)}})
	})
}
