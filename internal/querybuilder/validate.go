package querybuilder

import (
	"fmt"
	"strconv"
	"strings"
)

// Messages SPEC.md spells exactly, and the root of validation paths.
const (
	// MsgInTheFirstUnsupported rejects IN_THE_FIRST in event filters.
	MsgInTheFirstUnsupported = "timeWindow IN_THE_FIRST is not supported: the catalog does not declare a lifetime origin."
	// MsgEmptyDefinition rejects a definition without blocks.
	MsgEmptyDefinition = "queryBlocks should not be empty"
	// RootPath starts every path Validate reports.
	RootPath = "queryBlocks"
)

// maxAliasLength bounds select item aliases.
const maxAliasLength = 128

// Validate checks a definition against the catalog, failing closed: every
// reference must exist, every operator and value must fit its column type,
// and the block structure must be sound (SPEC.md "Query block" and the rules
// listed in the package documentation). It returns one issue per broken
// rule, each pointing at the offending node (paths start with RootPath and
// use the blocks' positions in def.Blocks); none means the definition
// compiles in every dialect.
func Validate(def Definition, cat *Catalog, kind Kind) []Issue {
	return validate(def, cat, kind, RootPath)
}

func validate(def Definition, cat *Catalog, kind Kind, root string) []Issue {
	if cat == nil {
		cat = &Catalog{}
	}
	v := &validator{cat: cat, kind: kind, path: make([]byte, 0, 96)}
	v.path = append(v.path, root...)
	if kind != EventFilter && kind != Audience {
		v.fail("", "the definition kind must be an event filter or an audience")
		return v.issues
	}
	v.definition(def)
	return v.issues
}

type validator struct {
	cat    *Catalog
	kind   Kind
	issues []Issue
	path   []byte // the path of the node being checked; issues copy it
}

func (v *validator) fail(suffix, msg string) {
	v.issues = append(v.issues, Issue{Path: string(v.path) + suffix, Message: msg})
}

func (v *validator) push(seg string) int {
	n := len(v.path)
	v.path = append(v.path, seg...)
	return n
}

func (v *validator) pushIndex(seg string, i int) int {
	n := len(v.path)
	v.path = append(v.path, seg...)
	v.path = append(v.path, '[')
	v.path = strconv.AppendInt(v.path, int64(i), 10)
	v.path = append(v.path, ']')
	return n
}

func (v *validator) pop(n int) { v.path = v.path[:n] }

// blockShape is what set operators compare between blocks.
type blockShape struct {
	ok      bool
	types   []FieldType
	records []int // positions of RECORD or repeated column items
}

func (v *validator) definition(def Definition) {
	n := len(def.Blocks)
	if n == 0 {
		v.fail("", MsgEmptyDefinition)
		return
	}
	shapes := make([]blockShape, n)
	byOrder := make([]int, n)
	for i := range byOrder {
		byOrder[i] = -1
	}
	ordersOK, identity, distinctSet := true, false, false
	for i := range def.Blocks {
		b := &def.Blocks[i]
		mark := v.pushIndex("", i)
		switch {
		case b.Order < 0 || b.Order >= n:
			v.fail(".order", fmt.Sprintf("order must be between 0 and %d: blocks are numbered 0..n-1", n-1))
			ordersOK = false
		case byOrder[b.Order] >= 0:
			v.fail(".order", fmt.Sprintf("order %d is used by more than one block", b.Order))
			ordersOK = false
		default:
			byOrder[b.Order] = i
		}
		if b.SetOperator != nil {
			if _, ok := SetOperators.Parse(string(*b.SetOperator)); !ok {
				v.fail(".setOperator", SetOperators.Message("setOperator"))
			}
			distinctSet = distinctSet || *b.SetOperator != UnionAll
		}
		if b.Order == 0 && b.SetOperator != nil {
			v.fail(".setOperator", "setOperator must be null on the first block (order 0)")
		} else if b.Order > 0 && b.SetOperator == nil {
			v.fail(".setOperator", "setOperator is required on every block after the first (order > 0)")
		}
		var selectsIdentity bool
		shapes[i], selectsIdentity = v.block(b)
		identity = identity || selectsIdentity
		v.pop(mark)
	}
	if ordersOK {
		v.setOperands(def, shapes, byOrder, distinctSet)
	}
	if v.kind == Audience && !identity {
		v.fail("", "an audience must select an identity column ("+identityList(v.cat)+") as a column select item in at least one block")
	}
}

