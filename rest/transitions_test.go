package rest_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/viewer"
)

// transitionFixture is Acme (snapSetup) with a second AGC, whose history is
// written through the snapshot routes (single and batch upserts, by commerce
// id and by external id) plus one engine transition, and Beta with one
// transition of its own.
type transitionFixture struct {
	s, b  snapTenant
	agc2  uuid.UUID
	run   uuid.UUID
	names map[string]string // commerce and AGC id -> short name
}

const (
	tr1, tr2, tr3, tr4, tr5 = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z", "2026-01-04T00:00:00Z", "2026-01-05T00:00:00Z"
)

func newTransitionFixture(t *testing.T, env *apptest.Env) transitionFixture {
	t.Helper()
	f := transitionFixture{s: snapSetup(t, env, "Acme"), b: snapSetup(t, env, "Beta"), run: uuid.New()}
	ctx, c := viewer.SystemContext(context.Background()), env.App.DB.Client
	tn := c.Tenant.GetX(ctx, f.s.tenantID)
	project := c.ActivityGenerationConfig.GetX(ctx, f.s.agc).ProjectID
	f.agc2 = c.ActivityGenerationConfig.Create().SetTenantID(tn.ID).SetProjectID(project).SetName("AGC 2").SaveX(ctx).ID
	c.ActivityGenerationConfig.UpdateOneID(f.s.agc).SetConfigHashes(map[string]string{"activation": "ha", "engagement": "he"}).ExecX(ctx)
	f.names = map[string]string{f.s.c1.String(): "c1", f.s.c2.String(): "c2", f.s.agc.String(): "agc", f.agc2.String(): "agc2"}

	put(t, env, f.s, f.s.c1, "new", "ACTIVATION", tr1) // c1/agc created
	put(t, env, f.s, f.s.c1, "new", "ACTIVATION", tr2) // refreshed only: no transition
	f.batch(t, env, f.s.h, map[string]any{"external_id": "EXT-1", "activity_generation_config_id": f.s.agc,
		"code": "engaged", "stage": "ENGAGEMENT", "last_computed_at": tr3}) // c1/agc changes
	f.batch(t, env, f.s.h,
		map[string]any{"commerce_id": f.s.c2, "activity_generation_config_id": f.s.agc, "code": "engaged", "stage": "ENGAGEMENT", "last_computed_at": tr2},
		map[string]any{"commerce_id": f.s.c2, "activity_generation_config_id": f.agc2, "code": "new", "stage": "ACTIVATION", "last_computed_at": tr4})
	// What a lifecycle run appends (the engine writes through the same statement).
	at := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
	c.CommerceLifecycleTransition.Create().SetTenantID(tn.ID).SetCommerceID(f.s.c1).SetActivityGenerationConfigID(f.s.agc).
		SetFromStage("ENGAGEMENT").SetFromCode("engaged").SetToStage("ACTIVATION").SetToCode("new").
		SetStateChangedAt(at).SetLastComputedAt(at).SetConfigHash("ha").SetRunID(f.run).SetSource("ENGINE").SaveX(ctx)
	put(t, env, f.b, f.b.c1, "new", "ACTIVATION", tr1)
	return f
}

func (f transitionFixture) batch(t *testing.T, env *apptest.Env, h apptest.Headers, items ...map[string]any) {
	t.Helper()
	res := env.Do("POST", "/api/commerce-lifecycle-snapshots/batch-upsert", map[string]any{"items": items}, h)
	if m := res.Map(t); res.Status != 200 || len(m["errors"].([]any)) != 0 {
		t.Fatalf("batch: %d %s", res.Status, res.Body)
	}
}

// keys lists a page as "commerce/agc from->to@state_changed_at source".
func (f transitionFixture) keys(t *testing.T, res *apptest.Response) ([]string, map[string]any) {
	t.Helper()
	if res.Status != 200 {
		t.Fatalf("status %d: %s", res.Status, res.Body)
	}
	m := res.Map(t)
	out := []string{}
	for _, d := range m["data"].([]any) {
		it := d.(map[string]any)
		from := "-"
		if it["from_stage"] != nil {
			from = fmt.Sprint(it["from_code"])
		}
		out = append(out, fmt.Sprintf("%s/%s %s->%s@%s %s", f.names[it["commerce_id"].(string)], f.names[it["activity_generation_config_id"].(string)],
			from, it["to_code"], it["state_changed_at"].(string)[8:10], it["source"]))
	}
	return out, m["pagination"].(map[string]any)
}

