package rest_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/activityresult"
	"github.com/reten-io/reten/ent/idempotencyrecord"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/idempotency"
	"github.com/reten-io/reten/internal/viewer"
)

const (
	msgKeyReused = "Idempotency-Key was already used with a different request"
	msgKeyFormat = "Idempotency-Key must be 1 to 255 visible ASCII characters"
)

// resultBody is a COMPLETED result for activity id as raw JSON; reordered
// is the same request with another member order and spacing.
func resultBody(id, comment string, reordered bool) string {
	if reordered {
		return fmt.Sprintf(`{ "task_result": {"comment": %q, "result": "success"},
			"status": "COMPLETED", "occurred_at": %q, "activity_id": %q }`, comment, resOccurredAt, id)
	}
	return fmt.Sprintf(`{"activity_id":%q,"occurred_at":%q,"status":"COMPLETED","task_result":{"result":"success","comment":%q}}`,
		id, resOccurredAt, comment)
}

// resultsOf counts the stored results of an activity.
func resultsOf(env *apptest.Env, activityID string) int {
	return env.App.DB.Client.ActivityResult.Query().Where(activityresult.ActivityID(uuid.MustParse(activityID))).
		CountX(viewer.SystemContext(context.Background()))
}

// idemRecords counts the stored idempotency records.
func idemRecords(env *apptest.Env) int {
	return env.App.DB.Client.IdempotencyRecord.Query().CountX(viewer.SystemContext(context.Background()))
}

func TestResultIdempotencyKeyReplaysTheFirstResponse(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		id := f.task(resScheduledAt)
		h := f.h.With("Idempotency-Key", "order-1")

		first := env.Do("POST", resultsPath, resultBody(id, "done", false), h)
		if first.Status != 201 || first.Header.Get(idempotency.ReplayedHeader) != "" {
			t.Fatalf("first: %d %q %s", first.Status, first.Header.Get(idempotency.ReplayedHeader), first.Body)
		}
		// The same request (other member order and spacing): the first response, byte for byte, and no second run.
		again := env.Do("POST", resultsPath, resultBody(id, "done", true), h)
		if again.Status != 201 || string(again.Body) != string(first.Body) || again.Header.Get(idempotency.ReplayedHeader) != "true" ||
			again.Header.Get("Content-Type") != "application/json; charset=utf-8" {
			t.Fatalf("replay: %d %q %s, first %s", again.Status, again.Header.Get(idempotency.ReplayedHeader), again.Body, first.Body)
		}
		if ev := actEvents(t, env, id, f.h); !slices.Equal(ev, []string{"CREATED:null>READY", "COMPLETED:READY>COMPLETED"}) {
			t.Fatalf("events after the replay: %v", ev)
		}
		if n := resultsOf(env, id); n != 1 {
			t.Fatalf("%d results", n)
		}

		// The same key with another body, or from another project: 409, nothing written.
		apptest.ExpectError(t, env.Do("POST", resultsPath, resultBody(id, "changed", false), h), 409, msgKeyReused)
		second := actOK(t, env.Do("POST", "/api/projects", map[string]any{"name": "Second"}, f.th), 201)["id"].(string)
		apptest.ExpectError(t, env.Do("POST", resultsPath, resultBody(id, "done", false), h.With("x-project-id", second)), 409, msgKeyReused)
		if ev := actEvents(t, env, id, f.h); len(ev) != 2 {
			t.Fatalf("events after the conflicts: %v", ev)
		}

		// Keys are per route: the integration route runs the same key on its own
		// (the activity is COMPLETED, so its result is updated: a second COMPLETED event).
		res := actOK(t, env.Do("POST", integrationResultsPath, resultBody(id, "done", false), f.th.With("Idempotency-Key", "order-1")), 201)
		if res["id"] != first.Map(t)["id"] {
			t.Fatalf("integration route: %v", res)
		}
		if ev := actEvents(t, env, id, f.h); len(ev) != 3 {
			t.Fatalf("events after the integration submission: %v", ev)
		}

		// Keys are per tenant: another tenant's same key is its own.
		o := newResFixture(t, env, "Other")
		oid := o.task(resScheduledAt)
		if res := env.Do("POST", resultsPath, resultBody(oid, "done", false), o.h.With("Idempotency-Key", "order-1")); res.Status != 201 ||
			res.Header.Get(idempotency.ReplayedHeader) != "" {
			t.Fatalf("other tenant: %d %s", res.Status, res.Body)
		}

		// Without a key nothing is recorded.
		before := idemRecords(env)
		actOK(t, env.Do("POST", resultsPath, resultBody(f.task(resScheduledAt), "x", false), f.h), 201)
		if after := idemRecords(env); after != before {
			t.Fatalf("records %d -> %d without a key", before, after)
		}
	})
}