// setOperands checks that the blocks combined by set operators line up by
// position with the first block.
func (v *validator) setOperands(def Definition, shapes []blockShape, byOrder []int, distinctSet bool) {
	first := shapes[byOrder[0]]
	for i, s := range shapes {
		mark := v.pushIndex("", i)
		if distinctSet {
			for _, p := range s.records {
				v.fail(fmt.Sprintf(".select.items[%d]", p), "a RECORD or repeated column cannot be selected when blocks are combined with UNION_DISTINCT or INTERSECT_DISTINCT")
			}
		}
		if i != byOrder[0] && s.ok && first.ok && def.Blocks[i].SetOperator != nil {
			op := string(*def.Blocks[i].SetOperator)
			if len(s.types) != len(first.types) {
				v.fail(".select.items", fmt.Sprintf("items must have as many items as the first block (%d) to be combined with %s", len(first.types), op))
			} else {
				for p, t := range s.types {
					if !comparableTypes(t, first.types[p]) {
						v.fail(fmt.Sprintf(".select.items[%d]", p), fmt.Sprintf("items[%d] is %s but the first block's item at that position is %s; %s combines items by position", p, t, first.types[p], op))
					}
				}
			}
		}
		v.pop(mark)
	}
}

func identityList(cat *Catalog) string {
	var names []string
	for _, t := range cat.Tables {
		for _, c := range t.Columns {
			if c.IsIdentity {
				names = append(names, t.Name+"."+c.Name)
			}
		}
	}
	if len(names) == 0 {
		return "the catalog declares none"
	}
	return strings.Join(names, ", ")
}

func (v *validator) block(b *Block) (blockShape, bool) {
	var sc scope
	sc.init(v.cat, &b.From)
	s := &sc
	v.from(b, s)
	shape, identity, aggs := v.selectClause(b, s)
	v.timeWindow(b, s)
	if b.Where != nil {
		mark := v.push(".where")
		v.filter(b.Where, s, filterCtx{mode: inWhere}, 1)
		v.pop(mark)
	}
	v.grouping(b, s, aggs)
	return shape, identity
}

func (v *validator) from(b *Block, s *scope) {
	mark := v.push(".from")
	defer v.pop(mark)
	if s.tables[0] == nil {
		v.fail(".table", "table "+quoteName(b.From.Table)+" does not exist in the catalog")
	}
	for j := range b.From.Joins {
		join := &b.From.Joins[j]
		jm := v.pushIndex(".joins", j)
		if _, ok := JoinTypes.Parse(string(join.Type)); !ok {
			v.fail(".type", JoinTypes.Message("type"))
		}
		if s.tables[j+1] == nil {
			v.fail(".table", "table "+quoteName(join.Table)+" does not exist in the catalog")
		} else if s.tableIndex(join.Table, j+1) >= 0 {
			v.fail(".table", "table "+join.Table+" appears more than once in this block")
		}
		if len(join.On) == 0 {
			v.fail(".on", "on should not be empty")
		}
		for k, on := range join.On {
			om := v.pushIndex(".on", k)
			l, lmsg := s.resolve(on.Left, j+2, false)
			r, rmsg := s.resolve(on.Right, j+2, false)
			if lmsg != "" {
				v.fail(".left", lmsg)
			}
			if rmsg != "" {
				v.fail(".right", rmsg)
			}
			if lmsg == "" && rmsg == "" {
				switch {
				case !l.scalar() || !r.scalar():
					v.fail("", "join conditions compare scalar columns; RECORD and repeated columns cannot be joined on")
				case (l.table == j+1) == (r.table == j+1):
					v.fail("", "on must compare a column of the joined table "+join.Table+" with a column of a table before it")
				case !comparableTypes(l.typ(), r.typ()):
					v.fail("", fmt.Sprintf("on compares %s.%s (%s) with %s.%s (%s)", on.Left.Table, on.Left.Column, l.typ(), on.Right.Table, on.Right.Column, r.typ()))
				}
			}
			v.pop(om)
		}
		v.pop(jm)
	}
	if v.kind == Audience && len(b.From.Unnests) > 0 {
		v.fail(".unnests", "unnests must be empty in an audience")
		return
	}
	for i, ref := range b.From.Unnests {
		if _, msg := s.unnest(ref); msg != "" {
			v.fail(fmt.Sprintf(".unnests[%d]", i), msg)
		}
	}
}

