package graph_test

import (
	"fmt"
	"net/http"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/snapshot"
)

// snapRow is a connection node reduced to what ordering and filters are checked on.
type snapRow struct{ id, key, changed, cursor string }

// listRows runs listQuery and returns its rows with the connection's totalCount and pageInfo.
func (s snapSetup) listRows(t *testing.T, env *apptest.Env, h apptest.Headers, vars M) ([]snapRow, int, M) {
	t.Helper()
	conn := get(t, gqlOK(t, env, h, listQuery, vars), "commerceLifecycleSnapshots")
	var out []snapRow
	for _, e := range get(t, conn, "edges").([]any) {
		n := get(t, e, "node")
		out = append(out, snapRow{id: str(t, n, "id"), key: s.name[str(t, n, "commerceID")] + "/" + s.name[str(t, n, "activityGenerationConfigID")],
			changed: str(t, n, "stateChangedAt"), cursor: str(t, e, "cursor")})
	}
	return out, int(get(t, conn, "totalCount").(float64)), get(t, conn, "pageInfo").(M)
}

func snapKeys(rows []snapRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.key
	}
	return out
}

func TestSnapshotConnectionOverGraphQL(t *testing.T) {
	each(t, newSnapSetup, func(t *testing.T, env *apptest.Env, s snapSetup) {
		const t1, t2, t3, t4 = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z", "2026-01-04T00:00:00Z"
		// Three rows share t2: the cursor must break the tie by id.
		s.batch(t, env, s.h,
			s.item(s.c1, s.low, "new", t1),
			s.item(s.c2, s.low, "engaged", t2),
			s.item(s.c3, s.low, "new", t2),
			s.item(s.c1, s.high, "engaged", t3),
			s.item(s.c2, s.high, "new", t4),
			s.item(s.c3, s.high, "new", t2),
		)
		s.batch(t, env, s.bh, s.item(s.bc, s.bagc, "new", t4))

		// Default order: stateChangedAt DESC, then id DESC.
		all, total, _ := s.listRows(t, env, s.h, nil)
		if total != 6 || len(all) != 6 {
			t.Fatalf("total %d, rows %v", total, snapKeys(all))
		}
		for i := 1; i < len(all); i++ {
			a, b := all[i-1], all[i]
			if a.changed < b.changed || a.changed == b.changed && a.id < b.id {
				t.Fatalf("not ordered by (stateChangedAt, id) DESC at %d: %v", i, all)
			}
		}
		if got := snapKeys(all); got[0] != "c2/high" || got[1] != "c1/high" || got[5] != "c1/low" {
			t.Fatalf("DESC order = %v", got)
		}
		asc, _, _ := s.listRows(t, env, s.h, M{"order": M{"direction": "ASC"}})
		if slices.Reverse(asc); !slices.Equal(snapKeys(asc), snapKeys(all)) {
			t.Fatalf("ASC is not the reverse of DESC: %v vs %v", snapKeys(asc), snapKeys(all))
		}
		// x-project-id is ignored; Beta sees only its own snapRow.
		if rows, n, _ := s.listRows(t, env, s.h.With("x-project-id", s.mainProject), nil); n != 6 || !slices.Equal(snapKeys(rows), snapKeys(all)) {
			t.Fatalf("with x-project-id: %d %v", n, snapKeys(rows))
		}
		if rows, n, _ := s.listRows(t, env, s.bh, nil); n != 1 || !slices.Equal(snapKeys(rows), []string{"bc/bagc"}) {
			t.Fatalf("Beta: %d %v", n, snapKeys(rows))
		}

		t.Run("filters", func(t *testing.T) {
			only := func(keep func(key string) bool) []string {
				var out []string
				for _, r := range all {
					if keep(r.key) {
						out = append(out, r.key)
					}
				}
				return out
			}
			in := func(ks ...string) func(string) bool { return func(k string) bool { return slices.Contains(ks, k) } }
			for _, c := range []struct {
				filter M
				want   []string
			}{
				{M{"code": "new"}, only(in("c1/low", "c3/low", "c2/high", "c3/high"))},
				{M{"stage": "ENGAGEMENT"}, only(in("c2/low", "c1/high"))},
				{M{"activityGenerationConfigID": s.high}, only(in("c1/high", "c2/high", "c3/high"))},
				{M{"stateChangedSince": t2}, only(in("c1/high", "c2/high"))}, // strictly after
				{M{"stateChangedSince": "2026-01-01T12:00:00+02:00"}, only(in("c2/low", "c3/low", "c3/high", "c1/high", "c2/high"))},
				{M{"code": "new", "activityGenerationConfigID": s.high}, only(in("c2/high", "c3/high"))},
				{M{"code": "nope"}, nil},
				{M{"code": "", "stage": nil}, snapKeys(all)}, // empty and null values do not filter
				{M{"activityGenerationConfigID": s.bagc}, nil},
			} {
				rows, n, _ := s.listRows(t, env, s.h, M{"filter": c.filter})
				if !slices.Equal(snapKeys(rows), c.want) || n != len(c.want) {
					t.Errorf("filter %v: %d %v, want %v", c.filter, n, snapKeys(rows), c.want)
				}
			}
		})

		t.Run("cursor paging", func(t *testing.T) {
			for _, order := range []string{"DESC", "ASC"} {
				want := snapKeys(all)
				if order == "ASC" {
					want = slices.Clone(want)
					slices.Reverse(want)
				}
				for _, size := range []int{1, 2, 4} {
					var got []string
					var after any
					for pages := 0; ; pages++ {
						rows, total, info := s.listRows(t, env, s.h, M{"first": size, "after": after, "order": M{"direction": order}})
						if total != 6 || pages > 6 {
							t.Fatalf("%s first %d: total %d after %d pages", order, size, total, pages)
						}
						got = append(got, snapKeys(rows)...)
						if info["hasNextPage"] != (len(got) < 6) {
							t.Fatalf("%s first %d: hasNextPage %v after %v", order, size, info["hasNextPage"], got)
						}
						if info["hasNextPage"] == false {
							break
						}
						after = info["endCursor"]
					}
					if !slices.Equal(got, want) {
						t.Fatalf("%s pages of %d = %v, want %v", order, size, got, want)
					}
				}
			}
			// Backwards: last/before walks the same order from its end.
			var got []string
			var before any
			for {
				rows, _, info := s.listRows(t, env, s.h, M{"last": 4, "before": before})
				got = append(snapKeys(rows), got...)
				if info["hasPreviousPage"] == false {
					break
				}
				before = info["startCursor"]
			}
			if !slices.Equal(got, snapKeys(all)) {
				t.Fatalf("last/before pages = %v, want %v", got, snapKeys(all))
			}
		})

		t.Run("errors and permission", func(t *testing.T) {
			const field = "commerceLifecycleSnapshots"
			bad := func(filter M) *apptest.Response { return env.GraphQL(listQuery, M{"filter": filter}, s.h) }
			// stage is an enum and activityGenerationConfigID an ID: the schema refuses other values.
			expectVariableInvalid(t, bad(M{"stage": "active"}), L{"filter", "stage"}, "active is not a valid CommerceLifecycleSnapshotStage")
			expectBody(t, bad(M{"activityGenerationConfigID": "agc-1"}), http.StatusOK, M{"data": nil, "errors": L{fieldError(L{field, "filter", "activityGenerationConfigID"},
				"filter.activityGenerationConfigID must be a UUID", "BAD_REQUEST", 400)}})
			expectInvalid(t, bad(M{"stateChangedSince": "yesterday"}), field, "stateChangedSince must be a valid ISO 8601 date string")
			expectInvalid(t, env.GraphQL(listQuery, M{"first": 101}, s.h), field, "first must not be greater than 100")
			expectInvalid(t, env.GraphQL(listQuery, M{"last": 101}, s.h), field, "last must not be greater than 100")
			expectFieldError(t, env.GraphQL(listQuery, nil, s.op), field, "Required permissions: commerce-lifecycle-snapshot:view", "FORBIDDEN", 403)
		})
	})
}

