package rest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/viewer"
)

// snapModel is the expected stored state of one (commerce, AGC) snapshot.
type snapModel struct {
	code, stage   string
	last, changed time.Time
}

var snapStages = map[string]string{"new": "ACTIVATION", "fresh": "ACTIVATION", "engaged": "ENGAGEMENT", "lost": "RESURRECTION"}

// apply is the SPEC.md table: the outcome of one upsert over the model.
func (m *snapModel) apply(code string, at time.Time) string {
	switch {
	case m.code == "":
		*m = snapModel{code: code, stage: snapStages[code], last: at, changed: at}
		return "created"
	case at.Before(m.last):
		return "stale"
	case m.code == code && at.Equal(m.last):
		return "unchanged"
	}
	if m.code != code || m.stage != snapStages[code] {
		m.changed = at
	}
	m.code, m.stage, m.last = code, snapStages[code], at
	return "updated"
}

type batchOut struct {
	Results []struct {
		Index   int    `json:"index"`
		Outcome string `json:"outcome"`
	} `json:"results"`
	Errors []struct {
		Index    int      `json:"index"`
		Messages []string `json:"messages"`
	} `json:"errors"`
	Created, Updated, Unchanged, Stale int
}

func snapItem(commerce, agc uuid.UUID, code string, at time.Time) map[string]any {
	return map[string]any{"commerce_id": commerce, "activity_generation_config_id": agc, "code": code,
		"stage": snapStages[code], "last_computed_at": at.Format(time.RFC3339Nano)}
}

func addStatuses(t *testing.T, env *apptest.Env, tenantID uuid.UUID) {
	t.Helper()
	ctx, c := viewer.SystemContext(context.Background()), env.App.DB.Client
	c.RetentionStatusConfig.Create().SetTenantID(tenantID).SetCode("fresh").SetLabel("Fresco").SetStage("ACTIVATION").SaveX(ctx)
	c.RetentionStatusConfig.Create().SetTenantID(tenantID).SetCode("lost").SetLabel("Perdido").SetStage("RESURRECTION").SaveX(ctx)
}

func stored(t *testing.T, env *apptest.Env, s snapTenant, commerce uuid.UUID) map[string]any {
	t.Helper()
	res := env.Do("GET", "/api/commerce-lifecycle-snapshots/"+commerce.String()+"?activity_generation_config_id="+s.agc.String(), nil, s.h)
	if res.Status != 200 {
		t.Fatalf("get %s: %d %s", commerce, res.Status, res.Body)
	}
	return res.Map(t)["data"].([]any)[0].(map[string]any)
}

// TestSnapshotStateChangedAtProperty sends random batches (duplicates, equal
// and older last_computed_at, code changes within a stage) and checks every
// outcome and the stored state against the SPEC.md table applied in request
// order: state_changed_at moves if and only if (stage, code) changes.
func TestSnapshotStateChangedAtProperty(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		s := snapSetup(t, env, "Acme")
		addStatuses(t, env, s.tenantID)
		seed := uint64(time.Now().UnixNano())
		rng := rand.New(rand.NewPCG(seed, 7))
		commerces := []uuid.UUID{s.c1, s.c2}
		models := map[uuid.UUID]*snapModel{s.c1: {}, s.c2: {}}
		codes := []string{"new", "fresh", "engaged", "lost"}
		base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
		for round := range 40 {
			var items []any
			var want []string
			for range 1 + rng.IntN(6) {
				c := commerces[rng.IntN(len(commerces))]
				code := codes[rng.IntN(len(codes))]
				at := base.Add(time.Duration(rng.IntN(12)) * time.Hour)
				items = append(items, snapItem(c, s.agc, code, at))
				want = append(want, models[c].apply(code, at))
			}
			base = base.Add(6 * time.Hour) // later rounds mostly move forward
			res := env.Do("POST", "/api/commerce-lifecycle-snapshots/batch-upsert", map[string]any{"items": items}, s.h)
			var out batchOut
			res.JSON(t, &out)
			if res.Status != 200 || len(out.Errors) != 0 || len(out.Results) != len(want) {
				t.Fatalf("seed %d round %d: %d %s", seed, round, res.Status, res.Body)
			}
			for i, r := range out.Results {
				if r.Index != i || r.Outcome != want[i] {
					t.Fatalf("seed %d round %d item %d: outcome %s, want %s (items %v)", seed, round, i, r.Outcome, want[i], items)
				}
			}
			for _, c := range commerces {
				m := models[c]
				if m.code == "" {
					continue
				}
				got := stored(t, env, s, c)
				if got["code"] != m.code || got["stage"] != m.stage || got["last_computed_at"] != m.last.Format(time.RFC3339) ||
					got["state_changed_at"] != m.changed.Format(time.RFC3339) {
					t.Fatalf("seed %d round %d commerce %s: stored %v, want %+v", seed, round, c, got, *m)
				}
			}
		}
	})
}

