package rest_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/reten-io/reten/ent/eventfilter"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/demo"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/viewer"
)

// Event filter SQL, validation, catalog and previews over REST.

func TestEventFilterSQL(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newEFFix(t, env)
		f.bigqueryDataset(t)
		gen := func(body any) *apptest.Response {
			return env.Do("POST", "/api/event-criterias/generate-sql", body, f.h)
		}

		// 201 though nothing is created; parameterized by default; params and types only in that format.
		expectJSON(t, "default", efStatus(t, gen(map[string]any{"queryBlocks": efPurchases()}), 201), efParameterizedSQL)
		expectJSON(t, "parameterized", efStatus(t, gen(map[string]any{"queryBlocks": efPurchases(), "format": "parameterized"}), 201), efParameterizedSQL)
		literal := efStatus(t, gen(map[string]any{"queryBlocks": efPurchases(), "format": "literal"}), 201)
		expectKeys(t, "literal", literal, "format", "query", "finalCteName", "subjectColumn")
		expectJSON(t, "literal", literal, efLiteralSQL)
		// Deterministic: the same definition, the same bytes.
		first, second := gen(map[string]any{"queryBlocks": efPurchases()}), gen(map[string]any{"queryBlocks": efPurchases()})
		if string(first.Body) != string(second.Body) {
			t.Fatalf("generate-sql is not deterministic:\n%s\n%s", first.Body, second.Body)
		}

		// Stored: GET :id/sql compiles the same definition (200).
		id := f.create(t, "Purchases", efPurchases())["id"].(string)
		expectJSON(t, "stored", efStatus(t, env.Do("GET", "/api/event-criterias/"+id+"/sql", nil, f.h), 200), efParameterizedSQL)
		expectJSON(t, "stored literal", efStatus(t, env.Do("GET", "/api/event-criterias/"+id+"/sql?format=literal", nil, f.h), 200), efLiteralSQL)
		apptest.ExpectError(t, env.Do("GET", "/api/event-criterias/"+id+"/sql?format=LITERAL", nil, f.h), 400, []string{efFormatMsg})
		apptest.ExpectError(t, env.Do("GET", "/api/event-criterias/not-a-uuid/sql", nil, f.h), 400, efUUIDExpected)

		// DTO: strict body, name/description are not part of it, format and shape together.
		apptest.ExpectError(t, gen(map[string]any{"queryBlocks": efPurchases(), "name": "X"}), 400, []string{"property name should not exist"})
		apptest.ExpectError(t, gen(map[string]any{"queryBlocks": efPurchases(), "description": nil}), 400, []string{"property description should not exist"})
		apptest.ExpectError(t, gen(map[string]any{}), 400, []string{"queryBlocks should not be empty"})
		apptest.ExpectError(t, gen(map[string]any{"queryBlocks": []any{}}), 400, []string{"queryBlocks should not be empty"})
		apptest.ExpectError(t, gen(map[string]any{"queryBlocks": efPurchases(), "format": "sql"}), 400, []string{efFormatMsg})
		apptest.ExpectError(t, gen(map[string]any{"queryBlocks": efPurchases(), "format": 1}), 400, []string{efFormatMsg})
		apptest.ExpectError(t, gen(map[string]any{"queryBlocks": []any{}, "format": "x"}), 400, []string{efFormatMsg, "queryBlocks should not be empty"})
		inFirst := efBlock(0, nil, nil)
		inFirst["timeWindow"] = map[string]any{"timeOperator": "IN_THE_FIRST", "unit": "WEEKS", "value": 2}
		apptest.ExpectError(t, gen(map[string]any{"queryBlocks": []any{inFirst}}), 400, []string{efInTheFirst})
		apptest.ExpectError(t, gen(map[string]any{"queryBlocks": []any{efBlock(0, nil, efPred("BETWEEN", efCol("events", "value"), []any{1}))}}), 400,
			[]string{"queryBlocks[0].where.value: value must be an array of exactly two values for BETWEEN"})

		// A stored definition is validated against the current catalog before compiling.
		cat := demo.Catalog()
		for i := range cat.Tables {
			if cat.Tables[i].Name == demo.TableEvents {
				cat.Tables[i].Columns = slices.DeleteFunc(cat.Tables[i].Columns, func(c qb.Column) bool { return c.Name == "attributes" })
			}
		}
		efStatus(t, env.Do("PUT", "/api/tenant-dataset/catalog", catalogBody(cat), f.th), 200)
		apptest.ExpectError(t, env.Do("GET", "/api/event-criterias/"+id+"/sql", nil, f.h), 400,
			[]string{"queryBlocks[0].where.children[2].column: column attributes does not exist in table events"})
	})
}

