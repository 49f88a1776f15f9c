package querybuilder

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
)

// scalarValue is a value checked against its column type: typ says which
// field holds it. NUMERIC and BIGNUMERIC values are exact decimals in
// canonical form in str: optional minus, integer digits without leading
// zeros, optional fraction without trailing zeros ("-12.5", "0", "0.001").
type scalarValue struct {
	typ FieldType
	str string    // STRING, NUMERIC, BIGNUMERIC
	i   int64     // INT64
	f   float64   // FLOAT64
	b   bool      // BOOLEAN
	t   time.Time // TIMESTAMP, UTC
}

func timestampValue(t time.Time) scalarValue { return scalarValue{typ: TypeTimestamp, t: t} }

// Precision limits of the BigQuery decimal types (integer and fraction digits).
const (
	numericIntDigits     = 29
	numericFracDigits    = 9
	bigNumericIntDigits  = 38
	bigNumericFracDigits = 38
)

// maxListItems bounds the values of IN / NOT_IN.
const maxListItems = 1000

// Value messages; the caller prefixes the field name ("value", "value[1]").
const (
	msgMustString    = " must be a string"
	msgNoNUL         = " must not contain NUL characters"
	msgMustBool      = " must be a boolean"
	msgMustInt       = " must be an integer between -9223372036854775808 and 9223372036854775807 (INT64)"
	msgMustFloat     = " must be a finite number (FLOAT64)"
	msgMustNumeric   = " must be a number or a decimal string with at most 29 integer digits and 9 decimal places (NUMERIC)"
	msgMustBigNum    = " must be a number or a decimal string with at most 38 integer digits and 38 decimal places (BIGNUMERIC)"
	msgMustTimestamp = " must be an ISO 8601 timestamp string between years 0001 and 9999 (for example 2024-01-31T00:00:00Z)"
)

// normalize checks a JSON scalar (string, bool or json.Number) against a
// column type. On failure it returns the message suffix to append to the
// field name.
func normalize(v any, t FieldType) (scalarValue, string) {
	out := scalarValue{typ: t}
	switch t {
	case TypeString:
		s, ok := v.(string)
		if !ok {
			return out, msgMustString
		}
		if strings.IndexByte(s, 0) >= 0 {
			return out, msgNoNUL // PostgreSQL text cannot hold NUL
		}
		out.str = s
		return out, ""
	case TypeBoolean:
		b, ok := v.(bool)
		if !ok {
			return out, msgMustBool
		}
		out.b = b
		return out, ""
	case TypeInt64:
		if n, ok := v.(json.Number); ok {
			if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
				out.i = i
				return out, ""
			}
		}
		return out, msgMustInt
	case TypeFloat64:
		if n, ok := v.(json.Number); ok {
			if f, err := strconv.ParseFloat(string(n), 64); err == nil && !math.IsInf(f, 0) {
				out.f = f
				return out, ""
			}
		}
		return out, msgMustFloat
	case TypeNumeric, TypeBigNumeric:
		intMax, fracMax, msg := numericIntDigits, numericFracDigits, msgMustNumeric
		if t == TypeBigNumeric {
			intMax, fracMax, msg = bigNumericIntDigits, bigNumericFracDigits, msgMustBigNum
		}
		var s string
		switch x := v.(type) {
		case json.Number:
			s = string(x)
		case string:
			s = x
		default:
			return out, msg
		}
		d, ok := parseDecimal(s, intMax, fracMax)
		if !ok {
			return out, msg
		}
		out.str = d
		return out, ""
	case TypeTimestamp:
		if s, ok := v.(string); ok {
			if ts, ok := parseTimestamp(s); ok {
				out.t = ts
				return out, ""
			}
		}
		return out, msgMustTimestamp
	}
	return out, " cannot be compared"
}

// parseTimestamp parses an ISO 8601 timestamp (RFC 3339 with Z or an
// offset; without an offset, or a bare date, it is UTC), truncated to
// microseconds (BigQuery's precision).
func parseTimestamp(s string) (time.Time, bool) {
	layout := "2006-01-02"
	if len(s) > 10 {
		// After the date part a '-' or '+' can only start an offset.
		layout = "2006-01-02T15:04:05.999999999"
		if strings.ContainsAny(s[10:], "Zz+-") {
			layout = time.RFC3339Nano
		}
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		return time.Time{}, false
	}
	t = t.UTC().Truncate(time.Microsecond)
	if t.Year() < 1 || t.Year() > 9999 {
		return time.Time{}, false
	}
	return t, true
}

