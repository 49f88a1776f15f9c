// Package compiled writes the connections of root query fields as JSON
// without gqlgen's executor: gqlgen resolves the root field (its arguments,
// its field middlewares, its resolver), then a writer generated for each
// object type (graph/generated/compiled_gen.go, by graph/gen from gqlgen's
// own bindings) writes the selection with this package's Writer, field by
// field in gqlgen's collected order, with gqlgen's marshallers or their
// equivalents. gqlgen spends some eight
// allocations per field it executes (a field context, a context, the
// middleware closures, a marshaller); a writer spends none for most leaves.
//
// Anything a writer cannot write as gqlgen would (a field with a resolver
// or an argument, a deferred fragment, a null in a non-null field, a field
// the guard refuses) hands the value back to gqlgen, which marshals it
// itself: the output is gqlgen's either way (TestCompiledConnectionsMatchGqlgen,
// in rest/, compares them for every connection).
package compiled

import (
	"context"
	"encoding/hex"
	"strconv"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"
	"github.com/vektah/gqlparser/v2/ast"
)

// Guard admits a field of object that returns an object, with the checks
// gqlgen's field middlewares make of a field without arguments; an error
// hands the selection back to gqlgen, which runs them and reports it.
type Guard func(ctx context.Context, object string, field *ast.FieldDefinition) error

// Root writes res, the value of the root query field f, with w when f's
// type is a compiled connection and its selection holds only compiled
// fields, and returns the zero value of res's type; false otherwise
// (generated.WriteCompiled).
type Root func(w *Writer, f graphql.CollectedField, res any) (any, bool)

// Write writes res, the value of the root query field f, with root: the
// writer holding the JSON (Bytes, until Release), the zero value of res's
// type (for gqlgen's resolver result, which the field's exec code does not
// marshal when Written) and true. Otherwise it returns false and gqlgen
// marshals res.
func Write(ctx context.Context, f graphql.CollectedField, res any, guard Guard, root Root) (*Writer, any, bool) {
	w := writers.Get().(*Writer)
	w.ctx, w.op, w.guard = ctx, graphql.GetOperationContext(ctx), guard
	zero, ok := root(w, f, res)
	if !ok {
		w.Release()
		return nil, nil, false
	}
	return w, zero, true
}

// writers keeps writers, their buffers and caches, between requests.
var writers = sync.Pool{New: func() any { return &Writer{buf: make([]byte, 0, 8192)} }}

// Writer is the JSON of a selection being written. It is an io.Writer for
// the MarshalGQL methods of gqlgen marshallers (enums, cursors).
type Writer struct {
	ctx      context.Context
	op       *graphql.OperationContext
	guard    Guard
	buf      []byte
	scratch  []byte                 // a cursor's bytes before base64
	admitted []*ast.FieldDefinition // fields the guard let through
	selected []selection            // selections collected
}

// Bytes is the JSON written, valid until Release.
func (w *Writer) Bytes() []byte { return w.buf }

// Release hands w back for another request to write with: neither it nor
// its Bytes may be used after.
func (w *Writer) Release() {
	if cap(w.buf) > 1<<20 { // a rare large answer is not kept
		w.buf = make([]byte, 0, 8192)
	}
	clear(w.admitted)
	clear(w.selected)
	*w = Writer{buf: w.buf[:0], scratch: w.scratch[:0], admitted: w.admitted[:0], selected: w.selected[:0]}
	writers.Put(w)
}

// selection is a selection set collected on an object of the types impl
// names: the fields of a list's elements are collected once, not per element.
type selection struct {
	set    *ast.Selection
	n      int
	impl   *string
	fields []graphql.CollectedField
}

func (w *Writer) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	return len(p), nil
}

func (w *Writer) WriteString(s string) (int, error) {
	w.buf = append(w.buf, s...)
	return len(s), nil
}

// Collect is f's selection on an object of the types impl names, as gqlgen
// collects it (fragments, @skip, @include, aliases); false for a deferred
// fragment, which only gqlgen writes.
func (w *Writer) Collect(f graphql.CollectedField, impl []string) ([]graphql.CollectedField, bool) {
	if len(f.Selections) == 0 {
		return nil, false
	}
	for _, s := range w.selected {
		if s.set == &f.Selections[0] && s.n == len(f.Selections) && s.impl == &impl[0] {
			return s.fields, true
		}
	}
	fields := graphql.CollectFields(w.op, f.Selections, impl)
	for _, c := range fields {
		if c.Deferrable != nil {
			return nil, false
		}
	}
	w.selected = append(w.selected, selection{set: &f.Selections[0], n: len(f.Selections), impl: &impl[0], fields: fields})
	return fields, true
}

