package graph

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/reten-io/reten/graph/model"
	"github.com/reten-io/reten/internal/audience"
	"github.com/reten-io/reten/internal/criteria"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// qbArg is a typed queryBlocks argument converted to the JSON document the
// REST adapter hands the service (SPEC.md "Query block"), so that decoding
// and validation run once, in the service, with the same messages. paths
// translates the service's paths (REST member names) to the argument's:
// a filter node or an aggregate operand, which GraphQL wraps in a @oneOf
// member, gains that member's name (queryBlocks[0].where.children[1].value
// is queryBlocks[0].where.group.children[1].predicate.value).
type qbArg struct {
	// blocks is the JSON array (numbers as json.Number); nil when not sent.
	blocks any
	// paths maps the REST path of every wrapped value to its GraphQL path.
	paths map[string]string
}

// qbBlocks converts a queryBlocks argument. A @oneOf input with other than
// exactly one member (possible through variables) is a 400 at its path.
func qbBlocks(in []*model.QueryBlockInput) (qbArg, error) {
	c := &qbConv{paths: map[string]string{}}
	if in == nil {
		return qbArg{paths: c.paths}, nil
	}
	arr := make([]any, len(in))
	for i, b := range in {
		p := fmt.Sprintf("%s[%d]", criteria.Path, i)
		arr[i] = c.block(b, p)
	}
	if len(c.issues) > 0 {
		return qbArg{}, criteria.Invalid(c.issues)
	}
	v, err := jsonNumbers(arr)
	return qbArg{blocks: v, paths: c.paths}, err
}

// jsonNumbers re-reads v as encoding/json does with UseNumber: literal
// numbers of a query (int64, float64) become json.Number like those of
// variables, which is what the definition decoder takes.
func jsonNumbers(v any) (any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("graph: encode queryBlocks: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("graph: decode queryBlocks: %w", err)
	}
	return out, nil
}

type qbConv struct {
	paths  map[string]string
	issues []qb.Issue
}

// obj is a JSON object under construction: set skips absent members.
type obj map[string]any

func (o obj) set(key string, v any, present bool) {
	if present {
		o[key] = v
	}
}

func (c *qbConv) block(b *model.QueryBlockInput, path string) obj {
	o := obj{"order": b.Order, "from": c.from(b.From, path+".from"), "select": c.selectClause(b.Select, path+".select")}
	if b.SetOperator != nil {
		o["setOperator"] = b.SetOperator.String()
	}
	if w := b.TimeWindow; w != nil {
		o["timeWindow"] = c.timeWindow(w, path+".timeWindow")
	}
	if b.Where != nil {
		o["where"] = c.node(b.Where, path+".where", path+".where")
	}
	if b.GroupBy != nil {
		o["groupBy"] = mapAll(b.GroupBy, columnRef)
	}
	if b.Having != nil {
		o["having"] = c.node(b.Having, path+".having", path+".having")
	}
	return o
}

func columnRef(r *model.ColumnRefInput) any {
	if r == nil {
		return nil
	}
	return obj{"table": r.Table, "column": r.Column}
}

func (c *qbConv) from(f *model.QueryFromInput, path string) obj {
	o := obj{"table": f.Table}
	if f.Joins != nil {
		o["joins"] = mapAll(f.Joins, func(j *model.QueryJoinInput) any {
			return obj{"type": string(j.Type), "table": j.Table, "on": mapAll(j.On, func(on *model.QueryJoinOnInput) any {
				return obj{"left": columnRef(on.Left), "right": columnRef(on.Right)}
			})}
		})
	}
	if f.Unnests != nil {
		o["unnests"] = mapAll(f.Unnests, columnRef)
	}
	return o
}

func (c *qbConv) selectClause(s *model.QuerySelectInput, path string) obj {
	o := obj{}
	if s.Distinct != nil {
		o["distinct"] = *s.Distinct
	}
	items := make([]any, len(s.Items))
	for i, it := range s.Items {
		p := fmt.Sprintf("%s.items[%d]", path, i)
		item := obj{"kind": string(it.Kind)}
		item.set("column", columnRef(it.Column), it.Column != nil)
		if it.Aggregate != nil {
			item["aggregate"] = c.aggregate(it.Aggregate, p+".aggregate", p+".aggregate")
		}
		item.set("alias", deref(it.Alias), it.Alias != nil)
		items[i] = item
	}
	o["items"] = items
	return o
}

func (c *qbConv) timeWindow(w *model.TimeWindowInput, path string) obj {
	o := obj{"timeOperator": string(w.TimeOperator)}
	o.set("reference", columnRef(w.Reference), w.Reference != nil)
	if w.Unit != nil {
		o["unit"] = string(*w.Unit)
	}
	o.set("value", derefInt(w.Value), w.Value != nil)
	o.set("from", deref(w.From), w.From != nil)
	o.set("to", deref(w.To), w.To != nil)
	return o
}

func derefInt(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}

// oneOf records the member a @oneOf input uses: rest is the value's REST
// path, gql its GraphQL path; with other than one member it is an issue.
func (c *qbConv) oneOf(typ, rest, gql string, members map[string]bool) (string, bool) {
	var set, names []string
	for name, ok := range members {
		names = append(names, name)
		if ok {
			set = append(set, name)
		}
	}
	if len(set) != 1 {
		sort.Strings(names)
		c.issues = append(c.issues, qb.Issue{Path: gql, Message: typ + " must have exactly one of " + strings.Join(names, ", ")})
		return "", false
	}
	c.paths[rest] = gql + "." + set[0]
	return set[0], true
}