// isoTimestamp is the canonical UTC form used in params and literals, with
// at most microseconds: "2024-01-31T10:00:00Z", "2024-01-31T10:00:00.5Z".
// It is written by hand because it runs once per bound timestamp.
func isoTimestamp(t time.Time) string {
	t = t.UTC()
	var b [32]byte
	out := appendDigits(b[:0], t.Year(), 4)
	out = append(out, '-')
	out = appendDigits(out, int(t.Month()), 2)
	out = append(out, '-')
	out = appendDigits(out, t.Day(), 2)
	out = append(out, 'T')
	out = appendDigits(out, t.Hour(), 2)
	out = append(out, ':')
	out = appendDigits(out, t.Minute(), 2)
	out = append(out, ':')
	out = appendDigits(out, t.Second(), 2)
	if us := t.Nanosecond() / 1000; us > 0 {
		out = append(out, '.')
		out = appendDigits(out, us, 6)
		for out[len(out)-1] == '0' {
			out = out[:len(out)-1]
		}
	}
	return string(append(out, 'Z'))
}

// appendDigits appends n zero-padded to width digits.
func appendDigits(b []byte, n, width int) []byte {
	var d [8]byte
	for i := width - 1; i >= 0; i-- {
		d[i] = byte('0' + n%10)
		n /= 10
	}
	return append(b, d[:width]...)
}

// sqliteTimestamp is the fixed-width text form of TIMESTAMP columns on sqlite.
func sqliteTimestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// parseDecimal parses [+-]digits[.digits][e[+-]digits] (exponent at most
// three digits) into canonical form within the given digit limits.
func parseDecimal(s string, intMax, fracMax int) (string, bool) {
	if len(s) == 0 || len(s) > 200 {
		return "", false
	}
	neg := false
	if s[0] == '+' || s[0] == '-' {
		neg, s = s[0] == '-', s[1:]
	}
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e := s[i+1:]
		digits := strings.TrimLeft(e, "+-")
		if len(digits) == 0 || len(digits) > 3 || len(e)-len(digits) > 1 || !allDigits(digits) {
			return "", false
		}
		exp, _ = strconv.Atoi(digits)
		if e[0] == '-' {
			exp = -exp
		}
	}
	intPart, fracPart, hasDot := strings.Cut(mant, ".")
	if (intPart == "" && fracPart == "") || !allDigits(intPart) || !allDigits(fracPart) || (hasDot && fracPart == "" && intPart == "") {
		return "", false
	}
	digits := intPart + fracPart
	point := len(intPart) + exp // position of the decimal point in digits
	switch {
	case point < 0:
		digits = strings.Repeat("0", -point) + digits
		point = 0
	case point > len(digits):
		digits += strings.Repeat("0", point-len(digits))
	}
	ip := strings.TrimLeft(digits[:point], "0")
	fp := strings.TrimRight(digits[point:], "0")
	if len(ip) > intMax || len(fp) > fracMax {
		return "", false
	}
	if ip == "" {
		ip = "0"
	}
	out := ip
	if fp != "" {
		out += "." + fp
	}
	if neg && out != "0" {
		out = "-" + out
	}
	return out, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// param is the JSON-friendly form of a bound value (Compiled.Params):
// strings for STRING, TIMESTAMP (ISO 8601 UTC) and NUMERIC/BIGNUMERIC
// (exact decimals), numbers for INT64 and FLOAT64, booleans for BOOL.
func (v scalarValue) param() any {
	switch v.typ {
	case TypeBoolean:
		return v.b
	case TypeInt64:
		return v.i
	case TypeFloat64:
		return v.f
	case TypeTimestamp:
		return isoTimestamp(v.t)
	}
	return v.str
}

// bigQueryType is the BigQuery parameter type of a column type.
func bigQueryType(t FieldType) string {
	if t == TypeBoolean {
		return "BOOL"
	}
	return string(t)
}

// IsNumeric reports whether t is one of the numeric types.
func IsNumeric(t FieldType) bool {
	return t == TypeInt64 || t == TypeFloat64 || t == TypeNumeric || t == TypeBigNumeric
}

// comparable reports whether two column types can meet in an equality or a
// set operation: equal, or both numeric (the engines coerce).
func comparableTypes(a, b FieldType) bool { return a == b || (IsNumeric(a) && IsNumeric(b)) }
