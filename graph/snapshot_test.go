package graph_test

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/snapshot"
)

// snapSetup is Acme with three commerces (c1 has external id EXT-1) and two
// AGCs in different projects (low sorts before high by id), Beta with its
// own commerce (also EXT-1) and AGC, and the status configs both use.
type snapSetup struct {
	orgSetup
	op          apptest.Headers // Acme operator: commerce:view without commerce-lifecycle-snapshot:view
	c1, c2, c3  string
	low, high   string
	bc, bagc    string
	name        map[string]string // commerce and AGC id -> short name
	mainProject string
	notHigh     string // the project of Acme that does not hold the high AGC
}

func newSnapSetup(t *testing.T, env *apptest.Env) snapSetup {
	t.Helper()
	s := snapSetup{orgSetup: newOrgSetup(t, env), name: map[string]string{}}
	s.mainProject = s.acme.ProjectID.String()
	env.CreateUser(s.acme.TenantID, "olga", auth.RoleOperator)
	s.op = apptest.JWT(env.Login("olga"), s.acme.TenantID, uuid.Nil)
	ctx, c := sysCtx(), env.App.DB.Client
	commerce := func(tenant uuid.UUID, name, ext string) string {
		q := c.Commerce.Create().SetTenantID(tenant).SetName(name)
		if ext != "" {
			q.SetExternalID(ext)
		}
		id := q.SaveX(ctx).ID.String()
		s.name[id] = name
		return id
	}
	agc := func(tenant, project uuid.UUID, name string) string {
		id := c.ActivityGenerationConfig.Create().SetTenantID(tenant).SetProjectID(project).SetName(name).SaveX(ctx).ID.String()
		s.name[id] = name
		return id
	}
	s.c1, s.c2, s.c3 = commerce(s.acme.TenantID, "c1", "EXT-1"), commerce(s.acme.TenantID, "c2", ""), commerce(s.acme.TenantID, "c3", "EXT-3")
	other := newProject(t, env, s.acme.TenantID, "Otro")
	a, b := agc(s.acme.TenantID, s.acme.ProjectID, "a"), agc(s.acme.TenantID, other, "b")
	s.low, s.high, s.notHigh = a, b, s.mainProject
	if a > b {
		s.low, s.high, s.notHigh = b, a, other.String()
	}
	s.name[s.low], s.name[s.high] = "low", "high"
	s.bc, s.bagc = commerce(s.beta.TenantID, "bc", "EXT-1"), agc(s.beta.TenantID, s.beta.ProjectID, "bagc")
	for _, tid := range []uuid.UUID{s.acme.TenantID, s.beta.TenantID} {
		c.RetentionStatusConfig.Create().SetTenantID(tid).SetCode("new").SetLabel("Nuevo").SetStage("ACTIVATION").SaveX(ctx)
		c.RetentionStatusConfig.Create().SetTenantID(tid).SetCode("engaged").SetLabel("Comprometido").SetStage("ENGAGEMENT").SaveX(ctx)
	}
	c.RetentionStatusConfig.Create().SetTenantID(s.acme.TenantID).SetCode("off").SetLabel("Off").SetStage("ENGAGEMENT").SetIsActive(false).SaveX(ctx)
	return s
}

// snapItem is a batch item identified by commerceID.
func snapItem(commerce, agc, code, stage, at string) M {
	return M{"commerceID": commerce, "activityGenerationConfigID": agc, "code": code, "stage": stage, "lastComputedAt": at}
}

const (
	snapFields  = `commerceID externalID activityGenerationConfigID code label stage lastComputedAt stateChangedAt`
	upsertQuery = `mutation($in: UpsertCommerceLifecycleSnapshotInput!) { upsertCommerceLifecycleSnapshot(input: $in) { outcome snapshot { ` + snapFields + ` } } }`
	batchQuery  = `mutation($items: [CommerceLifecycleSnapshotItemInput!]!) { batchUpsertCommerceLifecycleSnapshots(items: $items) {
		results { index outcome } errors { index messages } created updated unchanged stale } }`
	listQuery = `query($after: Cursor, $first: Int, $before: Cursor, $last: Int, $filter: CommerceLifecycleSnapshotsFilter, $order: CommerceLifecycleSnapshotsOrder) {
		commerceLifecycleSnapshots(after: $after, first: $first, before: $before, last: $last, filter: $filter, orderBy: $order) {
			totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
			edges { cursor node { id commerceID activityGenerationConfigID stateChangedAt } } } }`
)

