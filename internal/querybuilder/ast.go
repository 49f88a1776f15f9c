package querybuilder

import (
	"encoding/json"
	"sort"
)

// Definition is the list of query blocks of an audience or event filter
// (SPEC.md "Query block"). Blocks may be in any order; Order decides.
type Definition struct {
	Blocks []Block
}

// MarshalJSON encodes the definition as the queryBlocks array.
func (d Definition) MarshalJSON() ([]byte, error) {
	if d.Blocks == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(d.Blocks)
}

// Sorted returns the blocks ordered by Order (stable for equal orders).
func (d Definition) Sorted() []Block {
	out := append([]Block(nil), d.Blocks...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Order < out[j].Order })
	return out
}

// Block is one query block. The id of the JSON form is assigned by the
// service and is not part of the AST (it is accepted and ignored on input).
type Block struct {
	// Order is the ascending position; the first block is 0.
	Order int `json:"order"`
	// SetOperator combines this block with the result of the blocks before
	// it; nil on the first block.
	SetOperator *SetOperator `json:"setOperator"`
	From        From         `json:"from"`
	Select      Select       `json:"select"`
	// TimeWindow nil means ALL_TIME.
	TimeWindow *TimeWindow `json:"timeWindow"`
	// Where nil means no filter.
	Where *Node `json:"where"`
	// GroupBy nil means no grouping (an empty list is invalid).
	GroupBy []ColumnRef `json:"groupBy"`
	// Having filters groups over aggregates; it needs GroupBy.
	Having *Node `json:"having"`
}

// ColumnRef names a column of a table of the block. In an event filter that
// unnests a record column, Column may be "record.subfield" to reach a field
// of the current element.
type ColumnRef struct {
	Table  string `json:"table"`
	Column string `json:"column"`
}

// From is the block's main table, its joins and (event filters only) the
// record columns unnested into one row per element.
type From struct {
	Table   string      `json:"table"`
	Joins   []Join      `json:"joins"`
	Unnests []ColumnRef `json:"unnests"`
}

// MarshalJSON always writes joins and unnests as arrays.
func (f From) MarshalJSON() ([]byte, error) {
	type plain From
	p := plain(f)
	if p.Joins == nil {
		p.Joins = []Join{}
	}
	if p.Unnests == nil {
		p.Unnests = []ColumnRef{}
	}
	return json.Marshal(p)
}

// Join adds a table to the block.
type Join struct {
	Type  JoinType `json:"type"`
	Table string   `json:"table"`
	On    []JoinOn `json:"on"`
}

// JoinOn is one equality of a join condition.
type JoinOn struct {
	Left  ColumnRef `json:"left"`
	Right ColumnRef `json:"right"`
}

// Select is the projection of a block.
type Select struct {
	Distinct bool         `json:"distinct"`
	Items    []SelectItem `json:"items"`
}

// SelectItem is a column (alias optional) or an aggregate (alias required).
type SelectItem struct {
	Kind      SelectKind `json:"kind"`
	Column    *ColumnRef `json:"column,omitempty"`
	Aggregate *Aggregate `json:"aggregate,omitempty"`
	Alias     string     `json:"alias,omitempty"`
}

// Aggregate is IAggregate: `{operator, operand}` where operator is COUNT,
// SUM, AVG, MIN or MAX and operand is one of
//
//   - a columnRef object `{table, column}`;
//   - the string "*" (COUNT only: COUNT(*));
//   - an arithmetic expression `{operator, left, right}` with operator ADD,
//     SUBTRACT, MULTIPLY or SAFE_DIVIDE, whose left and right are a columnRef,
//     a nested arithmetic expression or a JSON number literal.
//
// Arithmetic operands must be numeric (INT64, FLOAT64, NUMERIC, BIGNUMERIC).
// SAFE_DIVIDE yields NULL when the denominator is zero. Example:
// `{"operator":"SUM","operand":{"operator":"MULTIPLY","left":{"table":"events","column":"quantity"},"right":2}}`.
type Aggregate struct {
	Operator AggregateOperator `json:"operator"`
	Operand  Operand           `json:"operand"`
}

// Operand is the operand of an aggregate or one side of an arithmetic
// expression: exactly one of Star, Column, Expr or Number is set. Star is
// only valid as an aggregate operand, Number only inside arithmetic.
type Operand struct {
	Star   bool
	Column *ColumnRef
	Expr   *Arithmetic
	// Number is a JSON number literal as sent (for example "2" or "0.5").
	Number json.Number
}

// MarshalJSON writes "*", a columnRef, an expression or a number.
func (o Operand) MarshalJSON() ([]byte, error) {
	switch {
	case o.Star:
		return []byte(`"*"`), nil
	case o.Column != nil:
		return json.Marshal(o.Column)
	case o.Expr != nil:
		return json.Marshal(o.Expr)
	case o.Number != "":
		return []byte(o.Number), nil
	}
	return []byte("null"), nil
}