// node converts a filter node to its kind-discriminated REST form.
func (c *qbConv) node(n *model.FilterNodeInput, rest, gql string) any {
	kind, ok := c.oneOf("FilterNodeInput", rest, gql, map[string]bool{"group": n.Group != nil, "predicate": n.Predicate != nil,
		"recordPredicate": n.RecordPredicate != nil, "semiJoinPredicate": n.SemiJoinPredicate != nil})
	if !ok {
		return nil
	}
	gql += "." + kind
	o := obj{"kind": kind}
	switch kind {
	case "group":
		g := n.Group
		o["logicalOperator"] = string(g.LogicalOperator)
		children := make([]any, len(g.Children))
		for i, ch := range g.Children {
			children[i] = c.node(ch, fmt.Sprintf("%s.children[%d]", rest, i), fmt.Sprintf("%s.children[%d]", gql, i))
		}
		o["children"] = children
	case "predicate":
		p := n.Predicate
		o["comparisonOperator"] = string(p.ComparisonOperator)
		o.set("column", columnRef(p.Column), p.Column != nil)
		o.set("field", deref(p.Field), p.Field != nil)
		if p.Aggregate != nil {
			o["aggregate"] = c.aggregate(p.Aggregate, rest+".aggregate", gql+".aggregate")
		}
		o.set("value", p.Value, p.Value != nil)
	case "recordPredicate":
		r := n.RecordPredicate
		o["column"] = columnRef(r.Column)
		o["subWhere"] = c.node(r.SubWhere, rest+".subWhere", gql+".subWhere")
	case "semiJoinPredicate":
		s := n.SemiJoinPredicate
		o["table"], o["semiJoin"] = s.Table, s.SemiJoin
		o["subWhere"] = c.node(s.SubWhere, rest+".subWhere", gql+".subWhere")
	}
	return o
}

func (c *qbConv) aggregate(a *model.QueryAggregateInput, rest, gql string) obj {
	o := obj{"operator": string(a.Operator)}
	op := a.Operand
	kind, ok := c.oneOf("AggregateOperandInput", rest+".operand", gql+".operand",
		map[string]bool{"star": op.Star != nil, "column": op.Column != nil, "arithmetic": op.Arithmetic != nil})
	switch {
	case !ok:
	case kind == "star" && !*op.Star:
		c.issues = append(c.issues, qb.Issue{Path: gql + ".operand.star", Message: "star must be true"})
	case kind == "star":
		o["operand"] = "*"
	case kind == "column":
		o["operand"] = columnRef(op.Column)
	default:
		o["operand"] = c.arithmetic(op.Arithmetic, rest+".operand", gql+".operand.arithmetic")
	}
	return o
}

func (c *qbConv) arithmetic(e *model.ArithmeticExpressionInput, rest, gql string) obj {
	return obj{"operator": string(e.Operator), "left": c.arithmeticOperand(e.Left, rest+".left", gql+".left"),
		"right": c.arithmeticOperand(e.Right, rest+".right", gql+".right")}
}

func (c *qbConv) arithmeticOperand(op *model.ArithmeticOperandInput, rest, gql string) any {
	kind, ok := c.oneOf("ArithmeticOperandInput", rest, gql,
		map[string]bool{"column": op.Column != nil, "number": op.Number != nil, "arithmetic": op.Arithmetic != nil})
	switch {
	case !ok:
		return nil
	case kind == "column":
		return columnRef(op.Column)
	case kind == "number":
		return op.Number
	}
	return c.arithmetic(op.Arithmetic, rest, gql+".arithmetic")
}

// path translates a path the service reports to the argument's names:
// the longest recorded REST prefix is replaced by its GraphQL path, and a
// composition's members are named as AudienceCompositionInput's.
func (a qbArg) path(p string) string {
	best := ""
	for rest := range a.paths {
		if len(rest) > len(best) && strings.HasPrefix(p, rest) && (len(p) == len(rest) || p[len(rest)] == '.' || p[len(rest)] == '[') {
			best = rest
		}
	}
	if best != "" {
		p = a.paths[best] + p[len(best):]
	}
	if strings.HasPrefix(p, audience.CompositionsPath+"[") {
		for rest, gql := range compositionMembers {
			if strings.HasSuffix(p, "."+rest) {
				return strings.TrimSuffix(p, rest) + gql
			}
		}
	}
	return p
}

// compositionMembers are the GraphQL names of a composition's REST members.
var compositionMembers = map[string]string{
	audience.OperandMember: "operandAudienceID", audience.SetOperatorMember: "setOperator",
}

// err translates the paths that start the messages of a definition's 400
// ("queryBlocks[0].where.children[1]: ...").
func (a qbArg) err(err error) error {
	return translateMessages(err, func(m string) string {
		if at := strings.Index(m, ": "); at > 0 && (strings.HasPrefix(m, criteria.Path+"[") || strings.HasPrefix(m, audience.CompositionsPath+"[")) {
			return a.path(m[:at]) + m[at:]
		}
		return m
	})
}

// issues translates the paths of a validation answer.
func (a qbArg) issues(in []qb.Issue) []qb.Issue {
	return mapAll(in, func(is qb.Issue) qb.Issue { return qb.Issue{Path: a.path(is.Path), Message: is.Message} })
}

// formatArg is a format argument as the services take it ("" is the default).
func formatArg(f *model.SQLFormat) string {
	if f == nil {
		return ""
	}
	return string(*f)
}
