package rest_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/demo"
)

// Event filters over REST (SPEC.md "Endpoints > Event filters").

const (
	efNotFound     = "Event criteria not found"
	efNoDataset    = "Tenant dataset not configured"
	efInTheFirst   = "timeWindow IN_THE_FIRST is not supported: the catalog does not declare a lifetime origin."
	efUUIDExpected = "Validation failed (uuid is expected)"
	efFormatMsg    = "format must be one of the following values: parameterized, literal"
)

// efFix is tenant Acme with its super_admin, on its main project.
type efFix struct {
	env  *apptest.Env
	acme apptest.Tenant
	h    apptest.Headers // JWT + main project
	th   apptest.Headers // JWT, tenant-level routes
	db   *sql.DB         // the sqlite demo dataset, when sqliteDataset ran
}

func newEFFix(t *testing.T, env *apptest.Env) *efFix {
	t.Helper()
	acme := env.Bootstrap("Acme")
	token := env.Login(acme.Email)
	return &efFix{env: env, acme: acme, h: apptest.JWT(token, acme.TenantID, acme.ProjectID), th: apptest.JWT(token, acme.TenantID, uuid.Nil)}
}

// bigqueryDataset gives the tenant a compile-only dataset with the demo catalog.
func (f *efFix) bigqueryDataset(t *testing.T) {
	t.Helper()
	efStatus(t, f.env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "bigquery",
		"bigquery_project": "acme-project", "bigquery_dataset": "analytics"}, f.th), 201)
	efStatus(t, f.env.Do("PUT", "/api/tenant-dataset/catalog", catalogBody(demo.Catalog()), f.th), 200)
}

// sqliteDataset generates a small demo dataset in a SQLite file and makes
// it the tenant's dataset (previews run there).
func (f *efFix) sqliteDataset(t *testing.T) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dataset.db")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if _, err := demo.Create(context.Background(), db, demo.DialectSQLite, "", demo.Options{Seed: 7,
		Now: time.Date(2025, time.March, 14, 15, 0, 0, 0, time.UTC), Commerces: 40, Products: 30, Events: 2000, Transactions: 200}); err != nil {
		t.Fatal(err)
	}
	f.db = db
	efStatus(t, f.env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "sqlite", "connection": path}, f.th), 201)
	efStatus(t, f.env.Do("PUT", "/api/tenant-dataset/catalog", catalogBody(demo.Catalog()), f.th), 200)
}

func efStatus(t *testing.T, res *apptest.Response, status int) map[string]any {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status = %d, want %d; body %s", res.Status, status, res.Body)
	}
	if len(res.Body) == 0 {
		return nil
	}
	return res.Map(t)
}

// Definition builders.

func efCol(table, column string) map[string]any {
	return map[string]any{"table": table, "column": column}
}

func efPred(op string, c map[string]any, v any) map[string]any {
	p := map[string]any{"kind": "predicate", "comparisonOperator": op, "column": c}
	if v != nil {
		p["value"] = v
	}
	return p
}

func efAnd(children ...any) map[string]any {
	return map[string]any{"kind": "group", "logicalOperator": "AND", "children": children}
}

func efColumnItem(table, column string) map[string]any {
	return map[string]any{"kind": "column", "column": efCol(table, column)}
}

// efBlock is a block over events selecting items, with a where tree.
func efBlock(order int, setOperator any, where any, items ...any) map[string]any {
	if len(items) == 0 {
		items = []any{efColumnItem("events", "event_id")}
	}
	return map[string]any{"order": order, "setOperator": setOperator, "from": map[string]any{"table": "events"},
		"select": map[string]any{"items": items}, "where": where}
}

