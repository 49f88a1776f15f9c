package querybuilder_test

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reten-io/reten/internal/demo"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/testpg"
)

// demoCase is a definition over the demo dataset and, per dialect, an
// independently hand-written query returning the same rows ({{s}} is the
// schema prefix: "schema". on postgres, empty on sqlite).
type demoCase struct {
	name   string
	kind   qb.Kind
	blocks string
	want   map[string]string
}

const selectEventID = `"select":{"distinct":false,"items":[{"kind":"column","column":{"table":"events","column":"event_id"}}]}`

func block(from, sel, timeWindow, where string) string {
	if timeWindow == "" {
		timeWindow = "null"
	}
	if where == "" {
		where = "null"
	}
	return `{"order":0,"setOperator":null,"from":{"table":"` + from + `","joins":[],"unnests":[]},` + sel +
		`,"timeWindow":` + timeWindow + `,"where":` + where + `,"groupBy":null,"having":null}`
}

var demoCases = []demoCase{
	{
		name: "purchases with a push utm_source attribute",
		kind: qb.EventFilter,
		blocks: "[" + block("events", selectEventID, "", `{"kind":"group","logicalOperator":"AND","children":[
			{"kind":"predicate","column":{"table":"events","column":"event_name"},"comparisonOperator":"EQUALS","value":"purchase"},
			{"kind":"recordPredicate","column":{"table":"events","column":"attributes"},"subWhere":{"kind":"group","logicalOperator":"AND","children":[
				{"kind":"predicate","field":"key","comparisonOperator":"EQUALS","value":"utm_source"},
				{"kind":"predicate","field":"value","comparisonOperator":"EQUALS","value":"push"}]}}]}`) + "]",
		want: map[string]string{
			"postgres": `SELECT e.event_id FROM {{s}}events e WHERE e.event_name = 'purchase' AND EXISTS (
				SELECT 1 FROM jsonb_array_elements(e.attributes) a WHERE a->>'key' = 'utm_source' AND a->>'value' = 'push')`,
			"sqlite": `SELECT e.event_id FROM events e WHERE e.event_name = 'purchase' AND EXISTS (
				SELECT 1 FROM json_each(e.attributes) a WHERE json_extract(a.value, '$.key') = 'utm_source' AND json_extract(a.value, '$.value') = 'push')`,
		},
	},
	{
		name: "events buying a private-label product (semi-join over items)",
		kind: qb.EventFilter,
		blocks: "[" + block("events", selectEventID, "", `{"kind":"group","logicalOperator":"AND","children":[
			{"kind":"semiJoinPredicate","table":"events","semiJoin":"products","subWhere":{"kind":"group","logicalOperator":"AND","children":[
				{"kind":"predicate","field":"is_private_label","comparisonOperator":"EQUALS","value":true}]}}]}`) + "]",
		want: map[string]string{
			"postgres": `SELECT e.event_id FROM {{s}}events e WHERE EXISTS (
				SELECT 1 FROM jsonb_array_elements(e.items) i JOIN {{s}}product_properties p ON p.product_id = i->>'product_id'
				WHERE p.is_private_label)`,
			"sqlite": `SELECT e.event_id FROM events e WHERE EXISTS (
				SELECT 1 FROM json_each(e.items) i JOIN product_properties p ON p.product_id = json_extract(i.value, '$.product_id')
				WHERE p.is_private_label = 1)`,
		},
	},
	{
		name: "views in the last 30 days",
		kind: qb.EventFilter,
		blocks: "[" + block("events", selectEventID, `{"timeOperator":"IN_THE_LAST","unit":"DAYS","value":30}`,
			`{"kind":"predicate","column":{"table":"events","column":"event_name"},"comparisonOperator":"IN","value":["view_item","add_to_cart"]}`) + "]",
		want: map[string]string{
			"postgres": `SELECT event_id FROM {{s}}events WHERE event_name IN ('view_item', 'add_to_cart')
				AND event_timestamp >= now() - interval '30 days' AND event_timestamp <= now()`,
			"sqlite": `SELECT event_id FROM events WHERE event_name IN ('view_item', 'add_to_cart')
				AND event_timestamp >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-30 days') AND event_timestamp <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
		},
	},
	{
		name: "commerces with at least 5 purchases (group by, having)",
		kind: qb.EventFilter,
		blocks: `[{"order":0,"setOperator":null,"from":{"table":"events","joins":[],"unnests":[]},
			"select":{"distinct":false,"items":[{"kind":"column","column":{"table":"events","column":"commerce_id"}},
				{"kind":"aggregate","aggregate":{"operator":"COUNT","operand":"*"},"alias":"purchases"}]},
			"timeWindow":null,"where":{"kind":"predicate","column":{"table":"events","column":"event_name"},"comparisonOperator":"EQUALS","value":"purchase"},
			"groupBy":[{"table":"events","column":"commerce_id"}],
			"having":{"kind":"predicate","field":"purchases","comparisonOperator":"GREATER_THAN_OR_EQUAL","value":5}}]`,
		want: map[string]string{
			"postgres": `SELECT commerce_id, count(*) FROM {{s}}events WHERE event_name = 'purchase' GROUP BY commerce_id HAVING count(*) >= 5`,
			"sqlite":   `SELECT commerce_id, count(*) FROM events WHERE event_name = 'purchase' GROUP BY commerce_id HAVING count(*) >= 5`,
		},
	},
	{
		name: "audience: active pharmacies, or commerces with a canceled order",
		kind: qb.Audience,
		blocks: `[` + block("commerces", `"select":{"distinct":true,"items":[{"kind":"column","column":{"table":"commerces","column":"commerce_id"}}]}`, "",
			`{"kind":"group","logicalOperator":"AND","children":[
				{"kind":"predicate","column":{"table":"commerces","column":"is_active"},"comparisonOperator":"EQUALS","value":true},
				{"kind":"predicate","column":{"table":"commerces","column":"segment"},"comparisonOperator":"EQUALS","value":"pharmacy"}]}`) + `,` +
			strings.Replace(strings.Replace(block("events", `"select":{"distinct":true,"items":[{"kind":"column","column":{"table":"events","column":"commerce_id"}}]}`, "",
				`{"kind":"predicate","column":{"table":"events","column":"event_name"},"comparisonOperator":"EQUALS","value":"order_canceled"}`),
				`"order":0`, `"order":1`, 1), `"setOperator":null`, `"setOperator":"UNION_DISTINCT"`, 1) + `]`,
		want: map[string]string{
			"postgres": `SELECT commerce_id FROM {{s}}commerces WHERE is_active AND segment = 'pharmacy'
				UNION SELECT commerce_id FROM {{s}}events WHERE event_name = 'order_canceled'`,
			"sqlite": `SELECT commerce_id FROM commerces WHERE is_active = 1 AND segment = 'pharmacy'
				UNION SELECT commerce_id FROM events WHERE event_name = 'order_canceled'`,
		},
	},
}

// TestDemoDatasetExecution compiles each case for postgres and sqlite, runs
// it on the demo dataset and compares the rows with the hand-written query.
func TestDemoDatasetExecution(t *testing.T) {
	cat := demo.Catalog()
	now := time.Now().UTC()
	opts := demo.Options{Commerces: 150, Products: 60, Events: 6000, Transactions: 300, Now: now}
	type target struct {
		dialect qb.Dialect
		db      *sql.DB
		schema  string
	}
	var targets []target
	lite := qb.TempSQLite(t)
	if _, err := demo.Create(context.Background(), lite, demo.DialectSQLite, "", opts); err != nil {
		t.Fatal(err)
	}
	targets = append(targets, target{qb.SQLite, lite, ""})
	if testpg.URL() != "" {
		pg, schema := testpg.Schema(t, testpg.URL(), "demo_exec_")
		if _, err := demo.Create(context.Background(), pg, demo.DialectPostgres, schema, opts); err != nil {
			t.Fatal(err)
		}
		targets = append(targets, target{qb.Postgres, pg, schema})
	}
	for _, c := range demoCases {
		def, issues := qb.DecodeBlocks([]byte(c.blocks), "queryBlocks")
		if len(issues) > 0 {
			t.Fatalf("%s: decode: %v", c.name, issues)
		}
		for _, tg := range targets {
			t.Run(tg.dialect.Name()+"/"+c.name, func(t *testing.T) {
				compiled, err := qb.Compile(def, &cat, c.kind, tg.dialect, qb.Options{Qualifier: tg.schema})
				if err != nil {
					t.Fatalf("compile: %v", err)
				}
				got := rowSet(t, tg.db, "WITH "+compiled.Query+" SELECT * FROM "+compiled.FinalCteName, compiled.Args...)
				prefix := ""
				if tg.schema != "" {
					prefix = `"` + tg.schema + `".`
				}
				want := rowSet(t, tg.db, strings.ReplaceAll(c.want[tg.dialect.Name()], "{{s}}", prefix))
				if len(want) == 0 {
					t.Fatalf("the hand-written query selects nothing: the case proves nothing")
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%d rows, want %d\nsql: %s\nfirst got %v\nfirst want %v", len(got), len(want), compiled.Query, head(got), head(want))
				}
			})
		}
	}
}

// rowSet runs a query and returns its rows as sorted text lines.
func rowSet(t *testing.T, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	return qb.RowSet(t, db, "|", text, query, args...)
}

// text renders a value as the driver returned it (bytes as a string).
func text(v any) string {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return fmt.Sprint(v)
}

func head(l []string) []string { return l[:min(3, len(l))] }
