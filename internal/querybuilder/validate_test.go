package querybuilder

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// ev is a valid event filter block over events selecting event_id; tests
// change one thing at a time.
func ev(mut func(*qb)) qb {
	b := qb{table: "events", items: evID}
	if mut != nil {
		mut(&b)
	}
	return b
}

// au is a valid audience block over commerces selecting commerce_id.
func au(mut func(*qb)) qb {
	b := qb{table: "commerces", items: []string{ci("commerces", "commerce_id", "")}}
	if mut != nil {
		mut(&b)
	}
	return b
}

func where(w string) func(*qb) { return func(b *qb) { b.where = w } }

type validationCase struct {
	name string
	kind Kind
	def  string
	want []Issue
}

func issue(path, msg string) Issue { return Issue{Path: path, Message: msg} }

func nest(depth int) string {
	s := pr("events", "platform", "EQUALS", "ios")
	for i := 0; i < depth; i++ {
		s = grp("AND", s)
	}
	return s
}

func record(column, sub string) string {
	return `{"kind":"recordPredicate","column":` + ref("events", column) + `,"subWhere":` + sub + `}`
}

func semi(table, name, sub string) string {
	return `{"kind":"semiJoinPredicate","table":"` + table + `","semiJoin":"` + name + `","subWhere":` + sub + `}`
}

