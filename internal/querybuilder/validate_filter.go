package querybuilder

import (
	"fmt"
	"strconv"
	"strings"
)

// filterMode says where a filter tree sits, which decides what its
// predicates may reference.
type filterMode int

const (
	inWhere    filterMode = iota // columns of the block
	inHaving                     // aggregates, or aliases of aggregate select items
	inRecord                     // fields of one record column
	inSemiJoin                   // columns of a related table
)

type filterCtx struct {
	mode    filterMode
	record  *Column    // inRecord
	owner   string     // inRecord: "table.record"; inSemiJoin: the related table
	related *Table     // inSemiJoin
	aggs    []aggAlias // inHaving
}

// operator classes decide which comparison operators a column type accepts.
type opClass uint8

const (
	clsEq    opClass = 1 << iota // EQUALS, NOT_EQUALS
	clsNull                      // IS_NULL, IS_NOT_NULL
	clsOrder                     // GREATER_THAN ... BETWEEN
	clsSet                       // IN, NOT_IN
	clsText                      // CONTAINS, NOT_CONTAINS, STARTS_WITH, ENDS_WITH
)

// arity is the shape of a predicate value.
type arity uint8

const (
	arityNone arity = iota // no value
	arityOne               // one scalar
	arityList              // a non-empty array
	arityPair              // an array of exactly two
)

type opInfo struct {
	cls   opClass
	arity arity
}

var comparisonInfo = map[ComparisonOperator]opInfo{
	Equals: {clsEq, arityOne}, NotEquals: {clsEq, arityOne},
	GreaterThan: {clsOrder, arityOne}, LessThan: {clsOrder, arityOne},
	GreaterThanOrEqual: {clsOrder, arityOne}, LessThanOrEqual: {clsOrder, arityOne},
	Contains: {clsText, arityOne}, NotContains: {clsText, arityOne},
	StartsWith: {clsText, arityOne}, EndsWith: {clsText, arityOne},
	IsNull: {clsNull, arityNone}, IsNotNull: {clsNull, arityNone},
	In: {clsSet, arityList}, NotIn: {clsSet, arityList},
	Between: {clsOrder, arityPair},
}

// typeClasses: strings take every operator; numbers and timestamps
// equality, order, BETWEEN and IN; booleans equality and null checks.
func typeClasses(t FieldType) opClass {
	switch t {
	case TypeString:
		return clsEq | clsNull | clsOrder | clsSet | clsText
	case TypeBoolean:
		return clsEq | clsNull
	case TypeRecord:
		return 0
	}
	return clsEq | clsNull | clsOrder | clsSet
}

func allowedOperators(t FieldType) string {
	var names []string
	for _, op := range ComparisonOperators {
		if typeClasses(t)&comparisonInfo[op].cls != 0 {
			names = append(names, string(op))
		}
	}
	return strings.Join(names, ", ")
}

func (v *validator) filter(n *Node, s *scope, c filterCtx, depth int) {
	if depth > maxDepth {
		v.fail("", fmt.Sprintf("filter trees nest at most %d levels", maxDepth))
		return
	}
	switch n.Kind {
	case GroupNode:
		if _, ok := LogicalOperators.Parse(string(n.LogicalOperator)); !ok {
			v.fail(".logicalOperator", LogicalOperators.Message("logicalOperator"))
		}
		if len(n.Children) == 0 {
			v.fail(".children", "children should not be empty")
		}
		for i := range n.Children {
			mark := v.pushIndex(".children", i)
			v.filter(&n.Children[i], s, c, depth+1)
			v.pop(mark)
		}
	case PredicateNode:
		if t, ok := v.predicateOperand(n, s, c); ok {
			v.comparison(n, t)
		}
	case RecordPredicateNode:
		v.recordPredicate(n, s, c, depth)
	case SemiJoinPredicateNode:
		v.semiJoinPredicate(n, s, c, depth)
	default:
		v.fail(".kind", NodeKinds.Message("kind"))
	}
}

// predicateOperand checks what a predicate compares and returns its type.
func (v *validator) predicateOperand(n *Node, s *scope, c filterCtx) (FieldType, bool) {
	refs := 0
	for _, set := range []bool{n.Column != nil, n.Field != "", n.Aggregate != nil} {
		if set {
			refs++
		}
	}
	if refs != 1 {
		v.fail("", "a predicate must have exactly one of column, field or aggregate")
		return "", false
	}
	switch c.mode {
	case inWhere:
		switch {
		case n.Field != "":
			v.fail(".field", "field is only allowed inside the subWhere of a recordPredicate or a semiJoinPredicate, and in having")
		case n.Aggregate != nil:
			v.fail(".aggregate", "aggregate is only allowed in having")
		default:
			r, msg := s.resolve(*n.Column, len(s.tables), true)
			switch {
			case msg != "":
				v.fail(".column", msg)
			case r.typ() == TypeRecord:
				v.fail(".column", "column "+n.Column.Table+"."+n.Column.Column+" is a RECORD column; filter it with a recordPredicate")
			case !r.scalar():
				v.fail(".column", "column "+n.Column.Table+"."+n.Column.Column+" is repeated and cannot be compared")
			default:
				return r.typ(), true
			}
		}
	case inHaving:
		switch {
		case n.Column != nil:
			v.fail(".column", "having compares aggregates: use aggregate, or field naming the alias of an aggregate select item")
		case n.Aggregate != nil:
			mark := v.push(".aggregate")
			defer v.pop(mark)
			return v.aggregate(n.Aggregate, s)
		default:
			for _, a := range c.aggs {
				if strings.EqualFold(a.alias, n.Field) {
					return a.typ, true
				}
			}
			v.fail(".field", "field "+n.Field+" is not the alias of an aggregate select item of this block")
		}
	case inRecord, inSemiJoin:
		if n.Field == "" {
			what := "a sub-field of record " + c.owner
			if c.mode == inSemiJoin {
				what = "a column of table " + c.owner
			}
			v.fail("", "predicates inside a subWhere use field ("+what+"), not column or aggregate")
			return "", false
		}
		var col *Column
		var ok bool
		if c.mode == inRecord {
			col, ok = c.record.SubField(n.Field)
		} else {
			col, ok = c.related.Column(n.Field)
		}
		switch {
		case !ok && c.mode == inRecord:
			v.fail(".field", "field "+n.Field+" does not exist in record "+c.owner)
		case !ok:
			v.fail(".field", "field "+n.Field+" does not exist in table "+c.owner)
		case col.Type == TypeRecord || col.Repeated:
			v.fail(".field", "field "+n.Field+" is a RECORD or repeated field and cannot be compared")
		default:
			return col.Type, true
		}
	}
	return "", false
}