// efPurchases is a small definition: purchases worth more than 10.5 with a
// utm_source attribute, since 2024, exposing event_id and value (as amount).
func efPurchases() []any {
	b := efBlock(0, nil, efAnd(
		efPred("EQUALS", efCol("events", "event_name"), "it's"),
		efPred("GREATER_THAN", efCol("events", "value"), 10.5),
		map[string]any{"kind": "recordPredicate", "column": efCol("events", "attributes"),
			"subWhere": efAnd(map[string]any{"kind": "predicate", "comparisonOperator": "EQUALS", "field": "key", "value": "utm_source"})},
	), efColumnItem("events", "event_id"), map[string]any{"kind": "column", "column": efCol("events", "value"), "alias": "amount"})
	b["timeWindow"] = map[string]any{"timeOperator": "SINCE", "from": "2024-01-01T00:00:00Z"}
	return []any{b}
}

// efStored is efPurchases as the service stores and returns it (normalized).
func efStored(id string) map[string]any {
	return map[string]any{"id": id, "order": 0, "setOperator": nil,
		"from":       map[string]any{"table": "events", "joins": []any{}, "unnests": []any{}},
		"select":     map[string]any{"distinct": false, "items": []any{efColumnItem("events", "event_id"), map[string]any{"kind": "column", "column": efCol("events", "value"), "alias": "amount"}}},
		"timeWindow": map[string]any{"timeOperator": "SINCE", "from": "2024-01-01T00:00:00Z"},
		"where": efAnd(
			efPred("EQUALS", efCol("events", "event_name"), "it's"),
			efPred("GREATER_THAN", efCol("events", "value"), 10.5),
			map[string]any{"kind": "recordPredicate", "column": efCol("events", "attributes"),
				"subWhere": efAnd(map[string]any{"kind": "predicate", "comparisonOperator": "EQUALS", "field": "key", "value": "utm_source"})}),
		"groupBy": nil, "having": nil}
}

// The BigQuery SQL of efPurchases on the acme-project.analytics dataset.
const (
	efPurchasesParameterized = "CTE_VALID_EVENTS AS (\n  SELECT t0.`event_id` AS `event_id`, t0.`value` AS `amount`\n  FROM `acme-project.analytics.events` AS t0\n" +
		"  WHERE t0.`event_timestamp` >= @p0 AND (t0.`event_name` = @p1 AND t0.`value` > @p2 AND EXISTS (SELECT 1 FROM UNNEST(t0.`attributes`) AS r0 WHERE r0.`key` = @p3))\n)"
	efPurchasesLiteral = "CTE_VALID_EVENTS AS (\n  SELECT t0.`event_id` AS `event_id`, t0.`value` AS `amount`\n  FROM `acme-project.analytics.events` AS t0\n" +
		"  WHERE t0.`event_timestamp` >= TIMESTAMP('2024-01-01T00:00:00Z') AND (t0.`event_name` = 'it\\'s' AND t0.`value` > 10.5 AND EXISTS (SELECT 1 FROM UNNEST(t0.`attributes`) AS r0 WHERE r0.`key` = 'utm_source'))\n)"
)

var (
	efParameterizedSQL = map[string]any{"format": "parameterized", "query": efPurchasesParameterized, "finalCteName": "CTE_VALID_EVENTS",
		"subjectColumn": nil, "params": map[string]any{"p0": "2024-01-01T00:00:00Z", "p1": "it's", "p2": 10.5, "p3": "utm_source"},
		"types": map[string]any{"p0": "TIMESTAMP", "p1": "STRING", "p2": "FLOAT64", "p3": "STRING"}}
	efLiteralSQL = map[string]any{"format": "literal", "query": efPurchasesLiteral, "finalCteName": "CTE_VALID_EVENTS", "subjectColumn": nil}
)

func (f *efFix) create(t *testing.T, name string, blocks []any) map[string]any {
	t.Helper()
	return efStatus(t, f.env.Do("POST", "/api/event-criterias", map[string]any{"name": name, "queryBlocks": blocks}, f.h), 201)
}

func efBlockIDs(t *testing.T, detail map[string]any) []string {
	t.Helper()
	var ids []string
	for _, b := range arr(detail, "queryBlocks") {
		ids = append(ids, b["id"].(string))
	}
	return ids
}

