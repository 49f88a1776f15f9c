package querybuilder

import "strconv"

// decodeObject decodes the JSON object at path into a T that starts as
// start: read reads the members and answers whether the rest of the object
// can be judged, and then every member it did not read is reported as
// undeclared. A value that is not an object is reported and gives start.
func decodeObject[T any](d *decoder, v any, path string, start T, read func(o *object, x *T) bool) T {
	x := start
	if o, ok := d.object(v, path); ok && read(o, &x) {
		o.done()
	}
	return x
}

// member decodes the member key of o with decode when it is present (null
// counts as absent; a missing required member is reported).
func member[T any](o *object, key string, required bool, decode func(v any, path string) T) (T, bool) {
	v, ok := o.get(key, required)
	if !ok {
		var zero T
		return zero, false
	}
	return decode(v, o.at(key)), true
}

// list decodes every element of the array member key of o with decode, each
// at its own path; ok is false (and the list empty) when the member is
// absent, null or not an array.
func list[T any](o *object, key string, required bool, decode func(v any, path string) T) ([]T, bool) {
	arr, ok := o.array(key, required)
	out := make([]T, len(arr))
	for i, item := range arr {
		out[i] = decode(item, index(o.at(key), i))
	}
	return out, ok
}

func (d *decoder) block(v any, path string) Block {
	return decodeObject(d, v, path, Block{}, func(o *object, b *Block) bool {
		o.get("id", false) // assigned by the service: accepted and ignored
		b.Order, _ = o.integer("order", true)
		if op, ok := enumField(o, "setOperator", SetOperators, false); ok {
			b.SetOperator = &op
		}
		b.From, _ = member(o, "from", true, d.from)
		b.Select, _ = member(o, "select", true, d.selectClause)
		b.TimeWindow, _ = member(o, "timeWindow", false, d.timeWindow)
		b.Where, _ = member(o, "where", false, d.nodeAt(1))
		if groupBy, ok := list(o, "groupBy", false, d.columnRef); ok {
			b.GroupBy = groupBy // nil means no grouping: only a sent list is one
		}
		b.Having, _ = member(o, "having", false, d.nodeAt(1))
		return true
	})
}

func (d *decoder) from(v any, path string) From {
	return decodeObject(d, v, path, From{Joins: []Join{}, Unnests: []ColumnRef{}}, func(o *object, f *From) bool {
		f.Table, _ = o.str("table", true)
		f.Joins, _ = list(o, "joins", false, d.join)
		f.Unnests, _ = list(o, "unnests", false, d.columnRef)
		return true
	})
}

func (d *decoder) join(v any, path string) Join {
	return decodeObject(d, v, path, Join{}, func(o *object, j *Join) bool {
		j.Type, _ = enumField(o, "type", JoinTypes, true)
		j.Table, _ = o.str("table", true)
		if on, _ := list(o, "on", true, d.joinOn); len(on) > 0 {
			j.On = on
		}
		return true
	})
}

func (d *decoder) joinOn(v any, path string) JoinOn {
	return decodeObject(d, v, path, JoinOn{}, func(o *object, c *JoinOn) bool {
		c.Left, _ = member(o, "left", true, d.columnRef)
		c.Right, _ = member(o, "right", true, d.columnRef)
		return true
	})
}

func (d *decoder) columnRef(v any, path string) ColumnRef {
	return decodeObject(d, v, path, ColumnRef{}, func(o *object, c *ColumnRef) bool {
		c.Table, _ = o.str("table", true)
		c.Column, _ = o.str("column", true)
		return true
	})
}

// columnRefPtr is columnRef for the optional references of the AST.
func (d *decoder) columnRefPtr(v any, path string) *ColumnRef {
	c := d.columnRef(v, path)
	return &c
}

func (d *decoder) selectClause(v any, path string) Select {
	return decodeObject(d, v, path, Select{}, func(o *object, s *Select) bool {
		s.Distinct = o.boolean("distinct")
		s.Items, _ = list(o, "items", true, d.selectItem)
		return true
	})
}

func (d *decoder) selectItem(v any, path string) SelectItem {
	return decodeObject(d, v, path, SelectItem{}, func(o *object, it *SelectItem) bool {
		var ok bool
		if it.Kind, ok = enumField(o, "kind", SelectKinds, true); !ok {
			return false // without a kind the other properties cannot be judged
		}
		if it.Kind == ColumnItem {
			it.Column, _ = member(o, "column", true, d.columnRefPtr)
		} else {
			it.Aggregate, _ = member(o, "aggregate", true, d.aggregate)
		}
		it.Alias, _ = o.str("alias", false)
		return true
	})
}

func (d *decoder) aggregate(v any, path string) *Aggregate {
	a := decodeObject(d, v, path, Aggregate{}, func(o *object, a *Aggregate) bool {
		a.Operator, _ = enumField(o, "operator", AggregateOperators, true)
		a.Operand, _ = member(o, "operand", true, d.operandAt(true, 1))
		return true
	})
	return &a
}

// operandAt is operand as a decode function of one kind and depth.
func (d *decoder) operandAt(aggregate bool, depth int) func(v any, path string) Operand {
	return func(v any, path string) Operand { return d.operand(v, path, aggregate, depth) }
}

