package graph_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
)

// Event filters over GraphQL: the same service methods, rules and messages as REST.

const efGraphInTheFirst = "timeWindow IN_THE_FIRST is not supported: the catalog does not declare a lifetime origin."

// efGraphBlock is a block over events selecting event_id and value, at
// order (setOperator null on order 0), with an optional where.
func efGraphBlock(order int, where any) M {
	var op any
	if order > 0 {
		op = "UNION_ALL"
	}
	return M{"order": order, "setOperator": op, "from": M{"table": "events"},
		"select": M{"items": L{M{"kind": "column", "column": M{"table": "events", "column": "event_id"}},
			M{"kind": "column", "column": M{"table": "events", "column": "value"}, "alias": "amount"}}},
		"where": where}
}

// efGraphPredOut is efGraphPred as a stored FilterPredicate presents it
// below the top of a tree (qbNode selects no aggregate there).
func efGraphPredOut(op, column string, v any) M {
	return M{"comparisonOperator": op, "column": M{"table": "events", "column": column}, "field": nil, "value": v}
}

func efGraphPred(op, column string, v any) M {
	return qbPred("events", op, column, v)
}

var efGraphDetail = `id name description conditionCount ownerID updatedBy
	queryBlocks { id order setOperator ` + qbClauses + ` }`

