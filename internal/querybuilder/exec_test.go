package querybuilder

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// JSON builders for compact definitions.
func jv(v any) string { b, _ := json.Marshal(v); return string(b) }

func ref(table, column string) string { return jv(map[string]string{"table": table, "column": column}) }

func pr(table, column, op string, value any) string {
	s := `{"kind":"predicate","column":` + ref(table, column) + `,"comparisonOperator":"` + op + `"`
	if value != nil {
		s += `,"value":` + jv(value)
	}
	return s + "}"
}

func fp(field, op string, value any) string {
	return `{"kind":"predicate","field":"` + field + `","comparisonOperator":"` + op + `","value":` + jv(value) + "}"
}

func grp(op string, children ...string) string {
	return `{"kind":"group","logicalOperator":"` + op + `","children":[` + strings.Join(children, ",") + "]}"
}

func ci(table, column, alias string) string {
	s := `{"kind":"column","column":` + ref(table, column)
	if alias != "" {
		s += `,"alias":"` + alias + `"`
	}
	return s + "}"
}

func ai(op, operand, alias string) string {
	return `{"kind":"aggregate","aggregate":{"operator":"` + op + `","operand":` + operand + `},"alias":"` + alias + `"}`
}

func arith(op, left, right string) string {
	return `{"operator":"` + op + `","left":` + left + `,"right":` + right + "}"
}

func tw(op string, kv ...any) string {
	m := map[string]any{"timeOperator": op}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return jv(m)
}

// qb is a query block in JSON form.
type qb struct {
	order    int
	setOp    string
	table    string
	joins    []string
	unnests  []string
	distinct bool
	items    []string
	time     string
	where    string
	groupBy  []string
	having   string
}

func (b qb) String() string {
	op := "null"
	if b.setOp != "" {
		op = `"` + b.setOp + `"`
	}
	or := func(s, def string) string {
		if s == "" {
			return def
		}
		return s
	}
	group := "null"
	if b.groupBy != nil {
		group = "[" + strings.Join(b.groupBy, ",") + "]"
	}
	return fmt.Sprintf(`{"order":%d,"setOperator":%s,"from":{"table":%q,"joins":[%s],"unnests":[%s]},"select":{"distinct":%t,"items":[%s]},"timeWindow":%s,"where":%s,"groupBy":%s,"having":%s}`,
		b.order, op, b.table, strings.Join(b.joins, ","), strings.Join(b.unnests, ","), b.distinct, strings.Join(b.items, ","),
		or(b.time, "null"), or(b.where, "null"), group, or(b.having, "null"))
}

