package querybuilder

import (
	"strconv"
	"strings"
)

// Dialect renders the engine-specific parts of compiled SQL. The set is
// closed: BigQuery, Postgres and SQLite.
type Dialect interface {
	// Name is the engine name of a tenant dataset: bigquery, postgres or sqlite.
	Name() string

	quoteIdent(name string) string
	// table is a quoted table reference (qualifier: project.dataset or schema).
	table(qualifier, name string) string
	// placeholder is the n-th (0-based) bound parameter of type t.
	placeholder(n int, t FieldType) string
	// arg is the driver value of a checked value (nil: not executable here).
	arg(v scalarValue) any
	// literal is a checked value inlined as a safe SQL literal.
	literal(v scalarValue) string
	// number is a canonical numeric literal of an arithmetic expression.
	number(text string, t FieldType) string
	now() string
	// addTime shifts a timestamp expression by n units (n may be negative):
	// days and weeks are exact multiples of 24 hours, months and years are
	// calendar arithmetic in UTC clamped to the end of the month.
	addTime(expr string, u TimeUnit, n int) string
	// position is the 1-based position of needle in hay, 0 when absent.
	position(hay, needle string) string
	startsWith(s, prefix string) string
	endsWith(s, suffix string) string
	// safeDivide is a / b, NULL when b is 0; toFloat forces float division
	// of integers (BigQuery's SAFE_DIVIDE returns FLOAT64 for INT64).
	safeDivide(a, b string, toFloat bool) string
	// elements is a FROM item with one row per element of a repeated record.
	elements(expr, alias string) string
	// field reads a typed sub-field of an element row of elements.
	field(alias string, f *Column) string
	setOperator(op SetOperator) string
	// parenthesizedSets: compound operands may be parenthesized SELECTs
	// (BigQuery, PostgreSQL); otherwise they are wrapped as SELECT * FROM (...).
	parenthesizedSets() bool
}

// The three dialects.
var (
	BigQuery Dialect = bigQuery{}
	Postgres Dialect = postgres{}
	SQLite   Dialect = sqlite{}
)

// DialectFor returns the dialect of a dataset engine name.
func DialectFor(engine string) (Dialect, bool) {
	for _, d := range []Dialect{BigQuery, Postgres, SQLite} {
		if d.Name() == engine {
			return d, true
		}
	}
	return nil, false
}

// intervalUnits names each unit in the engines' interval syntax.
var intervalUnits = map[TimeUnit]string{Days: "days", Weeks: "weeks", Months: "months", Years: "years"}

// signedNumber wraps negative literals in parentheses so that no operator
// before them can form "--" (a comment) or change precedence.
func signedNumber(s string) string {
	if strings.HasPrefix(s, "-") {
		return "(" + s + ")"
	}
	return s
}

// floatText is the canonical text of a FLOAT64 value; it always reads as a
// floating-point literal (never as an integer).
func floatText(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEnN") {
		s += ".0"
	}
	return s
}

// scalarText renders numbers and booleans the same way in every dialect;
// ok is false for the types each dialect renders itself.
func scalarText(v scalarValue) (string, bool) {
	switch v.typ {
	case TypeInt64:
		return signedNumber(strconv.FormatInt(v.i, 10)), true
	case TypeFloat64:
		return signedNumber(floatText(v.f)), true
	case TypeBoolean:
		if v.b {
			return "TRUE", true
		}
		return "FALSE", true
	}
	return "", false
}

// doubledQuote quotes s with q, doubling every q inside (SQL standard
// identifiers and sqlite strings).
func doubledQuote(s string, q byte) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(q)
	for i := 0; i < len(s); i++ {
		if s[i] == q {
			b.WriteByte(q)
		}
		b.WriteByte(s[i])
	}
	b.WriteByte(q)
	return b.String()
}
