package graph_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activationconfig"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/activitystatusevent"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/commercelifecyclesnapshot"
	"github.com/reten-io/reten/ent/commerceuser"
	"github.com/reten-io/reten/ent/engagementconfig"
	"github.com/reten-io/reten/ent/idempotencyrecord"
	"github.com/reten-io/reten/ent/operator"
	"github.com/reten-io/reten/ent/resurrectionconfig"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

// msgInternal is the answer of a write the database refused unexpectedly.
const msgInternal = "Internal server error"

// failWrites makes the database refuse the op ("INSERT" or "UPDATE") of a
// row of table matching cond (an SQL condition on NEW), as a broken disk or
// a violated rule would, until the returned func runs.
func failWrites(t *testing.T, env *apptest.Env, op, table, cond string) (restore func()) {
	t.Helper()
	name := fmt.Sprintf("fail_%s_%s", table, op)
	stmts := []string{fmt.Sprintf(`CREATE TRIGGER %s BEFORE %s ON %s WHEN %s BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
		name, op, table, cond)}
	drop := "DROP TRIGGER " + name
	if env.App.DB.Dialect == dialect.Postgres {
		stmts = []string{`CREATE OR REPLACE FUNCTION fail_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`,
			fmt.Sprintf(`CREATE TRIGGER %s BEFORE %s ON %s FOR EACH ROW WHEN (%s) EXECUTE FUNCTION fail_write()`, name, op, table, cond)}
		drop += " ON " + table
	}
	for _, s := range stmts {
		if _, err := env.App.DB.SQL.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return func() {
		t.Helper()
		if _, err := env.App.DB.SQL.Exec(drop); err != nil {
			t.Fatalf("%s: %v", drop, err)
		}
	}
}

// expectCount fails unless count (an ent query's Count, read with the
// system context) is want.
func expectCount(t *testing.T, what string, count func(context.Context) (int, error), want int) {
	t.Helper()
	n, err := count(sysCtx())
	if err != nil || n != want {
		t.Fatalf("%s: %d (%v), want %d", what, n, err, want)
	}
}

const (
	createActivityQuery = `mutation($in: CreateActivityInput!) { createActivity(input: $in) { id } }`
	submitQuery         = `mutation($a: ID!) { submitActivityResult(input: {activityID: $a, occurredAt: "2030-05-01T12:00:00Z",
		resultStatus: COMPLETED, resultCode: success}, idempotencyKey: "k-1") { id resultStatus } }`
)

// TestMutationsWriteAllOrNothing: with no transaction around the GraphQL
// operation, each mutation's service runs its writes in one transaction, so
// a write the database refuses after others leaves nothing of them.
func TestMutationsWriteAllOrNothing(t *testing.T) {
	each(t, newAGCSetup, func(t *testing.T, env *apptest.Env, s agcSetup) {
		c := env.App.DB.Client
		shop := str(t, gqlOK(t, env, s.h, `mutation { createCommerce(input: {name: "Shop"}) { id } }`, nil), "createCommerce", "id")
		task := M{"in": M{"commerceID": shop, "type": "TASK", "channel": "SMS", "scheduledAt": "2030-05-01T10:00:00Z",
			"attributes": L{M{"key": "k", "value": "v"}}}}

		t.Run("create with children", func(t *testing.T) {
			// The activity and its attributes are written, then its CREATED event is refused.
			restore := failWrites(t, env, "INSERT", "activity_status_events", "1 = 1")
			expectFieldError(t, env.GraphQL(createActivityQuery, task, s.ph), "createActivity", msgInternal, "INTERNAL_SERVER_ERROR", 500)
			restore()
			expectCount(t, "activities", c.Activity.Query().Count, 0)
			expectCount(t, "attributes", c.ActivityAttribute.Query().Count, 0)
		})

		t.Run("AGC with its pillars", func(t *testing.T) {
			// The AGC, its activation and engagement pillars are written, then a resurrection threshold is refused.
			restore := failWrites(t, env, "INSERT", "resurrection_thresholds", "NEW.label = 'Dormido'")
			expectFieldError(t, env.GraphQL(`mutation($in: CreateActivityGenerationConfigInput!) { createActivityGenerationConfig(input: $in) { id } }`,
				M{"in": s.input("Atomic")}, s.ph), "createActivityGenerationConfig", msgInternal, "INTERNAL_SERVER_ERROR", 500)
			restore()
			expectCount(t, "AGCs", c.ActivityGenerationConfig.Query().Count, 0)
			expectCount(t, "activation configs", c.ActivationConfig.Query().Count, 0)
			expectCount(t, "activation moments", c.ActivationMoment.Query().Count, 0)
			expectCount(t, "engagement levels", c.EngagementLevel.Query().Count, 0)
			expectCount(t, "resurrection thresholds", c.ResurrectionThreshold.Query().Count, 0)
		})

		t.Run("AGC archive", func(t *testing.T) {
			id := uuid.MustParse(s.createAGC(t, env, "Archived"))
			// The AGC and its pillars are archived, then its trash record is refused.
			restore := failWrites(t, env, "INSERT", "trash_records", "1 = 1")
			expectFieldError(t, env.GraphQL(`mutation($id: ID!) { archiveActivityGenerationConfig(id: $id) }`, M{"id": id}, s.ph),
				"archiveActivityGenerationConfig", msgInternal, "INTERNAL_SERVER_ERROR", 500)
			restore()
			expectCount(t, "live AGC", c.ActivityGenerationConfig.Query().Where(activitygenerationconfig.ID(id),
				activitygenerationconfig.ArchivedAtIsNil()).Count, 1)
			expectCount(t, "live activation configs", c.ActivationConfig.Query().Where(activationconfig.ArchivedAtIsNil()).Count, 1)
			expectCount(t, "live engagement configs", c.EngagementConfig.Query().Where(engagementconfig.ArchivedAtIsNil()).Count, 1)
			expectCount(t, "live resurrection configs", c.ResurrectionConfig.Query().Where(resurrectionconfig.ArchivedAtIsNil()).Count, 1)
			expectCount(t, "trash records", c.TrashRecord.Query().Count, 0)
		})

		t.Run("idempotent result submission", func(t *testing.T) {
			id := str(t, gqlOK(t, env, s.ph, createActivityQuery, task), "createActivity", "id")
			// The key is claimed and the result stored, then the task's COMPLETED event is refused.
			restore := failWrites(t, env, "INSERT", "activity_status_events", "NEW.event_type = 'COMPLETED'")
			expectFieldError(t, env.GraphQL(submitQuery, M{"a": id}, s.ph), "submitActivityResult", msgInternal, "INTERNAL_SERVER_ERROR", 500)
			restore()
			expectCount(t, "results", c.ActivityResult.Query().Count, 0)
			expectCount(t, "idempotency records", c.IdempotencyRecord.Query().Where(idempotencyrecord.Key("k-1")).Count, 0)
			expectCount(t, "READY task", c.Activity.Query().Where(activity.ID(uuid.MustParse(id)), activity.StatusEQ(activity.StatusREADY)).Count, 1)
			// The key was not kept: the same submission now runs (it is no replay of a failure).
			out := gqlOK(t, env, s.ph, submitQuery, M{"a": id})
			if str(t, out, "submitActivityResult", "resultStatus") != "COMPLETED" {
				t.Fatalf("submission: %v", out)
			}
			expectCount(t, "results", c.ActivityResult.Query().Count, 1)
			expectCount(t, "COMPLETED task", c.Activity.Query().Where(activity.ID(uuid.MustParse(id)), activity.StatusEQ(activity.StatusCOMPLETED)).Count, 1)
		})
	})
}

// TestMutationSelectionCheckedBeforeWriting: a mutation whose selection the
// caller may not read fails before its service writes, as it did when the
// whole operation ran in one transaction.
func TestMutationSelectionCheckedBeforeWriting(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		ctx, c := sysCtx(), env.App.DB.Client
		plain, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermCommerceManage)
		h := apptest.Key(plain)
		expectBody(t, env.GraphQL(`mutation { createCommerce(input: {externalID: "C-1", name: "Uno"}) { id addresses { id } } }`, nil, h),
			200, M{"data": nil, "errors": L{fieldError(L{"createCommerce", "addresses"}, "Required permissions: commerce:view", "FORBIDDEN", 403)}})
		expectCount(t, "commerces", c.Commerce.Query().Where(commerce.TenantID(acme.TenantID)).Count, 0)
		// What the key may read, it gets.
		id := str(t, gqlOK(t, env, h, `mutation { createCommerce(input: {externalID: "C-1", name: "Uno"}) { id name } }`, nil), "createCommerce", "id")

		// Inside a list (here the commerce's snapshots), the error names the first element's field.
		agc := c.ActivityGenerationConfig.Create().SetTenantID(acme.TenantID).SetProjectID(acme.ProjectID).SetName("a").SaveX(ctx)
		at := time.Date(2030, 5, 1, 0, 0, 0, 0, time.UTC)
		c.CommerceLifecycleSnapshot.Create().SetTenantID(acme.TenantID).SetCommerceID(uuid.MustParse(id)).SetActivityGenerationConfig(agc).
			SetCode("new").SetLabel("Nuevo").SetStage("ACTIVATION").SetLastComputedAt(at).SetStateChangedAt(at).SaveX(ctx)
		plain, _ = env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermCommerceManage, auth.PermCommerceView, auth.PermSnapshotView)
		expectBody(t, env.GraphQL(`mutation($id: ID!) { updateCommerce(id: $id, input: {name: "Dos"}) { lifecycleSnapshots { activityGenerationConfig { id } } } }`,
			M{"id": id}, apptest.Key(plain)), 200, M{"data": nil, "errors": L{fieldError(L{"updateCommerce", "lifecycleSnapshots", 0, "activityGenerationConfig"},
			"Required permissions: "+auth.PermAGCView, "FORBIDDEN", 403)}})
		expectCount(t, "commerce named Uno", c.Commerce.Query().Where(commerce.Name("Uno")).Count, 1)
	})
}

// TestSelfCommittingMutationsKeepTheirTransactions: the mutations that
// commit step by step (per item, per chunk, before calling a provider, again
// after losing a race) still do, and a batch written in one transaction
// still is; one subtest per kind.
func TestSelfCommittingMutationsKeepTheirTransactions(t *testing.T) {
	each(t, newSnapSetup, func(t *testing.T, env *apptest.Env, s snapSetup) {
		c := env.App.DB.Client
		ph := s.h.With("x-project-id", s.mainProject)

		t.Run("per item: batchUpsertCommerces", func(t *testing.T) {
			// The second item's user is refused after the first item committed.
			restore := failWrites(t, env, "INSERT", "commerce_users", "NEW.name = 'boom'")
			res := env.GraphQL(`mutation($items: [CommerceBatchItemInput!]!) { batchUpsertCommerces(items: $items) { created } }`,
				M{"items": L{M{"externalID": "B-1", "name": "Uno", "users": L{M{"externalID": "U-1", "name": "ok"}}},
					M{"externalID": "B-2", "name": "Dos", "users": L{M{"externalID": "U-2", "name": "boom"}}}}}, s.h)
			restore()
			expectFieldError(t, res, "batchUpsertCommerces", msgInternal, "INTERNAL_SERVER_ERROR", 500)
			expectCount(t, "first item", c.Commerce.Query().Where(commerce.ExternalID("B-1")).Count, 1)
			expectCount(t, "first item's user", c.CommerceUser.Query().Where(commerceuser.ExternalID("U-1")).Count, 1)
			expectCount(t, "second item", c.Commerce.Query().Where(commerce.ExternalID("B-2")).Count, 0)
		})

		t.Run("per chunk: batchUpsertCommerceLifecycleSnapshots", func(t *testing.T) {
			// 1,000 items fill the first chunk; the second chunk's one item is refused.
			const at = "2030-05-01T00:00:00Z"
			items := make(L, 0, 1001)
			for range 1000 {
				items = append(items, snapItem(s.c1, s.low, "new", "ACTIVATION", at))
			}
			items = append(items, snapItem(s.c2, s.low, "engaged", "ENGAGEMENT", at))
			restore := failWrites(t, env, "INSERT", "commerce_lifecycle_snapshots", "NEW.code = 'engaged'")
			res := env.GraphQL(batchQuery, M{"items": items}, s.h)
			restore()
			expectFieldError(t, res, "batchUpsertCommerceLifecycleSnapshots", msgInternal, "INTERNAL_SERVER_ERROR", 500)
			expectCount(t, "first chunk", c.CommerceLifecycleSnapshot.Query().Where(commercelifecyclesnapshot.CommerceID(uuid.MustParse(s.c1))).Count, 1)
			expectCount(t, "second chunk", c.CommerceLifecycleSnapshot.Query().Where(commercelifecyclesnapshot.CommerceID(uuid.MustParse(s.c2))).Count, 0)
		})

		t.Run("one transaction: batchUpsertOperators", func(t *testing.T) {
			gqlOK(t, env, s.h, `mutation { createOperator(input: {type: SALESMAN, name: "Olga", externalID: "V-1"}) { id } }`, nil)
			// The new operator is inserted, then the update of the existing one is refused.
			restore := failWrites(t, env, "UPDATE", "operators", "NEW.name = 'boom'")
			res := env.GraphQL(`mutation($items: [OperatorItemInput!]!) { batchUpsertOperators(items: $items) { created updated } }`,
				M{"items": L{M{"externalID": "V-2", "type": "SALESMAN", "name": "Nuevo"}, M{"externalID": "V-1", "type": "SALESMAN", "name": "boom"}}}, s.h)
			restore()
			expectFieldError(t, res, "batchUpsertOperators", msgInternal, "INTERNAL_SERVER_ERROR", 500)
			expectCount(t, "new operator", c.Operator.Query().Where(operator.ExternalID("V-2")).Count, 0)
			expectCount(t, "unchanged operator", c.Operator.Query().Where(operator.ExternalID("V-1"), operator.Name("Olga")).Count, 1)
		})

		t.Run("dispatch: the attempt commits before the provider is called", func(t *testing.T) {
			var task uuid.UUID
			var attempts atomic.Int64 // DISPATCH_ATTEMPT events another connection sees during the call
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n, err := c.ActivityStatusEvent.Query().Where(activitystatusevent.ActivityID(task),
					activitystatusevent.EventTypeEQ(activitystatusevent.EventTypeDISPATCH_ATTEMPT)).Count(sysCtx())
				if err != nil {
					n = -1
				}
				attempts.Store(int64(n))
				w.WriteHeader(http.StatusServiceUnavailable)
			}))
			defer srv.Close()
			env.App.Dispatch.SetWebhookClient(srv.Client())
			prov := str(t, gqlOK(t, env, s.h, `mutation($u: String!) { createDispatchProvider(input: {name: "Hook", channel: SMS, kind: WEBHOOK,
				settings: {url: $u}}) { id } }`, M{"u": srv.URL}), "createDispatchProvider", "id")
			gqlOK(t, env, s.h, `mutation($p: ID!, $pr: ID!) { putDispatchConfig(projectID: $p, channel: SMS, input: {providerID: $pr}) { id } }`,
				M{"p": s.mainProject, "pr": prov})
			task = uuid.MustParse(str(t, gqlOK(t, env, ph, createActivityQuery, M{"in": M{"commerceID": s.c1, "type": "TASK", "channel": "SMS",
				"scheduledAt": "2030-05-01T10:00:00Z"}}), "createActivity", "id"))
			out := gqlOK(t, env, ph, `mutation($id: ID!) { dispatchTask(id: $id) { status dispatchAttempts statusEvents { eventType } } }`, M{"id": task})
			expectJSON(t, M{"status": get(t, out, "dispatchTask", "status"), "dispatchAttempts": get(t, out, "dispatchTask", "dispatchAttempts"),
				"events": children(t, out, "eventType", "dispatchTask", "statusEvents")},
				M{"status": "RETRYING", "dispatchAttempts": 1, "events": L{"CREATED", "DISPATCH_ATTEMPT", "DISPATCH_FAILED"}})
			if n := attempts.Load(); n != 1 {
				t.Fatalf("attempts committed when the provider was called: %d, want 1", n)
			}
		})

		t.Run("primary flag: a lost race is retried in a new transaction", func(t *testing.T) {
			add := `mutation($c: ID!, $a: String!, $p: Boolean) { addCommerceAddress(commerceID: $c,
				input: {source: RETEN, addressAlias: $a, city: "Santiago", isPrimary: $p}) { id } }`
			gqlOK(t, env, s.h, add, M{"c": s.c3, "a": "casa", "p": true})
			second := str(t, gqlOK(t, env, s.h, add, M{"c": s.c3, "a": "oficina", "p": false}), "addCommerceAddress", "id")
			// The first promotion meets a unique index as if a concurrent request had won it.
			var tries atomic.Int64
			c.CommerceAddress.Use(func(next ent.Mutator) ent.Mutator {
				return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
					if am, ok := m.(*ent.CommerceAddressMutation); ok && am.Op().Is(ent.OpUpdateOne) {
						if primary, set := am.IsPrimary(); set && primary && tries.Add(1) == 1 {
							return nil, errors.New("UNIQUE constraint failed: commerce_addresses (injected race)")
						}
					}
					return next.Mutate(ctx, m)
				})
			})
			expectData(t, env.GraphQL(`mutation($c: ID!, $id: ID!) { setPrimaryCommerceAddress(commerceID: $c, id: $id) { id isPrimary } }`,
				M{"c": s.c3, "id": second}, s.h), M{"setPrimaryCommerceAddress": M{"id": second, "isPrimary": true}})
			if n := tries.Load(); n != 2 {
				t.Fatalf("promotions tried: %d, want 2", n)
			}
		})
	})
}
