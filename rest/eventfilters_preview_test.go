package rest_test

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"testing"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

// Event filter previews run on the tenant's demo dataset (SQLite file) and
// return the rows independently hand-written SQL returns.

// efRows renders rows as sorted strings (numbers as float64, as JSON decodes them).
func efRows(rows [][]any) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		cells := make([]any, len(r))
		for j, c := range r {
			switch v := c.(type) {
			case int64:
				cells[j] = float64(v)
			case []byte:
				cells[j] = string(v)
			default:
				cells[j] = v
			}
		}
		out[i] = fmt.Sprint(cells...)
	}
	slices.Sort(out)
	return out
}

// efQuery runs hand-written SQL on the dataset.
func efQuery(t *testing.T, db *sql.DB, query string) [][]any {
	t.Helper()
	out, err := runRows(context.Background(), db, nil, statement{query: query})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// efPreviewRows returns the columns and rows of a preview answer.
func efPreviewRows(t *testing.T, res map[string]any) ([]any, [][]any) {
	t.Helper()
	expectKeys(t, "preview", res, "columns", "rows", "rowCount", "elapsedMs")
	var rows [][]any
	for _, r := range res["rows"].([]any) {
		rows = append(rows, r.([]any))
	}
	if res["rowCount"] != float64(len(rows)) || res["elapsedMs"].(float64) < 0 {
		t.Fatalf("preview = %v", res)
	}
	return res["columns"].([]any), rows
}

func TestEventFilterPreview(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newEFFix(t, env)
		preview := func(query string, body any) *apptest.Response {
			return env.Do("POST", "/api/event-criterias/preview-from-body"+query, body, f.h)
		}
		apptest.ExpectError(t, preview("", map[string]any{"queryBlocks": efPurchases()}), 404, efNoDataset)
		f.sqliteDataset(t)

		// Counts and units per event name of mobile events.
		grouped := []any{map[string]any{"order": 0, "setOperator": nil, "from": map[string]any{"table": "events"},
			"select": map[string]any{"items": []any{efColumnItem("events", "event_name"),
				map[string]any{"kind": "aggregate", "aggregate": map[string]any{"operator": "COUNT", "operand": "*"}, "alias": "n"},
				map[string]any{"kind": "aggregate", "aggregate": map[string]any{"operator": "SUM", "operand": efCol("events", "quantity")}, "alias": "units"}}},
			"where":   efPred("IN", efCol("events", "platform"), []any{"ios", "android"}),
			"groupBy": []any{efCol("events", "event_name")}}}
		cols, rows := efPreviewRows(t, efStatus(t, preview("?limit=100", map[string]any{"queryBlocks": grouped}), 201))
		expectJSON(t, "columns", cols, []any{"event_name", "n", "units"})
		want := efRows(efQuery(t, f.db, `SELECT event_name, COUNT(*), SUM(quantity) FROM events WHERE platform IN ('ios', 'android') GROUP BY event_name`))
		if got := efRows(rows); len(want) < 3 || !slices.Equal(got, want) {
			t.Fatalf("grouped rows = %v\nwant %v", got, want)
		}

		// A semi-join to the products and a record predicate on the attributes.
		semi := []any{map[string]any{"order": 0, "setOperator": nil, "from": map[string]any{"table": "events"},
			"select": map[string]any{"items": []any{efColumnItem("events", "event_name"),
				map[string]any{"kind": "aggregate", "aggregate": map[string]any{"operator": "COUNT", "operand": "*"}, "alias": "n"}}},
			"where": efAnd(
				map[string]any{"kind": "semiJoinPredicate", "table": "events", "semiJoin": "products",
					"subWhere": efAnd(map[string]any{"kind": "predicate", "comparisonOperator": "EQUALS", "field": "category", "value": "beverages"})},
				map[string]any{"kind": "recordPredicate", "column": efCol("events", "attributes"),
					"subWhere": efAnd(map[string]any{"kind": "predicate", "comparisonOperator": "IS_NOT_NULL", "field": "value"})}),
			"groupBy": []any{efCol("events", "event_name")}}}
		_, rows = efPreviewRows(t, efStatus(t, preview("?limit=100", map[string]any{"queryBlocks": semi}), 201))
		want = efRows(efQuery(t, f.db, `SELECT e.event_name, COUNT(*) FROM events e
			WHERE EXISTS (SELECT 1 FROM json_each(e.items) j JOIN product_properties p ON p.product_id = json_extract(j.value, '$.product_id') WHERE p.category = 'beverages')
			AND EXISTS (SELECT 1 FROM json_each(e.attributes) a WHERE json_extract(a.value, '$.value') IS NOT NULL)
			GROUP BY e.event_name`))
		if got := efRows(rows); len(want) == 0 || !slices.Equal(got, want) {
			t.Fatalf("semi-join rows = %v\nwant %v", got, want)
		}

		// Limit: default 20, at most 100; every returned row is an event of the dataset.
		plain := map[string]any{"queryBlocks": []any{efBlock(0, nil, efPred("EQUALS", efCol("events", "event_name"), "purchase"))}}
		cols, rows = efPreviewRows(t, efStatus(t, preview("", plain), 201))
		if len(rows) != 20 || !slices.Equal(cols, []any{"event_id"}) {
			t.Fatalf("default limit: %d rows, columns %v", len(rows), cols)
		}
		purchases := efRows(efQuery(t, f.db, `SELECT event_id FROM events WHERE event_name = 'purchase'`))
		for _, r := range efRows(rows) {
			if _, found := slices.BinarySearch(purchases, r); !found {
				t.Fatalf("row %v is not a purchase of the dataset", r)
			}
		}
		if _, rows = efPreviewRows(t, efStatus(t, preview("?limit=3", plain), 201)); len(rows) != 3 {
			t.Fatalf("limit 3: %d rows", len(rows))
		}
		apptest.ExpectError(t, preview("?limit=0", plain), 400, []string{"limit must not be less than 1"})
		apptest.ExpectError(t, preview("?limit=101", plain), 400, []string{"limit must not be greater than 100"})
		apptest.ExpectError(t, preview("?limit=ten", plain), 400, []string{"limit must be an integer number"})

		// Definitions are validated before anything runs.
		apptest.ExpectError(t, preview("", map[string]any{"queryBlocks": []any{}}), 400, []string{"queryBlocks should not be empty"})
		apptest.ExpectError(t, preview("", map[string]any{"queryBlocks": efPurchases(), "limit": 5}), 400, []string{"property limit should not exist"})
		inFirst := efBlock(0, nil, nil)
		inFirst["timeWindow"] = map[string]any{"timeOperator": "IN_THE_FIRST", "unit": "YEARS", "value": 1}
		apptest.ExpectError(t, preview("", map[string]any{"queryBlocks": []any{inFirst}}), 400, []string{efInTheFirst})

		// A stored filter previews the same rows (201); its body must be empty.
		id := f.create(t, "Mobile", grouped)["id"].(string)
		_, stored := efPreviewRows(t, efStatus(t, env.Do("POST", "/api/event-criterias/"+id+"/preview?limit=100", nil, f.h), 201))
		want = efRows(efQuery(t, f.db, `SELECT event_name, COUNT(*), SUM(quantity) FROM events WHERE platform IN ('ios', 'android') GROUP BY event_name`))
		if got := efRows(stored); !slices.Equal(got, want) {
			t.Fatalf("stored preview = %v\nwant %v", got, want)
		}
		efStatus(t, env.Do("POST", "/api/event-criterias/"+id+"/preview", map[string]any{}, f.h), 201)
		apptest.ExpectError(t, env.Do("POST", "/api/event-criterias/"+id+"/preview", map[string]any{"queryBlocks": grouped}, f.h), 400,
			[]string{"property queryBlocks should not exist"})
		apptest.ExpectError(t, env.Do("POST", "/api/event-criterias/"+id+"/preview?limit=500", nil, f.h), 400, []string{"limit must not be greater than 100"})

		// A compile-only BigQuery dataset answers 422 (the catalog is kept).
		efStatus(t, env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "bigquery", "bigquery_project": "acme-project", "bigquery_dataset": "analytics"}, f.th), 200)
		const bigquery = "Preview is not available for BigQuery datasets: the service only compiles their SQL"
		apptest.ExpectError(t, preview("", plain), 422, bigquery)
		apptest.ExpectError(t, env.Do("POST", "/api/event-criterias/"+id+"/preview", nil, f.h), 422, bigquery)
	})
}

