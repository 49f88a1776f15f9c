package graph_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/reten-io/reten/graph/generated"
)

// The typed query-block structure: selections of its outputs for the tests,
// and the schema check that no query-builder argument or field is a Map.

const qbColumnRef = `{ table column }`

// qbOperand selects an arithmetic operand, nested expressions depth levels deep.
func qbOperand(depth int) string {
	s := `{ ... on ColumnRef ` + qbColumnRef + ` ... on NumberLiteral { number }`
	if depth > 0 {
		s += ` ... on ArithmeticExpression { operator left ` + qbOperand(depth-1) + ` right ` + qbOperand(depth-1) + ` }`
	}
	return s + ` }`
}

var qbAggregate = `{ operator operand { ... on AggregateStar { star } ... on ColumnRef ` + qbColumnRef +
	` ... on ArithmeticExpression { operator left ` + qbOperand(1) + ` right ` + qbOperand(1) + ` } } }`

// qbNode selects a filter tree, depth levels of groups and subWheres deep
// (the aggregate of a predicate, a having's, at the top only: inline
// fragments multiply the document's size at every level).
func qbNode(depth int) string {
	return qbNodeAt(depth, `aggregate `+qbAggregate)
}

func qbNodeAt(depth int, aggregate string) string {
	s := `{ ... on FilterPredicate { comparisonOperator column ` + qbColumnRef + ` field ` + aggregate + ` value }`
	if depth > 0 {
		sub := qbNodeAt(depth-1, "")
		s += ` ... on FilterGroup { logicalOperator children ` + sub + ` }` +
			` ... on FilterRecordPredicate { column ` + qbColumnRef + ` subWhere ` + sub + ` }` +
			` ... on FilterSemiJoinPredicate { table semiJoin subWhere ` + sub + ` }`
	}
	return s + ` }`
}

// qbClauses selects every clause of a QueryBlock.
var qbClauses = `from { table joins { type table on { left ` + qbColumnRef + ` right ` + qbColumnRef + ` } } unnests ` + qbColumnRef + ` }
	select { distinct items { kind column ` + qbColumnRef + ` aggregate ` + qbAggregate + ` alias } }
	timeWindow { timeOperator reference ` + qbColumnRef + ` unit value from to }
	where ` + qbNode(3) + ` groupBy ` + qbColumnRef + ` having ` + qbNode(1)

// qbPred is a predicate node input on table.column.
func qbPred(table, op, column string, v any) M {
	p := M{"comparisonOperator": op, "column": M{"table": table, "column": column}}
	if v != nil {
		p["value"] = v
	}
	return M{"predicate": p}
}

// qbGroup is a group node input.
func qbGroup(op string, children ...any) M {
	return M{"group": M{"logicalOperator": op, "children": L(children)}}
}

// The Map values the schema keeps: free-form documents only. A
// query-builder argument or field is never one of them.
var freeFormMaps = []string{
	"ActivityResult.payload", "AudienceSQL.params", "AudienceSQL.types", "ChannelDefinition.settings", "ChannelDefinitionInput.settings",
	"Commerce.metadata", "CommerceBatchItemInput.metadata", "CreateCommerceInput.metadata", "CreateDispatchProviderInput.credentials",
	"CreateDispatchProviderInput.settings", "CreateOperatorInput.metadata", "CreateSupervisorInput.metadata", "DispatchProvider.settings",
	"EventFilterSQL.params", "EventFilterSQL.types", "LifecycleSQL.params", "Mutation.recordActivityResolutionEvent(detail)", "Operator.metadata",
	"OperatorItemInput.metadata", "SubmitActivityResultInput.payload", "SubmitActivityResultInput.rawPayload", "Supervisor.metadata",
	"SyncOperatorInput.metadata", "UpdateActivityResultInput.payload", "UpdateActivityResultInput.rawPayload", "UpdateCommerceInput.metadata",
	"UpdateDispatchProviderInput.credentials", "UpdateDispatchProviderInput.settings", "UpdateOperatorInput.metadata",
	"UpdateSupervisorInput.metadata",
}

func TestQueryBuilderSchemaIsTyped(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	isMap := func(ty *ast.Type) bool {
		for ty.Elem != nil {
			ty = ty.Elem
		}
		return ty.NamedType == "Map"
	}
	// Every type reachable from the query-block input and output types.
	reach := map[string]bool{}
	var walk func(name string)
	walk = func(name string) {
		def := schema.Types[name]
		if def == nil || reach[name] || def.BuiltIn {
			return
		}
		reach[name] = true
		for _, f := range def.Fields {
			for ty := f.Type; ty != nil; ty = ty.Elem {
				walk(ty.NamedType)
			}
		}
		for _, member := range def.Types {
			walk(member)
		}
	}
	walk("QueryBlockInput")
	walk("QueryBlock")
	for _, name := range []string{"QueryBlockInput", "FilterNodeInput", "FilterNode", "AggregateOperandInput", "ArithmeticOperand", "QueryFrom", "TimeWindow"} {
		if !reach[name] {
			t.Fatalf("%s is not reachable from the query-block types", name)
		}
	}
	var maps, qbMaps []string
	queryBlockArgs := 0
	for name, def := range schema.Types {
		if def.BuiltIn {
			continue
		}
		for _, f := range def.Fields {
			if isMap(f.Type) {
				maps = append(maps, name+"."+f.Name)
				if reach[name] && name != "Audience" && name != "EventFilter" {
					qbMaps = append(qbMaps, name+"."+f.Name)
				}
			}
			for _, a := range f.Arguments {
				if isMap(a.Type) {
					maps = append(maps, name+"."+f.Name+"("+a.Name+")")
				}
				if a.Name == "queryBlocks" {
					queryBlockArgs++
					if a.Type.String() != "[QueryBlockInput!]" && a.Type.String() != "[QueryBlockInput!]!" {
						t.Errorf("%s.%s(queryBlocks) is %s", name, f.Name, a.Type)
					}
				}
			}
		}
	}
	slices.Sort(maps)
	if len(qbMaps) > 0 {
		t.Errorf("query-builder fields of type Map: %v", qbMaps)
	}
	if !slices.Equal(maps, freeFormMaps) {
		t.Errorf("Map fields and arguments:\n%s\nwant the free-form ones:\n%s", strings.Join(maps, "\n"), strings.Join(freeFormMaps, "\n"))
	}
	// generate, validate and preview for both, and the membership change.
	if queryBlockArgs != 7 {
		t.Errorf("%d queryBlocks arguments, want 7", queryBlockArgs)
	}
}