// The history in its order (state_changed_at, then id).
var (
	trC1Created = "c1/agc -->new@01 API"
	trC2Created = "c2/agc -->engaged@02 API"
	trC1Changed = "c1/agc new->engaged@03 API"
	trC2Agc2    = "c2/agc2 -->new@04 API"
	trC1Engine  = "c1/agc engaged->new@05 ENGINE"
)

func TestTransitionList(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newTransitionFixture(t, env)
		list := func(q string) *apptest.Response {
			return env.Do("GET", "/api/commerce-lifecycle-transitions?"+q, nil, f.s.h)
		}
		all := []string{trC1Created, trC2Created, trC1Changed, trC2Agc2, trC1Engine}

		t.Run("shape", func(t *testing.T) {
			res := list("per_page=1")
			item := res.Map(t)["data"].([]any)[0].(map[string]any)
			id, created := item["id"], item["created_at"]
			if _, err := uuid.Parse(fmt.Sprint(id)); err != nil || created == nil {
				t.Fatalf("id %v, created_at %v", id, created)
			}
			delete(item, "id")
			delete(item, "created_at")
			want := map[string]any{"commerce_id": f.s.c1.String(), "activity_generation_config_id": f.s.agc.String(),
				"from_stage": nil, "from_code": nil, "to_stage": "ACTIVATION", "to_code": "new", "state_changed_at": tr1,
				"last_computed_at": tr1, "config_hash": "ha", "run_id": nil, "source": "API"}
			if fmt.Sprint(item) != fmt.Sprint(want) {
				t.Fatalf("item = %v\nwant   %v", item, want)
			}
			res = list("source=ENGINE")
			item = res.Map(t)["data"].([]any)[0].(map[string]any)
			if item["from_stage"] != "ENGAGEMENT" || item["from_code"] != "engaged" || item["run_id"] != f.run.String() || item["last_computed_at"] != tr5 {
				t.Fatalf("engine item = %v", item)
			}
		})

		t.Run("filters", func(t *testing.T) {
			for _, c := range []struct {
				q    string
				want []string
			}{
				{"", all},
				{"commerce_id=" + f.s.c1.String(), []string{trC1Created, trC1Changed, trC1Engine}},
				{"activity_generation_config_id=" + f.agc2.String(), []string{trC2Agc2}},
				{"since=" + tr3, []string{trC1Changed, trC2Agc2, trC1Engine}}, // at or after
				{"since=2026-01-03T01:00:00%2B01:00", []string{trC1Changed, trC2Agc2, trC1Engine}},
				{"since=2026-01-03T00:00:00.000001Z", []string{trC2Agc2, trC1Engine}},
				{"source=API", []string{trC1Created, trC2Created, trC1Changed, trC2Agc2}},
				{"source=ENGINE", []string{trC1Engine}},
				{"run_id=" + f.run.String(), []string{trC1Engine}},
				{"commerce_id=" + f.s.c1.String() + "&source=API&activity_generation_config_id=" + f.s.agc.String(), []string{trC1Created, trC1Changed}},
				{"run_id=" + uuid.NewString(), []string{}},
				// Another tenant's commerce, AGC and rows are never seen.
				{"commerce_id=" + f.b.c1.String(), []string{}},
				{"activity_generation_config_id=" + f.b.agc.String(), []string{}},
			} {
				got, p := f.keys(t, list(c.q))
				if !slices.Equal(got, c.want) || p["total"] != float64(len(c.want)) {
					t.Errorf("%s: %v (total %v), want %v", c.q, got, p["total"], c.want)
				}
			}
			// Beta sees its own transition only, x-project-id ignored.
			res := env.Do("GET", "/api/commerce-lifecycle-transitions", nil, f.b.h)
			if d := res.Map(t)["data"].([]any); len(d) != 1 || d[0].(map[string]any)["commerce_id"] != f.b.c1.String() {
				t.Fatalf("Beta: %s", res.Body)
			}
		})

		t.Run("pagination", func(t *testing.T) {
			var got []string
			for page := 1; page <= 3; page++ {
				keys, p := f.keys(t, list(fmt.Sprintf("per_page=2&page=%d", page)))
				got = append(got, keys...)
				want := map[string]any{"page": float64(page), "per_page": 2.0, "total": 5.0, "total_pages": 3.0, "has_next": page < 3, "has_previous": page > 1}
				if fmt.Sprint(p) != fmt.Sprint(want) {
					t.Fatalf("page %d: pagination %v, want %v", page, p, want)
				}
			}
			if !slices.Equal(got, all) {
				t.Fatalf("pages = %v, want %v", got, all)
			}
			if keys, _ := f.keys(t, list("per_page=2&page=4")); len(keys) != 0 {
				t.Fatalf("past the end: %v", keys)
			}
			apptest.ExpectError(t, list("per_page=101"), 400, []any{"per_page must not be greater than 100"})
		})

		t.Run("bad values", func(t *testing.T) {
			for q, msg := range map[string]string{
				"commerce_id=c1":                    "commerce_id must be a UUID",
				"activity_generation_config_id=agc": "activity_generation_config_id must be a UUID",
				"since=yesterday":                   "since must be a valid ISO 8601 date string",
				"since=2026-01-01":                  "since must be a valid ISO 8601 date string",
				"source=engine":                     "source must be one of the following values: ENGINE, API",
				"run_id=42":                         "run_id must be a UUID",
			} {
				apptest.ExpectError(t, list(q), 400, []any{msg})
			}
			apptest.ExpectError(t, list("run_id=1&source=X&since=now&activity_generation_config_id=a&commerce_id=c"), 400, []any{
				"commerce_id must be a UUID", "activity_generation_config_id must be a UUID", "since must be a valid ISO 8601 date string",
				"source must be one of the following values: ENGINE, API", "run_id must be a UUID"})
		})
	})
}