func TestEventFilterDelete(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newEFFix(t, env)
		f.bigqueryDataset(t)
		created := f.create(t, "Doomed", efPurchases())
		id := created["id"].(string)
		kept := f.create(t, "Kept", efPurchases())

		env.CreateUser(f.acme.TenantID, "vic", auth.RoleViewer)
		vh := apptest.JWT(env.Login("vic"), f.acme.TenantID, f.acme.ProjectID)
		apptest.ExpectError(t, env.Do("DELETE", "/api/event-criterias/"+id, nil, vh), 403, "Required permissions: event-criteria:delete")

		res := env.Do("DELETE", "/api/event-criterias/"+id, nil, f.h)
		if res.Status != 204 || len(res.Body) != 0 {
			t.Fatalf("DELETE = %d %q", res.Status, res.Body)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/event-criterias/"+id, nil, f.h), 404, efNotFound)
		apptest.ExpectError(t, env.Do("DELETE", "/api/event-criterias/"+id, nil, f.h), 404, efNotFound)
		apptest.ExpectError(t, env.Do("PATCH", "/api/event-criterias/"+id, map[string]any{"name": "X"}, f.h), 404, efNotFound)
		apptest.ExpectError(t, env.Do("GET", "/api/event-criterias/"+id+"/sql", nil, f.h), 404, efNotFound)
		list := arr(efStatus(t, env.Do("GET", "/api/event-criterias", nil, f.h), 200), "data")
		if len(list) != 1 || list[0]["id"] != kept["id"] {
			t.Fatalf("list after delete = %v", list)
		}

		// The trash holds it (one entry) and restores it with its blocks.
		trash := arr(efStatus(t, env.Do("GET", "/api/trash?kind=EVENT_CRITERIA", nil, f.th), 200), "data")
		if len(trash) != 1 || trash[0]["recordId"] != id || trash[0]["label"] != "Doomed" || trash[0]["projectId"] != f.acme.ProjectID.String() ||
			trash[0]["deletedBy"] != f.acme.UserID.String() {
			t.Fatalf("trash = %v", trash)
		}
		efStatus(t, env.Do("POST", "/api/trash/"+trash[0]["id"].(string)+"/restore", nil, f.th), 200)
		restored := efStatus(t, env.Do("GET", "/api/event-criterias/"+id, nil, f.h), 200)
		created["updatedAt"] = restored["updatedAt"] // archiving and restoring are updates
		expectJSON(t, "restored", restored, created)
	})
}