func TestEventFilterCreateGetList(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newEFFix(t, env)
		f.bigqueryDataset(t)
		desc := "Paid purchases"
		created := efStatus(t, env.Do("POST", "/api/event-criterias", map[string]any{"name": "  Purchases  ", "description": desc, "queryBlocks": efPurchases()}, f.h), 201)
		expectKeys(t, "detail", created, "id", "projectId", "name", "description", "isActive", "ownerId", "updatedBy", "createdAt", "updatedAt", "queryBlocks")
		id := created["id"].(string)
		ids := efBlockIDs(t, created)
		if len(ids) != 1 {
			t.Fatalf("created = %v", created)
		}
		expectJSON(t, "created", created, map[string]any{"id": id, "projectId": f.acme.ProjectID, "name": "Purchases", "description": desc,
			"isActive": true, "ownerId": f.acme.UserID, "updatedBy": f.acme.UserID, "createdAt": created["createdAt"], "updatedAt": created["updatedAt"],
			"queryBlocks": []any{efStored(ids[0])}})
		expectJSON(t, "GET", efStatus(t, env.Do("GET", "/api/event-criterias/"+id, nil, f.h), 200), created)

		// Blocks come back ordered by order whatever the order sent.
		two := []any{efBlock(1, "UNION_ALL", nil), efBlock(0, nil, efPred("IS_NULL", efCol("events", "session_id"), nil))}
		multi := f.create(t, "Two blocks", two)
		if bs := arr(multi, "queryBlocks"); bs[0]["order"] != 0.0 || bs[1]["order"] != 1.0 || bs[1]["setOperator"] != "UNION_ALL" || bs[0]["setOperator"] != nil {
			t.Fatalf("blocks = %v", bs)
		}
		f.create(t, "No conditions", []any{efBlock(0, nil, nil)})

		// List: newest first, camelCase items with conditionCount, snake_case pagination.
		list := efStatus(t, env.Do("GET", "/api/event-criterias", nil, f.h), 200)
		expectKeys(t, "list", list, "data", "pagination")
		items := arr(list, "data")
		expectKeys(t, "item", items[0], "id", "projectId", "name", "description", "isActive", "ownerId", "updatedBy", "createdAt", "updatedAt", "conditionCount")
		var got []string
		for _, it := range items {
			got = append(got, fmt.Sprintf("%s=%v", it["name"], it["conditionCount"]))
		}
		if want := []string{"No conditions=0", "Two blocks=1", "Purchases=3"}; !slices.Equal(got, want) {
			t.Fatalf("list = %v, want %v", got, want)
		}
		expectJSON(t, "pagination", list["pagination"], map[string]any{"page": 1, "per_page": 25, "total": 3, "total_pages": 1, "has_next": false, "has_previous": false})
		page2 := efStatus(t, env.Do("GET", "/api/event-criterias?page=2&per_page=2", nil, f.h), 200)
		if d := arr(page2, "data"); len(d) != 1 || d[0]["name"] != "Purchases" {
			t.Fatalf("page 2 = %v", page2)
		}
		expectJSON(t, "pagination 2", page2["pagination"], map[string]any{"page": 2, "per_page": 2, "total": 3, "total_pages": 2, "has_next": false, "has_previous": true})
		page1 := efStatus(t, env.Do("GET", "/api/event-criterias?per_page=2", nil, f.h), 200)
		expectJSON(t, "pagination 1", page1["pagination"], map[string]any{"page": 1, "per_page": 2, "total": 3, "total_pages": 2, "has_next": true, "has_previous": false})
		search := efStatus(t, env.Do("GET", "/api/event-criterias?search=BLOCK", nil, f.h), 200)
		if d := arr(search, "data"); len(d) != 1 || d[0]["name"] != "Two blocks" || obj(search, "pagination")["total"] != 1.0 {
			t.Fatalf("search = %v", search)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/event-criterias?per_page=101", nil, f.h), 400, []string{"per_page must not be greater than 100"})
		apptest.ExpectError(t, env.Do("GET", "/api/event-criterias?page=0", nil, f.h), 400, []string{"page must not be less than 1"})

		// Another project of the tenant, and another tenant, see none of it.
		p2 := efStatus(t, env.Do("POST", "/api/projects", map[string]any{"name": "Second"}, f.th), 201)
		h2 := f.th.With("x-project-id", p2["id"].(string))
		apptest.ExpectError(t, env.Do("GET", "/api/event-criterias/"+id, nil, h2), 404, efNotFound)
		expectJSON(t, "other project list", obj(efStatus(t, env.Do("GET", "/api/event-criterias", nil, h2), 200), "pagination")["total"], 0)
		beta := env.Bootstrap("Beta")
		bh := apptest.JWT(env.Login(beta.Email), beta.TenantID, beta.ProjectID)
		for _, c := range []struct{ method, path string }{{"GET", ""}, {"PATCH", ""}, {"DELETE", ""}, {"GET", "/sql"}, {"POST", "/preview"}} {
			apptest.ExpectError(t, env.Do(c.method, "/api/event-criterias/"+id+c.path, nil, bh), 404, efNotFound)
			apptest.ExpectError(t, env.Do(c.method, "/api/event-criterias/"+id+c.path, nil, h2), 404, efNotFound)
			apptest.ExpectError(t, env.Do(c.method, "/api/event-criterias/"+uuid.NewString()+c.path, nil, f.h), 404, efNotFound)
			apptest.ExpectError(t, env.Do(c.method, "/api/event-criterias/not-a-uuid"+c.path, nil, f.h), 400, efUUIDExpected)
		}

		// Project header rules come first (SPEC.md: project, permission, body).
		apptest.ExpectError(t, env.Do("GET", "/api/event-criterias", nil, f.th), 400, "Falta el header obligatorio x-project-id.")
		env.CreateUser(f.acme.TenantID, "otto", auth.RoleOperator)
		oh := apptest.JWT(env.Login("otto"), f.acme.TenantID, f.acme.ProjectID)
		apptest.ExpectError(t, env.Do("GET", "/api/event-criterias", nil, oh), 403, "Required permissions: event-criteria:view")
		apptest.ExpectError(t, env.Do("POST", "/api/event-criterias/generate-sql", map[string]any{"queryBlocks": efPurchases()}, oh), 403,
			"Required permissions: event-criteria:view-sql")
	})
}

