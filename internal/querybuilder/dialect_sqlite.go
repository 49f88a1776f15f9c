package querybuilder

import (
	"strconv"
)

// sqlite renders SQLite over the catalog's physical conventions: TIMESTAMP
// columns are fixed-width UTC text (text order is time order), booleans are
// 0/1, and repeated records are JSON arrays read with json_each.
type sqlite struct{}

func (sqlite) Name() string { return "sqlite" }

func (sqlite) quoteIdent(name string) string { return doubledQuote(name, '"') }

func (d sqlite) table(_, name string) string { return d.quoteIdent(name) }

func (sqlite) placeholder(n int, _ FieldType) string { return "?" + strconv.Itoa(n+1) }

func (sqlite) arg(v scalarValue) any {
	switch v.typ {
	case TypeBoolean:
		if v.b {
			return int64(1)
		}
		return int64(0)
	case TypeInt64:
		return v.i
	case TypeFloat64:
		return v.f
	case TypeNumeric, TypeBigNumeric:
		f, _ := strconv.ParseFloat(v.str, 64)
		return f
	case TypeTimestamp:
		return sqliteTimestamp(v.t)
	}
	return v.str
}

func (sqlite) literal(v scalarValue) string {
	switch v.typ {
	case TypeString:
		return doubledQuote(v.str, '\'')
	case TypeNumeric, TypeBigNumeric:
		return signedNumber(v.str)
	case TypeBoolean:
		if v.b {
			return "1"
		}
		return "0"
	case TypeTimestamp:
		return "'" + sqliteTimestamp(v.t) + "'"
	}
	s, _ := scalarText(v)
	return s
}

func (sqlite) number(text string, _ FieldType) string { return signedNumber(text) }

const sqliteTimeFormat = "'%Y-%m-%dT%H:%M:%fZ'"

func (sqlite) now() string { return "strftime(" + sqliteTimeFormat + ", 'now')" }

// addTime uses the date modifiers; 'floor' clamps a month overflow to the
// end of the month as BigQuery and PostgreSQL do (SQLite 3.46+).
func (sqlite) addTime(expr string, u TimeUnit, n int) string {
	unit := intervalUnits[u]
	if u == Weeks {
		n, unit = n*7, "days"
	}
	sign := "+"
	if n < 0 {
		sign, n = "-", -n
	}
	return "strftime(" + sqliteTimeFormat + ", " + expr + ", '" + sign + strconv.Itoa(n) + " " + unit + "', 'floor')"
}

func (sqlite) position(hay, needle string) string { return "instr(" + hay + ", " + needle + ")" }

func (sqlite) startsWith(s, p string) string { return "substr(" + s + ", 1, length(" + p + ")) = " + p }

func (sqlite) endsWith(s, p string) string {
	return "(length(" + s + ") >= length(" + p + ") AND substr(" + s + ", length(" + s + ") - length(" + p + ") + 1) = " + p + ")"
}

func (sqlite) safeDivide(a, b string, toFloat bool) string {
	if toFloat {
		a = "CAST(" + a + " AS REAL)"
	}
	return "(" + a + " / NULLIF(" + b + ", 0))"
}

func (sqlite) elements(expr, alias string) string { return "json_each(" + expr + ") AS " + alias }

// field casts numbers: JSON may hold a FLOAT64 without fraction (1.0 as 1),
// which SQLite would otherwise treat as an integer (integer division).
func (sqlite) field(alias string, f *Column) string {
	get := "json_extract(" + alias + ".value, " + doubledQuote("$."+doubledQuote(f.Name, '"'), '\'') + ")"
	switch f.Type {
	case TypeFloat64, TypeNumeric, TypeBigNumeric:
		return "CAST(" + get + " AS REAL)"
	case TypeInt64:
		return "CAST(" + get + " AS INTEGER)"
	}
	return get
}

func (sqlite) setOperator(op SetOperator) string { return sqlSetOperator(op) }

func (sqlite) parenthesizedSets() bool { return false }
