package querybuilder

import (
	"strconv"
	"strings"
)

// col renders a resolved column of a block.
func (c *compiler) col(r resolved) string {
	for _, cc := range c.cols {
		if cc.r == r {
			return cc.sql
		}
	}
	var s string
	if r.sub != nil {
		s = c.d.field("u"+strconv.Itoa(r.elem), r.sub)
	} else {
		s = "t" + strconv.Itoa(r.table) + "." + c.ident(r.col.Name)
	}
	c.cols = append(c.cols, cachedCol{r, s})
	return s
}

// block compiles one block to lines; it returns the output columns and the
// position of the first identity column item (-1 when none).
func (c *compiler) block(b *Block) ([]line, []OutputColumn, int) {
	var sc scope
	sc.init(c.cat, &b.From)
	s := &sc
	for _, u := range b.From.Unnests {
		s.unnest(u)
	}
	cols := make([]OutputColumn, len(b.Select.Items))
	identity := -1
	var sel strings.Builder
	sel.Grow(64 * len(b.Select.Items))
	sel.WriteString("SELECT ")
	if b.Select.Distinct {
		sel.WriteString("DISTINCT ")
	}
	for i, it := range b.Select.Items {
		if i > 0 {
			sel.WriteString(", ")
		}
		if it.Kind == ColumnItem {
			r, _ := s.resolve(*it.Column, len(s.tables), true)
			sel.WriteString(c.col(r))
			cols[i] = OutputColumn{Name: r.col.Name, Type: r.typ()}
			if r.sub != nil {
				cols[i].Name = r.sub.Name
			} else if r.col.IsIdentity && identity < 0 {
				identity = i
			}
		} else {
			cols[i].Type = c.aggregate(&sel, it.Aggregate, s)
		}
		if it.Alias != "" {
			cols[i].Name = it.Alias
		}
		sel.WriteString(" AS ")
		sel.WriteString(c.ident(cols[i].Name))
	}
	lines := make([]line, 0, 8)
	lines = append(lines, line{0, sel.String()}, line{0, "FROM " + c.table(b.From.Table) + " AS t0"})
	for j, join := range b.From.Joins {
		var jb strings.Builder
		jb.WriteString(string(join.Type))
		jb.WriteString(" JOIN ")
		jb.WriteString(c.table(join.Table))
		jb.WriteString(" AS t")
		jb.WriteString(strconv.Itoa(j + 1))
		jb.WriteString(" ON ")
		for k, on := range join.On {
			if k > 0 {
				jb.WriteString(" AND ")
			}
			l, _ := s.resolve(on.Left, j+2, false)
			r, _ := s.resolve(on.Right, j+2, false)
			jb.WriteString(c.col(l))
			jb.WriteString(" = ")
			jb.WriteString(c.col(r))
		}
		lines = append(lines, line{0, jb.String()})
	}
	for i, u := range s.unnests {
		lines = append(lines, line{0, "CROSS JOIN " + c.d.elements(c.col(resolved{table: u.table, col: u.col}), "u"+strconv.Itoa(i))})
	}
	var where strings.Builder
	if b.TimeWindow != nil && b.TimeWindow.Operator != AllTime {
		where.Grow(512)
		where.WriteString("WHERE ")
		if join := c.timeWindow(&where, b.TimeWindow, s); join != "" {
			lines = append(lines, line{0, join})
		}
	}
	if b.Where != nil {
		if where.Len() == 0 {
			where.Grow(512)
			where.WriteString("WHERE ")
		} else {
			where.WriteString(" AND ")
		}
		c.node(&where, b.Where, s, nil, nil)
	}
	if where.Len() > 0 {
		lines = append(lines, line{0, where.String()})
	}
	if len(b.GroupBy) > 0 {
		var gb strings.Builder
		gb.WriteString("GROUP BY ")
		for i, ref := range b.GroupBy {
			if i > 0 {
				gb.WriteString(", ")
			}
			r, _ := s.resolve(ref, len(s.tables), true)
			gb.WriteString(c.col(r))
		}
		lines = append(lines, line{0, gb.String()})
	}
	if b.Having != nil {
		var hb strings.Builder
		hb.WriteString("HAVING ")
		c.node(&hb, b.Having, s, nil, b.Select.Items)
		lines = append(lines, line{0, hb.String()})
	}
	return lines, cols, identity
}

// timeWindow writes the conditions of a window and returns, for
// IN_THE_FIRST, the join that computes each subject's first event (its
// lifetime origin).
func (c *compiler) timeWindow(b *strings.Builder, w *TimeWindow, s *scope) (join string) {
	r, _ := s.resolve(timeReference(w, s, c.kind), len(s.tables), false)
	ref := c.col(r)
	b.WriteString(ref)
	switch w.Operator {
	case InTheLast:
		now := c.d.now()
		b.WriteString(" >= ")
		b.WriteString(c.d.addTime(now, w.Unit, -w.Value))
		b.WriteString(" AND ")
		b.WriteString(ref)
		b.WriteString(" <= ")
		b.WriteString(now)
	case InTheFirst:
		t := s.tables[r.table]
		id := identityColumn(t)
		f := c.nextAlias("f")
		join = "INNER JOIN (SELECT " + c.ident(id.Name) + " AS subject, MIN(" + c.ident(r.col.Name) + ") AS origin FROM " +
			c.table(t.Name) + " GROUP BY " + c.ident(id.Name) + ") AS " + f +
			" ON " + f + ".subject = " + c.col(resolved{table: r.table, col: id})
		origin := f + ".origin"
		b.WriteString(" >= ")
		b.WriteString(origin)
		b.WriteString(" AND ")
		b.WriteString(ref)
		b.WriteString(" < ")
		b.WriteString(c.d.addTime(origin, w.Unit, w.Value))
	case Since:
		from, _ := parseTimestamp(w.From)
		b.WriteString(" >= ")
		b.WriteString(c.bind(timestampValue(from)))
	default: // BETWEEN
		from, _ := parseTimestamp(w.From)
		to, _ := parseTimestamp(w.To)
		b.WriteString(" BETWEEN ")
		b.WriteString(c.bind(timestampValue(from)))
		b.WriteString(" AND ")
		b.WriteString(c.bind(timestampValue(to)))
	}
	return join
}