func TestResultIdempotencyKeyRules(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		id := f.task(resScheduledAt)
		for _, key := range []string{"", strings.Repeat("k", 256), "clé", "tab\tkey"} {
			apptest.ExpectError(t, env.Do("POST", resultsPath, resultBody(id, "done", false), f.h.With("Idempotency-Key", key)), 400, msgKeyFormat)
		}
		if n := resultsOf(env, id); n != 0 {
			t.Fatalf("a refused key stored %d results", n)
		}
		// The body rules come first; a broken body records nothing.
		apptest.ExpectError(t, env.Do("POST", resultsPath, `{"foo":1}`, f.h.With("Idempotency-Key", "")), 400, []string{
			"property foo should not exist", "occurred_at should not be empty", msgStatusEnum,
			"commerce_external_id should not be empty when activity_id is absent", "task_result should not be empty"})
		if res := env.Do("POST", resultsPath, resultBody(id, "done", false), f.h.With("Idempotency-Key", strings.Repeat("k", 255))); res.Status != 201 {
			t.Fatalf("255-character key: %d %s", res.Status, res.Body)
		}

		// A refused request records nothing: its key stays free for another body.
		h := f.h.With("Idempotency-Key", "retry-me")
		apptest.ExpectError(t, env.Do("POST", resultsPath, resultBody(uuid.NewString(), "done", false), h), 400, []string{msgCommerceExt})
		other := f.task(resScheduledAt)
		actOK(t, env.Do("POST", "/api/activities/"+other+"/cancel", map[string]any{}, f.h), 200)
		apptest.ExpectError(t, env.Do("POST", resultsPath, resultBody(other, "done", false), h), 422, msgState)
		fresh := f.task(resScheduledAt)
		if res := env.Do("POST", resultsPath, resultBody(fresh, "done", false), h); res.Status != 201 || res.Header.Get(idempotency.ReplayedHeader) != "" {
			t.Fatalf("after refusals: %d %s", res.Status, res.Body)
		}
	})
}

// TestResultIdempotencyKeyRetention: a key is kept 24 hours, then forgotten
// (a new body runs) and purged.
func TestResultIdempotencyKeyRetention(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		t0 := time.Now()
		clock := t0
		env.App.Idempotency.SetClock(func() time.Time { return clock })
		h := f.h.With("Idempotency-Key", "daily")
		id := f.task(resScheduledAt)
		actOK(t, env.Do("POST", resultsPath, resultBody(id, "done", false), h), 201)

		clock = t0.Add(idempotency.Retention - time.Second)
		apptest.ExpectError(t, env.Do("POST", resultsPath, resultBody(f.task(resScheduledAt), "done", false), h), 409, msgKeyReused)
		if res := env.Do("POST", resultsPath, resultBody(id, "done", false), h); res.Header.Get(idempotency.ReplayedHeader) != "true" {
			t.Fatalf("replay before expiry: %d %s", res.Status, res.Body)
		}

		clock = t0.Add(idempotency.Retention + time.Second)
		next := f.task(resScheduledAt)
		res := env.Do("POST", resultsPath, resultBody(next, "done", false), h)
		if res.Status != 201 || res.Header.Get(idempotency.ReplayedHeader) != "" || res.Map(t)["activityId"] != next {
			t.Fatalf("after expiry: %d %s", res.Status, res.Body)
		}
		// The re-used key's record was replaced (one record), and it is purged once expired.
		ctx := viewer.SystemContext(context.Background())
		if n := env.App.DB.Client.IdempotencyRecord.Query().Where(idempotencyrecord.Key("daily")).CountX(ctx); n != 1 {
			t.Fatalf("%d records of the key", n)
		}
		if n, err := env.App.Idempotency.Purge(context.Background(), clock); err != nil || n != 0 {
			t.Fatalf("purge of live records: %d %v", n, err)
		}
		if n, err := env.App.Idempotency.Purge(context.Background(), clock.Add(idempotency.Retention)); err != nil || n != 1 {
			t.Fatalf("purge: %d %v", n, err)
		}
		if n := idemRecords(env); n != 0 {
			t.Fatalf("%d records left", n)
		}
	})
}