// TestSnapshotBatchAcrossChunks sends 2,500 items (three chunks) where one
// key repeats in every chunk and inside one chunk: the last one wins.
func TestSnapshotBatchAcrossChunks(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		s := snapSetup(t, env, "Acme")
		ctx, db := viewer.SystemContext(context.Background()), env.App.DB.Client
		ids := make([]uuid.UUID, 2400)
		for i := range ids {
			ids[i] = db.Commerce.Create().SetTenantID(s.tenantID).SetName(fmt.Sprintf("C%d", i)).SaveX(ctx).ID
		}
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		var items []any
		for _, id := range ids {
			items = append(items, snapItem(id, s.agc, "new", at))
		}
		// s.c1 at positions 2400.. with increasing times, codes alternating.
		dup := []int{}
		for i := range 100 {
			code := []string{"new", "engaged"}[i%2]
			items = append(items, snapItem(s.c1, s.agc, code, at.Add(time.Duration(i)*time.Minute)))
			dup = append(dup, len(items)-1)
		}
		// Move two dups into earlier chunks so the key spans all three.
		items[5], items[dup[0]] = items[dup[0]], items[5]
		items[1500], items[dup[1]] = items[dup[1]], items[1500]
		res := env.Do("POST", "/api/commerce-lifecycle-snapshots/batch-upsert", map[string]any{"items": items}, s.h)
		var out batchOut
		res.JSON(t, &out)
		// 2,400 + 1 created; the 99 later writes of s.c1 all change its code.
		if res.Status != 200 || out.Created != 2401 || out.Updated != 99 || out.Unchanged != 0 || out.Stale != 0 || len(out.Errors) != 0 {
			t.Fatalf("batch: %d created=%d updated=%d unchanged=%d stale=%d errors=%v", res.Status, out.Created, out.Updated, out.Unchanged, out.Stale, out.Errors)
		}
		last := at.Add(99 * time.Minute).Format(time.RFC3339)
		if got := stored(t, env, s, s.c1); got["code"] != "engaged" || got["last_computed_at"] != last || got["state_changed_at"] != last {
			t.Fatalf("c1 = %v", got)
		}
		// The identical batch again rewrites nothing.
		res = env.Do("POST", "/api/commerce-lifecycle-snapshots/batch-upsert", map[string]any{"items": items}, s.h)
		res.JSON(t, &out)
		if out.Created != 0 || out.Updated != 0 || out.Unchanged+out.Stale != 2500 {
			t.Fatalf("resend: created=%d updated=%d unchanged=%d stale=%d", out.Created, out.Updated, out.Unchanged, out.Stale)
		}
	})
}

// TestSnapshotConcurrentWritersNeverMoveBack races batches over the same
// commerces with random last_computed_at: every snapshot ends at the newest
// write sent for it, whatever the interleaving.
func TestSnapshotConcurrentWritersNeverMoveBack(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		s := snapSetup(t, env, "Acme")
		ctx, db := viewer.SystemContext(context.Background()), env.App.DB.Client
		ids := make([]uuid.UUID, 20)
		for i := range ids {
			ids[i] = db.Commerce.Create().SetTenantID(s.tenantID).SetName(fmt.Sprintf("C%d", i)).SaveX(ctx).ID
		}
		base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		// The code is a function of the time, so the newest write decides both.
		codeAt := func(h int) string { return []string{"new", "engaged"}[h%2] }
		var mu sync.Mutex
		newest := map[uuid.UUID]int{}
		var wg sync.WaitGroup
		errs := make(chan string, 64)
		for w := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(w), 1))
				for range 5 {
					var items []any
					for _, id := range ids {
						h := rng.IntN(1000)
						items = append(items, snapItem(id, s.agc, codeAt(h), base.Add(time.Duration(h)*time.Hour)))
						mu.Lock()
						if cur, ok := newest[id]; !ok || h > cur {
							newest[id] = h
						}
						mu.Unlock()
					}
					res := env.Do("POST", "/api/commerce-lifecycle-snapshots/batch-upsert", map[string]any{"items": items}, s.h)
					if res.Status != 200 {
						errs <- fmt.Sprintf("%d %s", res.Status, res.Body)
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Fatal(e)
		}
		for _, id := range ids {
			h := newest[id]
			got := stored(t, env, s, id)
			if got["last_computed_at"] != base.Add(time.Duration(h)*time.Hour).Format(time.RFC3339) || got["code"] != codeAt(h) {
				t.Fatalf("commerce %s = %v; want hour %d code %s", id, got, h, codeAt(h))
			}
		}
	})
}

