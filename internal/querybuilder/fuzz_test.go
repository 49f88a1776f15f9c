package querybuilder

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzDecodeValidateCompile: decoding, validating and compiling never
// panic, and every definition that decodes and validates compiles in all
// three dialects and both formats, deterministically. Seeds: the golden
// cases (testdata/fuzz/FuzzDecodeValidateCompile) and broken variants.
func FuzzDecodeValidateCompile(f *testing.F) {
	f.Add([]byte(`[]`))
	f.Add([]byte(blocks(ev(where(grp("OR", pr("events", "platform", "IN", []string{"a"}), record("items", grp("AND", fp("quantity", "BETWEEN", []int{1, 2})))))))))
	cat := testCatalog()
	f.Fuzz(func(t *testing.T, data []byte) {
		def, decodeIssues := DecodeBlocks(data, RootPath)
		_ = ConditionCount(def)
		if _, err := json.Marshal(def); err != nil {
			t.Fatalf("marshal: %v", err)
		}
		for _, kind := range []Kind{EventFilter, Audience} {
			issues := Validate(def, cat, kind)
			for _, d := range []Dialect{BigQuery, Postgres, SQLite} {
				for _, format := range Formats {
					c, err := Compile(def, cat, kind, d, Options{Format: format, Qualifier: "p.d"})
					if len(issues) > 0 {
						if err == nil {
							t.Fatalf("%s: compiled an invalid definition", d.Name())
						}
						continue
					}
					if err != nil {
						t.Fatalf("%s %s: valid definition does not compile: %v", d.Name(), format, err)
					}
					if !strings.HasPrefix(c.Query, FinalCteName+" AS (") || !strings.HasSuffix(c.Query, ")") {
						t.Fatalf("bad query shape: %s", c.Query)
					}
					if format == Parameterized && len(c.Params) != len(c.Types) {
						t.Fatalf("params and types differ")
					}
					again, _ := Compile(def, cat, kind, d, Options{Format: format, Qualifier: "p.d"})
					if again.Query != c.Query {
						t.Fatalf("not deterministic")
					}
				}
			}
			if len(decodeIssues) == 0 && len(issues) == 0 {
				return // valid for one kind is enough to have exercised compilation
			}
		}
	})
}

// FuzzLiteral: whatever a string holds (quotes, backslashes, newlines,
// control characters, invalid UTF-8), its literal in every dialect decodes
// back to it and ends exactly at its closing quote, so an injected quote
// cannot end it. The compiled query differs from the one for a harmless
// value only by that literal.
func FuzzLiteral(f *testing.F) {
	for _, s := range []string{"", "x", "it's", `\`, `\'`, "'\n-- DROP TABLE x; --", "a\r\nb\tc", "\x00\x01\x1f\x7f", "ñandú 🚀", "\u2028\u2029", "\xff'\xfe", "``", `"`, "@p0 ? $1"} {
		f.Add(s)
	}
	cat := testCatalog()
	f.Fuzz(func(t *testing.T, s string) {
		runes := validRunes(s)
		for _, q := range []byte{'\'', '`'} {
			lit := bqQuote(s, q)
			got, rest, ok := parseBigQueryString(lit, q)
			if !ok || rest != "" || got != runes {
				t.Fatalf("bigquery %q: literal %s decodes to %q (rest %q)", s, lit, got, rest)
			}
			if strings.ContainsAny(lit, "\n\r") {
				t.Fatalf("bigquery literal %s spans lines", lit)
			}
		}
		if got, rest, ok := parseDoubled(doubledQuote(s, '\''), '\''); !ok || rest != "" || got != s {
			t.Fatalf("sqlite %q: got %q rest %q", s, got, rest)
		}
		if got, rest, ok := parsePostgresE(pgString(s)); !ok || rest != "" || got != s {
			t.Fatalf("postgres %q: got %q rest %q", s, got, rest)
		}
		if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
			return // JSON values are valid UTF-8; NUL is rejected by validation
		}
		compile := func(v string) string {
			def := decodeDef(t, blocks(ev(where(pr("events", "platform", "EQUALS", v)))))
			c, err := Compile(def, cat, EventFilter, BigQuery, Options{Format: Literal})
			if err != nil {
				t.Fatal(err)
			}
			return c.Query
		}
		if want := strings.Replace(compile("x"), "'x'", bqQuote(s, '\''), 1); compile(s) != want {
			t.Fatalf("literal of %q changed the query around it", s)
		}
	})
}

func validRunes(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}

// parseBigQueryString decodes a GoogleSQL quoted string or identifier,
// independently of bqQuote, and returns what follows its closing quote.
func parseBigQueryString(lit string, q byte) (string, string, bool) {
	if len(lit) < 2 || lit[0] != q {
		return "", "", false
	}
	var b strings.Builder
	for i := 1; i < len(lit); i++ {
		c := lit[i]
		switch {
		case c == q:
			return b.String(), lit[i+1:], true
		case c == '\n' || c == '\r':
			return "", "", false // GoogleSQL quoted strings cannot span lines
		case c != '\\':
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(lit) {
			return "", "", false
		}
		i++
		switch e := lit[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case '\\', '\'', '"', '`', '?':
			b.WriteByte(e)
		case 'u':
			if i+4 >= len(lit) {
				return "", "", false
			}
			var r rune
			for _, h := range lit[i+1 : i+5] {
				d := strings.IndexRune("0123456789abcdef", h)
				if d < 0 {
					return "", "", false
				}
				r = r*16 + rune(d)
			}
			b.WriteRune(r)
			i += 4
		default:
			return "", "", false
		}
	}
	return "", "", false
}

// parseDoubled decodes a literal whose quote is escaped by doubling.
func parseDoubled(lit string, q byte) (string, string, bool) {
	if len(lit) < 2 || lit[0] != q {
		return "", "", false
	}
	var b strings.Builder
	for i := 1; i < len(lit); i++ {
		if lit[i] == q {
			if i+1 < len(lit) && lit[i+1] == q {
				b.WriteByte(q)
				i++
				continue
			}
			return b.String(), lit[i+1:], true
		}
		b.WriteByte(lit[i])
	}
	return "", "", false
}

// parsePostgresE decodes E'...' with doubled quotes and backslash escapes.
func parsePostgresE(lit string) (string, string, bool) {
	if !strings.HasPrefix(lit, "E'") {
		return "", "", false
	}
	var b strings.Builder
	for i := 2; i < len(lit); i++ {
		switch lit[i] {
		case '\\':
			if i+1 >= len(lit) || lit[i+1] != '\\' {
				return "", "", false // bare escapes are never emitted
			}
			b.WriteByte('\\')
			i++
		case '\'':
			if i+1 < len(lit) && lit[i+1] == '\'' {
				b.WriteByte('\'')
				i++
				continue
			}
			return b.String(), lit[i+1:], true
		default:
			b.WriteByte(lit[i])
		}
	}
	return "", "", false
}
