package querybuilder

import "strconv"

func (d *decoder) block(v any, path string) Block {
	var b Block
	o, ok := d.object(v, path)
	if !ok {
		return b
	}
	o.get("id", false) // assigned by the service: accepted and ignored
	b.Order, _ = o.integer("order", true)
	if op, ok := enumField(o, "setOperator", SetOperators, false); ok {
		b.SetOperator = &op
	}
	if v, ok := o.get("from", true); ok {
		b.From = d.from(v, o.at("from"))
	}
	if v, ok := o.get("select", true); ok {
		b.Select = d.selectClause(v, o.at("select"))
	}
	if v, ok := o.get("timeWindow", false); ok {
		b.TimeWindow = d.timeWindow(v, o.at("timeWindow"))
	}
	if v, ok := o.get("where", false); ok {
		b.Where = d.node(v, o.at("where"), 1)
	}
	if arr, ok := o.array("groupBy", false); ok {
		b.GroupBy = make([]ColumnRef, len(arr))
		for i, item := range arr {
			b.GroupBy[i] = d.columnRef(item, index(o.at("groupBy"), i))
		}
	}
	if v, ok := o.get("having", false); ok {
		b.Having = d.node(v, o.at("having"), 1)
	}
	o.done()
	return b
}

func (d *decoder) from(v any, path string) From {
	f := From{Joins: []Join{}, Unnests: []ColumnRef{}}
	o, ok := d.object(v, path)
	if !ok {
		return f
	}
	f.Table, _ = o.str("table", true)
	joins, _ := o.array("joins", false)
	for i, item := range joins {
		f.Joins = append(f.Joins, d.join(item, index(o.at("joins"), i)))
	}
	unnests, _ := o.array("unnests", false)
	for i, item := range unnests {
		f.Unnests = append(f.Unnests, d.columnRef(item, index(o.at("unnests"), i)))
	}
	o.done()
	return f
}

func (d *decoder) join(v any, path string) Join {
	var j Join
	o, ok := d.object(v, path)
	if !ok {
		return j
	}
	j.Type, _ = enumField(o, "type", JoinTypes, true)
	j.Table, _ = o.str("table", true)
	on, _ := o.array("on", true)
	for i, item := range on {
		p := index(o.at("on"), i)
		var c JoinOn
		if co, ok := d.object(item, p); ok {
			if v, ok := co.get("left", true); ok {
				c.Left = d.columnRef(v, co.at("left"))
			}
			if v, ok := co.get("right", true); ok {
				c.Right = d.columnRef(v, co.at("right"))
			}
			co.done()
		}
		j.On = append(j.On, c)
	}
	o.done()
	return j
}

func (d *decoder) columnRef(v any, path string) ColumnRef {
	var c ColumnRef
	o, ok := d.object(v, path)
	if !ok {
		return c
	}
	c.Table, _ = o.str("table", true)
	c.Column, _ = o.str("column", true)
	o.done()
	return c
}

func (d *decoder) selectClause(v any, path string) Select {
	var s Select
	o, ok := d.object(v, path)
	if !ok {
		return s
	}
	s.Distinct = o.boolean("distinct")
	items, _ := o.array("items", true)
	s.Items = make([]SelectItem, 0, len(items))
	for i, item := range items {
		s.Items = append(s.Items, d.selectItem(item, index(o.at("items"), i)))
	}
	o.done()
	return s
}

func (d *decoder) selectItem(v any, path string) SelectItem {
	var it SelectItem
	o, ok := d.object(v, path)
	if !ok {
		return it
	}
	it.Kind, ok = enumField(o, "kind", SelectKinds, true)
	if !ok {
		return it // without a kind the other properties cannot be judged
	}
	if it.Kind == ColumnItem {
		if v, ok := o.get("column", true); ok {
			c := d.columnRef(v, o.at("column"))
			it.Column = &c
		}
	} else if v, ok := o.get("aggregate", true); ok {
		it.Aggregate = d.aggregate(v, o.at("aggregate"))
	}
	it.Alias, _ = o.str("alias", false)
	o.done()
	return it
}