func validationCases() []validationCase {
	const q0 = "queryBlocks[0]"
	return []validationCase{
		// definition
		{"empty definition", EventFilter, `[]`, []Issue{issue("queryBlocks", MsgEmptyDefinition)}},
		{"order out of range", EventFilter, blocks(ev(nil), ev(func(b *qb) { b.order, b.setOp = 5, "UNION_ALL" })),
			[]Issue{issue("queryBlocks[1].order", "order must be between 0 and 1: blocks are numbered 0..n-1")}},
		{"duplicate order", EventFilter, blocks(ev(nil), ev(nil)),
			[]Issue{issue("queryBlocks[1].order", "order 0 is used by more than one block")}},
		{"first block with set operator", EventFilter, blocks(ev(func(b *qb) { b.setOp = "UNION_ALL" })),
			[]Issue{issue(q0+".setOperator", "setOperator must be null on the first block (order 0)")}},
		{"later block without set operator", EventFilter, blocks(ev(nil), ev(func(b *qb) { b.order = 1 })),
			[]Issue{issue("queryBlocks[1].setOperator", "setOperator is required on every block after the first (order > 0)")}},
		{"unsorted blocks are fine", EventFilter, blocks(ev(func(b *qb) { b.order, b.setOp = 1, "UNION_DISTINCT" }), ev(nil)), nil},
		{"set operands of different width", EventFilter, blocks(ev(nil), ev(func(b *qb) {
			b.order, b.setOp, b.items = 1, "UNION_ALL", []string{ci("events", "event_id", ""), ci("events", "platform", "")}
		})), []Issue{issue("queryBlocks[1].select.items", "items must have as many items as the first block (1) to be combined with UNION_ALL")}},
		{"set operands of different types", EventFilter, blocks(ev(nil), ev(func(b *qb) {
			b.order, b.setOp, b.items = 1, "INTERSECT_DISTINCT", []string{ci("events", "quantity", "")}
		})), []Issue{issue("queryBlocks[1].select.items[0]", "items[0] is INT64 but the first block's item at that position is STRING; INTERSECT_DISTINCT combines items by position")}},
		{"numeric set operands combine", EventFilter, blocks(ev(func(b *qb) { b.items = []string{ci("events", "value", "")} }), ev(func(b *qb) {
			b.order, b.setOp, b.items = 1, "UNION_ALL", []string{ci("events", "quantity", "")}
		})), nil},
		{"record items with a distinct set operator", EventFilter, blocks(ev(func(b *qb) { b.items = []string{ci("events", "items", "")} }), ev(func(b *qb) {
			b.order, b.setOp, b.items = 1, "UNION_DISTINCT", []string{ci("events", "items", "")}
		})), []Issue{
			issue(q0+".select.items[0]", "a RECORD or repeated column cannot be selected when blocks are combined with UNION_DISTINCT or INTERSECT_DISTINCT"),
			issue("queryBlocks[1].select.items[0]", "a RECORD or repeated column cannot be selected when blocks are combined with UNION_DISTINCT or INTERSECT_DISTINCT"),
		}},
		{"audience without identity", Audience, blocks(au(func(b *qb) { b.items = []string{ci("commerces", "city", "")} })),
			[]Issue{issue("queryBlocks", "an audience must select an identity column (commerces.commerce_id, events.commerce_id, transactions.commerce_id) as a column select item in at least one block")}},
		{"audience identity in a later block", Audience, blocks(au(func(b *qb) { b.items = []string{ci("commerces", "city", "")} }),
			au(func(b *qb) { b.order, b.setOp = 1, "UNION_ALL" })), nil},

		// from
		{"unknown table", EventFilter, blocks(ev(func(b *qb) { b.table = "nope" })), []Issue{
			issue(q0+".from.table", "table nope does not exist in the catalog"),
			issue(q0+".select.items[0].column", "table events is not part of this block (from or joins)"),
		}},
		{"join errors", EventFilter, blocks(ev(func(b *qb) {
			b.joins = []string{
				`{"type":"INNER","table":"nope","on":[]}`,
				joinOn("LEFT", "events", ref("events", "commerce_id"), ref("events", "commerce_id")),
				joinOn("INNER", "commerces", ref("events", "quantity"), ref("commerces", "name")),
				joinOn("FULL", "transactions", ref("events", "commerce_id"), ref("commerces", "commerce_id")),
				joinOn("RIGHT", "product_properties", ref("events", "items"), ref("product_properties", "product_id")),
				joinOn("LEFT", "page_views", ref("ledger", "entry_id"), ref("page_views", "nope")),
			}
		})), []Issue{
			issue(q0+".from.joins[0].table", "table nope does not exist in the catalog"),
			issue(q0+".from.joins[0].on", "on should not be empty"),
			issue(q0+".from.joins[1].table", "table events appears more than once in this block"),
			issue(q0+".from.joins[1].on[0]", "on must compare a column of the joined table events with a column of a table before it"),
			issue(q0+".from.joins[2].on[0]", "on compares events.quantity (INT64) with commerces.name (STRING)"),
			issue(q0+".from.joins[3].on[0]", "on must compare a column of the joined table transactions with a column of a table before it"),
			issue(q0+".from.joins[4].on[0]", "join conditions compare scalar columns; RECORD and repeated columns cannot be joined on"),
			issue(q0+".from.joins[5].on[0].left", "table ledger is not part of this block (from or joins)"),
			issue(q0+".from.joins[5].on[0].right", "column nope does not exist in table page_views"),
		}},
		{"unknown join type", EventFilter, blocks(ev(func(b *qb) {
			b.joins = []string{joinOn("CROSS", "commerces", ref("events", "commerce_id"), ref("commerces", "commerce_id"))}
		})), []Issue{issue(q0+".from.joins[0].type", "type must be one of the following values: INNER, LEFT, RIGHT, FULL")}},
		{"audience unnests", Audience, blocks(qb{table: "events", unnests: []string{ref("events", "items")}, items: []string{ci("events", "commerce_id", "")}}),
			[]Issue{issue(q0+".from.unnests", "unnests must be empty in an audience")}},
		{"unnest errors", EventFilter, blocks(ev(func(b *qb) {
			b.unnests = []string{ref("events", "platform"), ref("events", "items"), ref("events", "items"), ref("commerces", "x")}
		})), []Issue{
			issue(q0+".from.unnests[0]", "column events.platform is not a RECORD column and cannot be unnested"),
			issue(q0+".from.unnests[2]", "column events.items is unnested more than once"),
			issue(q0+".from.unnests[3]", "table commerces is not part of this block (from or joins)"),
		}},

		// select
		{"no select items", EventFilter, blocks(ev(func(b *qb) { b.items = nil })), []Issue{issue(q0+".select.items", "items should not be empty")}},
		{"select item errors", EventFilter, blocks(ev(func(b *qb) {
			b.items = []string{
				ci("events", "nope", ""), ci("events", "items.price", ""), ci("events", "platform", "9bad"),
				ai("COUNT", `"*"`, ""), ci("events", "event_name", ""), ci("events", "event_id", "event_name"),
			}
		})), []Issue{
			issue(q0+".select.items[0].column", "column nope does not exist in table events"),
			issue(q0+".select.items[1].column", "column items.price reaches into record events.items, which this block does not unnest"),
			issue(q0+".select.items[2].alias", "alias must start with a letter or an underscore and contain only letters, digits and underscores (at most 128 characters)"),
			issue(q0+".select.items[3].alias", "alias is required for aggregate select items"),
			issue(q0+".select.items[5].alias", "output column event_name is also produced by items[4]; give each select item a distinct alias"),
			issue(q0+".select.items[0].column", "column events.nope must be listed in groupBy because the block selects aggregates"),
			issue(q0+".select.items[1].column", "column events.items.price must be listed in groupBy because the block selects aggregates"),
			issue(q0+".select.items[2].column", "column events.platform must be listed in groupBy because the block selects aggregates"),
			issue(q0+".select.items[4].column", "column events.event_name must be listed in groupBy because the block selects aggregates"),
			issue(q0+".select.items[5].column", "column events.event_id must be listed in groupBy because the block selects aggregates"),
		}},
		{"duplicate output names are case-insensitive", EventFilter, blocks(ev(func(b *qb) {
			b.items = []string{ci("events", "event_id", "X"), ci("events", "platform", "x")}
		})), []Issue{issue(q0+".select.items[1].alias", "output column x is also produced by items[0]; give each select item a distinct alias")}},
		{"record column with distinct", EventFilter, blocks(ev(func(b *qb) { b.distinct, b.items = true, []string{ci("events", "attributes", "")} })),
			[]Issue{issue(q0+".select.items[0].column", "a RECORD or repeated column cannot be selected with distinct or groupBy")}},
		{"aggregate errors", EventFilter, blocks(ev(func(b *qb) {
			b.items = []string{
				ai("MEDIAN", ref("events", "value"), "a"), ai("SUM", `"*"`, "b"), ai("SUM", ref("events", "platform"), "c"),
				ai("MAX", ref("commerces", "is_active"), "d"), ai("COUNT", ref("events", "attributes"), "e"), ai("AVG", "5", "f"),
			}
			b.joins = []string{joinOn("INNER", "commerces", ref("events", "commerce_id"), ref("commerces", "commerce_id"))}
		})), []Issue{
			issue(q0+".select.items[0].aggregate.operator", "operator must be one of the following values: COUNT, SUM, AVG, MIN, MAX"),
			issue(q0+".select.items[1].aggregate.operand", `operand "*" is only allowed with COUNT`),
			issue(q0+".select.items[2].aggregate.operand", "SUM needs a numeric operand (INT64, FLOAT64, NUMERIC or BIGNUMERIC), not STRING"),
			issue(q0+".select.items[3].aggregate.operand", "MAX cannot be used with BOOLEAN values"),
			issue(q0+".select.items[4].aggregate.operand", "a RECORD or repeated column cannot be aggregated"),
			issue(q0+".select.items[5].aggregate.operand", "operand should not be null or undefined"), // the decoder rejected the number
		}},
		{"arithmetic errors", EventFilter, blocks(ev(func(b *qb) {
			b.items = []string{
				ai("SUM", arith("POWER", ref("events", "value"), "2"), "a"),
				ai("SUM", arith("ADD", ref("events", "platform"), `"*"`), "b"),
				ai("SUM", arith("MULTIPLY", arith("SAFE_DIVIDE", ref("events", "value"), "1e999"), ref("events", "nope")), "c"),
			}
		})), []Issue{
			issue(q0+".select.items[0].aggregate.operand.operator", "operator must be one of the following values: ADD, SUBTRACT, MULTIPLY, SAFE_DIVIDE"),
			issue(q0+".select.items[1].aggregate.operand.left", "left must be numeric (INT64, FLOAT64, NUMERIC or BIGNUMERIC); events.platform is STRING"),
			issue(q0+".select.items[1].aggregate.operand.right", "right should not be null or undefined"), // the decoder rejected "*"
			issue(q0+".select.items[2].aggregate.operand.left.right", "right must be a finite number"),
			issue(q0+".select.items[2].aggregate.operand.right", "column nope does not exist in table events"),
		}},

		// groupBy and having
		{"group by errors", EventFilter, blocks(ev(func(b *qb) {
			b.items = []string{ci("events", "event_id", ""), ci("events", "platform", ""), ai("COUNT", `"*"`, "n")}
			b.groupBy = []string{ref("events", "platform"), ref("events", "nope"), ref("events", "items")}
		})), []Issue{
			issue(q0+".groupBy[1]", "column nope does not exist in table events"),
			issue(q0+".groupBy[2]", "a RECORD or repeated column cannot be grouped by"),
			issue(q0+".select.items[0].column", "column events.event_id must be listed in groupBy because the block groups"),
		}},
		{"empty group by", EventFilter, blocks(ev(func(b *qb) { b.groupBy = []string{} })), []Issue{
			issue(q0+".groupBy", "groupBy should not be empty; send null for no grouping"),
			issue(q0+".select.items[0].column", "column events.event_id must be listed in groupBy because the block groups"),
		}},
		{"having without group by", EventFilter, blocks(ev(func(b *qb) {
			b.items = []string{ai("COUNT", `"*"`, "n")}
			b.having = fp("n", "GREATER_THAN", 1)
		})), []Issue{issue(q0+".having", "having requires groupBy")}},
		{"having errors", EventFilter, blocks(ev(func(b *qb) {
			b.items = []string{ci("events", "platform", ""), ai("COUNT", `"*"`, "n")}
			b.groupBy = []string{ref("events", "platform")}
			b.having = grp("AND", pr("events", "platform", "EQUALS", "ios"), fp("platform", "EQUALS", "ios"), fp("N", "EQUALS", "many"),
				record("items", grp("AND", fp("quantity", "EQUALS", 1))))
		})), []Issue{
			issue(q0+".having.children[0].column", "having compares aggregates: use aggregate, or field naming the alias of an aggregate select item"),
			issue(q0+".having.children[1].field", "field platform is not the alias of an aggregate select item of this block"),
			issue(q0+".having.children[2].value", "value must be an integer between -9223372036854775808 and 9223372036854775807 (INT64)"),
			issue(q0+".having.children[3]", "a recordPredicate is only allowed in where, outside any subWhere"),
		}},

		// time window
		{"IN_THE_FIRST in an event filter", EventFilter, blocks(ev(func(b *qb) { b.time = tw("IN_THE_FIRST", "unit", "DAYS", "value", 7) })),
			[]Issue{issue(q0+".timeWindow.timeOperator", MsgInTheFirstUnsupported)}},
		{"time window errors", EventFilter, blocks(
			ev(func(b *qb) {
				b.time = tw("IN_THE_LAST", "reference", json.RawMessage(ref("events", "platform")), "unit", "HOURS", "value", 7)
			}),
			ev(func(b *qb) {
				b.order, b.setOp, b.time = 1, "UNION_ALL", tw("IN_THE_LAST", "reference", json.RawMessage(ref("commerces", "created_at")), "unit", "DAYS", "value", 0)
			}),
			ev(func(b *qb) {
				b.order, b.setOp, b.time = 2, "UNION_ALL", tw("IN_THE_LAST", "unit", "MONTHS", "value", 1201)
			}),
			ev(func(b *qb) { b.order, b.setOp, b.time = 3, "UNION_ALL", tw("SINCE", "from", "yesterday") }),
			ev(func(b *qb) {
				b.order, b.setOp, b.time = 4, "UNION_ALL", tw("BETWEEN", "from", "2024-02-01T00:00:00Z", "to", "2024-01-31")
			}),
			ev(func(b *qb) {
				b.order, b.setOp, b.time = 5, "UNION_ALL", tw("BETWEEN", "from", "2024-13-01", "to", "0000-01-01T00:00:00Z")
			}),
		), []Issue{
			issue(q0+".timeWindow.reference", "reference must be a TIMESTAMP column; events.platform is STRING"),
			issue(q0+".timeWindow.unit", "unit must be one of the following values: DAYS, WEEKS, MONTHS, YEARS"),
			issue("queryBlocks[1].timeWindow.reference", "table commerces is not part of this block (from or joins)"),
			issue("queryBlocks[1].timeWindow.value", "value must be a positive integer"),
			issue("queryBlocks[2].timeWindow.value", "value must not be greater than 1200 for MONTHS"),
			issue("queryBlocks[3].timeWindow.from", "from must be an ISO 8601 timestamp string between years 0001 and 9999 (for example 2024-01-31T00:00:00Z)"),
			issue("queryBlocks[4].timeWindow.to", "to must not be before from"),
			issue("queryBlocks[5].timeWindow.from", "from must be an ISO 8601 timestamp string between years 0001 and 9999 (for example 2024-01-31T00:00:00Z)"),
			issue("queryBlocks[5].timeWindow.to", "to must be an ISO 8601 timestamp string between years 0001 and 9999 (for example 2024-01-31T00:00:00Z)"),
		}},
		{"no default time reference", EventFilter, blocks(qb{table: "ledger", items: []string{ci("ledger", "entry_id", "")}, time: tw("SINCE", "from", "2024-01-01")}),
			[]Issue{issue(q0+".timeWindow.reference", "reference is required: table ledger declares no default time reference column")}},
		{"audience default time reference is the flagged column", Audience, blocks(qb{table: "page_views", items: []string{ci("page_views", "commerce_id", "")},
			time: tw("IN_THE_LAST", "unit", "DAYS", "value", 3)}, au(func(b *qb) { b.order, b.setOp = 1, "UNION_ALL" })),
			[]Issue{issue(q0+".timeWindow.reference", "reference is required: table page_views declares no default time reference column")}},
		{"audience IN_THE_FIRST without identity", Audience, blocks(qb{table: "page_views", items: []string{ci("page_views", "commerce_id", "")},
			time: tw("IN_THE_FIRST", "reference", json.RawMessage(ref("page_views", "viewed_at")), "unit", "DAYS", "value", 3)}, au(func(b *qb) { b.order, b.setOp = 1, "UNION_ALL" })),
			[]Issue{issue(q0+".timeWindow.reference", "IN_THE_FIRST needs an identity column in table page_views to find each subject's first event")}},
		{"audience IN_THE_FIRST", Audience, blocks(qb{table: "events", items: []string{ci("events", "commerce_id", "")},
			time: tw("IN_THE_FIRST", "unit", "WEEKS", "value", 3)}), nil},
	}
}

