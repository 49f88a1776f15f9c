package graph

import (
	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/graph/model"
	"github.com/reten-io/reten/internal/criteria"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// storedBlock decodes a stored block's clauses (stored definitions always
// decode; a failure is an internal error).
func storedBlock(b *ent.QueryBlock) (qb.Block, error) {
	def, err := criteria.Definition([]*ent.QueryBlock{b})
	if err != nil {
		return qb.Block{}, err
	}
	return def.Blocks[0], nil
}

// presentClause decodes a stored block and presents one of its clauses.
func presentClause[T any](b *ent.QueryBlock, present func(qb.Block) T) (T, error) {
	blk, err := storedBlock(b)
	if err != nil {
		var zero T
		return zero, err
	}
	return present(blk), nil
}

func presentColumnRef(r qb.ColumnRef) *model.ColumnRef {
	return &model.ColumnRef{Table: r.Table, Column: r.Column}
}

func presentColumnRefPtr(r *qb.ColumnRef) *model.ColumnRef {
	if r == nil {
		return nil
	}
	return presentColumnRef(*r)
}

func presentFrom(b qb.Block) *model.QueryFrom {
	f := b.From
	return &model.QueryFrom{Table: f.Table, Unnests: mapAll(f.Unnests, presentColumnRef),
		Joins: mapAll(f.Joins, func(j qb.Join) *model.QueryJoin {
			return &model.QueryJoin{Type: model.JoinType(j.Type), Table: j.Table, On: mapAll(j.On, func(on qb.JoinOn) *model.QueryJoinOn {
				return &model.QueryJoinOn{Left: presentColumnRef(on.Left), Right: presentColumnRef(on.Right)}
			})}
		})}
}

func presentSelect(b qb.Block) *model.QuerySelect {
	return &model.QuerySelect{Distinct: b.Select.Distinct, Items: mapAll(b.Select.Items, func(it qb.SelectItem) *model.QuerySelectItem {
		out := &model.QuerySelectItem{Kind: model.SelectItemKind(it.Kind), Column: presentColumnRefPtr(it.Column), Aggregate: presentAggregate(it.Aggregate)}
		if it.Alias != "" {
			out.Alias = &it.Alias
		}
		return out
	})}
}

func presentAggregate(a *qb.Aggregate) *model.QueryAggregate {
	if a == nil {
		return nil
	}
	out := &model.QueryAggregate{Operator: model.AggregateOperator(a.Operator)}
	switch op := a.Operand; {
	case op.Star:
		out.Operand = &model.AggregateStar{Star: true}
	case op.Column != nil:
		out.Operand = presentColumnRef(*op.Column)
	case op.Expr != nil:
		out.Operand = presentArithmetic(op.Expr)
	}
	return out
}

func presentArithmetic(e *qb.Arithmetic) *model.ArithmeticExpression {
	return &model.ArithmeticExpression{Operator: model.ArithmeticOperator(e.Operator), Left: presentArithmeticOperand(e.Left),
		Right: presentArithmeticOperand(e.Right)}
}

func presentArithmeticOperand(op qb.Operand) model.ArithmeticOperand {
	switch {
	case op.Column != nil:
		return presentColumnRef(*op.Column)
	case op.Expr != nil:
		return presentArithmetic(op.Expr)
	}
	return &model.NumberLiteral{Number: op.Number}
}

func presentTimeWindow(b qb.Block) *model.TimeWindow {
	w := b.TimeWindow
	if w == nil {
		return nil
	}
	out := &model.TimeWindow{TimeOperator: model.TimeOperator(w.Operator)}
	if w.Operator != qb.AllTime {
		out.Reference = presentColumnRefPtr(w.Reference)
	}
	switch w.Operator {
	case qb.InTheLast, qb.InTheFirst:
		unit, value := model.TimeUnit(w.Unit), w.Value
		out.Unit, out.Value = &unit, &value
	case qb.Since:
		out.From = &w.From
	case qb.BetweenTime:
		out.From, out.To = &w.From, &w.To
	}
	return out
}

func presentWhere(b qb.Block) model.FilterNode  { return presentNode(b.Where) }
func presentHaving(b qb.Block) model.FilterNode { return presentNode(b.Having) }

func presentGroupBy(b qb.Block) []*model.ColumnRef {
	if b.GroupBy == nil {
		return nil
	}
	return mapAll(b.GroupBy, presentColumnRef)
}

// presentNode presents a filter tree (nil for none).
func presentNode(n *qb.Node) model.FilterNode {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case qb.GroupNode:
		return &model.FilterGroup{LogicalOperator: model.LogicalOperator(n.LogicalOperator),
			Children: mapAll(n.Children, func(ch qb.Node) model.FilterNode { return presentNode(&ch) })}
	case qb.RecordPredicateNode:
		return &model.FilterRecordPredicate{Column: presentColumnRefPtr(n.Column), SubWhere: presentNode(n.SubWhere)}
	case qb.SemiJoinPredicateNode:
		return &model.FilterSemiJoinPredicate{Table: n.Table, SemiJoin: n.SemiJoin, SubWhere: presentNode(n.SubWhere)}
	}
	out := &model.FilterPredicate{ComparisonOperator: model.ComparisonOperator(n.ComparisonOperator),
		Column: presentColumnRefPtr(n.Column), Aggregate: presentAggregate(n.Aggregate)}
	if n.Column == nil && n.Aggregate == nil {
		out.Field = &n.Field
	}
	if v := n.Value; v != nil {
		if v.List {
			out.Value = append([]any{}, v.Items...)
		} else if len(v.Items) > 0 {
			out.Value = v.Items[0]
		}
	}
	return out
}