func TestCommerceLifecycleSnapshotsFieldAndLookups(t *testing.T) {
	each(t, newSnapSetup, func(t *testing.T, env *apptest.Env, s snapSetup) {
		// c1's high AGC is written first (a request of its own): the field still orders by AGC id.
		s.batch(t, env, s.h, s.item(s.c1, s.high, "engaged", "2026-01-02T00:00:00Z"))
		s.batch(t, env, s.h,
			s.item(s.c1, s.low, "new", "2026-01-01T00:00:00Z"),
			s.item(s.c2, s.low, "new", "2026-01-03T00:00:00Z"),
		)
		s.batch(t, env, s.bh, s.item(s.bc, s.bagc, "new", "2026-01-01T00:00:00Z"))
		sn := func(agc, code string) M { return M{"activityGenerationConfigID": agc, "code": code} }
		c1Snaps := L{sn(s.low, "new"), sn(s.high, "engaged")}

		t.Run("commerce field", func(t *testing.T) {
			const q = `{ commerces(orderBy: {field: NAME}) { edges { node { name lifecycleSnapshots { activityGenerationConfigID code } } } } }`
			node := func(name string, snaps any) M { return M{"node": M{"name": name, "lifecycleSnapshots": snaps}} }
			expectData(t, env.GraphQL(q, nil, s.h), M{"commerces": M{"edges": L{
				node("c1", c1Snaps), node("c2", L{sn(s.low, "new")}), node("c3", L{})}}})
			expectData(t, env.GraphQL(q, nil, s.bh), M{"commerces": M{"edges": L{node("bc", L{sn(s.bagc, "new")})}}})
			// Through node() too.
			expectData(t, env.GraphQL(`query($id: ID!) { node(id: $id) { ... on Commerce { lifecycleSnapshots { activityGenerationConfigID code } } } }`,
				M{"id": s.c1}, s.h), M{"node": M{"lifecycleSnapshots": c1Snaps}})
			// The edge needs commerce-lifecycle-snapshot:view: the operator reads commerces, not their snapshots.
			denied := func(i int) M {
				return fieldError(L{"commerces", "edges", i, "node", "lifecycleSnapshots"}, "Required permissions: commerce-lifecycle-snapshot:view", "FORBIDDEN", 403)
			}
			expectUnordered(t, env.GraphQL(q, nil, s.op), M{"commerces": M{"edges": L{node("c1", nil), node("c2", nil), node("c3", nil)}}},
				L{denied(0), denied(1), denied(2)})
		})

		t.Run("by commerce", func(t *testing.T) {
			const q = `query($c: String!, $a: ID) { commerceLifecycleSnapshotsByCommerce(commerce: $c, activityGenerationConfigID: $a) { activityGenerationConfigID code } }`
			const field = "commerceLifecycleSnapshotsByCommerce"
			for _, ident := range []string{s.c1, "EXT-1"} {
				expectData(t, env.GraphQL(q, M{"c": ident}, s.h), M{field: c1Snaps})
				expectData(t, env.GraphQL(q, M{"c": ident, "a": s.high}, s.h), M{field: L{sn(s.high, "engaged")}})
			}
			expectData(t, env.GraphQL(q, M{"c": "EXT-3"}, s.h), M{field: L{}})
			expectFieldError(t, env.GraphQL(q, M{"c": s.c2, "a": s.high}, s.h), field, "Commerce lifecycle snapshot not found", "NOT_FOUND", 404)
			expectFieldError(t, env.GraphQL(q, M{"c": s.bc}, s.h), field, "Commerce not found", "NOT_FOUND", 404)
			expectFieldError(t, env.GraphQL(q, M{"c": "nope"}, s.h), field, "Commerce not found", "NOT_FOUND", 404)
			// Beta's EXT-1 is Beta's commerce.
			expectData(t, env.GraphQL(q, M{"c": "EXT-1"}, s.bh), M{field: L{sn(s.bagc, "new")}})
			expectFieldError(t, env.GraphQL(q, M{"c": s.c1}, s.op), field, "Required permissions: commerce-lifecycle-snapshot:view", "FORBIDDEN", 403)
		})

		t.Run("batch lookup", func(t *testing.T) {
			const q = `query($ids: [ID!], $exts: [String!], $a: ID) { commerceLifecycleSnapshotsBatchLookup(commerceIDs: $ids, externalIDs: $exts, activityGenerationConfigID: $a) {
				snapshots { commerceID activityGenerationConfigID code } unresolved } }`
			const field = "commerceLifecycleSnapshotsBatchLookup"
			full := func(commerce, agc, code string) M {
				return M{"commerceID": commerce, "activityGenerationConfigID": agc, "code": code}
			}
			expectData(t, env.GraphQL(q, M{"exts": L{"EXT-1", "NOPE", "EXT-3", "NOPE"}}, s.h), M{field: M{
				"snapshots":  sortedSnaps(full(s.c1, s.low, "new"), full(s.c1, s.high, "engaged")),
				"unresolved": L{"NOPE", "EXT-3"}}})
			expectData(t, env.GraphQL(q, M{"ids": L{s.c2, s.bc, s.c1}, "a": s.low}, s.h), M{field: M{
				"snapshots":  sortedSnaps(full(s.c1, s.low, "new"), full(s.c2, s.low, "new")),
				"unresolved": L{s.bc}}})
			expectInvalid(t, env.GraphQL(q, M{"ids": L{}, "exts": L{}}, s.h), field, snapshot.MsgLookupBoth)
			expectInvalid(t, env.GraphQL(q, nil, s.h), field, snapshot.MsgLookupNone)
			expectFieldError(t, env.GraphQL(q, M{"exts": L{"EXT-1"}}, s.op), field, "Required permissions: commerce-lifecycle-snapshot:view", "FORBIDDEN", 403)
		})
	})
}

