package dataset

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	qb "github.com/reten-io/reten/internal/querybuilder"
)

// Catalog enumerations, in SPEC.md order.
var (
	// FieldTypes are the column types: CatalogFieldTypeEnum plus RECORD.
	FieldTypes = []string{
		string(qb.TypeString), string(qb.TypeTimestamp), string(qb.TypeBoolean), string(qb.TypeFloat64),
		string(qb.TypeInt64), string(qb.TypeNumeric), string(qb.TypeBigNumeric), string(qb.TypeRecord),
	}
	// Purposes are the table purposes.
	Purposes = []string{qb.PurposeEvents, qb.PurposeSubjects, qb.PurposeProducts, qb.PurposeTransactions, qb.PurposeOther}
)

// Message formats of the catalog rules; the first verb is always the path
// of the offending element ("tables[1].columns[2].type").
const (
	MsgEmptyFmt            = "%s should not be empty"
	MsgIdentifierFmt       = "%s must be a valid SQL identifier: a letter or underscore, then letters, digits or underscores, at most 128 characters"
	MsgDuplicateFmt        = "%s must be unique: %q is already declared"
	MsgRecordRepeatedFmt   = "%s.is_repeated must be true for a RECORD column"
	MsgRecordFieldsFmt     = "%s.sub_fields should not be empty for a RECORD column"
	MsgScalarFieldsFmt     = "%s.sub_fields must be empty unless type is RECORD"
	MsgNestedRecordFmt     = "%s.type must not be RECORD: records do not nest"
	MsgSubFieldFlagFmt     = "%s.%s must be false for a sub-field"
	MsgIdentityTypeFmt     = "%s.is_identity requires a column that is neither RECORD nor repeated"
	MsgSecondIdentityFmt   = "%s.is_identity must be false: a table has at most one identity column"
	MsgDefaultTimeTypeFmt  = "%s.is_default_time_reference requires a TIMESTAMP column that is not repeated"
	MsgSecondDefaultFmt    = "%s.is_default_time_reference must be false: a table has at most one default time reference column"
	MsgDefaultTimeColFmt   = "%s.default_time_reference_column must name a TIMESTAMP column of the table that is not repeated"
	MsgToTableFmt          = "%s.to_table must name a table of the catalog"
	MsgJoinLeftFmt         = "%s.left must name a column of %s that is neither RECORD nor repeated, or a sub-field of one of its RECORD columns (record.subField)"
	MsgJoinRightFmt        = "%s.right must name a column of %s that is neither RECORD nor repeated"
	MsgJoinOneRecordFmt    = "%s.left must use the same RECORD column as the other keys of the semi-join"
	MsgJoinIncomparableFmt = "%s: %s (%s) and %s (%s) cannot be compared"
	MsgSystemTableFmt      = "%s must not name a system table (information_schema, or a name starting with pg_, sqlite_ or pragma_)"
)