// comparison checks the operator against the type and the value against
// the operator's arity and the type.
func (v *validator) comparison(n *Node, t FieldType) {
	op := n.ComparisonOperator
	info, ok := comparisonInfo[op]
	if !ok {
		v.fail(".comparisonOperator", ComparisonOperators.Message("comparisonOperator"))
		return
	}
	if typeClasses(t)&info.cls == 0 {
		v.fail(".comparisonOperator", fmt.Sprintf("comparisonOperator %s cannot be used with %s values; allowed: %s", op, t, allowedOperators(t)))
		return
	}
	val := n.Value
	switch info.arity {
	case arityNone:
		if val != nil {
			v.fail(".value", "value must be empty for "+string(op))
		}
		return
	case arityOne:
		if val == nil || len(val.Items) == 0 {
			v.fail(".value", "value is required for "+string(op))
			return
		}
		if val.List {
			v.fail(".value", "value must be a single value for "+string(op)+", not an array")
			return
		}
		if _, msg := normalize(val.Items[0], t); msg != "" {
			v.fail(".value", "value"+msg)
		}
		return
	case arityList:
		if val == nil || !val.List || len(val.Items) == 0 {
			v.fail(".value", "value must be a non-empty array for "+string(op))
			return
		}
		if len(val.Items) > maxListItems {
			v.fail(".value", fmt.Sprintf("value must contain at most %d items", maxListItems))
			return
		}
	case arityPair:
		if val == nil || !val.List || len(val.Items) != 2 {
			v.fail(".value", "value must be an array of exactly two values for "+string(op))
			return
		}
	}
	for i, item := range val.Items {
		if _, msg := normalize(item, t); msg != "" {
			seg := "value[" + strconv.Itoa(i) + "]"
			v.fail("."+seg, seg+msg)
		}
	}
}

func (v *validator) recordPredicate(n *Node, s *scope, c filterCtx, depth int) {
	if c.mode != inWhere {
		v.fail("", "a recordPredicate is only allowed in where, outside any subWhere")
		return
	}
	if n.Column == nil {
		v.fail(".column", "column should not be null or undefined")
		return
	}
	r, msg := s.resolve(*n.Column, len(s.tables), false)
	if msg == "" && r.col.Type != TypeRecord {
		msg = fmt.Sprintf("a recordPredicate needs a RECORD column; %s.%s is %s", n.Column.Table, n.Column.Column, r.col.Type)
	}
	if msg != "" {
		v.fail(".column", msg)
		return
	}
	v.subWhere(n, s, filterCtx{mode: inRecord, record: r.col, owner: n.Column.Table + "." + n.Column.Column}, depth)
}

func (v *validator) semiJoinPredicate(n *Node, s *scope, c filterCtx, depth int) {
	if v.kind != EventFilter {
		v.fail("", "a semiJoinPredicate is only allowed in event filters")
		return
	}
	if c.mode != inWhere {
		v.fail("", "a semiJoinPredicate is only allowed in where, outside any subWhere")
		return
	}
	ti := s.tableIndex(n.Table, len(s.tables))
	if ti < 0 || s.tables[ti] == nil {
		v.fail(".table", "table "+quoteName(n.Table)+" is not part of this block (from or joins)")
		return
	}
	t := s.tables[ti]
	sj, ok := t.SemiJoin(n.SemiJoin)
	if !ok {
		v.fail(".semiJoin", "semiJoin "+quoteName(n.SemiJoin)+" is not declared for table "+t.Name+" (declared: "+semiJoinList(t)+")")
		return
	}
	related, msg := semiJoinTarget(s.cat, t, sj)
	if msg != "" {
		v.fail(".semiJoin", msg)
		return
	}
	v.subWhere(n, s, filterCtx{mode: inSemiJoin, related: related, owner: related.Name}, depth)
}

func (v *validator) subWhere(n *Node, s *scope, c filterCtx, depth int) {
	switch {
	case n.SubWhere == nil:
		v.fail(".subWhere", "subWhere should not be null or undefined")
	case n.SubWhere.Kind != GroupNode:
		v.fail(".subWhere", "subWhere must be a group node")
	default:
		mark := v.push(".subWhere")
		v.filter(n.SubWhere, s, c, depth+1)
		v.pop(mark)
	}
}