// operand decodes "*" (aggregate operands), a number (arithmetic sides), an
// arithmetic expression (an object with an operator) or a columnRef.
func (d *decoder) operand(v any, path string, aggregate bool, depth int) Operand {
	name := lastSegment(path)
	if depth > maxDepth {
		d.add(path, name+" nests too deeply (at most "+strconv.Itoa(maxDepth)+" levels)")
		return Operand{}
	}
	if s, ok := v.(string); ok && s == "*" && aggregate {
		return Operand{Star: true}
	}
	if n, ok := number(v); ok && !aggregate {
		return Operand{Number: n}
	}
	m, ok := v.(map[string]any)
	if !ok {
		if aggregate {
			d.add(path, name+` must be a columnRef, "*" or an arithmetic expression`)
		} else {
			d.add(path, name+" must be a columnRef, a number or an arithmetic expression")
		}
		return Operand{}
	}
	if _, isExpr := m["operator"]; !isExpr {
		return Operand{Column: d.columnRefPtr(v, path)}
	}
	e := decodeObject(d, v, path, Arithmetic{}, func(o *object, e *Arithmetic) bool {
		e.Operator, _ = enumField(o, "operator", ArithmeticOperators, true)
		e.Left, _ = member(o, "left", true, d.operandAt(false, depth+1))
		e.Right, _ = member(o, "right", true, d.operandAt(false, depth+1))
		return true
	})
	return Operand{Expr: &e}
}

func (d *decoder) timeWindow(v any, path string) *TimeWindow {
	w := decodeObject(d, v, path, TimeWindow{}, func(o *object, w *TimeWindow) bool {
		var ok bool
		if w.Operator, ok = enumField(o, "timeOperator", TimeOperators, true); !ok {
			return false
		}
		if w.Operator != AllTime {
			w.Reference, _ = member(o, "reference", false, d.columnRefPtr)
		}
		switch w.Operator {
		case InTheLast, InTheFirst:
			w.Unit, _ = enumField(o, "unit", TimeUnits, true)
			w.Value, _ = o.integer("value", true)
		case Since:
			w.From, _ = o.str("from", true)
		case BetweenTime:
			w.From, _ = o.str("from", true)
			w.To, _ = o.str("to", true)
		}
		return true
	})
	return &w
}

// nodeAt is node as a decode function at depth.
func (d *decoder) nodeAt(depth int) func(v any, path string) *Node {
	return func(v any, path string) *Node { return d.node(v, path, depth) }
}

func (d *decoder) node(v any, path string, depth int) *Node {
	if depth > maxDepth {
		d.add(path, lastSegment(path)+" nests too deeply (at most "+strconv.Itoa(maxDepth)+" levels)")
		return &Node{}
	}
	n := decodeObject(d, v, path, Node{}, func(o *object, n *Node) bool {
		var ok bool
		if n.Kind, ok = enumField(o, "kind", NodeKinds, true); !ok {
			return false // without a kind the other properties cannot be judged
		}
		switch n.Kind {
		case GroupNode:
			n.LogicalOperator, _ = enumField(o, "logicalOperator", LogicalOperators, true)
			n.Children, _ = list(o, "children", true, func(v any, path string) Node { return *d.node(v, path, depth+1) })
		case PredicateNode:
			d.predicate(o, n)
		case RecordPredicateNode:
			n.Column, _ = member(o, "column", true, d.columnRefPtr)
			n.SubWhere, _ = member(o, "subWhere", true, d.nodeAt(depth+1))
		case SemiJoinPredicateNode:
			n.Table, _ = o.str("table", true)
			n.SemiJoin, _ = o.str("semiJoin", true)
			n.SubWhere, _ = member(o, "subWhere", true, d.nodeAt(depth+1))
		}
		return true
	})
	return &n
}

// predicate reads a predicate node: an operator, exactly one of column,
// field or aggregate, and the value.
func (d *decoder) predicate(o *object, n *Node) {
	n.ComparisonOperator, _ = enumField(o, "comparisonOperator", ComparisonOperators, true)
	refs := 0
	var ok bool
	if n.Column, ok = member(o, "column", false, d.columnRefPtr); ok {
		refs++
	}
	if n.Field, ok = o.str("field", false); ok {
		refs++
	}
	if n.Aggregate, ok = member(o, "aggregate", false, d.aggregate); ok {
		refs++
	}
	if refs != 1 {
		d.add(o.path, lastSegment(o.path)+" must have exactly one of column, field or aggregate")
	}
	n.Value, _ = member(o, "value", false, d.value)
}

func (d *decoder) value(v any, path string) *Value {
	if arr, ok := v.([]any); ok {
		val := &Value{List: true, Items: make([]any, 0, len(arr))}
		for i, item := range arr {
			s, ok := scalar(item)
			if !ok {
				p := index(path, i)
				d.add(p, lastSegment(p)+" must be a string, number or boolean")
			}
			val.Items = append(val.Items, s)
		}
		return val
	}
	s, ok := scalar(v)
	if !ok {
		d.add(path, lastSegment(path)+" must be a string, number, boolean or an array of them")
	}
	return &Value{Items: []any{s}}
}
