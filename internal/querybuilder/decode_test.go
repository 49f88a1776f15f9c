package querybuilder

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

func TestDecodeIssues(t *testing.T) {
	valid := ev(nil).String()
	cases := []struct {
		name string
		body string
		want []Issue
	}{
		{"invalid JSON", `[{`, []Issue{issue("queryBlocks", "queryBlocks must be a valid JSON array")}},
		{"trailing data", `[] []`, []Issue{issue("queryBlocks", "queryBlocks must be a valid JSON array")}},
		{"not an array", `{"order":0}`, []Issue{issue("queryBlocks", "queryBlocks must be an array")}},
		{"block not an object", `[1]`, []Issue{issue("queryBlocks[0]", "queryBlocks[0] must be an object")}},
		{"unknown properties, sorted", `[{"zeta":1,"order":0,"from":{"table":"events","alias":"e"},"select":{"items":[]},"name":"x"}]`, []Issue{
			issue("queryBlocks[0].from.alias", "property alias should not exist"),
			issue("queryBlocks[0].name", "property name should not exist"),
			issue("queryBlocks[0].zeta", "property zeta should not exist"),
		}},
		{"missing required", `[{"from":{},"select":{}}]`, []Issue{
			issue("queryBlocks[0].order", "order should not be null or undefined"),
			issue("queryBlocks[0].from.table", "table should not be null or undefined"),
			issue("queryBlocks[0].select.items", "items should not be null or undefined"),
		}},
		{"missing from and select", `[{"order":0}]`, []Issue{
			issue("queryBlocks[0].from", "from should not be null or undefined"),
			issue("queryBlocks[0].select", "select should not be null or undefined"),
		}},
		{"wrong JSON types", `[{"order":"0","setOperator":1,"from":{"table":3,"joins":{},"unnests":"x"},"select":{"distinct":"yes","items":[{"kind":"column","column":"events.id","alias":5}]},"timeWindow":[],"where":"x","groupBy":{},"having":1}]`, []Issue{
			issue("queryBlocks[0].order", "order must be an integer number"),
			issue("queryBlocks[0].setOperator", "setOperator must be one of the following values: UNION_DISTINCT, UNION_ALL, INTERSECT_DISTINCT"),
			issue("queryBlocks[0].from.table", "table must be a string"),
			issue("queryBlocks[0].from.joins", "joins must be an array"),
			issue("queryBlocks[0].from.unnests", "unnests must be an array"),
			issue("queryBlocks[0].select.distinct", "distinct must be a boolean value"),
			issue("queryBlocks[0].select.items[0].column", "column must be an object"),
			issue("queryBlocks[0].select.items[0].alias", "alias must be a string"),
			issue("queryBlocks[0].timeWindow", "timeWindow must be an object"),
			issue("queryBlocks[0].where", "where must be an object"),
			issue("queryBlocks[0].groupBy", "groupBy must be an array"),
			issue("queryBlocks[0].having", "having must be an object"),
		}},
		{"fractional order", `[{"order":1.5,"from":{"table":"events"},"select":{"items":[]}}]`, []Issue{
			issue("queryBlocks[0].order", "order must be an integer number"),
		}},
		{"enums", `[{"order":0,"from":{"table":"events","joins":[{"type":"OUTER","table":"x","on":[{"left":{"table":"a","column":"b"}}]}]},"select":{"items":[{"kind":"star"},{"kind":"aggregate","aggregate":{"operator":"COUNT_DISTINCT","operand":{"operator":"POW","left":1,"right":"*"}},"alias":"n"}]},"timeWindow":{"timeOperator":"IN_THE_LAST","unit":"HOURS","value":"7"},"where":{"kind":"group","logicalOperator":"NOT","children":[{"kind":"predicate","column":{"table":"events","column":"x"},"comparisonOperator":"LIKE"},{"kind":"leaf"}]}}]`, []Issue{
			issue("queryBlocks[0].from.joins[0].type", "type must be one of the following values: INNER, LEFT, RIGHT, FULL"),
			issue("queryBlocks[0].from.joins[0].on[0].right", "right should not be null or undefined"),
			issue("queryBlocks[0].select.items[0].kind", "kind must be one of the following values: column, aggregate"),
			issue("queryBlocks[0].select.items[1].aggregate.operator", "operator must be one of the following values: COUNT, SUM, AVG, MIN, MAX"),
			issue("queryBlocks[0].select.items[1].aggregate.operand.operator", "operator must be one of the following values: ADD, SUBTRACT, MULTIPLY, SAFE_DIVIDE"),
			issue("queryBlocks[0].select.items[1].aggregate.operand.right", "right must be a columnRef, a number or an arithmetic expression"),
			issue("queryBlocks[0].timeWindow.unit", "unit must be one of the following values: DAYS, WEEKS, MONTHS, YEARS"),
			issue("queryBlocks[0].timeWindow.value", "value must be an integer number"),
			issue("queryBlocks[0].where.logicalOperator", "logicalOperator must be one of the following values: AND, OR"),
			issue("queryBlocks[0].where.children[0].comparisonOperator", "comparisonOperator must be one of the following values: EQUALS, NOT_EQUALS, GREATER_THAN, LESS_THAN, GREATER_THAN_OR_EQUAL, LESS_THAN_OR_EQUAL, CONTAINS, NOT_CONTAINS, STARTS_WITH, ENDS_WITH, IS_NULL, IS_NOT_NULL, IN, NOT_IN, BETWEEN"),
			issue("queryBlocks[0].where.children[1].kind", "kind must be one of the following values: group, predicate, recordPredicate, semiJoinPredicate"),
		}},
		{"discriminated properties", `[{"order":0,"from":{"table":"events"},"select":{"items":[{"kind":"column","column":{"table":"events","column":"event_id"},"aggregate":{}}]},"timeWindow":{"timeOperator":"ALL_TIME","unit":"DAYS","reference":{"table":"events","column":"event_timestamp"}},"where":{"kind":"predicate","column":{"table":"events","column":"platform"},"field":"platform","comparisonOperator":"EQUALS","value":{"a":1},"children":[]}}]`, []Issue{
			issue("queryBlocks[0].select.items[0].aggregate", "property aggregate should not exist"),
			issue("queryBlocks[0].timeWindow.reference", "property reference should not exist"),
			issue("queryBlocks[0].timeWindow.unit", "property unit should not exist"),
			issue("queryBlocks[0].where", "where must have exactly one of column, field or aggregate"),
			issue("queryBlocks[0].where.value", "value must be a string, number, boolean or an array of them"),
			issue("queryBlocks[0].where.children", "property children should not exist"),
		}},
		{"array values", `[{"order":0,"from":{"table":"events"},"select":{"items":[]},"where":{"kind":"predicate","column":{"table":"events","column":"platform"},"comparisonOperator":"IN","value":["a",null,[1],{}]}}]`, []Issue{
			issue("queryBlocks[0].where.value[1]", "value[1] must be a string, number or boolean"),
			issue("queryBlocks[0].where.value[2]", "value[2] must be a string, number or boolean"),
			issue("queryBlocks[0].where.value[3]", "value[3] must be a string, number or boolean"),
		}},
		{"aggregate operands", `[{"order":0,"from":{"table":"events"},"select":{"items":[{"kind":"aggregate","aggregate":{"operator":"SUM","operand":3},"alias":"a"},{"kind":"aggregate","aggregate":{"operator":"SUM"},"alias":"b"},{"kind":"aggregate","aggregate":{"operator":"SUM","operand":{"table":"events"}},"alias":"c"}]}}]`, []Issue{
			issue("queryBlocks[0].select.items[0].aggregate.operand", `operand must be a columnRef, "*" or an arithmetic expression`),
			issue("queryBlocks[0].select.items[1].aggregate.operand", "operand should not be null or undefined"),
			issue("queryBlocks[0].select.items[2].aggregate.operand.column", "column should not be null or undefined"),
		}},
		{"record and semi-join required fields", `[{"order":0,"from":{"table":"events"},"select":{"items":[]},"where":{"kind":"group","logicalOperator":"AND","children":[{"kind":"recordPredicate"},{"kind":"semiJoinPredicate","table":1}]}}]`, []Issue{
			issue("queryBlocks[0].where.children[0].column", "column should not be null or undefined"),
			issue("queryBlocks[0].where.children[0].subWhere", "subWhere should not be null or undefined"),
			issue("queryBlocks[0].where.children[1].table", "table must be a string"),
			issue("queryBlocks[0].where.children[1].semiJoin", "semiJoin should not be null or undefined"),
			issue("queryBlocks[0].where.children[1].subWhere", "subWhere should not be null or undefined"),
		}},
		{"id is accepted and ignored", `[` + valid[:1] + `"id":"not even a uuid",` + valid[1:] + `]`, nil},
		{"nulls are absent", `[{"order":0,"setOperator":null,"from":{"table":"events","joins":null,"unnests":null},"select":{"distinct":null,"items":[]},"timeWindow":null,"where":null,"groupBy":null,"having":null}]`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, got := DecodeBlocks([]byte(c.body), "queryBlocks")
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("issues:\n%s\nwant:\n%s", issueList(got), issueList(c.want))
			}
		})
	}
}