// Arithmetic is `{operator, left, right}` inside an aggregate operand.
type Arithmetic struct {
	Operator ArithmeticOperator `json:"operator"`
	Left     Operand            `json:"left"`
	Right    Operand            `json:"right"`
}

// TimeWindow restricts a block to a period of a TIMESTAMP reference column.
// Fields beyond Operator depend on it: IN_THE_LAST and IN_THE_FIRST use
// Reference, Unit and Value; SINCE uses Reference and From; BETWEEN uses
// Reference, From and To; ALL_TIME uses nothing. A nil Reference means the
// table's default time reference column.
type TimeWindow struct {
	Operator  TimeOperator
	Reference *ColumnRef
	Unit      TimeUnit
	Value     int
	// From and To are ISO 8601 timestamps as sent.
	From string
	To   string
}

// MarshalJSON writes only the fields of the window's operator.
func (w TimeWindow) MarshalJSON() ([]byte, error) {
	m := map[string]any{"timeOperator": w.Operator}
	if w.Operator != AllTime && w.Reference != nil {
		m["reference"] = w.Reference
	}
	switch w.Operator {
	case InTheLast, InTheFirst:
		m["unit"], m["value"] = w.Unit, w.Value
	case Since:
		m["from"] = w.From
	case BetweenTime:
		m["from"], m["to"] = w.From, w.To
	}
	return json.Marshal(m)
}

// Node is a filter tree node, discriminated by Kind:
//
//   - group: LogicalOperator and Children;
//   - predicate: ComparisonOperator, Value and one of Column (a columnRef of
//     the block), Field (inside a subWhere: a sub-field of the record or a
//     column of the related table; in having: the alias of an aggregate
//     select item) or Aggregate (having only);
//   - recordPredicate: Column (a RECORD column) and SubWhere (a group whose
//     predicates use Field);
//   - semiJoinPredicate (event filters): Table, SemiJoin and SubWhere.
type Node struct {
	Kind               NodeKind
	LogicalOperator    LogicalOperator
	Children           []Node
	Column             *ColumnRef
	Field              string
	Aggregate          *Aggregate
	ComparisonOperator ComparisonOperator
	Value              *Value
	Table              string
	SemiJoin           string
	SubWhere           *Node
}

// MarshalJSON writes only the fields of the node's kind.
func (n Node) MarshalJSON() ([]byte, error) {
	m := map[string]any{"kind": n.Kind}
	switch n.Kind {
	case GroupNode:
		children := n.Children
		if children == nil {
			children = []Node{}
		}
		m["logicalOperator"], m["children"] = n.LogicalOperator, children
	case PredicateNode:
		m["comparisonOperator"] = n.ComparisonOperator
		switch {
		case n.Column != nil:
			m["column"] = n.Column
		case n.Aggregate != nil:
			m["aggregate"] = n.Aggregate
		default:
			m["field"] = n.Field
		}
		if n.Value != nil {
			m["value"] = n.Value
		}
	case RecordPredicateNode:
		m["column"], m["subWhere"] = n.Column, n.SubWhere
	case SemiJoinPredicateNode:
		m["table"], m["semiJoin"], m["subWhere"] = n.Table, n.SemiJoin, n.SubWhere
	}
	return json.Marshal(m)
}

// Value is a predicate value: one scalar, or (List) an array for IN, NOT_IN
// and BETWEEN. Scalars are string, bool or json.Number (exactly as sent, so
// decimals keep their digits).
type Value struct {
	List  bool
	Items []any
}

// MarshalJSON writes the scalar or the array.
func (v Value) MarshalJSON() ([]byte, error) {
	if v.List {
		if v.Items == nil {
			return []byte("[]"), nil
		}
		return json.Marshal(v.Items)
	}
	if len(v.Items) == 0 {
		return []byte("null"), nil
	}
	return json.Marshal(v.Items[0])
}

// Walk calls fn for n and every node below it (children, then subWhere),
// depth first, stopping the descent under a node where fn returns false.
func (n *Node) Walk(fn func(*Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for i := range n.Children {
		n.Children[i].Walk(fn)
	}
	n.SubWhere.Walk(fn)
}

// ConditionCount is SPEC.md conditionCount: the number of where leaves
// (predicate, recordPredicate and semiJoinPredicate nodes of the where trees,
// not counting the predicates inside their subWhere) across all blocks.
func ConditionCount(def Definition) int {
	n := 0
	for i := range def.Blocks {
		def.Blocks[i].Where.Walk(func(node *Node) bool {
			if node.Kind != GroupNode {
				n++
				return false
			}
			return true
		})
	}
	return n
}