// batch runs batchUpsertCommerceLifecycleSnapshots and returns its answer.
func (s snapSetup) batch(t *testing.T, env *apptest.Env, h apptest.Headers, items ...M) any {
	t.Helper()
	return get(t, gqlOK(t, env, h, batchQuery, M{"items": items}), "batchUpsertCommerceLifecycleSnapshots")
}

// wantSnap is the expected snapshot of upsertQuery.
func wantSnap(commerce, ext, agc, code, label, stage, lastComputed, changed string) M {
	var e any
	if ext != "" {
		e = ext
	}
	return M{"commerceID": commerce, "externalID": e, "activityGenerationConfigID": agc, "code": code, "label": label,
		"stage": stage, "lastComputedAt": lastComputed, "stateChangedAt": changed}
}

func TestSnapshotUpsertsOverGraphQL(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		s := newSnapSetup(t, env)
		const t0, t1, t2, t3, t4 = "2025-12-31T00:00:00Z", "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z", "2026-01-04T00:00:00Z"
		upsert := func(h apptest.Headers, commerce, agc, code, stage, at string) *apptest.Response {
			return env.GraphQL(upsertQuery, M{"in": snapItem(commerce, agc, code, stage, at)}, h)
		}
		want := func(outcome string, sn M) M {
			return M{"upsertCommerceLifecycleSnapshot": M{"outcome": outcome, "snapshot": sn}}
		}
		const field = "upsertCommerceLifecycleSnapshot"

		t.Run("outcomes", func(t *testing.T) {
			expectData(t, upsert(s.h, s.c1, s.low, "new", "ACTIVATION", t1), want("CREATED", wantSnap(s.c1, "EXT-1", s.low, "new", "Nuevo", "ACTIVATION", t1, t1)))
			// Same (stage, code), newer: updated, stateChangedAt kept.
			expectData(t, upsert(s.h, s.c1, s.low, "new", "ACTIVATION", t2), want("UPDATED", wantSnap(s.c1, "EXT-1", s.low, "new", "Nuevo", "ACTIVATION", t2, t1)))
			expectData(t, upsert(s.h, s.c1, s.low, "new", "ACTIVATION", t2), want("UNCHANGED", wantSnap(s.c1, "EXT-1", s.low, "new", "Nuevo", "ACTIVATION", t2, t1)))
			// (stage, code) changes: stateChangedAt moves.
			expectData(t, upsert(s.h, s.c1, s.low, "engaged", "ENGAGEMENT", t3),
				want("UPDATED", wantSnap(s.c1, "EXT-1", s.low, "engaged", "Comprometido", "ENGAGEMENT", t3, t3)))
			// Older lastComputedAt: stale, the stored state is answered unchanged.
			expectData(t, upsert(s.h, s.c1, s.low, "new", "ACTIVATION", t0),
				want("STALE", wantSnap(s.c1, "EXT-1", s.low, "engaged", "Comprometido", "ENGAGEMENT", t3, t3)))
			// The AGC of another project of the tenant resolves whatever x-project-id says (tenant-level).
			expectData(t, upsert(s.h.With("x-project-id", s.notHigh), s.c2, s.high, "new", "ACTIVATION", t4),
				want("CREATED", wantSnap(s.c2, "", s.high, "new", "Nuevo", "ACTIVATION", t4, t4)))
			// The result's edges load once the service's transaction has ended.
			expectData(t, env.GraphQL(`mutation($in: UpsertCommerceLifecycleSnapshotInput!) { upsertCommerceLifecycleSnapshot(input: $in) {
				outcome snapshot { commerce { name lifecycleSnapshots { activityGenerationConfigID code } } } } }`,
				M{"in": snapItem(s.c2, s.low, "engaged", "ENGAGEMENT", t4)}, s.h),
				M{field: M{"outcome": "CREATED", "snapshot": M{"commerce": M{"name": "c2", "lifecycleSnapshots": L{
					M{"activityGenerationConfigID": s.low, "code": "engaged"}, M{"activityGenerationConfigID": s.high, "code": "new"}}}}}})
		})

		t.Run("errors", func(t *testing.T) {
			expectInvalid(t, upsert(s.h, s.c1, s.low, "new", "NOPE", t4), field, snapshot.MsgStageValues)
			expectInvalid(t, upsert(s.h, s.c1, s.low, "", "NOPE", t4), field, snapshot.MsgCodeEmpty, snapshot.MsgStageValues)
			expectFieldError(t, upsert(s.h, s.c1, s.low, "off", "ENGAGEMENT", t4), field,
				`Retention status config "off" does not exist or is inactive`, "BAD_REQUEST", 400)
			// Another tenant's commerce or AGC is unknown.
			expectFieldError(t, upsert(s.h, s.bc, s.low, "new", "ACTIVATION", t4), field, "Commerce "+s.bc+" not found", "NOT_FOUND", 404)
			expectFieldError(t, upsert(s.h, s.c1, s.bagc, "new", "ACTIVATION", t4), field,
				"Activity generation config "+s.bagc+" not found", "NOT_FOUND", 404)
			expectFieldError(t, upsert(s.bh, s.c1, s.low, "new", "ACTIVATION", t4), field, "Commerce "+s.c1+" not found", "NOT_FOUND", 404)
			// The viewer role reads but does not write.
			expectFieldError(t, upsert(s.viewer, s.c1, s.low, "new", "ACTIVATION", t4), field,
				"Required permissions: commerce-lifecycle-snapshot:create", "FORBIDDEN", 403)
			// Nothing above changed c1's snapshot.
			expectData(t, env.GraphQL(`query($c: String!, $a: ID) { commerceLifecycleSnapshotsByCommerce(commerce: $c, activityGenerationConfigID: $a) { code lastComputedAt } }`,
				M{"c": s.c1, "a": s.low}, s.h),
				M{"commerceLifecycleSnapshotsByCommerce": L{M{"code": "engaged", "lastComputedAt": t3}}})
		})

		t.Run("batch", func(t *testing.T) {
			const field = "batchUpsertCommerceLifecycleSnapshots"
			ext := func(e, agc, code, stage, at string) M {
				return M{"externalID": e, "activityGenerationConfigID": agc, "code": code, "stage": stage, "lastComputedAt": at}
			}
			expectInvalid(t, env.GraphQL(batchQuery, M{"items": L{snapItem(s.c1, s.low, "new", "ACTIVATION", t4), ext("EXT-1", s.low, "new", "ACTIVATION", t4)}}, s.h),
				field, snapshot.MsgItemsMixed)
			expectInvalid(t, env.GraphQL(batchQuery, M{"items": L{}}, s.h), field, snapshot.MsgItemsEmpty)
			expectFieldError(t, env.GraphQL(batchQuery, M{"items": L{snapItem(s.c1, s.low, "new", "ACTIVATION", t4)}}, s.viewer), field,
				"Required permissions: commerce-lifecycle-snapshot:create", "FORBIDDEN", 403)

			// c3 is new; its duplicate wins; invalid items are reported and write nothing.
			got := s.batch(t, env, s.h,
				snapItem(s.c3, s.low, "new", "ACTIVATION", t1),
				snapItem(s.c3, s.low, "engaged", "ENGAGEMENT", t2),
				snapItem(s.bc, s.low, "new", "ACTIVATION", t2),
				snapItem(s.c1, s.low, "new", "NOPE", t4),
				snapItem(s.c1, s.low, "nope", "ACTIVATION", t4),
				snapItem(s.c1, s.bagc, "new", "ACTIVATION", t4),
			)
			wantBatch := M{"results": L{M{"index": 0, "outcome": "CREATED"}, M{"index": 1, "outcome": "UPDATED"}},
				"errors": L{
					M{"index": 2, "messages": L{"Commerce " + s.bc + " not found"}},
					M{"index": 3, "messages": L{snapshot.MsgStageValues}},
					M{"index": 4, "messages": L{`Retention status config "nope" does not exist or is inactive`}},
					M{"index": 5, "messages": L{"Activity generation config " + s.bagc + " not found"}},
				}, "created": 1, "updated": 1, "unchanged": 0, "stale": 0}
			if canon(t, got) != canon(t, wantBatch) {
				t.Fatalf("batch = %s\nwant    %s", canon(t, got), canon(t, wantBatch))
			}
			// By external id: unchanged, stale, and unknown codes of this tenant.
			got = s.batch(t, env, s.h,
				ext("EXT-3", s.low, "engaged", "ENGAGEMENT", t2),
				ext("EXT-3", s.low, "new", "ACTIVATION", t0),
				ext("NOPE", s.low, "new", "ACTIVATION", t2),
				ext("EXT-1", s.high, "engaged", "ENGAGEMENT", t4),
			)
			wantBatch = M{"results": L{M{"index": 0, "outcome": "UNCHANGED"}, M{"index": 1, "outcome": "STALE"}, M{"index": 3, "outcome": "CREATED"}},
				"errors":  L{M{"index": 2, "messages": L{`Commerce with external_id "NOPE" not found`}}},
				"created": 1, "updated": 0, "unchanged": 1, "stale": 1}
			if canon(t, got) != canon(t, wantBatch) {
				t.Fatalf("batch by external id = %s\nwant                 %s", canon(t, got), canon(t, wantBatch))
			}
			// Written item by item, and only the valid items.
			expectData(t, env.GraphQL(`{ commerceLifecycleSnapshotsBatchLookup(externalIDs: ["EXT-3", "EXT-1"]) { snapshots { commerceID activityGenerationConfigID code stateChangedAt } unresolved } }`, nil, s.h),
				M{"commerceLifecycleSnapshotsBatchLookup": M{"unresolved": L{}, "snapshots": sortedSnaps(
					M{"commerceID": s.c1, "activityGenerationConfigID": s.low, "code": "engaged", "stateChangedAt": t3},
					M{"commerceID": s.c1, "activityGenerationConfigID": s.high, "code": "engaged", "stateChangedAt": t4},
					M{"commerceID": s.c3, "activityGenerationConfigID": s.low, "code": "engaged", "stateChangedAt": t2},
				)}})
			// Beta's EXT-1 is its own commerce: Acme's writes never reached it.
			expectData(t, env.GraphQL(`{ commerceLifecycleSnapshotsBatchLookup(externalIDs: ["EXT-1", "EXT-3"]) { snapshots { id } unresolved } }`, nil, s.bh),
				M{"commerceLifecycleSnapshotsBatchLookup": M{"snapshots": L{}, "unresolved": L{"EXT-1", "EXT-3"}}})
		})
	})
}

