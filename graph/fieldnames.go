package graph

import (
	"context"
	"strings"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// InputNames is a field middleware that says, in the messages of a typed
// error a field's resolver returns, the member names services take from
// REST bodies (snake_case: "commerce_id", "tables[1].columns[9].is_repeated")
// as the field's GraphQL input names ("commerceID", "isRepeated"). The table
// of a field is derived from the schema: every input field reachable from
// its arguments, under its REST spelling (the snake_case of its name, an
// "ID" suffix spelled "_id"). Words in double quotes are values, never
// translated; messages of other errors are left as they are.
func InputNames(schema *ast.Schema) graphql.FieldMiddleware {
	var tables sync.Map // field definition -> map[string]string
	return func(ctx context.Context, next graphql.Resolver) (any, error) {
		res, err := next(ctx)
		fc := graphql.GetFieldContext(ctx)
		if err == nil || fc == nil || fc.Field.Definition == nil || len(fc.Field.Definition.Arguments) == 0 {
			return res, err
		}
		def := fc.Field.Definition
		t, ok := tables.Load(def)
		if !ok {
			t, _ = tables.LoadOrStore(def, inputNameTable(schema, def))
		}
		names := t.(map[string]string)
		return res, translateMessages(err, func(m string) string { return renameWords(m, names) })
	}
}

// inputNameTable maps the REST spelling of every input field reachable from
// def's arguments to its GraphQL name, when the two differ.
func inputNameTable(schema *ast.Schema, def *ast.FieldDefinition) map[string]string {
	out := map[string]string{}
	seen := map[string]bool{}
	var walk func(t *ast.Type)
	walk = func(t *ast.Type) {
		for t.Elem != nil {
			t = t.Elem
		}
		typ := schema.Types[t.NamedType]
		if typ == nil || typ.Kind != ast.InputObject || seen[typ.Name] {
			return
		}
		seen[typ.Name] = true
		for _, f := range typ.Fields {
			if s := snake(f.Name); s != f.Name {
				out[s] = f.Name
			}
			walk(f.Type)
		}
	}
	for _, a := range def.Arguments {
		if s := snake(a.Name); s != a.Name {
			out[s] = a.Name
		}
		walk(a.Type)
	}
	return out
}

// snake is the REST spelling of a GraphQL member name: "commerceID" is
// "commerce_id", "isRepeated" "is_repeated".
func snake(name string) string {
	if strings.HasSuffix(name, "ID") {
		name = strings.TrimSuffix(name, "ID") + "Id"
	}
	var b strings.Builder
	for i, r := range name {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// renameWords replaces every word of m (a run of letters, digits and
// underscores) outside double quotes that names has a GraphQL name for.
func renameWords(m string, names map[string]string) string {
	if len(names) == 0 {
		return m
	}
	var b strings.Builder
	quoted := false
	for i := 0; i < len(m); {
		c := m[i]
		if c == '"' {
			quoted = !quoted
		}
		if quoted || !isWordByte(c) {
			b.WriteByte(c)
			i++
			continue
		}
		j := i
		for j < len(m) && isWordByte(m[j]) {
			j++
		}
		w := m[i:j]
		if gql, ok := names[w]; ok {
			w = gql
		}
		b.WriteString(w)
		i = j
	}
	return b.String()
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