func (d *decoder) aggregate(v any, path string) *Aggregate {
	a := &Aggregate{}
	o, ok := d.object(v, path)
	if !ok {
		return a
	}
	a.Operator, _ = enumField(o, "operator", AggregateOperators, true)
	if v, ok := o.get("operand", true); ok {
		a.Operand = d.operand(v, o.at("operand"), true, 1)
	}
	o.done()
	return a
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
		c := d.columnRef(v, path)
		return Operand{Column: &c}
	}
	o, _ := d.object(v, path)
	e := &Arithmetic{}
	e.Operator, _ = enumField(o, "operator", ArithmeticOperators, true)
	if v, ok := o.get("left", true); ok {
		e.Left = d.operand(v, o.at("left"), false, depth+1)
	}
	if v, ok := o.get("right", true); ok {
		e.Right = d.operand(v, o.at("right"), false, depth+1)
	}
	o.done()
	return Operand{Expr: e}
}

func (d *decoder) timeWindow(v any, path string) *TimeWindow {
	w := &TimeWindow{}
	o, ok := d.object(v, path)
	if !ok {
		return w
	}
	w.Operator, ok = enumField(o, "timeOperator", TimeOperators, true)
	if !ok {
		return w
	}
	if w.Operator != AllTime {
		if v, ok := o.get("reference", false); ok {
			c := d.columnRef(v, o.at("reference"))
			w.Reference = &c
		}
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
	o.done()
	return w
}

func (d *decoder) node(v any, path string, depth int) *Node {
	n := &Node{}
	if depth > maxDepth {
		d.add(path, lastSegment(path)+" nests too deeply (at most "+strconv.Itoa(maxDepth)+" levels)")
		return n
	}
	o, ok := d.object(v, path)
	if !ok {
		return n
	}
	n.Kind, ok = enumField(o, "kind", NodeKinds, true)
	if !ok {
		return n // without a kind the other properties cannot be judged
	}
	switch n.Kind {
	case GroupNode:
		n.LogicalOperator, _ = enumField(o, "logicalOperator", LogicalOperators, true)
		children, _ := o.array("children", true)
		n.Children = make([]Node, 0, len(children))
		for i, c := range children {
			n.Children = append(n.Children, *d.node(c, index(o.at("children"), i), depth+1))
		}
	case PredicateNode:
		n.ComparisonOperator, _ = enumField(o, "comparisonOperator", ComparisonOperators, true)
		refs := 0
		if v, ok := o.get("column", false); ok {
			c := d.columnRef(v, o.at("column"))
			n.Column, refs = &c, refs+1
		}
		if s, ok := o.str("field", false); ok {
			n.Field, refs = s, refs+1
		}
		if v, ok := o.get("aggregate", false); ok {
			n.Aggregate, refs = d.aggregate(v, o.at("aggregate")), refs+1
		}
		if refs != 1 {
			d.add(path, lastSegment(path)+" must have exactly one of column, field or aggregate")
		}
		if v, ok := o.get("value", false); ok {
			n.Value = d.value(v, o.at("value"))
		}
	case RecordPredicateNode:
		if v, ok := o.get("column", true); ok {
			c := d.columnRef(v, o.at("column"))
			n.Column = &c
		}
		if v, ok := o.get("subWhere", true); ok {
			n.SubWhere = d.node(v, o.at("subWhere"), depth+1)
		}
	case SemiJoinPredicateNode:
		n.Table, _ = o.str("table", true)
		n.SemiJoin, _ = o.str("semiJoin", true)
		if v, ok := o.get("subWhere", true); ok {
			n.SubWhere = d.node(v, o.at("subWhere"), depth+1)
		}
	}
	o.done()
	return n
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