func TestEventFiltersOverGraphQL(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		token := env.Login(acme.Email)
		h := apptest.JWT(token, acme.TenantID, acme.ProjectID)
		create := `mutation($n: String!, $d: String, $b: [QueryBlockInput!]!) { createEventFilter(input: {name: $n, description: $d, queryBlocks: $b}) { ` + efGraphDetail + ` } }`

		// Without a dataset the definition cannot be checked.
		expectFieldError(t, env.GraphQL(create, M{"n": "X", "b": L{efGraphBlock(0, nil)}}, h), "createEventFilter", "Tenant dataset not configured", "NOT_FOUND", 404)
		expectFieldError(t, env.GraphQL(`{ eventFilterTables { name } }`, nil, h), "eventFilterTables", "Tenant dataset not configured", "NOT_FOUND", 404)
		db, prefix := auGraphDataset(t, env, acme.TenantID)

		// Create: blocks come back ordered, clauses normalized, conditionCount counted.
		grouped := M{"order": 1, "setOperator": "UNION_ALL", "from": M{"table": "events"},
			"select": M{"items": L{M{"kind": "column", "column": M{"table": "events", "column": "event_id"}},
				M{"kind": "aggregate", "aggregate": M{"operator": "MAX", "operand": M{"column": M{"table": "events", "column": "value"}}}, "alias": "amount"}}},
			"timeWindow": M{"timeOperator": "IN_THE_LAST", "unit": "DAYS", "value": 30},
			"groupBy":    L{M{"table": "events", "column": "event_id"}},
			"having":     M{"predicate": M{"comparisonOperator": "GREATER_THAN", "field": "amount", "value": 1}}}
		first := efGraphBlock(0, qbGroup("OR", efGraphPred("EQUALS", "event_name", "purchase"), efGraphPred("IN", "platform", L{"ios", "web"})))
		out := gqlOK(t, env, h, create, M{"n": " Buyers ", "d": "desc", "b": L{grouped, first}})
		f := get(t, out, "createEventFilter").(M)
		id := f["id"].(string)
		blocks := f["queryBlocks"].([]any)
		if f["name"] != "Buyers" || f["description"] != "desc" || f["conditionCount"] != 2.0 || f["ownerID"] != acme.UserID.String() ||
			f["updatedBy"] != acme.UserID.String() || len(blocks) != 2 {
			t.Fatalf("created = %v", f)
		}
		b0, b1 := blocks[0].(M), blocks[1].(M)
		if b0["order"] != 0.0 || b1["order"] != 1.0 || b0["setOperator"] != nil || b1["setOperator"] != "UNION_ALL" {
			t.Fatalf("blocks out of order: %v", blocks)
		}
		if canon(t, b0["from"]) != canon(t, M{"table": "events", "joins": L{}, "unnests": L{}}) || b0["timeWindow"] != nil ||
			b0["groupBy"] != nil || b0["having"] != nil || canon(t, b0["where"]) != canon(t, M{"logicalOperator": "OR", "children": L{
			efGraphPredOut("EQUALS", "event_name", "purchase"), efGraphPredOut("IN", "platform", L{"ios", "web"})}}) {
			t.Fatalf("block 0 = %v", b0)
		}
		wantSelect := M{"distinct": false, "items": L{
			M{"kind": "column", "column": M{"table": "events", "column": "event_id"}, "aggregate": nil, "alias": nil},
			M{"kind": "aggregate", "column": nil, "aggregate": M{"operator": "MAX", "operand": M{"table": "events", "column": "value"}}, "alias": "amount"}}}
		if canon(t, b1["timeWindow"]) != canon(t, M{"timeOperator": "IN_THE_LAST", "reference": nil, "unit": "DAYS", "value": 30, "from": nil, "to": nil}) ||
			canon(t, b1["groupBy"]) != canon(t, grouped["groupBy"]) || canon(t, b1["select"]) != canon(t, wantSelect) ||
			canon(t, b1["having"]) != canon(t, M{"comparisonOperator": "GREATER_THAN", "column": nil, "field": "amount", "aggregate": nil, "value": 1}) {
			t.Fatalf("block 1 = %v", b1)
		}
		detail := gqlOK(t, env, h, `query($id: ID!) { eventFilter(id: $id) { `+efGraphDetail+` } }`, M{"id": id})
		if canon(t, get(t, detail, "eventFilter")) != canon(t, f) {
			t.Fatalf("eventFilter = %v\nwant %v", detail, f)
		}
		// Numbers written in the query itself (int64 for gqlgen) decode like JSON ones.
		inline := gqlOK(t, env, h, `mutation { createEventFilter(input: {name: "Inline", queryBlocks: [{order: 0, setOperator: null,
			from: {table: "events"}, select: {items: [{kind: column, column: {table: "events", column: "quantity"}}]},
			where: {predicate: {comparisonOperator: BETWEEN, column: {table: "events", column: "quantity"}, value: [2, 5]}}}]}) { id conditionCount } }`, nil)
		if get(t, inline, "createEventFilter", "conditionCount") != 1.0 {
			t.Fatalf("inline = %v", inline)
		}

		// Rules and messages of the service.
		expectInvalid(t, env.GraphQL(create, M{"n": "", "b": L{}}, h), "createEventFilter", "name should not be empty", "queryBlocks should not be empty")
		inFirst := efGraphBlock(0, nil)
		inFirst["timeWindow"] = M{"timeOperator": "IN_THE_FIRST", "unit": "DAYS", "value": 3}
		expectInvalid(t, env.GraphQL(create, M{"n": "X", "b": L{inFirst}}, h), "createEventFilter", efGraphInTheFirst)
		expectInvalid(t, env.GraphQL(create, M{"n": "X", "b": L{efGraphBlock(0, efGraphPred("EQUALS", "nope", "x"))}}, h), "createEventFilter",
			"queryBlocks[0].where.predicate.column: column nope does not exist in table events")

		// The connection: the active project's filters only.
		list := `query($w: EventFilterWhereInput) { eventFilters(where: $w, orderBy: {field: NAME}) { totalCount edges { node { name conditionCount projectID } } } }`
		names := func(h apptest.Headers, w any) []string {
			t.Helper()
			var out []string
			for _, e := range get(t, gqlOK(t, env, h, list, M{"w": w}), "eventFilters", "edges").([]any) {
				n := e.(M)["node"].(M)
				out = append(out, fmt.Sprintf("%s=%v", n["name"], n["conditionCount"]))
				if n["projectID"] != h["x-project-id"] {
					t.Fatalf("node of another project: %v", n)
				}
			}
			return out
		}
		if got := names(h, nil); !slices.Equal(got, []string{"Buyers=2", "Inline=1"}) {
			t.Fatalf("eventFilters = %v", got)
		}
		if got := names(h, M{"nameContainsFold": "BUY"}); !slices.Equal(got, []string{"Buyers=2"}) {
			t.Fatalf("filtered = %v", got)
		}
		p2 := newProject(t, env, acme.TenantID, "Second")
		h2 := apptest.JWT(token, acme.TenantID, p2)
		if got := names(h2, nil); len(got) != 0 {
			t.Fatalf("second project sees %v", got)
		}
		expectFieldError(t, env.GraphQL(`query($id: ID!) { eventFilter(id: $id) { id } }`, M{"id": id}, h2), "eventFilter", "Event criteria not found", "NOT_FOUND", 404)
		beta := env.Bootstrap("Beta")
		bh := apptest.JWT(env.Login(beta.Email), beta.TenantID, beta.ProjectID)
		expectFieldError(t, env.GraphQL(`query($id: ID!) { eventFilter(id: $id) { id } }`, M{"id": id}, bh), "eventFilter", "Event criteria not found", "NOT_FOUND", 404)
		expectFieldError(t, env.GraphQL(`{ eventFilters { totalCount } }`, nil, apptest.JWT(token, acme.TenantID, uuid.Nil)),
			"eventFilters", "Falta el header obligatorio x-project-id.", "BAD_REQUEST", 400)

		// Update: PATCH semantics.
		update := `mutation($id: ID!, $in: UpdateEventFilterInput!) { updateEventFilter(id: $id, input: $in) { ` + efGraphDetail + ` } }`
		renamed := get(t, gqlOK(t, env, h, update, M{"id": id, "in": M{"name": "Renamed", "clearDescription": true}}), "updateEventFilter").(M)
		if renamed["name"] != "Renamed" || renamed["description"] != nil || canon(t, renamed["queryBlocks"]) != canon(t, f["queryBlocks"]) {
			t.Fatalf("renamed = %v", renamed)
		}
		expectInvalid(t, env.GraphQL(update, M{"id": id, "in": M{"description": "x", "clearDescription": true}}, h), "updateEventFilter",
			"description and clearDescription cannot be sent together")
		expectInvalid(t, env.GraphQL(update, M{"id": id, "in": M{"name": "", "queryBlocks": L{}}}, h), "updateEventFilter",
			"name should not be empty", "queryBlocks should not be empty")
		expectInvalid(t, env.GraphQL(update, M{"id": id, "in": M{"queryBlocks": L{inFirst}}}, h), "updateEventFilter", efGraphInTheFirst)
		if kept := get(t, gqlOK(t, env, h, `query($id: ID!) { eventFilter(id: $id) { `+efGraphDetail+` } }`, M{"id": id}), "eventFilter"); canon(t, kept) != canon(t, renamed) {
			t.Fatalf("a failing replacement changed the filter: %v", kept)
		}
		replaced := get(t, gqlOK(t, env, h, update, M{"id": id, "in": M{"queryBlocks": L{first}}}), "updateEventFilter").(M)
		if nb := replaced["queryBlocks"].([]any); len(nb) != 1 || nb[0].(M)["id"] == b0["id"] || nb[0].(M)["id"] == b1["id"] {
			t.Fatalf("replaced = %v", replaced)
		}
		expectFieldError(t, env.GraphQL(update, M{"id": uuid.NewString(), "in": M{"name": "X"}}, h), "updateEventFilter", "Event criteria not found", "NOT_FOUND", 404)

		// SQL: the same IEventCriteriaSql as REST.
		for _, format := range []string{"parameterized", "literal"} {
			rest := env.Do("GET", "/api/event-criterias/"+id+"/sql?format="+format, nil, h)
			var want M
			rest.JSON(t, &want)
			got := gqlOK(t, env, h, `query($id: ID!, $f: SQLFormat) { eventFilterSQL(id: $id, format: $f) { format query finalCteName subjectColumn params types } }`,
				M{"id": id, "f": format})
			if format == "literal" {
				want["params"], want["types"] = nil, nil
			}
			if canon(t, get(t, got, "eventFilterSQL")) != canon(t, want) {
				t.Fatalf("%s: eventFilterSQL = %v\nREST %v", format, got, want)
			}
			gen := gqlOK(t, env, h, `query($b: [QueryBlockInput!]!, $f: SQLFormat) { generateEventFilterSQL(queryBlocks: $b, format: $f) { format query finalCteName subjectColumn params types } }`,
				M{"b": L{first}, "f": format})
			if canon(t, get(t, gen, "generateEventFilterSQL")) != canon(t, want) {
				t.Fatalf("%s: generateEventFilterSQL = %v\nREST %v", format, gen, want)
			}
		}
		// format is an enum: the schema refuses other values.
		expectBody(t, env.GraphQL(`query($id: ID!) { eventFilterSQL(id: $id, format: "sql") { query } }`, M{"id": id}, h), http.StatusUnprocessableEntity,
			M{"data": nil, "errors": L{M{"message": `Enum "SQLFormat" cannot represent non-enum value: "sql".`, "locations": L{M{"line": 1, "column": 52}},
				"extensions": M{"code": "GRAPHQL_VALIDATION_FAILED"}}}})

		// Validation result.
		expectData(t, env.GraphQL(`query($b: [QueryBlockInput!]!) { validateEventFilter(queryBlocks: $b) { valid errors { path message } } }`, M{"b": L{inFirst}}, h),
			M{"validateEventFilter": M{"valid": false, "errors": L{M{"path": "queryBlocks[0].timeWindow.timeOperator", "message": efGraphInTheFirst}}}})
		expectData(t, env.GraphQL(`query($b: [QueryBlockInput!]!) { validateEventFilter(queryBlocks: $b) { valid errors { path message } } }`, M{"b": L{first}}, h),
			M{"validateEventFilter": M{"valid": true, "errors": L{}}})

		// Preview: a stored filter or a definition, on the dataset (postgres schema or sqlite file).
		counted := L{M{"order": 0, "setOperator": nil, "from": M{"table": "events"},
			"select": M{"items": L{M{"kind": "column", "column": M{"table": "events", "column": "platform"}},
				M{"kind": "aggregate", "aggregate": M{"operator": "COUNT", "operand": M{"star": true}}, "alias": "n"}}},
			"where": efGraphPred("EQUALS", "event_name", "purchase"), "groupBy": L{M{"table": "events", "column": "platform"}}}}
		preview := `query($id: ID, $b: [QueryBlockInput!], $l: Int) { previewEventFilter(id: $id, queryBlocks: $b, limit: $l) { columns rows rowCount elapsedMs } }`
		p := get(t, gqlOK(t, env, h, preview, M{"b": counted, "l": 100}), "previewEventFilter").(M)
		var got []string
		for _, r := range p["rows"].([]any) {
			got = append(got, fmt.Sprint(r.([]any)...))
		}
		slices.Sort(got)
		rows, err := db.Query(`SELECT platform, COUNT(*) FROM ` + prefix + `events WHERE event_name = 'purchase' GROUP BY platform`)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for rows.Next() {
			var platform string
			var n int64
			if err := rows.Scan(&platform, &n); err != nil {
				t.Fatal(err)
			}
			want = append(want, fmt.Sprint(platform, float64(n)))
		}
		_ = rows.Close()
		slices.Sort(want)
		if canon(t, p["columns"]) != canon(t, L{"platform", "n"}) || p["rowCount"] != float64(len(want)) || len(want) == 0 || !slices.Equal(got, want) {
			t.Fatalf("preview = %v (rows %v)\nwant rows %v", p, got, want)
		}
		stored := get(t, gqlOK(t, env, h, preview, M{"id": id, "l": 2}), "previewEventFilter").(M)
		if canon(t, stored["columns"]) != canon(t, L{"event_id", "amount"}) || stored["rowCount"] != 2.0 {
			t.Fatalf("stored preview = %v", stored)
		}
		expectInvalid(t, env.GraphQL(preview, M{"id": id, "b": counted}, h), "previewEventFilter", "previewEventFilter needs exactly one of id and queryBlocks")
		expectInvalid(t, env.GraphQL(preview, nil, h), "previewEventFilter", "previewEventFilter needs exactly one of id and queryBlocks")
		expectInvalid(t, env.GraphQL(preview, M{"id": id, "l": 0}, h), "previewEventFilter", "limit must not be less than 1")
		expectInvalid(t, env.GraphQL(preview, M{"id": id, "l": 101}, h), "previewEventFilter", "limit must not be greater than 100")

		// Catalog.
		tables := gqlOK(t, env, h, `{ eventFilterTables { name purpose defaultTimeReferenceColumn } }`, nil)
		if canon(t, get(t, tables, "eventFilterTables", 1)) != canon(t, M{"name": "events", "purpose": "EVENTS", "defaultTimeReferenceColumn": "event_timestamp"}) {
			t.Fatalf("tables = %v", tables)
		}
		cols := gqlOK(t, env, h, `{ eventFilterColumns(table: "events") { table columns { name type isRepeated subFields { name type } } semiJoins { name toTable on { left right } } } }`, nil)
		if canon(t, get(t, cols, "eventFilterColumns", "semiJoins")) != canon(t, L{M{"name": "products", "toTable": "product_properties",
			"on": L{M{"left": "items.product_id", "right": "product_id"}}}}) ||
			canon(t, get(t, cols, "eventFilterColumns", "columns", 9)) != canon(t, M{"name": "items", "type": "RECORD", "isRepeated": true,
				"subFields": L{M{"name": "product_id", "type": "STRING"}, M{"name": "quantity", "type": "INT64"}, M{"name": "price", "type": "FLOAT64"}}}) {
			t.Fatalf("columns = %v", cols)
		}
		expectFieldError(t, env.GraphQL(`{ eventFilterColumns(table: "nope") { table } }`, nil, h), "eventFilterColumns", "Table not found", "NOT_FOUND", 404)

		// Delete archives: gone from the graph, in the trash.
		expectData(t, env.GraphQL(`mutation($id: ID!) { deleteEventFilter(id: $id) }`, M{"id": id}, h), M{"deleteEventFilter": true})
		expectFieldError(t, env.GraphQL(`mutation($id: ID!) { deleteEventFilter(id: $id) }`, M{"id": id}, h), "deleteEventFilter", "Event criteria not found", "NOT_FOUND", 404)
		expectFieldError(t, env.GraphQL(`query($id: ID!) { eventFilter(id: $id) { id } }`, M{"id": id}, h), "eventFilter", "Event criteria not found", "NOT_FOUND", 404)
		if trashOf(t, env, apptest.JWT(token, acme.TenantID, uuid.Nil), id, "EVENT_CRITERIA") == "" {
			t.Fatal("no trash record for the deleted filter")
		}
		if got := names(h, nil); !slices.Equal(got, []string{"Inline=1"}) {
			t.Fatalf("after delete = %v", got)
		}
	})
}
