package rest_test

import (
	"fmt"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/operator"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

func TestOperatorSync(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newFOWorld(env)
		sync := func(items any, h apptest.Headers) *apptest.Response {
			return env.Do("POST", "/api/operators/sync", map[string]any{"items": items}, h)
		}
		first := []map[string]any{
			{"external_id": "S-1", "type": "SALESMAN", "name": "Ana", "email": "ana@x.test", "phone": "+5691", "metadata": map[string]any{"a": 1}},
			{"external_id": "S-1", "type": "ACTIVATOR", "name": "Ana A"},
		}
		foExpect(t, sync(first, w.ha), 201, map[string]any{"created": 2, "updated": 0, "total": 2})
		// Second run: two matched (one changed), one new.
		second := []map[string]any{
			{"external_id": "S-1", "type": "SALESMAN", "name": "Ana Renamed", "email": "ANA@x.test"},
			{"external_id": "S-1", "type": "ACTIVATOR", "name": "Ana A"},
			{"external_id": "C-7", "type": "CALLCENTER", "name": "Carl", "email": "carl@x.test"},
		}
		foExpect(t, sync(second, w.ha), 201, map[string]any{"created": 1, "updated": 2, "total": 3})
		if n := foOperatorCount(t, env, w.a.TenantID); n != 3 {
			t.Fatalf("operators = %d, want 3", n)
		}
		o, err := env.App.DB.Client.Operator.Query().Where(operator.TenantID(w.a.TenantID), operator.TypeEQ("SALESMAN"),
			operator.ExternalID("S-1")).Only(sys)
		// Omitted phone and metadata are unchanged; the email takes the new casing.
		if err != nil || o.Name != "Ana Renamed" || *o.Email != "ANA@x.test" || *o.EmailKey != "ana@x.test" ||
			o.Phone == nil || *o.Phone != "+5691" || o.Metadata["a"] != float64(1) {
			t.Fatalf("synced operator = %+v (%v)", o, err)
		}
		// An operator created through POST /operators is matched by (type, external_id).
		foID(t, w, w.ha, "/api/operators", map[string]any{"type": "SALESMAN", "name": "Dan", "external_id": "D-1"})
		foExpect(t, sync([]map[string]any{{"external_id": "D-1", "type": "SALESMAN", "name": "Dan 2"}}, w.ha), 201,
			map[string]any{"created": 0, "updated": 1, "total": 1})
		// Tenant B's sync never matches tenant A's operators.
		foExpect(t, sync(second, w.hb), 201, map[string]any{"created": 3, "updated": 0, "total": 3})

		// Invalid items: 400 naming every item and rule; nothing is written.
		before := foOperatorCount(t, env, w.a.TenantID)
		apptest.ExpectError(t, sync([]any{
			map[string]any{"external_id": "N-1", "type": "SALESMAN", "name": "New"},
			map[string]any{"external_id": "", "type": "BOSS", "name": "X"},
			map[string]any{"external_id": "N-2", "type": "SALESMAN", "name": "  "},
			map[string]any{"external_id": "N-3", "type": "SALESMAN", "name": 5, "email": "bad", "extra": true},
			"not an object",
			map[string]any{"external_id": "N-1", "type": "SALESMAN", "name": "Twice"},
		}, w.ha), 400, []string{
			"items.1.external_id should not be empty",
			"items.1." + msgFOTypeValues,
			"items.2.name should not be empty",
			"items.3.property extra should not exist",
			"items.3.name must be a string",
			"items.3." + msgFOEmailInvalid,
			"items.4 must be an object",
			"items.5.external_id duplicates item 0 (same type and external_id)",
		})
		if n := foOperatorCount(t, env, w.a.TenantID); n != before {
			t.Fatalf("invalid sync wrote: %d operators, want %d", n, before)
		}
		// An email held by another operator: 409 and nothing written.
		apptest.ExpectError(t, sync([]map[string]any{
			{"external_id": "N-1", "type": "SALESMAN", "name": "New"},
			{"external_id": "N-2", "type": "SALESMAN", "name": "Thief", "email": "Carl@X.test"},
		}, w.ha), 409, `An operator with email "Carl@X.test" already exists`)
		apptest.ExpectError(t, sync([]map[string]any{
			{"external_id": "N-1", "type": "SALESMAN", "name": "New", "email": "same@x.test"},
			{"external_id": "N-2", "type": "SALESMAN", "name": "New 2", "email": "SAME@x.test"},
		}, w.ha), 409, `email "SAME@x.test" is used by items 0 and 1`)
		if n := foOperatorCount(t, env, w.a.TenantID); n != before {
			t.Fatalf("conflicting sync wrote: %d operators, want %d", n, before)
		}
		// Body rules.
		apptest.ExpectError(t, env.Do("POST", "/api/operators/sync", map[string]any{}, w.ha), 400, []string{"items must be an array"})
		apptest.ExpectError(t, env.Do("POST", "/api/operators/sync", map[string]any{"items": "x"}, w.ha), 400, []string{"items must be an array"})
		apptest.ExpectError(t, sync(foItems(5001, "X"), w.ha), 400, []string{"items must contain no more than 5000 elements"})
		foExpect(t, sync([]any{}, w.ha), 201, map[string]any{"created": 0, "updated": 0, "total": 0})
		// Permission operator:sync (API key with it works; a viewer is refused).
		plain, _ := env.CreateKey(w.a.TenantID, w.a.UserID, uuid.Nil, auth.PermOperatorSync)
		foExpect(t, sync([]map[string]any{{"external_id": "K-1", "type": "SALESMAN", "name": "Keyed"}}, apptest.Key(plain)), 201,
			map[string]any{"created": 1, "updated": 0, "total": 1})
		other, _ := env.CreateKey(w.a.TenantID, w.a.UserID, uuid.Nil, auth.PermOperatorManage)
		apptest.ExpectError(t, sync([]any{}, apptest.Key(other)), 403, "Required permissions: operator:sync")
	})
}

