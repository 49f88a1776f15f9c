package querybuilder

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// bigQuery renders GoogleSQL: backtick identifiers, @pN parameters,
// TIMESTAMP_ADD / DATETIME_ADD arithmetic, STRPOS, SAFE_DIVIDE, UNNEST.
type bigQuery struct{}

func (bigQuery) Name() string { return "bigquery" }

func (bigQuery) quoteIdent(name string) string { return bqQuote(name, '`') }

// table quotes the whole path as one identifier: `project.dataset.table`.
func (d bigQuery) table(qualifier, name string) string {
	if qualifier == "" {
		return d.quoteIdent(name)
	}
	return d.quoteIdent(qualifier + "." + name)
}

// bqPlaceholders are the first placeholders, to bind without allocating.
var bqPlaceholders = func() (p [128]string) {
	for i := range p {
		p[i] = "@p" + strconv.Itoa(i)
	}
	return p
}()

func (bigQuery) placeholder(n int, _ FieldType) string {
	if n < len(bqPlaceholders) {
		return bqPlaceholders[n]
	}
	return "@p" + strconv.Itoa(n)
}

// arg: BigQuery queries are not executed here; Params and Types bind them.
func (bigQuery) arg(scalarValue) any { return nil }

func (bigQuery) literal(v scalarValue) string {
	switch v.typ {
	case TypeString:
		return bqQuote(v.str, '\'')
	case TypeNumeric, TypeBigNumeric:
		return string(v.typ) + " " + bqQuote(v.str, '\'')
	case TypeTimestamp:
		return "TIMESTAMP(" + bqQuote(isoTimestamp(v.t), '\'') + ")"
	}
	s, _ := scalarText(v)
	return s
}

func (bigQuery) number(text string, _ FieldType) string { return signedNumber(text) }

func (bigQuery) now() string { return "CURRENT_TIMESTAMP()" }

// addTime: TIMESTAMP_ADD/SUB take DAY at most (a week is 7 days); months
// and years go through DATETIME (UTC), whose arithmetic clamps to the end
// of the month.
func (bigQuery) addTime(expr string, u TimeUnit, n int) string {
	add := n >= 0
	if !add {
		n = -n
	}
	if u == Days || u == Weeks {
		if u == Weeks {
			n *= 7
		}
		fn := "TIMESTAMP_ADD("
		if !add {
			fn = "TIMESTAMP_SUB("
		}
		return fn + expr + ", INTERVAL " + strconv.Itoa(n) + " DAY)"
	}
	fn, part := "DATETIME_ADD(", " MONTH)"
	if !add {
		fn = "DATETIME_SUB("
	}
	if u == Years {
		part = " YEAR)"
	}
	return "TIMESTAMP(" + fn + "DATETIME(" + expr + "), INTERVAL " + strconv.Itoa(n) + part + ")"
}

func (bigQuery) position(hay, needle string) string { return "STRPOS(" + hay + ", " + needle + ")" }

func (bigQuery) startsWith(s, p string) string { return "STARTS_WITH(" + s + ", " + p + ")" }

func (bigQuery) endsWith(s, p string) string { return "ENDS_WITH(" + s + ", " + p + ")" }

func (bigQuery) safeDivide(a, b string, _ bool) string { return "SAFE_DIVIDE(" + a + ", " + b + ")" }

func (bigQuery) elements(expr, alias string) string { return "UNNEST(" + expr + ") AS " + alias }

func (d bigQuery) field(alias string, f *Column) string { return alias + "." + d.quoteIdent(f.Name) }

func (bigQuery) setOperator(op SetOperator) string {
	switch op {
	case UnionAll:
		return "UNION ALL"
	case IntersectDistinct:
		return "INTERSECT DISTINCT"
	}
	return "UNION DISTINCT"
}

func (bigQuery) parenthesizedSets() bool { return true }

// bqQuote quotes s with q (' for strings, ` for identifiers) using GoogleSQL
// escapes: backslash, the quote, \n, \r, \t, and \uXXXX for every other
// control or line-separator character, so nothing in s can end the literal
// or break the line. Invalid UTF-8 becomes U+FFFD.
func bqQuote(s string, q byte) string {
	plain := true
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c >= 0x20 && c < 0x7f && c != q && c != '\\'
	}
	if plain {
		return string(q) + s + string(q)
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == rune(q):
			b.WriteByte('\\')
			b.WriteByte(q)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || (r >= 0x7f && r < 0xa0) || r == 0x2028 || r == 0x2029:
			b.WriteString(`\u`)
			h := strconv.FormatInt(int64(r), 16)
			b.WriteString(strings.Repeat("0", 4-len(h)))
			b.WriteString(h)
		case r == utf8.RuneError:
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}
