package graph_test

import (
	"testing"

	"github.com/reten-io/reten/internal/apptest"
)

// TestQueryBlocksTypedOverGraphQL: every node and operand kind goes in as a
// typed input and comes back as its typed output; a broken rule inside a
// @oneOf member is reported at the GraphQL path (the wrapper member named),
// with REST's message; a @oneOf input with other than one member is a 400.
func TestQueryBlocksTypedOverGraphQL(t *testing.T) {
	eachAcme(t, func(t *testing.T, env *apptest.Env, acme apptest.Tenant, h apptest.Headers) {
		h = h.With("x-project-id", acme.ProjectID.String())
		auGraphDataset(t, env, acme.TenantID)
		col := func(column string) M { return M{"table": "events", "column": column} }
		field := func(op, name string, v any) M {
			return M{"predicate": M{"comparisonOperator": op, "field": name, "value": v}}
		}
		// SUM(quantity * 2 + value), COUNT(*), a record predicate and a semi-join.
		sum := M{"operator": "SUM", "operand": M{"arithmetic": M{"operator": "ADD",
			"left":  M{"arithmetic": M{"operator": "MULTIPLY", "left": M{"column": col("quantity")}, "right": M{"number": 2}}},
			"right": M{"column": col("value")}}}}
		block := M{"order": 0, "from": M{"table": "events"},
			"select": M{"items": L{M{"kind": "column", "column": col("platform")},
				M{"kind": "aggregate", "aggregate": sum, "alias": "weighted"},
				M{"kind": "aggregate", "aggregate": M{"operator": "COUNT", "operand": M{"star": true}}, "alias": "n"}}},
			"timeWindow": M{"timeOperator": "BETWEEN", "reference": col("event_timestamp"), "from": "2025-01-01T00:00:00Z", "to": "2026-01-01T00:00:00Z"},
			"where": qbGroup("AND",
				M{"recordPredicate": M{"column": col("items"), "subWhere": qbGroup("AND", field("GREATER_THAN", "quantity", 1))}},
				M{"semiJoinPredicate": M{"table": "events", "semiJoin": "products", "subWhere": qbGroup("AND", field("EQUALS", "is_private_label", true))}}),
			"groupBy": L{col("platform")},
			"having":  field("GREATER_THAN", "n", 0)}
		out := gqlOK(t, env, h, `mutation($b: [QueryBlockInput!]!) { createEventFilter(input: {name: "Typed", queryBlocks: $b}) {
			conditionCount queryBlocks { `+qbClauses+` } } }`, M{"b": L{block}})
		f := get(t, out, "createEventFilter").(M)
		nested := func(op, name string, v any) M { // qbNode selects no aggregate below the top
			return M{"comparisonOperator": op, "column": nil, "field": name, "value": v}
		}
		if f["conditionCount"] != 2.0 {
			t.Fatalf("conditionCount = %v", f["conditionCount"])
		}
		b := get(t, f, "queryBlocks", 0).(M)
		want := M{
			"from": M{"table": "events", "joins": L{}, "unnests": L{}},
			"select": M{"distinct": false, "items": L{
				M{"kind": "column", "column": col("platform"), "aggregate": nil, "alias": nil},
				M{"kind": "aggregate", "column": nil, "alias": "weighted", "aggregate": M{"operator": "SUM", "operand": M{"operator": "ADD",
					"left":  M{"operator": "MULTIPLY", "left": col("quantity"), "right": M{"number": 2}},
					"right": col("value")}}},
				M{"kind": "aggregate", "column": nil, "alias": "n", "aggregate": M{"operator": "COUNT", "operand": M{"star": true}}}}},
			"timeWindow": M{"timeOperator": "BETWEEN", "reference": col("event_timestamp"), "unit": nil, "value": nil,
				"from": "2025-01-01T00:00:00Z", "to": "2026-01-01T00:00:00Z"},
			"where": M{"logicalOperator": "AND", "children": L{
				M{"column": col("items"), "subWhere": M{"logicalOperator": "AND", "children": L{nested("GREATER_THAN", "quantity", 1)}}},
				M{"table": "events", "semiJoin": "products", "subWhere": M{"logicalOperator": "AND", "children": L{
					nested("EQUALS", "is_private_label", true)}}}}},
			"groupBy": L{col("platform")},
			"having":  M{"comparisonOperator": "GREATER_THAN", "column": nil, "field": "n", "aggregate": nil, "value": 0},
		}
		if canon(t, b) != canon(t, want) {
			t.Fatalf("block = %s\nwant    %s", canon(t, b), canon(t, want))
		}

		// Paths name the @oneOf members; the messages are REST's.
		validate := `query($b: [QueryBlockInput!]!) { validateEventFilter(queryBlocks: $b) { valid errors { path message } } }`
		bad := M{"order": 0, "from": M{"table": "events"},
			"select": M{"items": L{M{"kind": "aggregate", "alias": "s", "aggregate": M{"operator": "SUM", "operand": M{"arithmetic": M{"operator": "ADD",
				"left": M{"column": col("platform")}, "right": M{"number": 1}}}}}}},
			"where": qbGroup("OR", qbPred("events", "EQUALS", "event_name", "purchase"), qbPred("events", "EQUALS", "nope", "x"))}
		rest := env.Do("POST", "/api/event-criterias/validate-from-body", `{"queryBlocks":[{"order":0,"from":{"table":"events"},
			"select":{"items":[{"kind":"aggregate","alias":"s","aggregate":{"operator":"SUM","operand":{"operator":"ADD","left":{"table":"events","column":"platform"},"right":1}}}]},
			"where":{"kind":"group","logicalOperator":"OR","children":[
				{"kind":"predicate","comparisonOperator":"EQUALS","column":{"table":"events","column":"event_name"},"value":"purchase"},
				{"kind":"predicate","comparisonOperator":"EQUALS","column":{"table":"events","column":"nope"},"value":"x"}]}}]}`, h).Map(t)
		restErrs := rest["errors"].([]any)
		if len(restErrs) != 2 {
			t.Fatalf("REST validate = %v", rest)
		}
		msg := func(i int) string { return restErrs[i].(M)["message"].(string) }
		if p := restErrs[0].(M)["path"]; p != "queryBlocks[0].select.items[0].aggregate.operand.left" {
			t.Fatalf("REST path = %v", p)
		}
		expectData(t, env.GraphQL(validate, M{"b": L{bad}}, h), M{"validateEventFilter": M{"valid": false, "errors": L{
			M{"path": "queryBlocks[0].select.items[0].aggregate.operand.arithmetic.left.column", "message": msg(0)},
			M{"path": "queryBlocks[0].where.group.children[1].predicate.column", "message": msg(1)}}}})
		expectInvalid(t, env.GraphQL(`mutation($b: [QueryBlockInput!]!) { createEventFilter(input: {name: "Bad", queryBlocks: $b}) { id } }`, M{"b": L{bad}}, h),
			"createEventFilter", "queryBlocks[0].select.items[0].aggregate.operand.arithmetic.left.column: "+msg(0),
			"queryBlocks[0].where.group.children[1].predicate.column: "+msg(1))

		// A @oneOf input sent through variables with two members, or none.
		two := M{"order": 0, "from": M{"table": "events"}, "select": M{"items": L{M{"kind": "column", "column": col("platform")}}},
			"where": M{"predicate": M{"comparisonOperator": "IS_NULL", "column": col("value")}, "group": M{"logicalOperator": "AND", "children": L{}}}}
		expectInvalid(t, env.GraphQL(validate, M{"b": L{two}}, h), "validateEventFilter",
			"queryBlocks[0].where: FilterNodeInput must have exactly one of group, predicate, recordPredicate, semiJoinPredicate")
		none := M{"order": 0, "from": M{"table": "events"}, "select": M{"items": L{M{"kind": "aggregate", "alias": "n",
			"aggregate": M{"operator": "COUNT", "operand": M{"star": false}}}}}}
		expectInvalid(t, env.GraphQL(validate, M{"b": L{none}}, h), "validateEventFilter", "queryBlocks[0].select.items[0].aggregate.operand.star: star must be true")
	})
}