// TestResultIdempotencyKeyConcurrentRetries: retries racing with one key run
// the submission once; every one answers the first response.
func TestResultIdempotencyKeyConcurrentRetries(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		id := f.task(resScheduledAt)
		h := f.h.With("Idempotency-Key", "race")
		const n = 8
		var wg sync.WaitGroup
		out := make([]*apptest.Response, n)
		for i := range n {
			wg.Go(func() { out[i] = env.Do("POST", resultsPath, resultBody(id, "done", i%2 == 0), h) })
		}
		wg.Wait()
		fresh := 0
		for _, res := range out {
			if res.Status != 201 || string(res.Body) != string(out[0].Body) {
				t.Fatalf("racer: %d %s, first %s", res.Status, res.Body, out[0].Body)
			}
			if res.Header.Get(idempotency.ReplayedHeader) == "" {
				fresh++
			}
		}
		if fresh != 1 {
			t.Fatalf("%d racers ran the submission", fresh)
		}
		if ev := actEvents(t, env, id, f.h); !slices.Equal(ev, []string{"CREATED:null>READY", "COMPLETED:READY>COMPLETED"}) {
			t.Fatalf("events: %v", ev)
		}
	})
}

// TestResultIdempotencyKeyGraphQL: the mutations take the key as an argument.
func TestResultIdempotencyKeyGraphQL(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		id := f.task(resScheduledAt)
		const q = `mutation($a: ID!, $c: String) { submitActivityResult(input: {activityID: $a, occurredAt: "2030-05-01T12:00:00Z",
			resultStatus: COMPLETED, resultCode: success, comment: $c}, idempotencyKey: "gql-1") { id comment resultStatus } }`
		type out struct {
			Data struct {
				Submit *struct{ ID, Comment, ResultStatus string } `json:"submitActivityResult"`
			} `json:"data"`
			Errors []struct {
				Message    string
				Extensions map[string]any
			} `json:"errors"`
		}
		var first, again, conflict out
		env.GraphQL(q, map[string]any{"a": id, "c": "done"}, f.h).JSON(t, &first)
		env.GraphQL(q, map[string]any{"a": id, "c": "done"}, f.h).JSON(t, &again)
		if first.Data.Submit == nil || again.Data.Submit == nil || *again.Data.Submit != *first.Data.Submit || first.Data.Submit.Comment != "done" {
			t.Fatalf("first %+v, again %+v", first, again)
		}
		if ev := actEvents(t, env, id, f.h); len(ev) != 2 {
			t.Fatalf("events: %v", ev)
		}
		env.GraphQL(q, map[string]any{"a": id, "c": "other"}, f.h).JSON(t, &conflict)
		if len(conflict.Errors) != 1 || conflict.Errors[0].Message != msgKeyReused || conflict.Errors[0].Extensions["statusCode"] != float64(409) {
			t.Fatalf("conflict: %+v", conflict)
		}
		// GraphQL and REST keys are separate: the REST route runs "gql-1" on its own.
		if res := env.Do("POST", resultsPath, resultBody(id, "done", false), f.h.With("Idempotency-Key", "gql-1")); res.Status != 201 ||
			res.Header.Get(idempotency.ReplayedHeader) != "" {
			t.Fatalf("REST with the GraphQL key: %d %s", res.Status, res.Body)
		}
	})
}