func TestValidate(t *testing.T) {
	cat := testCatalog()
	for _, c := range append(validationCases(), filterValidationCases()...) {
		t.Run(c.name, func(t *testing.T) {
			// Lenient: the AST may hold what the strict decoder reports
			// (unknown enum values...), as an AST built in code could.
			def, _ := DecodeBlocks([]byte(c.def), RootPath)
			got := Validate(def, cat, c.kind)
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("issues:\n%s\nwant:\n%s", issueList(got), issueList(c.want))
			}
			if len(c.want) > 0 {
				return
			}
			for _, d := range []Dialect{BigQuery, Postgres, SQLite} {
				if _, err := Compile(def, cat, c.kind, d, Options{}); err != nil {
					t.Errorf("valid definition does not compile on %s: %v", d.Name(), err)
				}
			}
		})
	}
}

func issueList(issues []Issue) string {
	var b strings.Builder
	for _, i := range issues {
		fmt.Fprintf(&b, "  %s: %s\n", i.Path, i.Message)
	}
	return b.String()
}

// TestValidateBuiltAST covers operands only an AST built in code can hold
// (the decoder rejects them first).
func TestValidateBuiltAST(t *testing.T) {
	num := Operand{Number: "2"}
	col := &ColumnRef{Table: "events", Column: "quantity"}
	def := Definition{Blocks: []Block{{
		From: From{Table: "events"},
		Select: Select{Items: []SelectItem{
			{Kind: AggregateItem, Alias: "a", Aggregate: &Aggregate{Operator: Sum, Operand: num}},
			{Kind: AggregateItem, Alias: "b", Aggregate: &Aggregate{Operator: Sum, Operand: Operand{Expr: &Arithmetic{Operator: Add, Left: Operand{Star: true}, Right: Operand{Column: col}}}}},
			{Kind: "bogus"},
			{Kind: ColumnItem},
			{Kind: AggregateItem, Alias: "c"},
		}},
		Where: &Node{Kind: "leaf"},
	}}}
	q := "queryBlocks[0]"
	want := []Issue{
		issue(q+".select.items[0].aggregate.operand", `operand must be a columnRef, "*" or an arithmetic expression`),
		issue(q+".select.items[1].aggregate.operand.left", "left must be a columnRef, a number or an arithmetic expression"),
		issue(q+".select.items[2].kind", "kind must be one of the following values: column, aggregate"),
		issue(q+".select.items[3].column", "column should not be null or undefined"),
		issue(q+".select.items[4].aggregate", "aggregate should not be null or undefined"),
		issue(q+".where.kind", "kind must be one of the following values: group, predicate, recordPredicate, semiJoinPredicate"),
	}
	if got := Validate(def, testCatalog(), EventFilter); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("issues:\n%s\nwant:\n%s", issueList(got), issueList(want))
	}
	bad := SetOperator("EXCEPT")
	def = Definition{Blocks: []Block{{From: From{Table: "events"}, Select: Select{Items: []SelectItem{{Kind: ColumnItem, Column: &ColumnRef{"events", "event_id"}}}}},
		{Order: 1, SetOperator: &bad, From: From{Table: "events"}, Select: Select{Items: []SelectItem{{Kind: ColumnItem, Column: &ColumnRef{"events", "event_id"}}}}}}}
	want = []Issue{issue("queryBlocks[1].setOperator", "setOperator must be one of the following values: UNION_DISTINCT, UNION_ALL, INTERSECT_DISTINCT")}
	if got := Validate(def, testCatalog(), EventFilter); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("issues:\n%s\nwant:\n%s", issueList(got), issueList(want))
	}
}