func TestSnapshotStageMustMatchStatusConfig(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		s := snapSetup(t, env, "Acme")
		res := env.Do("PUT", "/api/commerce-lifecycle-snapshots", map[string]any{"commerce_id": s.c1, "activity_generation_config_id": s.agc,
			"code": "new", "stage": "ENGAGEMENT", "last_computed_at": "2026-01-01T00:00:00Z"}, s.h)
		apptest.ExpectError(t, res, 400, `stage ENGAGEMENT does not match retention status config "new" (stage ACTIVATION)`)
	})
}

// TestSnapshotListPages walks every page (ties on state_changed_at included)
// in both orders: each snapshot appears once, in (state_changed_at, id)
// order, and a page past the end is empty with the exact total.
func TestSnapshotListPages(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		s := snapSetup(t, env, "Acme")
		ctx, db := viewer.SystemContext(context.Background()), env.App.DB.Client
		type ref struct {
			id string
			at time.Time
		}
		var want []ref
		base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		var items []any
		for i := range 7 {
			c := db.Commerce.Create().SetTenantID(s.tenantID).SetName(fmt.Sprintf("C%d", i)).SaveX(ctx).ID
			items = append(items, snapItem(c, s.agc, "new", base.Add(time.Duration(i/3)*time.Hour))) // three share each hour
		}
		res := env.Do("POST", "/api/commerce-lifecycle-snapshots/batch-upsert", map[string]any{"items": items}, s.h)
		if res.Status != 200 {
			t.Fatalf("seed: %d %s", res.Status, res.Body)
		}
		for _, sn := range db.CommerceLifecycleSnapshot.Query().AllX(ctx) {
			want = append(want, ref{sn.ID.String(), sn.StateChangedAt})
		}
		slices.SortFunc(want, func(a, b ref) int {
			if c := a.at.Compare(b.at); c != 0 {
				return c
			}
			return strings.Compare(a.id, b.id)
		})
		for _, sort := range []string{"state_changed_at", "-state_changed_at"} {
			var got []string
			for page := 1; page <= 5; page++ {
				res := env.Do("GET", fmt.Sprintf("/api/commerce-lifecycle-snapshots?per_page=2&page=%d&sort=%s", page, sort), nil, s.h)
				m := res.Map(t)
				if p := m["pagination"].(map[string]any); res.Status != 200 || p["total"] != 7.0 || p["total_pages"] != 4.0 {
					t.Fatalf("page %d: %d %s", page, res.Status, res.Body)
				}
				data := m["data"].([]any)
				if page == 5 && len(data) != 0 {
					t.Fatalf("page past the end: %s", res.Body)
				}
				for _, d := range data {
					got = append(got, d.(map[string]any)["id"].(string))
				}
			}
			var ids []string
			for _, r := range want {
				ids = append(ids, r.id)
			}
			if sort == "-state_changed_at" {
				slices.Reverse(ids)
			}
			if !slices.Equal(got, ids) {
				t.Fatalf("sort %s: pages give %v, want %v", sort, got, ids)
			}
		}
	})
}

// TestSnapshotBatchItemShapes: an item with a wrong type or an unknown
// property (the precise decoder) fails alone; the others are written.
func TestSnapshotBatchItemShapes(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		s := snapSetup(t, env, "Acme")
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		bad := snapItem(s.c2, s.agc, "new", at)
		bad["stage"] = 5
		bad["colour"] = "red"
		res := env.Do("POST", "/api/commerce-lifecycle-snapshots/batch-upsert", map[string]any{"items": []any{
			snapItem(s.c1, s.agc, "new", at), bad, "nope", map[string]any{"commerce_id": s.c2, "activity_generation_config_id": s.agc,
				"code": "new", "stage": "ACTIVATION", "last_computed_at": "yesterday"}}}, s.h)
		want := `{"results":[{"index":0,"outcome":"created"}],"errors":[` +
			`{"index":1,"messages":["property colour should not exist","stage must be one of the following values: ACTIVATION, ENGAGEMENT, RESURRECTION"]},` +
			`{"index":2,"messages":["each item must be an object"]},` +
			`{"index":3,"messages":["last_computed_at must be a valid ISO 8601 date string"]}],` +
			`"created":1,"updated":0,"unchanged":0,"stale":0}` + "\n"
		if res.Status != 200 || string(res.Body) != want {
			t.Fatalf("batch: %d %s\nwant %s", res.Status, res.Body, want)
		}
		apptest.ExpectError(t, env.Do("POST", "/api/commerce-lifecycle-snapshots/batch-upsert", map[string]any{"items": "x"}, s.h), 400,
			[]any{"items must be an array"})
		apptest.ExpectError(t, env.Do("POST", "/api/commerce-lifecycle-snapshots/batch-upsert", map[string]any{"items": []any{}}, s.h), 400,
			[]any{"items should not be empty"})
	})
}
