package app

import (
	"context"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// mutationSelection refuses a mutation field, before it runs, whose
// selection fieldGuard would refuse once it had run: a field of an entity
// the caller may not read, or a where filter on one. The mutation's service
// commits its own transaction, so a result the caller may not see must fail
// the mutation before it writes rather than after. The error carries the
// path of the refused field, inside a list that of its first element's
// (which the refusal would have named had the mutation run).
func mutationSelection(schema *ast.Schema) graphql.FieldMiddleware {
	return func(ctx context.Context, next graphql.Resolver) (any, error) {
		fc := graphql.GetFieldContext(ctx)
		if fc == nil || fc.Object != "Mutation" || fc.Field.Field == nil || fc.Field.Definition == nil {
			return next(ctx)
		}
		c := selectionCheck{ctx: ctx, oc: graphql.GetOperationContext(ctx), schema: schema}
		if err := c.walk(fc.Field.Selections, fc.Field.Definition.Type, fc.Path()); err != nil {
			return nil, err
		}
		return next(ctx)
	}
}

// selectionCheck walks the selection of one mutation field.
type selectionCheck struct {
	ctx    context.Context
	oc     *graphql.OperationContext
	schema *ast.Schema
}

// walk checks the fields selected on a value of type typ found at path.
func (c selectionCheck) walk(sel ast.SelectionSet, typ *ast.Type, path ast.Path) error {
	for t := typ; t.Elem != nil; t = t.Elem {
		path = append(append(ast.Path{}, path...), ast.PathIndex(0))
	}
	parent := typ.Name()
	var satisfies []string // an abstract type: every fragment may apply
	if def := c.schema.Types[parent]; def != nil && def.Kind == ast.Object {
		satisfies = append([]string{parent}, def.Interfaces...)
	}
	for _, f := range graphql.CollectFields(c.oc, sel, satisfies) {
		if f.Definition == nil || strings.HasPrefix(f.Name, "__") {
			continue
		}
		at := append(append(ast.Path{}, path...), ast.PathName(f.Alias))
		if err := c.field(parent, f); err != nil {
			return &gqlerror.Error{Err: err, Message: err.Error(), Path: at}
		}
		if err := c.walk(f.Selections, f.Definition.Type, at); err != nil {
			return err
		}
	}
	return nil
}

// field applies fieldGuard's rules to one selected field of parent.
func (c selectionCheck) field(parent string, f graphql.CollectedField) error {
	if parent == "Viewer" { // fieldGuard exempts the fields describing the caller
		return nil
	}
	if where := f.Definition.Arguments.ForName("where"); where != nil {
		if err := checkWhere(c.ctx, c.schema, where.Type.Name(), f.ArgumentMap(c.oc.Variables)["where"]); err != nil {
			return err
		}
	}
	return requireRead(c.ctx, entityOf(f.Definition))
}