// TestBrokenCatalogFailsClosed: references into a catalog whose declarations
// are inconsistent are rejected, never compiled.
func TestBrokenCatalogFailsClosed(t *testing.T) {
	cat := testCatalog()
	events, _ := cat.Table("events")
	events.SemiJoins = append(events.SemiJoins,
		SemiJoin{Name: "ghost", ToTable: "nope", On: []JoinKey{{Left: "commerce_id", Right: "id"}}},
		SemiJoin{Name: "badkey", ToTable: "commerces", On: []JoinKey{{Left: "items.nope", Right: "commerce_id"}}},
		SemiJoin{Name: "nokeys", ToTable: "commerces"},
		SemiJoin{Name: "mistyped", ToTable: "commerces", On: []JoinKey{{Left: "quantity", Right: "name"}}},
	)
	events.DefaultTimeReferenceColumn = "platform"
	sub := grp("AND", fp("name", "EQUALS", "x"))
	def := decodeDef(t, blocks(ev(func(b *qb) {
		b.time = tw("IN_THE_LAST", "unit", "DAYS", "value", 1)
		b.where = grp("AND", semi("events", "ghost", sub), semi("events", "badkey", sub), semi("events", "nokeys", sub), semi("events", "mistyped", sub))
	})))
	w := "queryBlocks[0].where"
	want := []Issue{
		issue("queryBlocks[0].timeWindow.reference", "reference must be a TIMESTAMP column; events.platform is STRING"),
		issue(w+".children[0].semiJoin", "semiJoin ghost points at table nope, which does not exist in the catalog"),
		issue(w+".children[1].semiJoin", "semiJoin badkey of the catalog is invalid: key items.nope is not a column of events nor a field of its record"),
		issue(w+".children[2].semiJoin", "semiJoin nokeys of the catalog is invalid: it declares no keys"),
		issue(w+".children[3].semiJoin", "semiJoin mistyped of the catalog is invalid: keys quantity and name cannot be compared"),
	}
	if got := Validate(def, cat, EventFilter); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("issues:\n%s\nwant:\n%s", issueList(got), issueList(want))
	}
	events.DefaultTimeReferenceColumn = "gone"
	got := Validate(def, cat, EventFilter)
	if len(got) == 0 || got[0].Message != "reference defaults to events.gone: column gone does not exist in table events" {
		t.Errorf("missing default column: %v", got)
	}
	if _, err := Compile(def, nil, EventFilter, BigQuery, Options{}); err == nil {
		t.Error("a nil catalog must reject every definition")
	}
}

