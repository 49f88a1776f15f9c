package querybuilder

import "strings"

// subScope is where the predicates of a subWhere find their fields: the
// element row of a record (record) or a row of a related table (related).
type subScope struct {
	alias   string
	record  *Column
	related *Table
}

// node writes a filter tree. sub is set inside a subWhere; items are the
// select items when compiling having (fields name aggregate aliases).
func (c *compiler) node(b *strings.Builder, n *Node, s *scope, sub *subScope, items []SelectItem) {
	switch n.Kind {
	case GroupNode:
		if len(n.Children) == 1 {
			c.node(b, &n.Children[0], s, sub, items)
			return
		}
		sep := " AND "
		if n.LogicalOperator == Or {
			sep = " OR "
		}
		b.WriteByte('(')
		for i := range n.Children {
			if i > 0 {
				b.WriteString(sep)
			}
			c.node(b, &n.Children[i], s, sub, items)
		}
		b.WriteByte(')')
	case PredicateNode:
		x, t := c.predicateOperand(n, s, sub, items)
		c.comparison(b, x, t, n)
	case RecordPredicateNode:
		r, _ := s.resolve(*n.Column, len(s.tables), false)
		a := c.nextAlias("r")
		b.WriteString("EXISTS (SELECT 1 FROM ")
		b.WriteString(c.d.elements(c.col(r), a))
		b.WriteString(" WHERE ")
		c.node(b, n.SubWhere, s, &subScope{alias: a, record: r.col}, nil)
		b.WriteByte(')')
	default:
		c.semiJoin(b, n, s)
	}
}

func (c *compiler) predicateOperand(n *Node, s *scope, sub *subScope, items []SelectItem) (string, FieldType) {
	switch {
	case n.Column != nil:
		r, _ := s.resolve(*n.Column, len(s.tables), true)
		return c.col(r), r.typ()
	case n.Aggregate != nil:
		var b strings.Builder
		t := c.aggregate(&b, n.Aggregate, s)
		return b.String(), t
	case sub == nil: // having: the alias of an aggregate select item
		for _, it := range items {
			if it.Kind == AggregateItem && strings.EqualFold(it.Alias, n.Field) {
				var b strings.Builder
				t := c.aggregate(&b, it.Aggregate, s)
				return b.String(), t
			}
		}
	case sub.record != nil:
		f, _ := sub.record.SubField(n.Field)
		return c.d.field(sub.alias, f), f.Type
	default:
		col, _ := sub.related.Column(n.Field)
		return sub.alias + "." + c.ident(col.Name), col.Type
	}
	return "NULL", TypeString // unreachable after validation
}

// comparisonSQL spells the operators written between x and the value(s);
// the text operators (CONTAINS, STARTS_WITH ...) are the dialect's.
var comparisonSQL = map[ComparisonOperator]string{
	Equals: " = ", NotEquals: " <> ", GreaterThan: " > ", LessThan: " < ",
	GreaterThanOrEqual: " >= ", LessThanOrEqual: " <= ",
	IsNull: " IS NULL", IsNotNull: " IS NOT NULL", In: " IN (", NotIn: " NOT IN (", Between: " BETWEEN ",
}

// comparison writes x <op> value. NOT_EQUALS, NOT_IN and NOT_CONTAINS keep
// SQL's three-valued logic: a NULL x matches neither a condition nor its
// negation (use IS_NULL to select NULLs).
func (c *compiler) comparison(b *strings.Builder, x string, t FieldType, n *Node) {
	op := n.ComparisonOperator
	if infix, ok := comparisonSQL[op]; ok {
		b.WriteString(x)
		b.WriteString(infix)
		switch op {
		case IsNull, IsNotNull:
		case In, NotIn:
			for i, item := range n.Value.Items {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(c.value(item, t))
			}
			b.WriteByte(')')
		case Between:
			b.WriteString(c.value(n.Value.Items[0], t))
			b.WriteString(" AND ")
			b.WriteString(c.value(n.Value.Items[1], t))
		default:
			b.WriteString(c.value(n.Value.Items[0], t))
		}
		return
	}
	v := c.value(n.Value.Items[0], t)
	switch op {
	case Contains:
		b.WriteString(c.d.position(x, v))
		b.WriteString(" > 0")
	case NotContains:
		b.WriteString(c.d.position(x, v))
		b.WriteString(" = 0")
	case StartsWith:
		b.WriteString(c.d.startsWith(x, v))
	case EndsWith:
		b.WriteString(c.d.endsWith(x, v))
	}
}

