package rest_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/viewer"
)

type snapTenant struct {
	h        apptest.Headers
	tenantID uuid.UUID
	c1, c2   uuid.UUID // c1 has external id EXT-1, c2 has none
	agc      uuid.UUID
}

func snapSetup(t *testing.T, env *apptest.Env, name string) snapTenant {
	t.Helper()
	tn := env.Bootstrap(name)
	ctx, c := viewer.SystemContext(context.Background()), env.App.DB.Client
	c1 := c.Commerce.Create().SetTenantID(tn.TenantID).SetName("C1").SetExternalID("EXT-1").SaveX(ctx)
	c2 := c.Commerce.Create().SetTenantID(tn.TenantID).SetName("C2").SaveX(ctx)
	agc := c.ActivityGenerationConfig.Create().SetTenantID(tn.TenantID).SetProjectID(tn.ProjectID).SetName("AGC").SaveX(ctx)
	c.RetentionStatusConfig.Create().SetTenantID(tn.TenantID).SetCode("new").SetLabel("Nuevo").SetStage("ACTIVATION").SaveX(ctx)
	c.RetentionStatusConfig.Create().SetTenantID(tn.TenantID).SetCode("engaged").SetLabel("Comprometido").SetStage("ENGAGEMENT").SaveX(ctx)
	c.RetentionStatusConfig.Create().SetTenantID(tn.TenantID).SetCode("off").SetLabel("Off").SetStage("ENGAGEMENT").SetIsActive(false).SaveX(ctx)
	return snapTenant{h: apptest.JWT(env.Login(tn.Email), tn.TenantID, uuid.Nil), tenantID: tn.TenantID, c1: c1.ID, c2: c2.ID, agc: agc.ID}
}

func put(t *testing.T, env *apptest.Env, s snapTenant, commerce uuid.UUID, code, stage, at string) map[string]any {
	t.Helper()
	res := env.Do("PUT", "/api/commerce-lifecycle-snapshots", map[string]any{"commerce_id": commerce,
		"activity_generation_config_id": s.agc, "code": code, "stage": stage, "last_computed_at": at}, s.h)
	if res.Status != 200 {
		t.Fatalf("put: %d %s", res.Status, res.Body)
	}
	return res.Map(t)
}

func expectSnap(t *testing.T, m map[string]any, outcome, code, label, lastComputed, changed string) {
	t.Helper()
	if m["outcome"] != outcome || m["code"] != code || m["label"] != label || m["last_computed_at"] != lastComputed || m["state_changed_at"] != changed {
		t.Fatalf("snapshot = %v; want %s %s %s %s %s", m, outcome, code, label, lastComputed, changed)
	}
}

func TestSnapshotUpsertStateChangedAt(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		s := snapSetup(t, env, "Acme")
		const t1, t2, t3, t4, t0 = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z", "2026-01-04T00:00:00Z", "2025-12-31T00:00:00Z"
		m := put(t, env, s, s.c1, "new", "ACTIVATION", t1)
		expectSnap(t, m, "created", "new", "Nuevo", t1, t1)
		if m["external_id"] != "EXT-1" || m["commerce_id"] != s.c1.String() || m["activity_generation_config_id"] != s.agc.String() || m["stage"] != "ACTIVATION" {
			t.Fatalf("created = %v", m)
		}
		// Same (stage, code), newer last_computed_at: updated, state_changed_at unchanged.
		expectSnap(t, put(t, env, s, s.c1, "new", "ACTIVATION", t2), "updated", "new", "Nuevo", t2, t1)
		// Identical write: unchanged.
		expectSnap(t, put(t, env, s, s.c1, "new", "ACTIVATION", t2), "unchanged", "new", "Nuevo", t2, t1)
		// (stage, code) changes: state_changed_at moves.
		expectSnap(t, put(t, env, s, s.c1, "engaged", "ENGAGEMENT", t3), "updated", "engaged", "Comprometido", t3, t3)
		// Label-only change (the config's label edited): state_changed_at unchanged.
		ctx := viewer.SystemContext(context.Background())
		env.App.DB.Client.RetentionStatusConfig.Update().SetLabel("Activo").ExecX(ctx)
		expectSnap(t, put(t, env, s, s.c1, "engaged", "ENGAGEMENT", t3), "updated", "engaged", "Activo", t3, t3)
		// Stale: older last_computed_at changes nothing.
		expectSnap(t, put(t, env, s, s.c1, "new", "ACTIVATION", t0), "stale", "engaged", "Activo", t3, t3)
		expectSnap(t, put(t, env, s, s.c1, "new", "ACTIVATION", t4), "updated", "new", "Activo", t4, t4)
		// Errors.
		res := env.Do("PUT", "/api/commerce-lifecycle-snapshots", map[string]any{"commerce_id": s.c1, "activity_generation_config_id": s.agc,
			"code": "off", "stage": "ENGAGEMENT", "last_computed_at": t4}, s.h)
		apptest.ExpectError(t, res, 400, `Retention status config "off" does not exist or is inactive`)
		res = env.Do("PUT", "/api/commerce-lifecycle-snapshots", map[string]any{"external_id": "EXT-1"}, s.h)
		apptest.ExpectError(t, res, 400, []any{"property external_id should not exist"})
		b := snapSetup(t, env, "Beta")
		res = env.Do("PUT", "/api/commerce-lifecycle-snapshots", map[string]any{"commerce_id": s.c1, "activity_generation_config_id": b.agc,
			"code": "new", "stage": "ACTIVATION", "last_computed_at": t4}, b.h)
		apptest.ExpectError(t, res, 404, "Commerce "+s.c1.String()+" not found")
		res = env.Do("PUT", "/api/commerce-lifecycle-snapshots", map[string]any{"commerce_id": b.c1, "activity_generation_config_id": s.agc,
			"code": "new", "stage": "ACTIVATION", "last_computed_at": t4}, b.h)
		apptest.ExpectError(t, res, 404, "Activity generation config "+s.agc.String()+" not found")
	})
}