func TestConditionCount(t *testing.T) {
	def := decodeDef(t, blocks(
		ev(where(grp("AND", pr("events", "platform", "EQUALS", "ios"), grp("OR", pr("events", "value", "IS_NULL", nil), pr("events", "quantity", "EQUALS", 1)),
			record("attributes", grp("AND", fp("key", "EQUALS", "a"), fp("value", "EQUALS", "b")))))),
		ev(func(b *qb) { b.order, b.setOp = 1, "UNION_ALL" }),
		ev(func(b *qb) {
			b.order, b.setOp, b.where = 2, "UNION_ALL", semi("events", "products", grp("AND", fp("category", "EQUALS", "x")))
		}),
	))
	if n := ConditionCount(def); n != 5 {
		t.Errorf("ConditionCount = %d, want 5 (3 predicates and a recordPredicate in block 0, a semiJoinPredicate in block 2)", n)
	}
	if n := ConditionCount(Definition{}); n != 0 {
		t.Errorf("empty definition: %d", n)
	}
}

// TestCompileRejectsInvalid: Compile fails closed with every issue.
func TestCompileRejectsInvalid(t *testing.T) {
	def := decodeDef(t, blocks(ev(func(b *qb) { b.time = tw("IN_THE_FIRST", "unit", "DAYS", "value", 7) })))
	_, err := Compile(def, testCatalog(), EventFilter, BigQuery, Options{})
	var verr *ValidationError
	if !errorsAs(err, &verr) || len(verr.Issues) != 1 || verr.Issues[0].Message != MsgInTheFirstUnsupported {
		t.Fatalf("err = %v", err)
	}
	if err.Error() != "invalid definition: queryBlocks[0].timeWindow.timeOperator: "+MsgInTheFirstUnsupported {
		t.Errorf("Error() = %q", err.Error())
	}
	if _, err := Compile(Definition{}, testCatalog(), EventFilter, Postgres, Options{}); !errorsAs(err, &verr) || verr.Issues[0].Message != MsgEmptyDefinition {
		t.Errorf("empty definition: %v", err)
	}
}