// value binds a validated JSON scalar as type t.
func (c *compiler) value(v any, t FieldType) string {
	norm, _ := normalize(v, t)
	return c.bind(norm)
}

// semiJoin writes EXISTS over the related table matched on the declared
// keys; a key on a record sub-field matches any element of the record.
func (c *compiler) semiJoin(b *strings.Builder, n *Node, s *scope) {
	ti := s.tableIndex(n.Table, len(s.tables))
	t := s.tables[ti]
	sj, _ := t.SemiJoin(n.SemiJoin)
	related, _ := c.cat.Table(sj.ToTable)
	keys, _ := semiJoinKeys(t, related, sj)
	a := c.nextAlias("s")
	var elem string
	b.WriteString("EXISTS (SELECT 1 FROM ")
	for _, k := range keys {
		if k.sub != nil {
			elem = c.nextAlias("e")
			b.WriteString(c.d.elements(c.col(resolved{table: ti, col: k.left}), elem))
			b.WriteString(" INNER JOIN ")
			break
		}
	}
	b.WriteString(c.table(related.Name))
	b.WriteString(" AS ")
	b.WriteString(a)
	if elem != "" {
		b.WriteString(" ON ")
	} else {
		b.WriteString(" WHERE ")
	}
	for i, k := range keys {
		if i > 0 {
			b.WriteString(" AND ")
		}
		b.WriteString(a)
		b.WriteByte('.')
		b.WriteString(c.ident(k.right.Name))
		b.WriteString(" = ")
		if k.sub != nil {
			b.WriteString(c.d.field(elem, k.sub))
		} else {
			b.WriteString(c.col(resolved{table: ti, col: k.left}))
		}
	}
	if elem != "" {
		b.WriteString(" WHERE ")
	} else {
		b.WriteString(" AND ")
	}
	c.node(b, n.SubWhere, s, &subScope{alias: a, related: related}, nil)
	b.WriteByte(')')
}

// aggregate writes an IAggregate and returns its result type.
func (c *compiler) aggregate(b *strings.Builder, a *Aggregate, s *scope) FieldType {
	if a.Operand.Star {
		b.WriteString("COUNT(*)")
		return TypeInt64
	}
	x, t := c.operand(&a.Operand, s)
	rt, _ := aggregateResult(a.Operator, t)
	b.WriteString(string(a.Operator))
	b.WriteByte('(')
	b.WriteString(x)
	b.WriteByte(')')
	return rt
}

func (c *compiler) operand(o *Operand, s *scope) (string, FieldType) {
	switch {
	case o.Column != nil:
		r, _ := s.resolve(*o.Column, len(s.tables), true)
		return c.col(r), r.typ()
	case o.Expr != nil:
		return c.arithmetic(o.Expr, s)
	}
	t, text, _ := numberLiteral(o.Number)
	return c.d.number(text, t), t
}

var arithmeticSQL = map[ArithmeticOperator]string{Add: " + ", Subtract: " - ", Multiply: " * "}

func (c *compiler) arithmetic(e *Arithmetic, s *scope) (string, FieldType) {
	l, lt := c.operand(&e.Left, s)
	r, rt := c.operand(&e.Right, s)
	t := arithmeticResult(e.Operator, lt, rt)
	if e.Operator == SafeDivide {
		return c.d.safeDivide(l, r, t == TypeFloat64 && lt != TypeFloat64 && rt != TypeFloat64), t
	}
	return "(" + l + arithmeticSQL[e.Operator] + r + ")", t
}