// TestSnapshotListsHaveNoNPlusOne counts the SQL statements of a commerce
// page selecting lifecycleSnapshots and of a snapshot page selecting its
// commerce: 20 rows cost what 1 costs. It then checks the default page size.
func TestSnapshotListsHaveNoNPlusOne(t *testing.T) {
	eachCounting(t, func(t *testing.T, env *apptest.Env, statements *atomic.Int64) {
		s := newSnapSetup(t, env)
		ctx, c := sysCtx(), env.App.DB.Client
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		made := 0
		add := func(n int) {
			for range n {
				made++
				cm := c.Commerce.Create().SetTenantID(s.beta.TenantID).SetName(fmt.Sprintf("n%03d", made)).SaveX(ctx)
				c.CommerceLifecycleSnapshot.Create().SetTenantID(s.beta.TenantID).SetCommerceID(cm.ID).
					SetActivityGenerationConfigID(uuid.MustParse(s.bagc)).SetCode("new").SetLabel("Nuevo").SetStage("ACTIVATION").
					SetLastComputedAt(at).SetStateChangedAt(at).SaveX(ctx)
			}
		}
		count := func(q, path string, want int) int64 {
			t.Helper()
			statements.Store(0)
			out := gqlOK(t, env, s.bh, q, nil)
			n := statements.Load()
			if edges := get(t, out, path, "edges").([]any); len(edges) != want {
				t.Fatalf("%s: %d rows, want %d", path, len(edges), want)
			}
			return n
		}
		const commerces = `{ commerces(first: 50) { edges { node { name lifecycleSnapshots { code commerce { name } } } } } }`
		const snaps = `{ commerceLifecycleSnapshots(first: 50) { edges { node { code commerce { name } } } } }`
		add(1) // Beta's own "bc" has no snapshot
		oneC, oneS := count(commerces, "commerces", 2), count(snaps, "commerceLifecycleSnapshots", 1)
		add(19)
		manyC, manyS := count(commerces, "commerces", 21), count(snaps, "commerceLifecycleSnapshots", 20)
		t.Logf("commerces %d/%d statements, snapshots %d/%d", oneC, manyC, oneS, manyS)
		if oneC != manyC || oneS != manyS {
			t.Fatalf("statements grow with the page: commerces %d -> %d, snapshots %d -> %d", oneC, manyC, oneS, manyS)
		}
		// Without first or last a page holds 25 rows.
		add(6)
		out := gqlOK(t, env, s.bh, `{ commerceLifecycleSnapshots { totalCount pageInfo { hasNextPage } edges { cursor } } }`, nil)
		conn := get(t, out, "commerceLifecycleSnapshots")
		if len(get(t, conn, "edges").([]any)) != 25 || get(t, conn, "totalCount") != 26.0 || get(t, conn, "pageInfo", "hasNextPage") != true {
			t.Fatalf("default page: %v", conn)
		}
	})
}
