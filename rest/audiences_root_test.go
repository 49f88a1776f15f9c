package rest_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
)

const (
	codeRootConfirm = "DEFAULT_ROOT_CONFIRMATION_REQUIRED"
	msgRootConfirm  = "The root audience is the audience of %d activity generation config(s) without an audience of their own (%s): " +
		"editing its definition changes their population. Send the edit again with confirm_default_root: true to apply it."
)

// expectRootConfirmation asserts the whole 409 body: the SPEC.md envelope
// with its code and the configs that fall back on the root audience.
func expectRootConfirmation(t *testing.T, res *apptest.Response, names string, configs ...map[string]any) {
	t.Helper()
	list := make([]any, len(configs))
	for i, c := range configs {
		list[i] = map[string]any{"id": c["id"], "name": c["name"]}
	}
	if res.Status != 409 {
		t.Fatalf("status = %d, want 409; body %s", res.Status, res.Body)
	}
	expectJSON(t, "confirmation error", res.Map(t), map[string]any{"statusCode": 409.0, "error": "Conflict",
		"message": fmt.Sprintf(msgRootConfirm, len(configs), names), "code": codeRootConfirm, "activityGenerationConfigs": list})
}

// TestRootAudienceDefinitionNeedsConfirmation: while activity generation
// configs of the project fall back on its root audience (audienceId null),
// editing the root audience's definition (queryBlocks or compositions)
// needs confirm_default_root: true; renames, other audiences, projects
// without such configs and other projects' configs need nothing.
func TestRootAudienceDefinitionNeedsConfirmation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := newAGCFix(t, env, "Acme")
		a.onDemo = true
		f := &auFix{env: env, tenant: a.tenant, h: a.h}
		f.data, f.prefix = auDemoDataset(t, env, a.tenant.TenantID)
		root := f.root(t)
		path := "/api/audience-criterias/" + root
		edit := map[string]any{"queryBlocks": auBlocks(auSegmentBlock("grocery"))}

		// No config falls back on it: no confirmation (another project's configs do not count).
		p2 := actOK(t, env.Do("POST", "/api/projects", map[string]any{"name": "Second"}, apptest.JWT(a.token, a.tenant.TenantID, uuid.Nil)), 201)
		h2 := a.h.With("x-project-id", p2["id"].(string))
		if res := env.Do("POST", "/api/activity-generation-configs", a.createBody("Elsewhere"), h2); res.Status != 201 {
			t.Fatalf("create in Second: %d %s", res.Status, res.Body)
		}
		f.ok(t, 200, "PATCH", path, edit)

		retail, alpha := a.create(t, "Retail"), a.create(t, "Alpha")
		own := a.create(t, "Own")
		other := f.create(t, map[string]any{"name": "Bakeries", "queryBlocks": auBlocks(auSegmentBlock("bakery"))})
		f.ok(t, 200, "PATCH", fmt.Sprintf("/api/activity-generation-configs/%v", own["id"]), map[string]any{"audience_id": other["id"]})

		before := auBlockIDs(t, f.ok(t, 200, "GET", path, nil))
		expectRootConfirmation(t, env.Do("PATCH", path, edit, f.h), `"Alpha", "Retail"`, alpha, retail)
		expectRootConfirmation(t, env.Do("PATCH", path, map[string]any{"compositions": []any{}}, f.h), `"Alpha", "Retail"`, alpha, retail)
		expectRootConfirmation(t, env.Do("PATCH", path, map[string]any{"name": "Raíz", "queryBlocks": edit["queryBlocks"],
			"confirm_default_root": false}, f.h), `"Alpha", "Retail"`, alpha, retail)
		apptest.ExpectError(t, env.Do("PATCH", path, map[string]any{"queryBlocks": edit["queryBlocks"], "confirm_default_root": "yes"}, f.h),
			400, []string{"confirm_default_root must be a boolean value"})
		got := f.ok(t, 200, "GET", path, nil)
		if !slices.Equal(auBlockIDs(t, got), before) || got["name"] != "Audiencia raíz" {
			t.Fatalf("a refused edit changed the root audience: %v", got)
		}

		// Renames and description edits, and other audiences, need no confirmation.
		if r := f.ok(t, 200, "PATCH", path, map[string]any{"name": "Raíz", "description": "Todos"}); r["name"] != "Raíz" {
			t.Fatalf("rename: %v", r)
		}
		f.ok(t, 200, "PATCH", "/api/audience-criterias/"+other["id"].(string), edit)

		// Confirmed: applied.
		confirmed := map[string]any{"queryBlocks": auBlocks(auSegmentBlock("pharmacy")), "confirm_default_root": true}
		if r := f.ok(t, 200, "PATCH", path, confirmed); slices.Equal(auBlockIDs(t, r), before) || r["isRoot"] != true {
			t.Fatalf("confirmed edit: %v", r)
		}

		// SPEC.md's AGC PATCH with audience_id null keeps its 200; the
		// config then falls back on the root audience too.
		if r := f.ok(t, 200, "PATCH", fmt.Sprintf("/api/activity-generation-configs/%v", own["id"]), map[string]any{"audience_id": nil}); r["audienceId"] != nil {
			t.Fatalf("audience_id null: %v", r)
		}
		expectRootConfirmation(t, env.Do("PATCH", path, edit, f.h), `"Alpha", "Own", "Retail"`, alpha, own, retail)

		// GraphQL: the same rule, the configs in extensions.
		const update = `mutation($id: ID!, $c: Boolean) { updateAudience(id: $id, input: {compositions: [], confirmDefaultRoot: $c}) { id isRoot } }`
		ext := expectGraphQLError(t, env.GraphQL(update, map[string]any{"id": root}, f.h), codeRootConfirm,
			// GraphQL names its own field in the message.
			strings.Replace(fmt.Sprintf(msgRootConfirm, 3, `"Alpha", "Own", "Retail"`), "confirm_default_root", "confirmDefaultRoot", 1))
		expectJSON(t, "extensions", ext, map[string]any{"code": codeRootConfirm, "statusCode": 409.0, "activityGenerationConfigs": []any{
			map[string]any{"id": alpha["id"], "name": "Alpha"}, map[string]any{"id": own["id"], "name": "Own"},
			map[string]any{"id": retail["id"], "name": "Retail"}}})
		res := env.GraphQL(update, map[string]any{"id": root, "c": true}, f.h)
		var out struct {
			Data struct {
				U struct {
					ID     string
					IsRoot bool
				} `json:"updateAudience"`
			}
		}
		res.JSON(t, &out)
		if out.Data.U.ID != root || !out.Data.U.IsRoot {
			t.Fatalf("confirmed GraphQL edit: %s", res.Body)
		}
	})
}
