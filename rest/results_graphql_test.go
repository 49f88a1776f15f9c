package rest_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/reten-io/reten/internal/apptest"
)

// resultSelection is every ActivityResult member an input writes.
const resultSelection = `{ id source activityID resultStatus externalStatus occurredAt hardOverride resultCode comment contactType
	operatorExternalID futureScheduledAt payload rawPayload }`

// gqlResult runs a result mutation and returns its field's object; it fails
// the test on any error.
func gqlResult(t *testing.T, env *apptest.Env, h apptest.Headers, field, query string, vars map[string]any) map[string]any {
	t.Helper()
	res := env.GraphQL(query, vars, h)
	var out struct {
		Data   map[string]map[string]any
		Errors []any
	}
	res.JSON(t, &out)
	if res.Status != 200 || len(out.Errors) != 0 || out.Data[field] == nil {
		t.Fatalf("%s: %d %s", field, res.Status, res.Body)
	}
	return out.Data[field]
}

// TestResultGraphQL: the mutations call the same service methods, and their
// inputs are flat with the names of the ActivityResult members they write
// (REST's status and task_result.* are resultStatus, resultCode, comment,
// contactType, operatorExternalID, futureScheduledAt, payload), which the
// validation messages say.
func TestResultGraphQL(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		id := f.task(resScheduledAt)
		submit := `mutation($in: SubmitActivityResultInput!) { submitActivityResult(input: $in) ` + resultSelection + ` }`
		s := gqlResult(t, env, f.h, "submitActivityResult", submit, map[string]any{"in": map[string]any{
			"activityID": id, "occurredAt": "2030-05-01T12:00:00Z", "resultStatus": "PENDING", "externalStatus": "en curso",
			"rawPayload": map[string]any{"k": "v"}, "resultCode": "rescheduled", "comment": "call back", "contactType": "INBOUND",
			"operatorExternalID": "OP-7", "futureScheduledAt": "2030-05-03T09:00:00Z", "payload": map[string]any{"n": 1}}})
		rid := s["id"]
		want := map[string]any{"id": rid, "source": "RETEN_ACTIVITY", "activityID": id, "resultStatus": "PENDING",
			"externalStatus": "en curso", "occurredAt": "2030-05-01T12:00:00Z", "hardOverride": false, "resultCode": "rescheduled",
			"comment": "call back", "contactType": "INBOUND", "operatorExternalID": "OP-7", "futureScheduledAt": "2030-05-03T09:00:00Z",
			"payload": map[string]any{"n": float64(1)}, "rawPayload": map[string]any{"k": "v"}}
		if !reflect.DeepEqual(s, want) {
			t.Fatalf("submit:\n got %v\nwant %v", s, want)
		}

		// An update changes the members it names; the others stay.
		update := `mutation($id: ID!, $in: UpdateActivityResultInput!) { updateActivityResult(id: $id, input: $in) ` + resultSelection + ` }`
		u := gqlResult(t, env, f.h, "updateActivityResult", update, map[string]any{"id": rid, "in": map[string]any{
			"occurredAt": "2099-01-01T00:00:00Z", "resultStatus": "COMPLETED", "resultCode": "success", "contactType": "OUTBOUND",
			"payload": map[string]any{"n": 2}}})
		want["resultStatus"], want["resultCode"], want["contactType"] = "COMPLETED", "success", "OUTBOUND"
		want["occurredAt"], want["payload"] = "2099-01-01T00:00:00Z", map[string]any{"n": float64(2)}
		if !reflect.DeepEqual(u, want) || f.status(id) != "COMPLETED" {
			t.Fatalf("update:\n got %v\nwant %v (activity %s)", u, want, f.status(id))
		}
		// REST reads the same result in its own names.
		rest := actOK(t, env.Do("PATCH", resultsPath+"/"+rid.(string), map[string]any{"occurred_at": "2099-01-02T00:00:00Z"}, f.h), 200)
		details, _ := json.Marshal(rest["taskDetails"])
		if rest["resultStatus"] != "COMPLETED" || string(details) != `{"comment":"call back","contactType":"OUTBOUND",`+
			`"futureScheduledAt":"2030-05-03T09:00:00Z","operatorExternalId":"OP-7","payload":{"n":2},"result":"success"}` {
			t.Fatalf("REST read: %v", rest)
		}

		expectGraphQLError(t, env.GraphQL(update, map[string]any{"id": rid, "in": map[string]any{"occurredAt": "2099-02-01T00:00:00Z",
			"resultStatus": "CANCELED"}}, f.h), "CONFLICT",
			"Result in status COMPLETED is terminal and cannot change to CANCELED; send hardOverride to force it")
		// resultCode is the catalog's enum: the schema refuses other codes; an
		// inactive one is the service's 422.
		for _, code := range []any{"", "nope"} {
			res := env.GraphQL(update, map[string]any{"id": rid, "in": map[string]any{"occurredAt": "2099-02-01T00:00:00Z", "resultCode": code}}, f.h)
			want := map[string]any{"data": nil, "errors": []any{map[string]any{"message": fmt.Sprintf("%s is not a valid TaskResultTypeCode", code),
				"path": []any{"variable", "in", "resultCode"}, "extensions": map[string]any{"code": "GRAPHQL_VALIDATION_FAILED"}}}}
			if got := res.Map(t); res.Status != 422 || !reflect.DeepEqual(got, want) {
				t.Fatalf("resultCode %q: %d %s", code, res.Status, res.Body)
			}
		}
		if res := env.Do("PUT", "/api/task-result-type-configs/no_answer", map[string]any{"is_active": false, "polarity": "NEGATIVE",
			"requires_future_scheduled_at": false}, f.th); res.Status != 200 {
			t.Fatalf("deactivate: %d %s", res.Status, res.Body)
		}
		expectGraphQLError(t, env.GraphQL(update, map[string]any{"id": rid, "in": map[string]any{"occurredAt": "2099-02-01T00:00:00Z",
			"resultCode": "no_answer"}}, f.h), "UNPROCESSABLE_ENTITY", msgInactive)
		expectGraphQLError(t, env.GraphQL(submit, map[string]any{"in": map[string]any{"occurredAt": "2030-05-01T12:00:00Z",
			"resultStatus": "PENDING", "resultCode": "success"}}, f.h), "BAD_REQUEST",
			"commerceExternalID should not be empty when activityID is absent")
	})
}