func TestEventFilterValidateFromBody(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newEFFix(t, env)
		validate := func(body any) *apptest.Response {
			return env.Do("POST", "/api/event-criterias/validate-from-body", body, f.h)
		}
		apptest.ExpectError(t, validate(map[string]any{"queryBlocks": efPurchases()}), 404, efNoDataset)
		f.bigqueryDataset(t)

		expectJSON(t, "valid", efStatus(t, validate(map[string]any{"queryBlocks": efPurchases()}), 201), map[string]any{"valid": true, "errors": []any{}})
		bad := efBlock(0, "UNION_ALL", efAnd(efPred("IN", efCol("events", "platform"), []any{}), efPred("EQUALS", efCol("events", "quantity"), "2")))
		bad["timeWindow"] = map[string]any{"timeOperator": "IN_THE_FIRST", "unit": "DAYS", "value": 1}
		expectJSON(t, "invalid", efStatus(t, validate(map[string]any{"queryBlocks": []any{bad}}), 201), map[string]any{"valid": false, "errors": []any{
			map[string]any{"path": "queryBlocks[0].setOperator", "message": "setOperator must be null on the first block (order 0)"},
			map[string]any{"path": "queryBlocks[0].timeWindow.timeOperator", "message": efInTheFirst},
			map[string]any{"path": "queryBlocks[0].where.children[0].value", "message": "value must be a non-empty array for IN"},
			map[string]any{"path": "queryBlocks[0].where.children[1].value", "message": "value must be an integer between -9223372036854775808 and 9223372036854775807 (INT64)"},
		}})
		// Shape issues are errors of the answer too.
		expectJSON(t, "shape", efStatus(t, validate(map[string]any{"queryBlocks": []any{map[string]any{"order": 0, "from": map[string]any{"table": "events"}}}}), 201),
			map[string]any{"valid": false, "errors": []any{map[string]any{"path": "queryBlocks[0].select", "message": "select should not be null or undefined"}}})

		// Only a body that is no definition at all is a 400.
		apptest.ExpectError(t, validate(map[string]any{}), 400, []string{"queryBlocks should not be empty"})
		apptest.ExpectError(t, validate(map[string]any{"queryBlocks": []any{}}), 400, []string{"queryBlocks should not be empty"})
		apptest.ExpectError(t, validate(map[string]any{"queryBlocks": "x"}), 400, []string{"queryBlocks must be an array"})
		apptest.ExpectError(t, validate(map[string]any{"queryBlocks": efPurchases(), "format": "literal"}), 400, []string{"property format should not exist"})
	})
}