// aggAlias is an aggregate select item that having may name.
type aggAlias struct {
	alias string
	typ   FieldType
}

func (v *validator) selectClause(b *Block, s *scope) (shape blockShape, identity bool, aggs []aggAlias) {
	mark := v.push(".select")
	defer v.pop(mark)
	items := b.Select.Items
	if len(items) == 0 {
		v.fail(".items", "items should not be empty")
		return shape, false, nil
	}
	shape.ok = true
	shape.types = make([]FieldType, len(items))
	names := make([]string, len(items))
	for i := range items {
		it := &items[i]
		im := v.pushIndex(".items", i)
		var typ FieldType
		ok := false
		switch it.Kind {
		case ColumnItem:
			if it.Column == nil {
				v.fail(".column", "column should not be null or undefined")
				break
			}
			r, msg := s.resolve(*it.Column, len(s.tables), true)
			if msg != "" {
				v.fail(".column", msg)
				break
			}
			typ, ok, names[i] = r.typ(), true, r.col.Name
			if r.sub != nil {
				names[i] = r.sub.Name
			}
			identity = identity || (r.sub == nil && r.col.IsIdentity)
			if !r.scalar() {
				shape.records = append(shape.records, i)
				if b.Select.Distinct || b.GroupBy != nil {
					v.fail(".column", "a RECORD or repeated column cannot be selected with distinct or groupBy")
				}
			}
		case AggregateItem:
			if it.Alias == "" {
				v.fail(".alias", "alias is required for aggregate select items")
			}
			if it.Aggregate == nil {
				v.fail(".aggregate", "aggregate should not be null or undefined")
				break
			}
			am := v.push(".aggregate")
			typ, ok = v.aggregate(it.Aggregate, s)
			v.pop(am)
			if ok && it.Alias != "" {
				aggs = append(aggs, aggAlias{alias: it.Alias, typ: typ})
			}
		default:
			v.fail(".kind", SelectKinds.Message("kind"))
		}
		if it.Alias != "" {
			if !validAlias(it.Alias) {
				v.fail(".alias", "alias must start with a letter or an underscore and contain only letters, digits and underscores (at most 128 characters)")
			}
			names[i] = it.Alias
		}
		for j := 0; j < i; j++ {
			if names[i] != "" && strings.EqualFold(names[i], names[j]) {
				v.fail(".alias", fmt.Sprintf("output column %s is also produced by items[%d]; give each select item a distinct alias", names[i], j))
				break
			}
		}
		shape.types[i] = typ
		shape.ok = shape.ok && ok
		v.pop(im)
	}
	return shape, identity, aggs
}

func validAlias(s string) bool {
	if len(s) == 0 || len(s) > maxAliasLength || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

// grouping checks groupBy against the column select items, and having.
func (v *validator) grouping(b *Block, s *scope, aggs []aggAlias) {
	hasAgg := false
	for _, it := range b.Select.Items {
		hasAgg = hasAgg || it.Kind == AggregateItem
	}
	if b.GroupBy != nil {
		mark := v.push(".groupBy")
		if len(b.GroupBy) == 0 {
			v.fail("", "groupBy should not be empty; send null for no grouping")
		}
		for i, ref := range b.GroupBy {
			r, msg := s.resolve(ref, len(s.tables), true)
			if msg == "" && !r.scalar() {
				msg = "a RECORD or repeated column cannot be grouped by"
			}
			if msg != "" {
				v.fail(fmt.Sprintf("[%d]", i), msg)
			}
		}
		v.pop(mark)
	}
	if b.GroupBy != nil || hasAgg {
		why := "because the block selects aggregates"
		if b.GroupBy != nil {
			why = "because the block groups"
		}
		for i, it := range b.Select.Items {
			if it.Kind == ColumnItem && it.Column != nil && !containsRef(b.GroupBy, *it.Column) {
				v.fail(fmt.Sprintf(".select.items[%d].column", i), "column "+it.Column.Table+"."+it.Column.Column+" must be listed in groupBy "+why)
			}
		}
	}
	if b.Having != nil {
		mark := v.push(".having")
		if b.GroupBy == nil {
			v.fail("", "having requires groupBy")
		}
		v.filter(b.Having, s, filterCtx{mode: inHaving, aggs: aggs}, 1)
		v.pop(mark)
	}
}

func containsRef(refs []ColumnRef, r ColumnRef) bool {
	for _, x := range refs {
		if x == r {
			return true
		}
	}
	return false
}
