package graph_test

import (
	"testing"

	"github.com/reten-io/reten/internal/apptest"
)

// expectJSON compares a decoded value with want, canonically.
func expectJSON(t *testing.T, got, want any) {
	t.Helper()
	if g, w := canon(t, got), canon(t, want); g != w {
		t.Fatalf("got %s\nwant %s", g, w)
	}
}

func TestActivitiesOverGraphQL(t *testing.T) {
	each(t, newOrgSetup, func(t *testing.T, env *apptest.Env, s orgSetup) {
		ph := s.h.With("x-project-id", s.acme.ProjectID.String())
		bph := s.bh.With("x-project-id", s.beta.ProjectID.String())
		shop := str(t, gqlOK(t, env, s.h, `mutation { createCommerce(input: {name: "Shop"}) { id } }`, nil), "createCommerce", "id")

		create := `mutation($in: CreateActivityInput!) { createActivity(input: $in) { id status type channel commerce { name }
			attributes { key value } statusEvents { eventType fromStatus toStatus } } }`
		out := gqlOK(t, env, ph, create, M{"in": M{"commerceID": shop, "type": "TASK", "channel": "PUSH",
			"scheduledAt": "2030-05-01T10:00:00Z", "title": "Visit", "attributes": L{M{"key": "k", "value": "v"}}}})
		id := str(t, out, "createActivity", "id")
		expectJSON(t, out["createActivity"], M{"id": id, "status": "READY", "type": "TASK", "channel": "PUSH", "commerce": M{"name": "Shop"},
			"attributes": L{M{"key": "k", "value": "v"}}, "statusEvents": L{M{"eventType": "CREATED", "fromStatus": nil, "toStatus": "READY"}}})

		// Duplicate attribute keys and an unknown commerce.
		res := env.GraphQL(create, M{"in": M{"commerceID": shop, "type": "TASK", "channel": "PUSH", "scheduledAt": "2030-05-01T10:00:00Z",
			"attributes": L{M{"key": "k", "value": "a"}, M{"key": "k", "value": "b"}}}}, ph)
		expectBody(t, res, 200, M{"data": nil, "errors": L{M{"message": "attribute keys must be unique", "path": L{"createActivity"},
			"extensions": M{"code": "BAD_REQUEST", "statusCode": 400, "messages": L{"attribute keys must be unique"}}}}})

		// The connection is narrowed to the active project.
		list := `{ activities { totalCount edges { node { id } } } }`
		expectJSON(t, gqlOK(t, env, ph, list, nil), M{"activities": M{"totalCount": 1.0, "edges": L{M{"node": M{"id": id}}}}})
		expectJSON(t, gqlOK(t, env, bph, list, nil), M{"activities": M{"totalCount": 0.0, "edges": L{}}})
		other := newProject(t, env, s.acme.TenantID, "Other")
		expectJSON(t, gqlOK(t, env, s.h.With("x-project-id", other.String()), list, nil), M{"activities": M{"totalCount": 0.0, "edges": L{}}})

		// Resolution, cancellation; illegal transitions are 409.
		rec := `mutation($id: ID!, $e: ActivityResolutionEventType!) { recordActivityResolutionEvent(id: $id, eventType: $e, detail: {why: "x"}) { status } }`
		expectJSON(t, gqlOK(t, env, ph, rec, M{"id": id, "e": "RESOLUTION_FAILED"}), M{"recordActivityResolutionEvent": M{"status": "UNRESOLVED"}})
		expectJSON(t, gqlOK(t, env, ph, rec, M{"id": id, "e": "RESOLUTION_RETRY_SUCCESS"}), M{"recordActivityResolutionEvent": M{"status": "READY"}})
		cancel := `mutation($id: ID!) { cancelActivity(id: $id, reason: "dup") { status } }`
		expectJSON(t, gqlOK(t, env, ph, cancel, M{"id": id}), M{"cancelActivity": M{"status": "CANCELED"}})
		expectFieldError(t, env.GraphQL(cancel, M{"id": id}, ph), "cancelActivity", "Activity in status CANCELED does not accept CANCEL", "CONFLICT", 409)
		expectFieldError(t, env.GraphQL(cancel, M{"id": id}, bph), "cancelActivity", "Activity not found", "NOT_FOUND", 404)

		// Dispatch through a log provider, and the 404s of another tenant.
		prov := str(t, gqlOK(t, env, s.h, `mutation { createDispatchProvider(input: {name: "Log", channel: PUSH, kind: LOG}) { id } }`, nil),
			"createDispatchProvider", "id")
		gqlOK(t, env, s.h, `mutation($p: ID!, $pr: ID!) { putDispatchConfig(projectID: $p, channel: PUSH, input: {providerID: $pr}) { id } }`,
			M{"p": s.acme.ProjectID, "pr": prov})
		task := str(t, gqlOK(t, env, ph, create, M{"in": M{"commerceID": shop, "type": "TASK", "channel": "PUSH",
			"scheduledAt": "2030-05-01T10:00:00Z"}}), "createActivity", "id")
		dispatch := `mutation($id: ID!) { dispatchTask(id: $id) { status dispatchAttempts statusEvents { eventType } } }`
		expectFieldError(t, env.GraphQL(dispatch, M{"id": task}, bph), "dispatchTask", "Activity not found", "NOT_FOUND", 404)
		out = gqlOK(t, env, ph, dispatch, M{"id": task})
		if str(t, out, "dispatchTask", "status") != "DISPATCHED" || get(t, out, "dispatchTask", "dispatchAttempts") != 1.0 {
			t.Fatalf("dispatchTask: %v", out)
		}
		expectFieldError(t, env.GraphQL(`mutation($id: ID!) { forceRetryTaskDispatch(id: $id) { status } }`, M{"id": task}, ph),
			"forceRetryTaskDispatch", "Activity in status DISPATCHED cannot be retried: only a task in RETRYING, or FAILED by its last dispatch attempt, can be force-retried",
			"CONFLICT", 409)
	})
}