// sortedSnaps orders expected snapshots as the batch lookup does: by commerce id, then AGC id.
func sortedSnaps(snaps ...M) L {
	slices.SortFunc(snaps, func(a, b M) int {
		return strings.Compare(fmt.Sprint(a["commerceID"], "/", a["activityGenerationConfigID"]), fmt.Sprint(b["commerceID"], "/", b["activityGenerationConfigID"]))
	})
	out := L{}
	for _, sn := range snaps {
		out = append(out, sn)
	}
	return out
}

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
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		s := newSnapSetup(t, env)
		const t1, t2, t3, t4 = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z", "2026-01-04T00:00:00Z"
		// Three rows share t2: the cursor must break the tie by id.
		s.batch(t, env, s.h,
			snapItem(s.c1, s.low, "new", "ACTIVATION", t1),
			snapItem(s.c2, s.low, "engaged", "ENGAGEMENT", t2),
			snapItem(s.c3, s.low, "new", "ACTIVATION", t2),
			snapItem(s.c1, s.high, "engaged", "ENGAGEMENT", t3),
			snapItem(s.c2, s.high, "new", "ACTIVATION", t4),
			snapItem(s.c3, s.high, "new", "ACTIVATION", t2),
		)
		s.batch(t, env, s.bh, snapItem(s.bc, s.bagc, "new", "ACTIVATION", t4))

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
				{M{"code": "", "stage": ""}, snapKeys(all)}, // empty values do not filter
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
			expectInvalid(t, bad(M{"stage": "active"}), field, snapshot.MsgStageValues)
			expectInvalid(t, bad(M{"activityGenerationConfigID": "agc-1"}), field, snapshot.MsgAGCUUID)
			expectInvalid(t, bad(M{"stateChangedSince": "yesterday"}), field, snapshot.MsgSinceISO)
			expectInvalid(t, bad(M{"stage": "x", "activityGenerationConfigID": "y", "stateChangedSince": "z"}), field,
				snapshot.MsgStageValues, snapshot.MsgAGCUUID, snapshot.MsgSinceISO)
			expectInvalid(t, env.GraphQL(listQuery, M{"first": 101}, s.h), field, "first must not be greater than 100")
			expectInvalid(t, env.GraphQL(listQuery, M{"last": 101}, s.h), field, "last must not be greater than 100")
			expectFieldError(t, env.GraphQL(listQuery, nil, s.op), field, "Required permissions: commerce-lifecycle-snapshot:view", "FORBIDDEN", 403)
		})
	})
}

func TestCommerceLifecycleSnapshotsFieldAndLookups(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		s := newSnapSetup(t, env)
		// c1's high AGC is written first (a request of its own): the field still orders by AGC id.
		s.batch(t, env, s.h, snapItem(s.c1, s.high, "engaged", "ENGAGEMENT", "2026-01-02T00:00:00Z"))
		s.batch(t, env, s.h,
			snapItem(s.c1, s.low, "new", "ACTIVATION", "2026-01-01T00:00:00Z"),
			snapItem(s.c2, s.low, "new", "ACTIVATION", "2026-01-03T00:00:00Z"),
		)
		s.batch(t, env, s.bh, snapItem(s.bc, s.bagc, "new", "ACTIVATION", "2026-01-01T00:00:00Z"))
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