// Enter asks the guard about an object field once per request.
func (w *Writer) Enter(object string, f graphql.CollectedField) bool {
	for _, d := range w.admitted {
		if d == f.Definition {
			return true
		}
	}
	if w.guard(w.ctx, object, f.Definition) != nil {
		return false
	}
	w.admitted = append(w.admitted, f.Definition)
	return true
}

// Key writes the i-th member's name, as gqlgen's FieldSet does.
func (w *Writer) Key(i int, alias string) {
	if i > 0 {
		w.buf = append(w.buf, ',')
	}
	w.String(alias)
	w.buf = append(w.buf, ':')
}

// Byte writes c, a brace, a bracket or a comma.
func (w *Writer) Byte(c byte) { w.buf = append(w.buf, c) }

// Null writes null.
func (w *Writer) Null() { w.buf = append(w.buf, "null"...) }

// String writes s quoted as graphql.MarshalString does: only '"', '\\'
// and control characters escaped, everything else as it is.
func (w *Writer) String(s string) {
	w.buf = append(w.buf, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '\\' && c != '"' {
			continue
		}
		w.buf = append(w.buf, s[start:i]...)
		switch c {
		case '\t':
			w.buf = append(w.buf, `\t`...)
		case '\r':
			w.buf = append(w.buf, `\r`...)
		case '\n':
			w.buf = append(w.buf, `\n`...)
		case '\\':
			w.buf = append(w.buf, `\\`...)
		case '"':
			w.buf = append(w.buf, `\"`...)
		default:
			w.buf = append(w.buf, `\u00`...)
			w.buf = append(w.buf, upperHex[c>>4], upperHex[c&0xf])
		}
		start = i + 1
	}
	w.buf = append(w.buf, s[start:]...)
	w.buf = append(w.buf, '"')
}

const upperHex = "0123456789ABCDEF"

// Enum writes name quoted, as the MarshalGQL of an enum generated by
// entgql or gqlgen does (strconv.Quote of its String) when name spells a
// GraphQL name, the only case the two quotings agree on; false, writing
// nothing, otherwise: the caller marshals the value itself.
func (w *Writer) Enum(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c == '_' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	w.buf = append(w.buf, '"')
	w.buf = append(w.buf, name...)
	w.buf = append(w.buf, '"')
	return true
}

// Bool writes b as graphql.MarshalBoolean does.
func (w *Writer) Bool(b bool) { w.buf = strconv.AppendBool(w.buf, b) }

// Int writes i as graphql.MarshalInt does.
func (w *Writer) Int(i int64) { w.buf = strconv.AppendInt(w.buf, i, 10) }

// Time writes t as graphql.MarshalTime does (RFC 3339 with nanoseconds;
// the zero time is null); false for a zero time in a non-null field.
func (w *Writer) Time(t time.Time, nonNull bool) bool {
	if t.IsZero() {
		w.Null()
		return !nonNull
	}
	w.buf = append(w.buf, '"')
	w.buf = t.AppendFormat(w.buf, time.RFC3339Nano)
	w.buf = append(w.buf, '"')
	return true
}

// UUID writes id as graphql.MarshalUUID does (the nil UUID is null);
// false for the nil UUID in a non-null field.
func (w *Writer) UUID(id uuid.UUID, nonNull bool) bool {
	if id == uuid.Nil {
		w.Null()
		return !nonNull
	}
	var text [38]byte // "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as uuid.UUID.String spells it
	text[0], text[9], text[14], text[19], text[24], text[37] = '"', '-', '-', '-', '-', '"'
	hex.Encode(text[1:9], id[0:4])
	hex.Encode(text[10:14], id[4:6])
	hex.Encode(text[15:19], id[6:8])
	hex.Encode(text[20:24], id[8:10])
	hex.Encode(text[25:37], id[10:])
	w.buf = append(w.buf, text[:]...)
	return true
}

// Marshaler writes m, what another gqlgen marshaller made of a value;
// false for null in a non-null field.
func (w *Writer) Marshaler(m graphql.Marshaler, nonNull bool) bool {
	if m == graphql.Null {
		w.Null()
		return !nonNull
	}
	m.MarshalGQL(w)
	return true
}
