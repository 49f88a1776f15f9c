package rest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/generationsettings"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/generation"
	"github.com/reten-io/reten/internal/viewer"
)

// TestGenerationPreview: the preview answers what the AGC's active rules
// would decide now, counts per kind and a sample, and writes nothing; once
// generation has decided the entries, they are no longer previewed. A
// DWELL rule previews the commerces that have stayed long enough. GraphQL
// answers the same; another tenant's AGC is a 404.
func TestGenerationPreview(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAGCFix(t, env, "Acme")
		sys, c := viewer.SystemContext(context.Background()), env.App.DB.Client
		agcID := f.create(t, "Retail")["id"].(string)
		if res := env.Do("POST", "/api/activity-generation-configs/"+agcID+"/publish", nil, f.h); res.Status != 200 {
			t.Fatalf("publish: %d %s", res.Status, res.Body)
		}
		if res := env.Do("POST", "/api/activity-reason-configs", map[string]any{"code": "reactivation", "label": "Reactivación"}, f.h); res.Status != 201 {
			t.Fatalf("reason: %d %s", res.Status, res.Body)
		}
		base := "/api/activity-generation-configs/" + agcID
		visit := actOK(t, env.Do("POST", base+"/generation-rules", ruleBody(map[string]any{"priority": 1}), f.h), 201)["id"].(string)
		dwell := actOK(t, env.Do("POST", base+"/generation-rules", ruleBody(map[string]any{"name": "Tres días", "trigger": "DWELL",
			"dwell_days": 3, "stage": "ACTIVATION", "status_code": "new", "priority": 2}), f.h), 201)["id"].(string)
		actOK(t, env.Do("PUT", base+"/generation-settings", map[string]any{"holdout_percent": 50}, f.h), 200)
		salt := c.GenerationSettings.Query().Where(generationsettings.ActivityGenerationConfigID(uuid.MustParse(agcID))).OnlyX(sys).HoldoutSalt

		now := time.Now().UTC()
		var risky []uuid.UUID
		names := map[string]string{}
		var items []any
		// Eight commerces, three of them in the holdout group (their ids
		// are drawn until the group takes them), so the sample shows both kinds.
		for i := 0; len(risky) < 8; {
			id := uuid.New()
			if generation.InGroup(salt, id, 50) != (len(risky) < 3) {
				continue
			}
			name := fmt.Sprintf("Kiosko %d", i)
			i++
			c.Commerce.Create().SetID(id).SetTenantID(f.tenant.TenantID).SetName(name).SaveX(sys)
			risky, names[id.String()] = append(risky, id), name
			items = append(items, map[string]any{"commerce_id": id, "activity_generation_config_id": agcID, "stage": "RESURRECTION",
				"code": "at_risk", "last_computed_at": now.Add(-time.Hour).Format(time.RFC3339Nano)})
		}
		fresh := c.Commerce.Create().SetTenantID(f.tenant.TenantID).SetName("Nuevo").SaveX(sys).ID
		old := c.Commerce.Create().SetTenantID(f.tenant.TenantID).SetName("Antiguo").SaveX(sys).ID
		items = append(items,
			map[string]any{"commerce_id": fresh, "activity_generation_config_id": agcID, "stage": "ACTIVATION", "code": "new",
				"last_computed_at": now.Add(-24 * time.Hour).Format(time.RFC3339Nano)},
			map[string]any{"commerce_id": old, "activity_generation_config_id": agcID, "stage": "ACTIVATION", "code": "new",
				"last_computed_at": now.Add(-4 * 24 * time.Hour).Format(time.RFC3339Nano)})
		if res := env.Do("POST", "/api/commerce-lifecycle-snapshots/batch-upsert", map[string]any{"items": items}, f.h); res.Status != 200 && res.Status != 201 {
			t.Fatalf("snapshots: %d %s", res.Status, res.Body)
		}

		held := 0
		for _, id := range risky {
			if generation.InGroup(salt, id, 50) {
				held++
			}
		}
		if held != 3 {
			t.Fatalf("%d of %d held out, want 3", held, len(risky))
		}
		p := actOK(t, env.Do("POST", base+"/generation-preview", nil, f.h), 200)
		if p["activityGenerationConfigId"] != agcID || p["evaluated"] != float64(9) || p["truncated"] != false {
			t.Fatalf("preview = %v", p)
		}
		rules := p["rules"].([]any)
		if len(rules) != 2 {
			t.Fatalf("rules = %v", rules)
		}
		r0, r1 := rules[0].(map[string]any), rules[1].(map[string]any)
		wantCounts := func(generated, heldOut int) map[string]any {
			return map[string]any{"GENERATED": float64(generated), "HELD_OUT": float64(heldOut), "CAPPED": float64(0),
				"SUPPRESSED": float64(0), "EXPIRED_RULE": float64(0)}
		}
		if r0["ruleId"] != visit || r0["name"] != "Visita en riesgo" || r0["trigger"] != "ENTER" || r0["priority"] != float64(1) ||
			fmt.Sprint(r0["counts"]) != fmt.Sprint(wantCounts(len(risky)-held, held)) {
			t.Fatalf("visit preview = %v", r0)
		}
		// The DWELL rule: only the commerce in "new" for 4 days (3 needed); the other, 1 day in, is not evaluated.
		oldHeld := generation.InGroup(salt, old, 50)
		want := wantCounts(1, 0)
		if oldHeld {
			want = wantCounts(0, 1)
		}
		if r1["ruleId"] != dwell || fmt.Sprint(r1["counts"]) != fmt.Sprint(want) {
			t.Fatalf("dwell preview = %v", r1)
		}
		sample := r0["sample"].([]any)
		if len(sample) != min(len(risky)-held, 5)+min(held, 5) {
			t.Fatalf("sample of %d: %v", len(sample), sample)
		}
		for _, s := range sample {
			s := s.(map[string]any)
			id := uuid.MustParse(s["commerceId"].(string))
			kind, reason := "GENERATED", any(nil)
			if generation.InGroup(salt, id, 50) {
				kind, reason = "HELD_OUT", "AGC_HOLDOUT"
			}
			if s["kind"] != kind || s["reason"] != reason || s["commerceName"] != names[id.String()] || s["detail"] == "" {
				t.Fatalf("sample item %v, want kind %s", s, kind)
			}
		}
		// Nothing written.
		if n := c.GenerationDecision.Query().CountX(sys) + c.Activity.Query().CountX(sys); n != 0 {
			t.Fatalf("the preview wrote %d rows", n)
		}

		// GraphQL answers the same.
		gql := env.GraphQL(`query($id: ID!) { generationPreview(activityGenerationConfigID: $id) { activityGenerationConfigID evaluated truncated
			rules { rule { id name } counts { kind count } sample { commerceID commerceName kind reason detail } } } }`,
			map[string]any{"id": agcID}, f.h)
		data := gql.Map(t)
		gp, _ := data["data"].(map[string]any)["generationPreview"].(map[string]any)
		if gp == nil || gp["evaluated"] != float64(9) || len(gp["rules"].([]any)) != 2 {
			t.Fatalf("GraphQL preview = %s", gql.Body)
		}
		g0 := gp["rules"].([]any)[0].(map[string]any)
		if g0["rule"].(map[string]any)["id"] != visit || fmt.Sprint(g0["counts"]) != fmt.Sprint([]any{
			map[string]any{"kind": "GENERATED", "count": float64(len(risky) - held)}, map[string]any{"kind": "HELD_OUT", "count": float64(held)},
			map[string]any{"kind": "CAPPED", "count": float64(0)}, map[string]any{"kind": "SUPPRESSED", "count": float64(0)},
			map[string]any{"kind": "EXPIRED_RULE", "count": float64(0)}}) || len(g0["sample"].([]any)) != len(sample) {
			t.Fatalf("GraphQL visit preview = %v", g0)
		}

		// Once generation decided the ENTER entries, the visit has nothing left to preview.
		if _, err := env.App.Generator.Drain(context.Background(), func() time.Time { return time.Now().UTC() }); err != nil {
			t.Fatal(err)
		}
		if got := c.GenerationDecision.Query().CountX(sys); got != len(risky) {
			t.Fatalf("%d decisions after generation, want %d", got, len(risky))
		}
		p = actOK(t, env.Do("POST", base+"/generation-preview", nil, f.h), 200)
		if r := p["rules"].([]any)[0].(map[string]any); p["evaluated"] != float64(1) || fmt.Sprint(r["counts"]) != fmt.Sprint(wantCounts(0, 0)) {
			t.Fatalf("preview after generation = %v", p)
		}

		// Another tenant's AGC.
		beta := newAGCFix(t, env, "Beta")
		apptest.ExpectError(t, env.Do("POST", base+"/generation-preview", nil, beta.h), 404, "Activity generation config "+agcID+" not found")
	})
}
