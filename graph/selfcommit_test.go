package graph_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activitystatusevent"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/commercelifecyclesnapshot"
	"github.com/reten-io/reten/ent/commerceuser"
	"github.com/reten-io/reten/ent/operator"
	"github.com/reten-io/reten/internal/apptest"
)

// TestSelfCommittingMutationsKeepTheirTransactions: the mutations that
// commit step by step (per item, per chunk, before calling a provider, again
// after losing a race) still do, and a batch written in one transaction
// still is; one subtest per kind.
func TestSelfCommittingMutationsKeepTheirTransactions(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		s := newSnapSetup(t, env)
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
			prov := str(t, gqlOK(t, env, s.h, `mutation($u: String!) { createDispatchProvider(input: {name: "Hook", channel: SMS, kind: "webhook",
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