func TestEventFilterCreateValidation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newEFFix(t, env)
		post := func(body any) *apptest.Response { return env.Do("POST", "/api/event-criterias", body, f.h) }

		// Without a dataset the definition cannot be checked: 404 (after the DTO rules).
		apptest.ExpectError(t, post(map[string]any{"name": "X", "queryBlocks": efPurchases()}), 404, efNoDataset)
		apptest.ExpectError(t, post(map[string]any{"name": "", "queryBlocks": efPurchases()}), 400, []string{"name should not be empty"})
		f.bigqueryDataset(t)

		apptest.ExpectError(t, post(map[string]any{"name": "X", "queryBlocks": efPurchases(), "kind": "x", "audience": 1}), 400,
			[]string{"property audience should not exist", "property kind should not exist"})
		apptest.ExpectError(t, post(map[string]any{}), 400, []string{"name should not be empty", "queryBlocks should not be empty"})
		apptest.ExpectError(t, post(map[string]any{"name": 7, "description": false, "queryBlocks": efPurchases()}), 400,
			[]string{"name must be a string", "description must be a string"})
		apptest.ExpectError(t, post(map[string]any{"name": "   ", "queryBlocks": []any{}}), 400, []string{"name should not be empty", "queryBlocks should not be empty"})
		apptest.ExpectError(t, post(map[string]any{"name": "X", "queryBlocks": "x"}), 400, []string{"queryBlocks must be an array"})
		apptest.ExpectError(t, post(map[string]any{"name": "X", "queryBlocks": nil}), 400, []string{"queryBlocks should not be empty"})
		long := ""
		for range 256 {
			long += "é"
		}
		apptest.ExpectError(t, post(map[string]any{"name": long, "queryBlocks": efPurchases()}), 400, []string{"name must be shorter than or equal to 255 characters"})
		apptest.ExpectError(t, post(map[string]any{"name": "X", "queryBlocks": []any{map[string]any{"order": "0", "extra": true}}}), 400, []string{
			"queryBlocks[0].order: order must be an integer number",
			"queryBlocks[0].from: from should not be null or undefined",
			"queryBlocks[0].select: select should not be null or undefined",
			"queryBlocks[0].extra: property extra should not exist"})
		apptest.ExpectError(t, post(`{"name": "X", "queryBlocks": [}`), 400, "Malformed JSON body")

		// Business rules against the catalog, each at its node; IN_THE_FIRST with the SPEC.md message alone.
		bad := efBlock(0, nil, efPred("EQUALS", efCol("events", "nope"), "x"))
		bad["timeWindow"] = map[string]any{"timeOperator": "IN_THE_FIRST", "unit": "DAYS", "value": 3}
		apptest.ExpectError(t, post(map[string]any{"name": "X", "queryBlocks": []any{bad}}), 400, []string{
			efInTheFirst, "queryBlocks[0].where.column: column nope does not exist in table events"})
		inFirst := efBlock(0, nil, nil)
		inFirst["timeWindow"] = map[string]any{"timeOperator": "IN_THE_FIRST", "unit": "MONTHS", "value": 1}
		apptest.ExpectError(t, post(map[string]any{"name": "X", "queryBlocks": []any{inFirst}}), 400, []string{efInTheFirst})
		apptest.ExpectError(t, post(map[string]any{"name": "X", "queryBlocks": []any{efBlock(0, "UNION_ALL", nil)}}), 400,
			[]string{"queryBlocks[0].setOperator: setOperator must be null on the first block (order 0)"})
		expectJSON(t, "nothing stored", obj(efStatus(t, env.Do("GET", "/api/event-criterias", nil, f.h), 200), "pagination")["total"], 0)
	})
}