func TestTransitionHistoryOfCommerce(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newTransitionFixture(t, env)
		history := func(ident, q string, h apptest.Headers) *apptest.Response {
			return env.Do("GET", "/api/commerce-lifecycle-snapshots/"+ident+"/history?"+q, nil, h)
		}
		for _, ident := range []string{f.s.c1.String(), "EXT-1"} {
			got, p := f.keys(t, history(ident, "", f.s.h))
			if want := []string{trC1Created, trC1Changed, trC1Engine}; !slices.Equal(got, want) || p["total"] != 3.0 {
				t.Fatalf("history of %s = %v, want %v", ident, got, want)
			}
			got, p = f.keys(t, history(ident, "per_page=2&page=2", f.s.h))
			if !slices.Equal(got, []string{trC1Engine}) || p["total_pages"] != 2.0 || p["has_previous"] != true {
				t.Fatalf("page 2 of %s = %v %v", ident, got, p)
			}
		}
		got, _ := f.keys(t, history(f.s.c2.String(), "activity_generation_config_id="+f.agc2.String(), f.s.h))
		if !slices.Equal(got, []string{trC2Agc2}) {
			t.Fatalf("c2 under agc2 = %v", got)
		}
		// A commerce without a transition has an empty history.
		ctx := viewer.SystemContext(context.Background())
		c3 := env.App.DB.Client.Commerce.Create().SetTenantID(f.s.tenantID).SetName("C3").SetExternalID("EXT-3").SaveX(ctx)
		if got, p := f.keys(t, history("EXT-3", "", f.s.h)); len(got) != 0 || p["total"] != 0.0 || p["total_pages"] != 0.0 {
			t.Fatalf("history of %s = %v %v", c3.ID, got, p)
		}

		// Beta's commerce is not found by Acme, by UUID or by Beta's own external id resolving to Acme's.
		apptest.ExpectError(t, history(f.b.c1.String(), "", f.s.h), 404, "Commerce not found")
		apptest.ExpectError(t, history("nope", "", f.s.h), 404, "Commerce not found")
		got, _ = f.keys(t, history("EXT-1", "", f.b.h))
		if !slices.Equal(got, []string{"/ -->new@01 API"}) {
			t.Fatalf("Beta's EXT-1 = %v", got)
		}
		apptest.ExpectError(t, history(f.s.c1.String(), "activity_generation_config_id=x", f.s.h), 400,
			[]any{"activity_generation_config_id must be a UUID"})
		apptest.ExpectError(t, history("nope", "activity_generation_config_id=x", f.s.h), 400,
			[]any{"activity_generation_config_id must be a UUID"})
		apptest.ExpectError(t, history(f.s.c1.String(), "per_page=0", f.s.h), 400, []any{"per_page must not be less than 1"})
	})
}
