package graph_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

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

// item is snapItem at the stage of the fixture's status config code.
func (s snapSetup) item(commerce, agc, code, at string) M {
	return snapItem(commerce, agc, code, map[string]string{"new": "ACTIVATION", "engaged": "ENGAGEMENT"}[code], at)
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
	each(t, newSnapSetup, func(t *testing.T, env *apptest.Env, s snapSetup) {
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
			expectVariableInvalid(t, upsert(s.h, s.c1, s.low, "new", "NOPE", t4), L{"in", "stage"}, "NOPE is not a valid CommerceLifecycleSnapshotStage")
			expectInvalid(t, upsert(s.h, s.c1, s.low, "", "ACTIVATION", t4), field, snapshot.MsgCodeEmpty)
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
				field, "every item must use the same identifier type: commerceID or externalID")
			expectInvalid(t, env.GraphQL(batchQuery, M{"items": L{}}, s.h), field, snapshot.MsgItemsEmpty)
			expectFieldError(t, env.GraphQL(batchQuery, M{"items": L{snapItem(s.c1, s.low, "new", "ACTIVATION", t4)}}, s.viewer), field,
				"Required permissions: commerce-lifecycle-snapshot:create", "FORBIDDEN", 403)

			// c3 is new; its duplicate wins; invalid items are reported and write nothing.
			got := s.batch(t, env, s.h,
				snapItem(s.c3, s.low, "new", "ACTIVATION", t1),
				snapItem(s.c3, s.low, "engaged", "ENGAGEMENT", t2),
				snapItem(s.bc, s.low, "new", "ACTIVATION", t2),
				snapItem(s.c1, s.low, "new", "ENGAGEMENT", t4),
				snapItem(s.c1, s.low, "nope", "ACTIVATION", t4),
				snapItem(s.c1, s.bagc, "new", "ACTIVATION", t4),
			)
			wantBatch := M{"results": L{M{"index": 0, "outcome": "CREATED"}, M{"index": 1, "outcome": "UPDATED"}},
				"errors": L{
					M{"index": 2, "messages": L{"Commerce " + s.bc + " not found"}},
					M{"index": 3, "messages": L{`stage ENGAGEMENT does not match retention status config "new" (stage ACTIVATION)`}},
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