func blocks(bs ...qb) string {
	parts := make([]string, len(bs))
	for i, b := range bs {
		parts[i] = b.String()
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func joinOn(typ, table, left, right string) string {
	return `{"type":"` + typ + `","table":"` + table + `","on":[{"left":` + left + `,"right":` + right + `}]}`
}

var evID = []string{ci("events", "event_id", "")}

// execCase is a definition and the same query hand-written for each engine.
type execCase struct {
	name    string
	kind    Kind
	def     string        // queryBlocks JSON
	tree    *AudienceTree // audiences with compositions (def unused)
	sql     string        // hand-written SQL valid on both engines
	dialect map[string]string
}

func (c execCase) handWritten(d Dialect) string {
	if s, ok := c.dialect[d.Name()]; ok {
		return s
	}
	return c.sql
}

// both is a per-dialect pair of hand-written queries.
func both(sqlite, postgres string) map[string]string {
	return map[string]string{"sqlite": sqlite, "postgres": postgres}
}

func execCases(t *testing.T, f *fixture) []execCase {
	since, sinceLit := f.ts(60)
	from, fromLit := f.ts(300)
	to, toLit := f.ts(200)
	after, afterLit := f.ts(100)
	before, beforeLit := f.ts(10)
	inLast := func(unit string, n int, lite, pg string) execCase {
		return execCase{
			name: "in_the_last_" + strings.ToLower(unit), kind: EventFilter,
			def: blocks(qb{table: "events", items: evID, time: tw("IN_THE_LAST", "unit", unit, "value", n)}),
			dialect: both(
				"SELECT event_id FROM events WHERE event_timestamp >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '"+lite+"', 'floor') AND event_timestamp <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
				"SELECT event_id FROM events WHERE event_timestamp >= now() - interval '"+pg+"' AND event_timestamp <= now()"),
		}
	}
	firstDaysTree := AudienceTree{ID: "first", Definition: decodeDef(t, blocks(qb{table: "events", distinct: true,
		items: []string{ci("events", "commerce_id", "")}, time: tw("IN_THE_FIRST", "unit", "DAYS", "value", 60),
		where: pr("events", "event_name", "EQUALS", "purchase")}))}
	buyers := &AudienceTree{ID: "buyers", Definition: decodeDef(t, blocks(qb{table: "events", items: []string{ci("events", "commerce_id", "")},
		where: pr("events", "event_name", "EQUALS", "purchase")}))}
	payers := &AudienceTree{ID: "payers", Definition: decodeDef(t, blocks(qb{table: "transactions", items: []string{ci("transactions", "commerce_id", "")},
		where: pr("transactions", "status", "EQUALS", "completed")}))}
	buyers.Compositions = []Composition{{SetOperator: UnionDistinct, Operand: payers}}
	vip := &AudienceTree{ID: "vip", Definition: decodeDef(t, blocks(qb{table: "commerces", items: []string{ci("commerces", "commerce_id", "")},
		where: pr("commerces", "credit_limit", "GREATER_THAN_OR_EQUAL", 6000)}))}
	composed := AudienceTree{ID: "root", Definition: decodeDef(t, blocks(qb{table: "commerces",
		items: []string{ci("commerces", "commerce_id", "subject"), ci("commerces", "city", "")}, where: pr("commerces", "city", "EQUALS", "Lima")})),
		Compositions: []Composition{{SetOperator: IntersectDistinct, Operand: buyers}, {SetOperator: UnionAll, Operand: vip}}}

	return []execCase{
		{name: "strings", kind: EventFilter, def: blocks(qb{table: "events", items: evID, where: grp("AND",
			pr("events", "event_name", "IN", []string{"purchase", "add_to_cart", "view_item"}),
			pr("events", "platform", "NOT_EQUALS", "web"),
			pr("events", "session_id", "CONTAINS", "abc"),
			pr("events", "event_id", "STARTS_WITH", "ev_c0"),
			pr("events", "event_id", "ENDS_WITH", "1"))}),
			dialect: both(
				"SELECT event_id FROM events WHERE event_name IN ('purchase','add_to_cart','view_item') AND platform <> 'web' AND session_id LIKE '%abc%' AND substr(event_id, 1, 5) = 'ev_c0' AND substr(event_id, -1) = '1'",
				"SELECT event_id FROM events WHERE event_name IN ('purchase','add_to_cart','view_item') AND platform <> 'web' AND session_id LIKE '%abc%' AND left(event_id, 5) = 'ev_c0' AND right(event_id, 1) = '1'")},
		{name: "string_negations_and_order", kind: EventFilter, def: blocks(qb{table: "events", items: evID, where: grp("OR",
			pr("events", "session_id", "NOT_CONTAINS", "abc"),
			pr("events", "event_name", "NOT_IN", []string{"app_open", "view_item", "purchase"}),
			pr("events", "event_name", "BETWEEN", []string{"add", "app_z"}),
			pr("events", "platform", "GREATER_THAN_OR_EQUAL", "web"))}),
			sql: "SELECT event_id FROM events WHERE session_id NOT LIKE '%abc%' OR event_name NOT IN ('app_open','view_item','purchase') OR event_name BETWEEN 'add' AND 'app_z' OR platform >= 'web'"},
		{name: "numbers", kind: EventFilter, def: blocks(qb{table: "events", items: []string{ci("events", "event_id", ""), ci("events", "value", "v")}, where: grp("AND",
			pr("events", "quantity", "GREATER_THAN", 3),
			pr("events", "value", "BETWEEN", []any{10, 500.5}),
			pr("events", "quantity", "NOT_IN", []int{7, 8}),
			pr("events", "value", "LESS_THAN", 400))}),
			sql: "SELECT event_id, value FROM events WHERE quantity > 3 AND value BETWEEN 10 AND 500.5 AND quantity NOT IN (7, 8) AND value < 400"},
		{name: "numeric_boolean_join", kind: EventFilter, def: blocks(qb{table: "events",
			joins: []string{joinOn("INNER", "commerces", ref("events", "commerce_id"), ref("commerces", "commerce_id"))},
			items: []string{ci("events", "event_id", ""), ci("commerces", "city", ""), ci("commerces", "credit_limit", "")},
			where: grp("AND", pr("commerces", "is_active", "EQUALS", true), pr("commerces", "credit_limit", "GREATER_THAN_OR_EQUAL", "3000.25"),
				pr("commerces", "city", "NOT_EQUALS", "Lima"), pr("commerces", "is_active", "NOT_EQUALS", false))}),
			dialect: both(
				"SELECT e.event_id, c.city, c.credit_limit FROM events e JOIN commerces c ON e.commerce_id = c.commerce_id WHERE c.is_active = 1 AND c.credit_limit >= 3000.25 AND c.city <> 'Lima'",
				"SELECT e.event_id, c.city, c.credit_limit FROM events e JOIN commerces c ON e.commerce_id = c.commerce_id WHERE c.is_active AND c.credit_limit >= 3000.25 AND c.city <> 'Lima'")},
		{name: "nulls_and_nested_groups", kind: EventFilter, def: blocks(qb{table: "events", items: evID, where: grp("OR",
			grp("AND", pr("events", "session_id", "IS_NULL", nil), pr("events", "value", "IS_NOT_NULL", nil)),
			grp("AND", pr("events", "event_name", "EQUALS", "app_open"), grp("OR", pr("events", "platform", "EQUALS", "ios"), pr("events", "platform", "EQUALS", "web"))))}),
			sql: "SELECT event_id FROM events WHERE (session_id IS NULL AND value IS NOT NULL) OR (event_name = 'app_open' AND (platform = 'ios' OR platform = 'web'))"},
		{name: "timestamp_values", kind: EventFilter, def: blocks(qb{table: "events", items: evID, where: grp("AND",
			pr("events", "event_timestamp", "GREATER_THAN", after), pr("events", "event_timestamp", "LESS_THAN_OR_EQUAL", before))}),
			dialect: both(
				"SELECT event_id FROM events WHERE event_timestamp > "+afterLit["sqlite"]+" AND event_timestamp <= "+beforeLit["sqlite"],
				"SELECT event_id FROM events WHERE event_timestamp > "+afterLit["postgres"]+" AND event_timestamp <= "+beforeLit["postgres"])},
		inLast("DAYS", 30, "-30 days", "30 days"),
		inLast("WEEKS", 6, "-42 days", "6 weeks"),
		inLast("MONTHS", 4, "-4 months", "4 months"),
		inLast("YEARS", 1, "-1 years", "1 year"),
		{name: "since_between_all_time", kind: EventFilter, def: blocks(
			qb{table: "events", items: evID, time: tw("SINCE", "from", since)},
			qb{order: 1, setOp: "UNION_ALL", table: "events", items: evID, time: tw("BETWEEN", "reference", json.RawMessage(ref("events", "event_timestamp")), "from", from, "to", to)},
			qb{order: 2, setOp: "UNION_ALL", table: "events", items: evID, time: tw("ALL_TIME"), where: pr("events", "platform", "EQUALS", "sales_app")}),
			dialect: both(
				"SELECT event_id FROM events WHERE event_timestamp >= "+sinceLit["sqlite"]+" UNION ALL SELECT event_id FROM events WHERE event_timestamp BETWEEN "+fromLit["sqlite"]+" AND "+toLit["sqlite"]+" UNION ALL SELECT event_id FROM events WHERE platform = 'sales_app'",
				"SELECT event_id FROM events WHERE event_timestamp >= "+sinceLit["postgres"]+" UNION ALL SELECT event_id FROM events WHERE event_timestamp BETWEEN "+fromLit["postgres"]+" AND "+toLit["postgres"]+" UNION ALL SELECT event_id FROM events WHERE platform = 'sales_app'")},
		{name: "joins_all_types", kind: EventFilter, def: func() string {
			var bs []qb
			for i, typ := range []string{"INNER", "LEFT", "RIGHT", "FULL"} {
				b := qb{order: i, table: "page_views", joins: []string{joinOn(typ, "commerces", ref("page_views", "commerce_id"), ref("commerces", "commerce_id"))},
					items: []string{ci("page_views", "commerce_id", ""), ci("commerces", "commerce_id", "cid"), ci("commerces", "city", ""), ci("page_views", "viewed_at", "")}}
				if i > 0 {
					b.setOp = "UNION_ALL"
				}
				bs = append(bs, b)
			}
			return blocks(bs...)
		}(),
			sql: "SELECT p.commerce_id, c.commerce_id, c.city, p.viewed_at FROM page_views p INNER JOIN commerces c ON p.commerce_id = c.commerce_id UNION ALL " +
				"SELECT p.commerce_id, c.commerce_id, c.city, p.viewed_at FROM page_views p LEFT JOIN commerces c ON p.commerce_id = c.commerce_id UNION ALL " +
				"SELECT p.commerce_id, c.commerce_id, c.city, p.viewed_at FROM page_views p RIGHT JOIN commerces c ON p.commerce_id = c.commerce_id UNION ALL " +
				"SELECT p.commerce_id, c.commerce_id, c.city, p.viewed_at FROM page_views p FULL JOIN commerces c ON p.commerce_id = c.commerce_id"},
		{name: "record_attributes", kind: EventFilter, def: blocks(qb{table: "events", items: evID, where: `{"kind":"recordPredicate","column":` + ref("events", "attributes") +
			`,"subWhere":` + grp("AND", fp("key", "EQUALS", "utm_source"), fp("value", "IN", []string{"google", "meta"})) + "}"}),
			dialect: both(
				"SELECT event_id FROM events e WHERE EXISTS (SELECT 1 FROM json_each(e.attributes) a WHERE json_extract(a.value, '$.key') = 'utm_source' AND json_extract(a.value, '$.value') IN ('google', 'meta'))",
				"SELECT event_id FROM events e WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(e.attributes) a WHERE a->>'key' = 'utm_source' AND a->>'value' IN ('google', 'meta'))")},
		{name: "record_items_numbers", kind: EventFilter, def: blocks(qb{table: "events", items: evID, where: grp("AND", pr("events", "platform", "NOT_EQUALS", "ios"),
			`{"kind":"recordPredicate","column":`+ref("events", "items")+`,"subWhere":`+grp("OR", fp("quantity", "GREATER_THAN_OR_EQUAL", 11), fp("price", "GREATER_THAN", 19.5))+"}")}),
			dialect: both(
				"SELECT event_id FROM events e WHERE platform <> 'ios' AND EXISTS (SELECT 1 FROM json_each(e.items) i WHERE json_extract(i.value, '$.quantity') >= 11 OR json_extract(i.value, '$.price') > 19.5)",
				"SELECT event_id FROM events e WHERE platform <> 'ios' AND EXISTS (SELECT 1 FROM jsonb_array_elements(e.items) i WHERE (i->>'quantity')::int >= 11 OR (i->>'price')::float8 > 19.5)")},
		{name: "unnest_group_having", kind: EventFilter, def: blocks(qb{table: "events", unnests: []string{ref("events", "items")},
			items:   []string{ci("events", "commerce_id", ""), ci("events", "items.product_id", ""), ai("SUM", ref("events", "items.quantity"), "units")},
			where:   pr("events", "items.price", "GREATER_THAN", 5),
			groupBy: []string{ref("events", "commerce_id"), ref("events", "items.product_id")},
			having:  fp("units", "GREATER_THAN", 10)}),
			dialect: both(
				"SELECT e.commerce_id, json_extract(i.value, '$.product_id'), SUM(json_extract(i.value, '$.quantity')) FROM events e, json_each(e.items) i WHERE json_extract(i.value, '$.price') > 5 GROUP BY 1, 2 HAVING SUM(json_extract(i.value, '$.quantity')) > 10",
				"SELECT e.commerce_id, i->>'product_id', SUM((i->>'quantity')::bigint) FROM events e, jsonb_array_elements(e.items) i WHERE (i->>'price')::float8 > 5 GROUP BY 1, 2 HAVING SUM((i->>'quantity')::bigint) > 10")},
		{name: "unnest_safe_divide_integral_floats", kind: EventFilter, def: blocks(qb{table: "events", unnests: []string{ref("events", "items")},
			items:   []string{ci("events", "commerce_id", ""), ai("AVG", arith("SAFE_DIVIDE", ref("events", "items.price"), ref("events", "items.quantity")), "unit")},
			groupBy: []string{ref("events", "commerce_id")}}),
			dialect: both(
				"SELECT e.commerce_id, AVG(CAST(json_extract(i.value, '$.price') AS REAL) / NULLIF(json_extract(i.value, '$.quantity'), 0)) FROM events e, json_each(e.items) i GROUP BY 1",
				"SELECT e.commerce_id, AVG((i->>'price')::float8 / NULLIF((i->>'quantity')::bigint, 0)) FROM events e, jsonb_array_elements(e.items) i GROUP BY 1")},
		{name: "semi_join_record_key", kind: EventFilter, def: blocks(qb{table: "events", items: evID, where: grp("AND", pr("events", "event_name", "EQUALS", "purchase"),
			`{"kind":"semiJoinPredicate","table":"events","semiJoin":"products","subWhere":`+grp("AND", fp("category", "EQUALS", "dairy"), fp("is_private_label", "EQUALS", true))+"}")}),
			dialect: both(
				"SELECT event_id FROM events e WHERE event_name = 'purchase' AND e.event_id IN (SELECT e2.event_id FROM events e2, json_each(e2.items) i, product_properties p WHERE p.product_id = json_extract(i.value, '$.product_id') AND p.category = 'dairy' AND p.is_private_label = 1)",
				"SELECT event_id FROM events e WHERE event_name = 'purchase' AND e.event_id IN (SELECT e2.event_id FROM events e2, jsonb_array_elements(e2.items) i, product_properties p WHERE p.product_id = i->>'product_id' AND p.category = 'dairy' AND p.is_private_label)")},
		{name: "semi_join_scalar_key", kind: EventFilter, def: blocks(qb{table: "page_views", items: []string{ci("page_views", "commerce_id", ""), ci("page_views", "product_id", "")},
			where: `{"kind":"semiJoinPredicate","table":"page_views","semiJoin":"viewed_product","subWhere":` + grp("OR", fp("brand", "STARTS_WITH", "Ac"), fp("price", "LESS_THAN", "5.00")) + "}"}),
			sql: "SELECT v.commerce_id, v.product_id FROM page_views v JOIN product_properties p ON p.product_id = v.product_id WHERE substr(p.brand, 1, 2) = 'Ac' OR p.price < 5"},
		{name: "aggregates_arithmetic", kind: EventFilter, def: blocks(qb{table: "events",
			items: []string{ci("events", "commerce_id", ""), ai("COUNT", `"*"`, "n"), ai("SUM", ref("events", "value"), "total"), ai("AVG", ref("events", "quantity"), "avg_q"),
				ai("MIN", ref("events", "event_timestamp"), "first"), ai("MAX", ref("events", "value"), "top"), ai("COUNT", ref("events", "session_id"), "sessions"),
				ai("SUM", arith("MULTIPLY", ref("events", "quantity"), "2"), "double_q"),
				ai("AVG", arith("SAFE_DIVIDE", ref("events", "value"), ref("events", "quantity")), "unit_value"),
				ai("MAX", arith("SAFE_DIVIDE", ref("events", "quantity"), arith("SUBTRACT", ref("events", "quantity"), ref("events", "quantity"))), "by_zero"),
				ai("SUM", arith("ADD", arith("MULTIPLY", ref("events", "value"), "0.5"), "-3"), "adjusted")},
			groupBy: []string{ref("events", "commerce_id")},
			having:  grp("AND", fp("n", "GREATER_THAN_OR_EQUAL", 3), `{"kind":"predicate","aggregate":{"operator":"MAX","operand":`+ref("events", "value")+`},"comparisonOperator":"GREATER_THAN","value":50}`)}),
			dialect: both(
				"SELECT commerce_id, COUNT(*), SUM(value), AVG(quantity), MIN(event_timestamp), MAX(value), COUNT(session_id), SUM(quantity * 2), AVG(value / NULLIF(quantity, 0)), MAX(CAST(quantity AS REAL) / NULLIF(quantity - quantity, 0)), SUM(value * 0.5 - 3) FROM events GROUP BY commerce_id HAVING COUNT(*) >= 3 AND MAX(value) > 50",
				"SELECT commerce_id, COUNT(*), SUM(value), AVG(quantity), MIN(event_timestamp), MAX(value), COUNT(session_id), SUM(quantity * 2), AVG(value / NULLIF(quantity, 0)), MAX(quantity::float8 / NULLIF(quantity - quantity, 0)), SUM(value * 0.5 - 3) FROM events GROUP BY commerce_id HAVING COUNT(*) >= 3 AND MAX(value) > 50")},
		{name: "set_operators", kind: EventFilter, def: blocks(
			qb{table: "events", items: []string{ci("events", "commerce_id", "")}, where: pr("events", "event_name", "EQUALS", "purchase")},
			qb{order: 1, setOp: "UNION_DISTINCT", table: "events", items: []string{ci("events", "commerce_id", "")}, where: pr("events", "event_name", "EQUALS", "order_canceled")},
			qb{order: 2, setOp: "INTERSECT_DISTINCT", table: "events", items: []string{ci("events", "commerce_id", "")}, where: grp("AND", pr("events", "platform", "EQUALS", "ios"), pr("events", "value", "GREATER_THAN", 150))},
			qb{order: 3, setOp: "UNION_ALL", table: "transactions", items: []string{ci("transactions", "commerce_id", "")}, where: pr("transactions", "status", "EQUALS", "refunded")}),
			dialect: both(
				"SELECT commerce_id FROM events WHERE event_name = 'purchase' UNION SELECT commerce_id FROM events WHERE event_name = 'order_canceled' INTERSECT SELECT commerce_id FROM events WHERE platform = 'ios' AND value > 150 UNION ALL SELECT commerce_id FROM transactions WHERE status = 'refunded'",
				"((SELECT commerce_id FROM events WHERE event_name = 'purchase' UNION SELECT commerce_id FROM events WHERE event_name = 'order_canceled') INTERSECT SELECT commerce_id FROM events WHERE platform = 'ios' AND value > 150) UNION ALL SELECT commerce_id FROM transactions WHERE status = 'refunded'")},
		{name: "distinct_aliases", kind: EventFilter, def: blocks(qb{table: "events", distinct: true, items: []string{ci("events", "commerce_id", "subject"), ci("events", "platform", "")},
			where: pr("events", "platform", "IN", []string{"ios", "android"})}),
			sql: "SELECT DISTINCT commerce_id, platform FROM events WHERE platform IN ('ios', 'android')"},
		{name: "escaped_strings", kind: Audience, def: blocks(qb{table: "commerces", items: []string{ci("commerces", "commerce_id", ""), ci("commerces", "name", "")},
			where: grp("OR", pr("commerces", "name", "EQUALS", weirdName), pr("commerces", "name", "CONTAINS", "'Brien \\ \""), pr("commerces", "name", "IN", []string{"Commerce 1", "x' OR '1'='1"}))}),
			dialect: both(
				"SELECT commerce_id, name FROM commerces WHERE name = 'Bodega O''Brien \\ \"Sur\"' || char(10) || '2' OR commerce_id = 'c01'",
				"SELECT commerce_id, name FROM commerces WHERE name = E'Bodega O\\'Brien \\\\ \"Sur\"\\n2' OR commerce_id = 'c01'")},
		{name: "bignumeric_and_odd_identifier", kind: EventFilter, def: blocks(qb{table: "ledger", items: []string{ci("ledger", "entry_id", ""), ci("ledger", "balance", ""), ci("ledger", "odd`name\"col", "")},
			time:  tw("SINCE", "reference", json.RawMessage(ref("ledger", "booked_at")), "from", from),
			where: grp("AND", pr("ledger", "balance", "GREATER_THAN", "100.5"), pr("ledger", "odd`name\"col", "IS_NOT_NULL", nil))}),
			dialect: both(
				"SELECT entry_id, balance, \"odd`name\"\"col\" FROM ledger WHERE booked_at >= "+fromLit["sqlite"]+" AND balance > 100.5 AND \"odd`name\"\"col\" IS NOT NULL",
				"SELECT entry_id, balance, \"odd`name\"\"col\" FROM ledger WHERE booked_at >= "+fromLit["postgres"]+" AND balance > 100.5 AND \"odd`name\"\"col\" IS NOT NULL")},
		{name: "audience_in_the_first_days", kind: Audience, tree: &firstDaysTree,
			dialect: both(
				"SELECT DISTINCT e.commerce_id FROM events e JOIN (SELECT commerce_id, MIN(event_timestamp) AS m FROM events GROUP BY commerce_id) f ON f.commerce_id = e.commerce_id WHERE e.event_timestamp >= f.m AND e.event_timestamp < strftime('%Y-%m-%dT%H:%M:%fZ', f.m, '+60 days') AND e.event_name = 'purchase'",
				"SELECT DISTINCT e.commerce_id FROM events e JOIN (SELECT commerce_id, MIN(event_timestamp) AS m FROM events GROUP BY commerce_id) f ON f.commerce_id = e.commerce_id WHERE e.event_timestamp >= f.m AND e.event_timestamp < f.m + interval '1440 hours' AND e.event_name = 'purchase'")},
		{name: "audience_in_the_first_months_having", kind: Audience, def: blocks(qb{table: "events",
			items: []string{ci("events", "commerce_id", "commerce"), ai("COUNT", `"*"`, "n")}, time: tw("IN_THE_FIRST", "unit", "MONTHS", "value", 3),
			groupBy: []string{ref("events", "commerce_id")}, having: fp("n", "GREATER_THAN_OR_EQUAL", 6)}),
			dialect: both(
				"SELECT e.commerce_id, COUNT(*) FROM events e JOIN (SELECT commerce_id, MIN(event_timestamp) AS m FROM events GROUP BY commerce_id) f ON f.commerce_id = e.commerce_id WHERE e.event_timestamp >= f.m AND e.event_timestamp < strftime('%Y-%m-%dT%H:%M:%fZ', f.m, '+3 months', 'floor') GROUP BY e.commerce_id HAVING COUNT(*) >= 6",
				"SELECT e.commerce_id, COUNT(*) FROM events e JOIN (SELECT commerce_id, MIN(event_timestamp) AS m FROM events GROUP BY commerce_id) f ON f.commerce_id = e.commerce_id WHERE e.event_timestamp >= f.m AND e.event_timestamp < ((f.m AT TIME ZONE 'UTC') + interval '3 months') AT TIME ZONE 'UTC' GROUP BY e.commerce_id HAVING COUNT(*) >= 6")},
		{name: "audience_multi_block", kind: Audience, def: blocks(
			qb{table: "commerces", items: []string{ci("commerces", "commerce_id", "")}, where: grp("AND", pr("commerces", "is_active", "EQUALS", true), pr("commerces", "segment", "IN", []string{"pharmacy", "bakery", "grocery"}))},
			qb{order: 1, setOp: "INTERSECT_DISTINCT", table: "transactions", items: []string{ci("transactions", "commerce_id", "")},
				time: tw("IN_THE_LAST", "unit", "YEARS", "value", 1), where: pr("transactions", "amount", "GREATER_THAN", "1500.00")}),
			dialect: both(
				"SELECT commerce_id FROM commerces WHERE is_active = 1 AND segment IN ('pharmacy', 'bakery', 'grocery') INTERSECT SELECT commerce_id FROM transactions WHERE transacted_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 years', 'floor') AND transacted_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AND amount > 1500",
				"SELECT commerce_id FROM commerces WHERE is_active AND segment IN ('pharmacy', 'bakery', 'grocery') INTERSECT SELECT commerce_id FROM transactions WHERE transacted_at >= now() - interval '1 year' AND transacted_at <= now() AND amount > 1500")},
		{name: "audience_compositions", kind: Audience, tree: &composed,
			dialect: both(
				"SELECT commerce_id FROM commerces WHERE city = 'Lima' INTERSECT SELECT * FROM (SELECT commerce_id FROM events WHERE event_name = 'purchase' UNION SELECT commerce_id FROM transactions WHERE status = 'completed') UNION ALL SELECT commerce_id FROM commerces WHERE credit_limit >= 6000",
				"(SELECT commerce_id FROM commerces WHERE city = 'Lima' INTERSECT (SELECT commerce_id FROM events WHERE event_name = 'purchase' UNION SELECT commerce_id FROM transactions WHERE status = 'completed')) UNION ALL SELECT commerce_id FROM commerces WHERE credit_limit >= 6000")},
	}
}

// TestExecution runs every case's compiled query (both formats) on SQLite
// and PostgreSQL and compares its rows with the hand-written query's.
func TestExecution(t *testing.T) {
	f := newFixture()
	dbs := execDatabases(t, f)
	cases := execCases(t, f)
	for _, db := range dbs {
		for _, c := range cases {
			t.Run(db.dialect.Name()+"/"+c.name, func(t *testing.T) {
				want := rowSet(t, db.db, c.handWritten(db.dialect))
				if len(want) == 0 {
					t.Fatalf("the hand-written query selects nothing: the case proves nothing")
				}
				for _, format := range Formats {
					compiled := compileCase(t, c, db, format)
					got := rowSet(t, db.db, "WITH "+compiled.Query+"\nSELECT * FROM "+FinalCteName, compiled.Args...)
					if strings.Join(got, "\n") != strings.Join(want, "\n") {
						t.Fatalf("%s: %d rows, want %d\n%s\n--- got\n%s\n--- want\n%s", format, len(got), len(want), compiled.Query,
							strings.Join(got, "\n"), strings.Join(want, "\n"))
					}
				}
			})
		}
	}
}

func compileCase(t *testing.T, c execCase, db execDB, format Format) *Compiled {
	t.Helper()
	opts := Options{Format: format, Qualifier: db.qualifier}
	var compiled *Compiled
	var err error
	switch {
	case c.tree != nil:
		compiled, err = CompileAudience(*c.tree, testCatalog(), db.dialect, opts)
	default:
		compiled, err = Compile(decodeDef(t, c.def), testCatalog(), c.kind, db.dialect, opts)
	}
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return compiled
}