func TestOperatorBatchUpsert(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newFOWorld(env)
		plain, _ := env.CreateKey(w.a.TenantID, w.a.UserID, uuid.Nil, auth.PermOperatorBatchUpsert)
		kh := apptest.Key(plain)
		batch := func(items any) *apptest.Response {
			return env.Do("POST", "/api/integration/operators/batch-upsert", map[string]any{"items": items}, kh)
		}
		foID(t, w, w.ha, "/api/operators", map[string]any{"type": "SALESMAN", "name": "Held", "email": "held@x.test", "external_id": "H-1"})
		foExpect(t, batch([]any{
			map[string]any{"external_id": "B-1", "type": "SALESMAN", "name": "Ok 1", "email": "b1@x.test"},
			map[string]any{"external_id": "B-2", "type": "BOSS", "name": ""},
			map[string]any{"external_id": "H-1", "type": "SALESMAN", "name": "Held renamed", "is_active": false},
			map[string]any{"external_id": "B-3", "type": "SALESMAN", "name": "Thief", "email": "HELD@x.test"},
			map[string]any{"external_id": "B-1", "type": "SALESMAN", "name": "Twice"},
			map[string]any{"external_id": "B-4", "type": "CALLCENTER", "name": "Ok 2", "email": "B1@x.test"},
			map[string]any{"external_id": "B-5", "type": "CALLCENTER", "name": "Ok 3", "is_active": "no"},
			map[string]any{"external_id": "B-6", "type": "ACTIVATOR", "name": "Ok 4", "phone": "+569"},
		}), 201, map[string]any{"created": 2, "updated": 1, "total": 8, "errors": []any{
			map[string]any{"index": 1, "messages": []string{msgFOTypeValues, msgFONameEmpty}},
			map[string]any{"index": 3, "messages": []string{`An operator with email "HELD@x.test" already exists`}},
			map[string]any{"index": 4, "messages": []string{"external_id duplicates item 0 (same type and external_id)"}},
			map[string]any{"index": 5, "messages": []string{`email "B1@x.test" is used by items 0 and 5`}},
			map[string]any{"index": 6, "messages": []string{"is_active must be a boolean value"}},
		}})
		// The valid items are written whole; the rejected ones not at all.
		got := map[string]string{}
		ops, err := env.App.DB.Client.Operator.Query().Where(operator.TenantID(w.a.TenantID)).All(sys)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range ops {
			got[string(o.Type)+"/"+*o.ExternalID] = fmt.Sprintf("%s %v %v", o.Name, o.IsActive, o.Phone != nil)
		}
		want := map[string]string{"SALESMAN/H-1": "Held renamed false false", "SALESMAN/B-1": "Ok 1 true false",
			"ACTIVATOR/B-6": "Ok 4 true true"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("operators = %v, want %v", got, want)
		}
		apptest.ExpectError(t, env.Do("POST", "/api/integration/operators/batch-upsert", map[string]any{"items": 3}, kh), 400,
			[]string{"items must be an array"})
		apptest.ExpectError(t, env.Do("POST", "/api/integration/operators/batch-upsert", map[string]any{"items": []any{}, "x": 1}, kh), 400,
			[]string{"property x should not exist"})
		other, _ := env.CreateKey(w.a.TenantID, w.a.UserID, uuid.Nil, auth.PermOperatorSync)
		apptest.ExpectError(t, env.Do("POST", "/api/integration/operators/batch-upsert", map[string]any{"items": []any{}}, apptest.Key(other)),
			403, "Required permissions: operator:batch-upsert")
	})
}

func TestOperatorBatchUpsert5000(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		w := newFOWorld(env)
		path := "/api/integration/operators/batch-upsert"
		items := foItems(5000, "E")
		for i := range items {
			items[i]["email"] = fmt.Sprintf("op%05d@x.test", i)
		}
		foExpect(t, env.Do("POST", path, map[string]any{"items": items}, w.ha), 201,
			map[string]any{"created": 5000, "updated": 0, "total": 5000, "errors": []any{}})
		if n := foOperatorCount(t, env, w.a.TenantID); n != 5000 {
			t.Fatalf("operators = %d", n)
		}
		// The second run matches every item; one item renamed.
		items[4999]["name"] = "Renamed"
		foExpect(t, env.Do("POST", path, map[string]any{"items": items}, w.ha), 201,
			map[string]any{"created": 0, "updated": 5000, "total": 5000, "errors": []any{}})
		o, err := env.App.DB.Client.Operator.Query().Where(operator.TenantID(w.a.TenantID), operator.ExternalID("E-04999")).Only(sys)
		if err != nil || o.Name != "Renamed" || *o.EmailKey != "op04999@x.test" {
			t.Fatalf("renamed operator = %+v (%v)", o, err)
		}
		apptest.ExpectError(t, env.Do("POST", path, map[string]any{"items": foItems(5001, "F")}, w.ha), 400,
			[]string{"items must contain no more than 5000 elements"})
	})
}