// identifier is a name the compiler quotes safely on every engine.
var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,127}$`)

// normalize trims names and defaults the purpose, so that validation and
// storage see the same values.
func normalize(cat *qb.Catalog) {
	for i := range cat.Tables {
		t := &cat.Tables[i]
		t.Name = strings.TrimSpace(t.Name)
		t.DefaultTimeReferenceColumn = strings.TrimSpace(t.DefaultTimeReferenceColumn)
		if t.Purpose == "" {
			t.Purpose = qb.PurposeOther
		}
		for j := range t.Columns {
			normalizeColumn(&t.Columns[j])
		}
		for j := range t.SemiJoins {
			sj := &t.SemiJoins[j]
			sj.Name, sj.ToTable = strings.TrimSpace(sj.Name), strings.TrimSpace(sj.ToTable)
			for k := range sj.On {
				sj.On[k].Left, sj.On[k].Right = strings.TrimSpace(sj.On[k].Left), strings.TrimSpace(sj.On[k].Right)
			}
		}
	}
}

func normalizeColumn(c *qb.Column) {
	c.Name = strings.TrimSpace(c.Name)
	for i := range c.SubFields {
		normalizeColumn(&c.SubFields[i])
	}
}

// checker collects one message per broken rule.
type checker struct{ msgs []string }

func (c *checker) failf(format string, args ...any) {
	c.msgs = append(c.msgs, fmt.Sprintf(format, args...))
}

// name checks a name (non-empty identifier) and its uniqueness among seen
// (case-insensitive: BigQuery column names are).
func (c *checker) name(path, name string, seen map[string]bool) {
	switch key := strings.ToLower(name); {
	case name == "":
		c.failf(MsgEmptyFmt, path)
	case !identifier.MatchString(name):
		c.failf(MsgIdentifierFmt, path)
	case seen[key]:
		c.failf(MsgDuplicateFmt, path, name)
	default:
		seen[key] = true
	}
}

// validateCatalog returns the broken rules of a normalized catalog, each
// naming its element by path.
func validateCatalog(cat *qb.Catalog) []string {
	c := &checker{}
	tables := map[string]bool{}
	for i := range cat.Tables {
		path := fmt.Sprintf("tables[%d].name", i)
		c.name(path, cat.Tables[i].Name, tables)
		if systemName(cat.Tables[i].Name) {
			// A table resolves in the dataset's own schema (or file) only; the
			// engines' catalogs are not the tenant's data.
			c.failf(MsgSystemTableFmt, path)
		}
	}
	for i := range cat.Tables {
		c.table(cat, i)
	}
	return c.msgs
}

func (c *checker) table(cat *qb.Catalog, i int) {
	t := &cat.Tables[i]
	path := fmt.Sprintf("tables[%d]", i)
	if !slices.Contains(Purposes, t.Purpose) {
		c.msgs = append(c.msgs, EnumMessage(path+".purpose", Purposes))
	}
	if len(t.Columns) == 0 {
		c.failf(MsgEmptyFmt, path+".columns")
	}
	names := map[string]bool{}
	identity, defaultTime := false, false
	for j := range t.Columns {
		col := &t.Columns[j]
		cp := fmt.Sprintf("%s.columns[%d]", path, j)
		c.column(cp, col, names, false)
		if col.IsIdentity {
			switch {
			case col.Type == qb.TypeRecord || col.Repeated:
				c.failf(MsgIdentityTypeFmt, cp)
			case identity:
				c.failf(MsgSecondIdentityFmt, cp)
			}
			identity = true
		}
		if col.IsDefaultTimeReference {
			switch {
			case col.Type != qb.TypeTimestamp || col.Repeated:
				c.failf(MsgDefaultTimeTypeFmt, cp)
			case defaultTime:
				c.failf(MsgSecondDefaultFmt, cp)
			}
			defaultTime = true
		}
	}
	if ref := t.DefaultTimeReferenceColumn; ref != "" {
		if col, ok := t.Column(ref); !ok || col.Type != qb.TypeTimestamp || col.Repeated {
			c.failf(MsgDefaultTimeColFmt, path)
		}
	}
	joins := map[string]bool{}
	for j := range t.SemiJoins {
		c.semiJoin(cat, t, fmt.Sprintf("%s.semi_joins[%d]", path, j), &t.SemiJoins[j], joins)
	}
}

// column checks a column, or a sub-field when sub is set.
func (c *checker) column(path string, col *qb.Column, names map[string]bool, sub bool) {
	c.name(path+".name", col.Name, names)
	if !slices.Contains(FieldTypes, string(col.Type)) {
		c.msgs = append(c.msgs, EnumMessage(path+".type", FieldTypes))
		return
	}
	if sub {
		if col.Type == qb.TypeRecord {
			c.failf(MsgNestedRecordFmt, path)
		}
		for _, f := range []struct {
			name string
			set  bool
		}{{"is_repeated", col.Repeated}, {"is_identity", col.IsIdentity}, {"is_default_time_reference", col.IsDefaultTimeReference}} {
			if f.set {
				c.failf(MsgSubFieldFlagFmt, path, f.name)
			}
		}
	}
	switch {
	case col.Type == qb.TypeRecord && !sub:
		if !col.Repeated {
			c.failf(MsgRecordRepeatedFmt, path)
		}
		if len(col.SubFields) == 0 {
			c.failf(MsgRecordFieldsFmt, path)
		}
		fields := map[string]bool{}
		for k := range col.SubFields {
			c.column(fmt.Sprintf("%s.sub_fields[%d]", path, k), &col.SubFields[k], fields, true)
		}
	case col.Type != qb.TypeRecord && len(col.SubFields) > 0:
		c.failf(MsgScalarFieldsFmt, path)
	}
}

func (c *checker) semiJoin(cat *qb.Catalog, t *qb.Table, path string, sj *qb.SemiJoin, names map[string]bool) {
	c.name(path+".name", sj.Name, names)
	related, ok := cat.Table(sj.ToTable)
	if !ok {
		c.failf(MsgToTableFmt, path)
	}
	if len(sj.On) == 0 {
		c.failf(MsgEmptyFmt, path+".on")
	}
	var record string
	for k, key := range sj.On {
		kp := fmt.Sprintf("%s.on[%d]", path, k)
		left, rec, lok := joinLeft(t, key.Left)
		if !lok {
			c.failf(MsgJoinLeftFmt, kp, t.Name)
		} else if rec != "" {
			if record != "" && record != rec {
				c.failf(MsgJoinOneRecordFmt, kp)
			}
			record = rec
		}
		if related == nil {
			continue
		}
		right, rok := related.Column(key.Right)
		if !rok || !scalar(right) {
			c.failf(MsgJoinRightFmt, kp, related.Name)
			continue
		}
		if lok && !comparableTypes(left.Type, right.Type) {
			c.failf(MsgJoinIncomparableFmt, kp, key.Left, left.Type, key.Right, right.Type)
		}
	}
}

// joinLeft resolves the left key of a semi-join: a scalar column of t, or
// "record.subField" of one of its RECORD columns (rec names the record).
func joinLeft(t *qb.Table, name string) (col *qb.Column, rec string, ok bool) {
	if col, ok := t.Column(name); ok {
		return col, "", scalar(col)
	}
	recName, field, found := strings.Cut(name, ".")
	if !found {
		return nil, "", false
	}
	r, ok := t.Column(recName)
	if !ok || r.Type != qb.TypeRecord {
		return nil, "", false
	}
	col, ok = r.SubField(field)
	return col, recName, ok && scalar(col)
}

func scalar(c *qb.Column) bool { return c.Type != qb.TypeRecord && !c.Repeated }

// comparableTypes mirrors the query builder: equal types, or two numeric types.
func comparableTypes(a, b qb.FieldType) bool { return a == b || qb.IsNumeric(a) && qb.IsNumeric(b) }