func TestSnapshotListAndLookups(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		s := snapSetup(t, env, "Acme")
		b := snapSetup(t, env, "Beta")
		put(t, env, s, s.c1, "new", "ACTIVATION", "2026-01-01T00:00:00Z")
		put(t, env, s, s.c2, "engaged", "ENGAGEMENT", "2026-01-02T00:00:00Z")
		put(t, env, b, b.c1, "new", "ACTIVATION", "2026-01-03T00:00:00Z")

		res := env.Do("GET", "/api/commerce-lifecycle-snapshots?per_page=1", nil, s.h)
		m := res.Map(t)
		data := m["data"].([]any)
		if res.Status != 200 || len(data) != 1 || data[0].(map[string]any)["commerce_id"] != s.c2.String() {
			t.Fatalf("list: %d %s", res.Status, res.Body)
		}
		p := m["pagination"].(map[string]any)
		if p["page"] != 1.0 || p["per_page"] != 1.0 || p["total"] != 2.0 || p["total_pages"] != 2.0 || p["has_next"] != true || p["has_previous"] != false {
			t.Fatalf("pagination = %v", p)
		}
		res = env.Do("GET", "/api/commerce-lifecycle-snapshots?sort=state_changed_at&stage=ACTIVATION", nil, s.h)
		if d := res.Map(t)["data"].([]any); len(d) != 1 || d[0].(map[string]any)["commerce_id"] != s.c1.String() {
			t.Fatalf("filtered: %s", res.Body)
		}
		res = env.Do("GET", "/api/commerce-lifecycle-snapshots?state_changed_since=2026-01-01T00:00:00Z", nil, s.h)
		if d := res.Map(t)["data"].([]any); len(d) != 1 {
			t.Fatalf("since: %s", res.Body)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/commerce-lifecycle-snapshots?per_page=101", nil, s.h), 400, []any{"per_page must not be greater than 100"})
		apptest.ExpectError(t, env.Do("GET", "/api/commerce-lifecycle-snapshots?sort=code", nil, s.h), 400,
			[]any{"sort must be one of the following values: state_changed_at, -state_changed_at"})

		// Look-up by UUID and by external code; other tenant's commerce is unknown.
		for _, ident := range []string{s.c1.String(), "EXT-1"} {
			res = env.Do("GET", "/api/commerce-lifecycle-snapshots/"+ident+"?activity_generation_config_id="+s.agc.String(), nil, s.h)
			if d := res.Map(t)["data"].([]any); res.Status != 200 || len(d) != 1 || d[0].(map[string]any)["commerce_id"] != s.c1.String() {
				t.Fatalf("lookup %s: %s", ident, res.Body)
			}
		}
		apptest.ExpectError(t, env.Do("GET", "/api/commerce-lifecycle-snapshots/"+b.c1.String(), nil, s.h), 404, "Commerce not found")
		apptest.ExpectError(t, env.Do("GET", "/api/commerce-lifecycle-snapshots/nope", nil, s.h), 404, "Commerce not found")

		// Batch lookup.
		res = env.Do("POST", "/api/commerce-lifecycle-snapshots/batch-lookup", map[string]any{"external_ids": []string{"EXT-1", "NOPE"}}, s.h)
		m = res.Map(t)
		if res.Status != 200 || len(m["data"].([]any)) != 1 || len(m["unresolved"].([]any)) != 1 || m["unresolved"].([]any)[0] != "NOPE" {
			t.Fatalf("batch lookup: %d %s", res.Status, res.Body)
		}
		res = env.Do("POST", "/api/commerce-lifecycle-snapshots/batch-lookup", map[string]any{"commerce_ids": []string{s.c2.String(), b.c1.String()}}, s.h)
		m = res.Map(t)
		if len(m["data"].([]any)) != 1 || m["unresolved"].([]any)[0] != b.c1.String() {
			t.Fatalf("batch lookup ids: %s", res.Body)
		}
		apptest.ExpectError(t, env.Do("POST", "/api/commerce-lifecycle-snapshots/batch-lookup",
			map[string]any{"commerce_ids": []string{}, "external_ids": []string{}}, s.h), 400,
			[]any{"commerce_ids and external_ids cannot be combined: send one identifier type per request"})
	})
}

