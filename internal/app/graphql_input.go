package app

import (
	"context"
	"fmt"
	"slices"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/reten-io/reten/graph/generated"
	"github.com/reten-io/reten/internal/apperr"
)

// graphSchema resolves the input types along an argument's path.
var graphSchema = generated.NewExecutableSchema(generated.Config{}).Schema()

// scalarForms says what a value of each scalar must look like, in the 400
// of a value that does not coerce. Scalars gqlparser validates itself
// (Int, Float, String, Boolean, enums) rarely get here: a literal or
// variable of the wrong kind is a validation error (422) before execution.
var scalarForms = map[string]string{
	"Time":       "an RFC 3339 instant (such as 2025-01-31T09:00:00Z)",
	"Cursor":     "a cursor returned by the same connection",
	"Map":        "a JSON object",
	"Number":     "a number",
	"QueryValue": "a string, number, boolean or a list of them",
	"ID":         "a UUID",
	"Int":        "an Int",
	"Float":      "a Float",
	"String":     "a String",
	"Boolean":    "a Boolean",
}

// argumentError recognises the failure to coerce a field's argument (a
// malformed Time, Cursor, Map or UUID, reported by gqlgen on the argument's
// input path, before the resolver runs) and returns it as a 400 naming the
// argument: "input.scheduledAt must be an RFC 3339 instant (...)". Errors
// of resolvers carry the field's own path and are left alone.
func argumentError(ctx context.Context, err *gqlerror.Error) (*apperr.Error, bool) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil || fc.Field.Definition == nil {
		return nil, false
	}
	base := fc.Path()
	if len(err.Path) <= len(base) || !slices.Equal(err.Path[:len(base)], base) {
		return nil, false
	}
	name, ok := err.Path[len(base)].(ast.PathName)
	if !ok {
		return nil, false
	}
	arg := fc.Field.Definition.Arguments.ForName(string(name))
	if arg == nil {
		return nil, false
	}
	where, typ := string(name), arg.Type
	for _, el := range err.Path[len(base)+1:] {
		switch p := el.(type) {
		case ast.PathIndex:
			where += fmt.Sprintf("[%d]", int(p))
			if typ != nil {
				typ = typ.Elem
			}
		case ast.PathName:
			where += "." + string(p)
			var next *ast.Type
			if def := typeDef(typ); def != nil {
				if f := def.Fields.ForName(string(p)); f != nil {
					next = f.Type
				}
			}
			typ = next
		}
	}
	return apperr.Invalid(where + " must be " + formOf(typ)), true
}

func typeDef(t *ast.Type) *ast.Definition {
	if t == nil {
		return nil
	}
	return graphSchema.Types[t.Name()]
}

// formOf describes a valid value of t.
func formOf(t *ast.Type) string {
	switch {
	case t == nil:
		return "a valid value"
	case t.Elem != nil:
		return "a list of " + formOf(t.Elem)
	}
	if form, ok := scalarForms[t.Name()]; ok {
		return form
	}
	return "a valid " + t.Name()
}
