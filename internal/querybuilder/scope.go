package querybuilder

import "strings"

// scope is what a block's column references can reach: its tables (the from
// table, then the joins in order) and the record columns it unnests. The
// validator and the compiler share it so that both resolve names alike.
type scope struct {
	cat     *Catalog
	tables  []*Table // nil where the catalog has no such table
	names   []string
	unnests []resolved
	// Inline storage: most blocks have few tables.
	tableBuf [4]*Table
	nameBuf  [4]string
}

// resolved is a column reference resolved against a scope.
type resolved struct {
	table int     // index in scope.tables
	col   *Column // the top-level column
	sub   *Column // the sub-field, when the reference reaches into an unnested record
	elem  int     // index in scope.unnests when sub is set
}

// typ is the type of the referenced value.
func (r resolved) typ() FieldType {
	if r.sub != nil {
		return r.sub.Type
	}
	return r.col.Type
}

// scalar reports whether the reference is a single comparable value.
func (r resolved) scalar() bool {
	if r.sub != nil {
		return r.sub.Type != TypeRecord && !r.sub.Repeated
	}
	return r.col.Type != TypeRecord && !r.col.Repeated
}

// init sets the scope up for a block's from clause.
func (s *scope) init(cat *Catalog, f *From) {
	s.cat, s.tables, s.names = cat, s.tableBuf[:0], s.nameBuf[:0]
	s.add(f.Table)
	for i := range f.Joins {
		s.add(f.Joins[i].Table)
	}
}

func (s *scope) add(name string) {
	t, _ := s.cat.Table(name)
	s.tables = append(s.tables, t)
	s.names = append(s.names, name)
}

// tableIndex is the position of the named table among the first n tables
// of the block, or -1.
func (s *scope) tableIndex(name string, n int) int {
	for i := 0; i < n && i < len(s.names); i++ {
		if s.names[i] == name {
			return i
		}
	}
	return -1
}

// unnest registers an unnested record column; it resolves like a column.
func (s *scope) unnest(ref ColumnRef) (resolved, string) {
	r, msg := s.resolve(ref, len(s.tables), false)
	if msg != "" {
		return r, msg
	}
	if r.col.Type != TypeRecord {
		return r, "column " + ref.Table + "." + ref.Column + " is not a RECORD column and cannot be unnested"
	}
	for _, u := range s.unnests {
		if u.table == r.table && u.col == r.col {
			return r, "column " + ref.Table + "." + ref.Column + " is unnested more than once"
		}
	}
	s.unnests = append(s.unnests, r)
	return r, ""
}

// resolve finds ref among the first n tables. With sub, "record.subfield"
// reaches a field of an unnested record. The message is "" on success.
func (s *scope) resolve(ref ColumnRef, n int, sub bool) (resolved, string) {
	ti := s.tableIndex(ref.Table, n)
	if ti < 0 || s.tables[ti] == nil {
		return resolved{}, "table " + quoteName(ref.Table) + " is not part of this block (from or joins)"
	}
	t := s.tables[ti]
	if c, ok := t.Column(ref.Column); ok {
		return resolved{table: ti, col: c}, ""
	}
	rec, field, dotted := strings.Cut(ref.Column, ".")
	if !dotted || !sub {
		return resolved{}, "column " + quoteName(ref.Column) + " does not exist in table " + t.Name
	}
	c, ok := t.Column(rec)
	if !ok || c.Type != TypeRecord {
		return resolved{}, "column " + quoteName(ref.Column) + " does not exist in table " + t.Name
	}
	f, ok := c.SubField(field)
	if !ok {
		return resolved{}, "field " + quoteName(field) + " does not exist in record " + t.Name + "." + rec
	}
	for i, u := range s.unnests {
		if u.table == ti && u.col == c {
			return resolved{table: ti, col: c, sub: f, elem: i}, ""
		}
	}
	return resolved{}, "column " + quoteName(ref.Column) + " reaches into record " + t.Name + "." + rec + ", which this block does not unnest"
}

// quoteName shows a user-sent name in a message; empty names stay visible.
func quoteName(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

// identityColumn is the table's first identity column.
func identityColumn(t *Table) *Column {
	for i := range t.Columns {
		if t.Columns[i].IsIdentity {
			return &t.Columns[i]
		}
	}
	return nil
}

// defaultTimeReference is the column a time window uses without reference:
// the table's DefaultTimeReferenceColumn for event filters, its
// IsDefaultTimeReference column for audiences.
func defaultTimeReference(t *Table, kind Kind) string {
	if kind == Audience {
		for _, c := range t.Columns {
			if c.IsDefaultTimeReference {
				return c.Name
			}
		}
		return ""
	}
	return t.DefaultTimeReferenceColumn
}

// timeReference is the window's reference, explicit or default.
func timeReference(w *TimeWindow, s *scope, kind Kind) ColumnRef {
	if w.Reference != nil {
		return *w.Reference
	}
	ref := ColumnRef{Table: s.names[0]}
	if s.tables[0] != nil {
		ref.Column = defaultTimeReference(s.tables[0], kind)
	}
	return ref
}
