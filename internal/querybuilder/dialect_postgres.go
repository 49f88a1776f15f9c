package querybuilder

import (
	"strconv"
	"strings"
)

// postgres renders PostgreSQL over the catalog's physical conventions:
// timestamptz, numeric, boolean, and repeated records as jsonb arrays.
type postgres struct{}

func (postgres) Name() string { return "postgres" }

func (postgres) quoteIdent(name string) string { return doubledQuote(name, '"') }

func (d postgres) table(schema, name string) string {
	if schema == "" {
		return d.quoteIdent(name)
	}
	return d.quoteIdent(schema) + "." + d.quoteIdent(name)
}

// pgTypes are the PostgreSQL types of the catalog types.
var pgTypes = map[FieldType]string{
	TypeString: "text", TypeTimestamp: "timestamptz", TypeBoolean: "boolean",
	TypeFloat64: "double precision", TypeInt64: "bigint", TypeNumeric: "numeric", TypeBigNumeric: "numeric",
}

// placeholder casts every parameter so that its type never depends on the
// context it appears in (strpos, right, comparisons with expressions).
func (postgres) placeholder(n int, t FieldType) string {
	return "$" + strconv.Itoa(n+1) + "::" + pgTypes[t]
}

// arg is the value's parameter form (numeric as exact decimal text), but
// timestamps bind as time.Time for timestamptz.
func (postgres) arg(v scalarValue) any {
	if v.typ == TypeTimestamp {
		return v.t
	}
	return v.param()
}

func (postgres) literal(v scalarValue) string {
	switch v.typ {
	case TypeString:
		return pgString(v.str)
	case TypeNumeric, TypeBigNumeric:
		return "CAST('" + v.str + "' AS numeric)"
	case TypeTimestamp:
		return "TIMESTAMPTZ '" + isoTimestamp(v.t) + "'"
	}
	s, _ := scalarText(v)
	return s
}

// pgString is an escape string literal: its meaning does not depend on
// standard_conforming_strings.
func pgString(s string) string {
	return "E'" + strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(s) + "'"
}

func (postgres) number(text string, t FieldType) string {
	if t == TypeFloat64 {
		return "CAST(" + text + " AS double precision)"
	}
	return signedNumber(text)
}

func (postgres) now() string { return "now()" }

// addTime works on the UTC wall clock so that days are 24 hours and months
// clamp to the end of the month whatever the session time zone.
func (postgres) addTime(expr string, u TimeUnit, n int) string {
	op := " + "
	if n < 0 {
		op, n = " - ", -n
	}
	return "(((" + expr + " AT TIME ZONE 'UTC')" + op + "INTERVAL '" + strconv.Itoa(n) + " " + intervalUnits[u] + "') AT TIME ZONE 'UTC')"
}

func (postgres) position(hay, needle string) string { return "strpos(" + hay + ", " + needle + ")" }

func (postgres) startsWith(s, p string) string { return "starts_with(" + s + ", " + p + ")" }

func (postgres) endsWith(s, p string) string { return "right(" + s + ", length(" + p + ")) = " + p }

func (postgres) safeDivide(a, b string, toFloat bool) string {
	if toFloat {
		a = "CAST(" + a + " AS double precision)"
	}
	return "(" + a + " / NULLIF(" + b + ", 0))"
}

func (postgres) elements(expr, alias string) string {
	return "jsonb_array_elements(" + expr + ") AS " + alias + "(elem)"
}

func (postgres) field(alias string, f *Column) string {
	get := "(" + alias + ".elem ->> " + pgString(f.Name) + ")"
	if f.Type == TypeString {
		return get
	}
	return "CAST(" + get + " AS " + pgTypes[f.Type] + ")"
}

func (postgres) setOperator(op SetOperator) string { return sqlSetOperator(op) }

func (postgres) parenthesizedSets() bool { return true }

// sqlSetOperator is the standard SQL spelling shared by PostgreSQL and SQLite.
func sqlSetOperator(op SetOperator) string {
	switch op {
	case UnionAll:
		return "UNION ALL"
	case IntersectDistinct:
		return "INTERSECT"
	}
	return "UNION"
}
