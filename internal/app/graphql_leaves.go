package app

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// skipLeaves runs the field middlewares mws, in order, around every field
// but the leaves (leafFields), which none of them concerns: a page of 25
// activities resolves some two hundred leaf fields, each of which would
// otherwise pass through every middleware.
func skipLeaves(schema *ast.Schema, mws ...graphql.FieldMiddleware) graphql.FieldMiddleware {
	leaves := leafFields(schema)
	return func(ctx context.Context, next graphql.Resolver) (any, error) {
		if fc := graphql.GetFieldContext(ctx); fc != nil && leaves[fc.Field.Definition] {
			return next(ctx)
		}
		for i := len(mws) - 1; i >= 0; i-- {
			mw, inner := mws[i], next
			next = func(ctx context.Context) (any, error) { return mw(ctx, inner) }
		}
		return next(ctx)
	}
}

// leafFields are the fields of the schema's object types, other than Query
// and Mutation, that take no argument and whose type is a scalar or an enum
// (or a list of them): they return no entity, filter nothing, page nothing
// and write nothing, so the guards let them through as they are.
func leafFields(schema *ast.Schema) map[*ast.FieldDefinition]bool {
	out := map[*ast.FieldDefinition]bool{}
	for name, t := range schema.Types {
		if t.Kind != ast.Object || name == "Query" || name == "Mutation" {
			continue
		}
		for _, f := range t.Fields {
			if ft := schema.Types[f.Type.Name()]; len(f.Arguments) == 0 && ft != nil && (ft.Kind == ast.Scalar || ft.Kind == ast.Enum) {
				out[f] = true
			}
		}
	}
	return out
}