func TestDecodePrefixAndValue(t *testing.T) {
	_, issues := DecodeBlocks([]byte(`[{"order":0,"from":{"table":"events"},"select":{"items":[]},"x":1}]`), "body.queryBlocks")
	if len(issues) != 1 || issues[0].Path != "body.queryBlocks[0].x" {
		t.Errorf("prefix: %v", issues)
	}
	var v any
	if err := json.Unmarshal([]byte(`[{"order":0,"from":{"table":"events"},"select":{"items":[]},"where":{"kind":"predicate","column":{"table":"events","column":"value"},"comparisonOperator":"EQUALS","value":1.25}}]`), &v); err != nil {
		t.Fatal(err)
	}
	def, issues := DecodeBlocksValue(v, "queryBlocks")
	if len(issues) != 0 || def.Blocks[0].Where.Value.Items[0] != json.Number("1.25") {
		t.Errorf("float64 numbers: %v %#v", issues, def.Blocks[0].Where.Value)
	}
}

// TestDecodeRoundTrip: the AST marshals back to the SPEC.md shape (what the
// service stores and returns) and decodes to the same AST.
func TestDecodeRoundTrip(t *testing.T) {
	for _, path := range goldenCasePaths(t) {
		g := loadGolden(t, path)
		raw := g.Blocks
		if g.Kind == "audience" {
			raw = g.Tree.Blocks
		}
		def := decodeDef(t, string(raw))
		out, err := json.Marshal(def)
		if err != nil {
			t.Fatal(err)
		}
		again := decodeDef(t, string(out))
		if !reflect.DeepEqual(def, again) {
			t.Errorf("%s: round trip changed the AST:\n%s", path, out)
		}
		out2, _ := json.Marshal(again)
		if string(out) != string(out2) {
			t.Errorf("%s: marshal is not stable", path)
		}
	}
	if b, _ := json.Marshal(Definition{}); string(b) != "[]" {
		t.Errorf("empty definition marshals to %s", b)
	}
}
