// Package gqlid makes every uuid of the generated GraphQL schema an ID: entgql
// types a uuid field that is not an edge with the scalar named after its Go
// type (UUID), so that updatedBy or Activity.activityGenerationConfigID would
// read differently from the edge ids. Run by the entgql extension as a schema
// hook (ent/entc.go).
package gqlid

import (
	"entgo.io/ent/entc/gen"
	"github.com/vektah/gqlparser/v2/ast"
)

// Hook retypes every field and argument of type UUID (lists too) as ID,
// and leaves no UUID scalar behind.
func Hook(_ *gen.Graph, s *ast.Schema) error {
	delete(s.Types, "UUID")
	for _, def := range s.Types {
		for _, f := range def.Fields {
			retype(f.Type)
			for _, a := range f.Arguments {
				retype(a.Type)
			}
		}
	}
	return nil
}

func retype(t *ast.Type) {
	for ; t != nil; t = t.Elem {
		if t.NamedType == "UUID" {
			t.NamedType = "ID"
		}
	}
}