func TestEventFilterCatalogRoutes(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newEFFix(t, env)
		apptest.ExpectError(t, env.Do("GET", "/api/event-criterias/tables", nil, f.h), 404, efNoDataset)
		apptest.ExpectError(t, env.Do("GET", "/api/event-criterias/tables/events/columns", nil, f.h), 404, efNoDataset)
		f.bigqueryDataset(t)

		var tables []map[string]any
		res := env.Do("GET", "/api/event-criterias/tables", nil, f.h)
		if res.Status != 200 {
			t.Fatalf("tables: %d %s", res.Status, res.Body)
		}
		res.JSON(t, &tables)
		var got []string
		for _, tb := range tables {
			expectKeys(t, "table", tb, "name", "description", "purpose", "defaultTimeReferenceColumn")
			got = append(got, fmt.Sprintf("%s/%s/%s", tb["name"], tb["purpose"], tb["defaultTimeReferenceColumn"]))
		}
		if want := []string{"commerces/SUBJECTS/created_at", "events/EVENTS/event_timestamp", "product_properties/PRODUCTS/launched_at",
			"transactions/TRANSACTIONS/transacted_at"}; !slices.Equal(got, want) {
			t.Fatalf("tables = %v", got)
		}
		if tables[1]["description"] != "Behavioural events of the commerces in the ordering app, the web shop and the sales-rep tool." {
			t.Fatalf("events = %v", tables[1])
		}

		cols := efStatus(t, env.Do("GET", "/api/event-criterias/tables/events/columns", nil, f.h), 200)
		expectKeys(t, "columns", cols, "table", "columns", "semiJoins")
		expectJSON(t, "semiJoins", cols["semiJoins"], []any{map[string]any{"name": "products", "toTable": "product_properties",
			"on": []any{map[string]any{"left": "items.product_id", "right": "product_id"}}}})
		columns := arr(cols, "columns")
		var names []string
		for _, c := range columns {
			expectKeys(t, "column", c, "name", "type", "isRepeated", "description", "subFields") // no audience flags
			names = append(names, c["name"].(string))
		}
		if want := []string{"event_id", "commerce_id", "event_name", "event_timestamp", "platform", "session_id", "value", "quantity", "attributes", "items"}; !slices.Equal(names, want) {
			t.Fatalf("columns = %v", names)
		}
		expectJSON(t, "attributes", columns[8], map[string]any{"name": "attributes", "type": "RECORD", "isRepeated": true,
			"description": "Free key/value attributes of the event (utm_source, screen, payment_method...).", "subFields": []any{
				map[string]any{"name": "key", "type": "STRING", "isRepeated": false, "description": "Attribute name.", "subFields": []any{}},
				map[string]any{"name": "value", "type": "STRING", "isRepeated": false, "description": "Attribute value.", "subFields": []any{}}}})
		expectJSON(t, "commerce_id", columns[1], map[string]any{"name": "commerce_id", "type": "STRING", "isRepeated": false,
			"description": "Commerce that produced the event.", "subFields": []any{}})
		expectJSON(t, "no semi-joins", efStatus(t, env.Do("GET", "/api/event-criterias/tables/commerces/columns", nil, f.h), 200)["semiJoins"], []any{})

		apptest.ExpectError(t, env.Do("GET", "/api/event-criterias/tables/nope/columns", nil, f.h), 404, "Table not found")
		apptest.ExpectError(t, env.Do("GET", "/api/event-criterias/tables/EVENTS/columns", nil, f.h), 404, "Table not found")
	})
}

// TestEventFilterWithoutDataset: every SQL, validation and preview route of
// a tenant without a dataset answers 404, after the filter itself is found.
func TestEventFilterWithoutDataset(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newEFFix(t, env)
		// A filter stored while the tenant had no dataset (written directly: the service refuses to).
		ctx := viewer.NewContext(sys, &viewer.Viewer{TenantID: f.acme.TenantID})
		ef := env.App.DB.Client.EventFilter.Create().SetTenantID(f.acme.TenantID).SetProjectID(f.acme.ProjectID).SetName("Orphan").SaveX(ctx)
		if ef.ID.String() == "" || !env.App.DB.Client.EventFilter.Query().Where(eventfilter.ID(ef.ID)).ExistX(ctx) {
			t.Fatal("fixture filter not stored")
		}
		id := ef.ID.String()
		for _, c := range []struct {
			method, path string
			body         any
		}{
			{"POST", "/api/event-criterias", map[string]any{"name": "X", "queryBlocks": efPurchases()}},
			{"PATCH", "/api/event-criterias/" + id, map[string]any{"queryBlocks": efPurchases()}},
			{"POST", "/api/event-criterias/generate-sql", map[string]any{"queryBlocks": efPurchases()}},
			{"GET", "/api/event-criterias/" + id + "/sql", nil},
			{"POST", "/api/event-criterias/validate-from-body", map[string]any{"queryBlocks": efPurchases()}},
			{"POST", "/api/event-criterias/preview-from-body", map[string]any{"queryBlocks": efPurchases()}},
			{"POST", "/api/event-criterias/" + id + "/preview", nil},
			{"GET", "/api/event-criterias/tables", nil},
			{"GET", "/api/event-criterias/tables/events/columns", nil},
		} {
			apptest.ExpectError(t, env.Do(c.method, c.path, c.body, f.h), 404, efNoDataset)
		}
		// The filter itself still reads and renames (no definition to check).
		efStatus(t, env.Do("GET", "/api/event-criterias/"+id, nil, f.h), 200)
		efStatus(t, env.Do("PATCH", "/api/event-criterias/"+id, map[string]any{"name": "Renamed"}, f.h), 200)
	})
}