func TestSnapshotBatchUpsert(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		s := snapSetup(t, env, "Acme")
		b := snapSetup(t, env, "Beta")
		item := func(ident, val string, code, stage, at string) map[string]any {
			return map[string]any{ident: val, "activity_generation_config_id": s.agc, "code": code, "stage": stage, "last_computed_at": at}
		}
		res := env.Do("POST", "/api/commerce-lifecycle-snapshots/batch-upsert", map[string]any{"items": []any{
			item("commerce_id", s.c1.String(), "new", "ACTIVATION", "2026-01-01T00:00:00Z"),
			item("external_id", "EXT-1", "new", "ACTIVATION", "2026-01-01T00:00:00Z"),
		}}, s.h)
		apptest.ExpectError(t, res, 400, []any{"every item must use the same identifier type: commerce_id or external_id"})

		res = env.Do("POST", "/api/commerce-lifecycle-snapshots/batch-upsert", map[string]any{"items": []any{
			item("commerce_id", s.c1.String(), "new", "ACTIVATION", "2026-01-01T00:00:00Z"),
			item("commerce_id", s.c1.String(), "engaged", "ENGAGEMENT", "2026-01-02T00:00:00Z"), // duplicate: last wins
			item("commerce_id", b.c1.String(), "new", "ACTIVATION", "2026-01-01T00:00:00Z"),     // other tenant's commerce
			item("commerce_id", s.c2.String(), "nope", "ACTIVATION", "2026-01-01T00:00:00Z"),
		}}, s.h)
		want := `{"results":[{"index":0,"outcome":"created"},{"index":1,"outcome":"updated"}],"errors":[{"index":2,"messages":["Commerce ` + b.c1.String() +
			` not found"]},{"index":3,"messages":["Retention status config \"nope\" does not exist or is inactive"]}],"created":1,"updated":1,"unchanged":0,"stale":0}` + "\n"
		if res.Status != 200 || string(res.Body) != want {
			t.Fatalf("batch: %d %s\nwant %s", res.Status, res.Body, want)
		}
		other := item("external_id", "EXT-1", "new", "ACTIVATION", "2026-01-03T00:00:00Z")
		other["activity_generation_config_id"] = b.agc
		res = env.Do("POST", "/api/commerce-lifecycle-snapshots/batch-upsert", map[string]any{"items": []any{
			item("external_id", "EXT-1", "engaged", "ENGAGEMENT", "2026-01-02T00:00:00Z"),
			item("external_id", "EXT-1", "new", "ACTIVATION", "2025-01-01T00:00:00Z"),
			other,
		}}, s.h)
		want = `{"results":[{"index":0,"outcome":"unchanged"},{"index":1,"outcome":"stale"}],"errors":[{"index":2,"messages":["Activity generation config ` +
			b.agc.String() + ` not found"]}],"created":0,"updated":0,"unchanged":1,"stale":1}` + "\n"
		if res.Status != 200 || string(res.Body) != want {
			t.Fatalf("batch ext: %d %s\nwant %s", res.Status, res.Body, want)
		}
		res = env.Do("GET", "/api/commerce-lifecycle-snapshots/EXT-1", nil, s.h)
		d := res.Map(t)["data"].([]any)[0].(map[string]any)
		if d["code"] != "engaged" || d["state_changed_at"] != "2026-01-02T00:00:00Z" {
			t.Fatalf("after batch: %s", res.Body)
		}
	})
}