func TestEventFilterPatch(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newEFFix(t, env)
		f.bigqueryDataset(t)
		created := efStatus(t, env.Do("POST", "/api/event-criterias", map[string]any{"name": "Purchases", "description": "d", "queryBlocks": efPurchases()}, f.h), 201)
		id := created["id"].(string)
		path := "/api/event-criterias/" + id
		patch := func(body any, h apptest.Headers) *apptest.Response { return env.Do("PATCH", path, body, h) }
		same := func(what string, got map[string]any, want map[string]any, changes map[string]any) {
			t.Helper()
			exp := map[string]any{}
			for k, v := range want {
				exp[k] = v
			}
			for k, v := range changes {
				exp[k] = v
			}
			exp["updatedAt"] = got["updatedAt"]
			if got["updatedAt"].(string) < want["updatedAt"].(string) {
				t.Fatalf("%s: updatedAt went back: %v < %v", what, got["updatedAt"], want["updatedAt"])
			}
			expectJSON(t, what, got, exp)
		}

		// An empty body changes only updatedBy and updatedAt: here another admin edits.
		ada := env.CreateUser(f.acme.TenantID, "ada", auth.RoleAdmin).ID.String()
		ah := apptest.JWT(env.Login("ada"), f.acme.TenantID, f.acme.ProjectID)
		afterEmpty := efStatus(t, patch(map[string]any{}, ah), 200)
		same("empty body", afterEmpty, created, map[string]any{"updatedBy": ada})
		afterNoBody := efStatus(t, patch(nil, f.h), 200)
		same("no body", afterNoBody, afterEmpty, map[string]any{"updatedBy": f.acme.UserID.String()})

		// name and description only: blocks stay (same ids), not revalidated.
		renamed := efStatus(t, patch(map[string]any{"name": " Renamed "}, f.h), 200)
		same("rename", renamed, afterNoBody, map[string]any{"name": "Renamed"})
		cleared := efStatus(t, patch(map[string]any{"description": nil}, f.h), 200)
		same("clear description", cleared, renamed, map[string]any{"description": nil})
		described := efStatus(t, patch(map[string]any{"description": "again"}, f.h), 200)
		same("describe", described, cleared, map[string]any{"description": "again"})

		// DTO errors: nothing changes.
		for _, c := range []struct {
			body any
			msgs []string
		}{
			{map[string]any{"name": nil}, []string{"name should not be empty"}},
			{map[string]any{"name": ""}, []string{"name should not be empty"}},
			{map[string]any{"name": 3, "description": 4}, []string{"name must be a string", "description must be a string"}},
			{map[string]any{"queryBlocks": []any{}}, []string{"queryBlocks should not be empty"}},
			{map[string]any{"queryBlocks": nil}, []string{"queryBlocks should not be empty"}},
			{map[string]any{"queryBlocks": map[string]any{}}, []string{"queryBlocks must be an array"}},
			{map[string]any{"isActive": false, "ownerId": nil}, []string{"property isActive should not exist", "property ownerId should not exist"}},
		} {
			apptest.ExpectError(t, patch(c.body, f.h), 400, c.msgs)
		}
		// A DTO error comes before the 404 of an unknown id.
		apptest.ExpectError(t, env.Do("PATCH", "/api/event-criterias/"+uuid.NewString(), map[string]any{"name": ""}, f.h), 400, []string{"name should not be empty"})
		apptest.ExpectError(t, env.Do("PATCH", "/api/event-criterias/"+uuid.NewString(), map[string]any{"name": "Y"}, f.h), 404, efNotFound)

		// A failing replacement keeps the stored blocks and every other field.
		bad := efBlock(0, nil, efPred("GREATER_THAN", efCol("events", "event_name"), 3))
		apptest.ExpectError(t, patch(map[string]any{"name": "Never", "queryBlocks": []any{bad}}, f.h), 400,
			[]string{"queryBlocks[0].where.value: value must be a string"})
		inFirst := efBlock(0, nil, nil)
		inFirst["timeWindow"] = map[string]any{"timeOperator": "IN_THE_FIRST", "unit": "DAYS", "value": 7}
		apptest.ExpectError(t, patch(map[string]any{"queryBlocks": []any{inFirst}}, f.h), 400, []string{efInTheFirst})
		expectJSON(t, "after failed replacements", efStatus(t, env.Do("GET", path, nil, f.h), 200), described)

		// A replacement deletes every block and stores the new ones with new ids.
		two := []any{efBlock(0, nil, efPred("IN", efCol("events", "platform"), []any{"ios", "android"})), efBlock(1, "INTERSECT_DISTINCT", nil)}
		replaced := efStatus(t, patch(map[string]any{"queryBlocks": two}, f.h), 200)
		newIDs := efBlockIDs(t, replaced)
		if len(newIDs) != 2 || slices.Contains(newIDs, efBlockIDs(t, created)[0]) || newIDs[0] == newIDs[1] {
			t.Fatalf("new block ids = %v (old %v)", newIDs, efBlockIDs(t, created))
		}
		if replaced["name"] != "Renamed" || replaced["description"] != "again" || arr(replaced, "queryBlocks")[1]["setOperator"] != "INTERSECT_DISTINCT" {
			t.Fatalf("replaced = %v", replaced)
		}
		expectJSON(t, "GET after replacement", efStatus(t, env.Do("GET", path, nil, f.h), 200), replaced)
		again := efStatus(t, patch(map[string]any{"queryBlocks": two}, f.h), 200)
		if ids := efBlockIDs(t, again); slices.Contains(ids, newIDs[0]) || slices.Contains(ids, newIDs[1]) {
			t.Fatalf("the same definition sent again kept block ids: %v", ids)
		}
		if n := env.App.DB.Client.QueryBlock.Query().CountX(sys); n != 2 {
			t.Fatalf("stored blocks = %d, want 2 (old ones deleted)", n)
		}

		// A viewer cannot edit.
		env.CreateUser(f.acme.TenantID, "vic", auth.RoleViewer)
		vh := apptest.JWT(env.Login("vic"), f.acme.TenantID, f.acme.ProjectID)
		apptest.ExpectError(t, patch(map[string]any{"name": "V"}, vh), 403, "Required permissions: event-criteria:update")
		efStatus(t, env.Do("GET", path, nil, vh), 200)
	})
}
