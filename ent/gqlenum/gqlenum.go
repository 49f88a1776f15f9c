// Package gqlenum keeps the where-input filters of a string field that the
// GraphQL schema shows as an enum (entgql.Type) to those an enum has:
// equality and membership. entgql would also give it the ordering and
// substring filters of a string (kindGT, kindContains, ...). Run by the
// entgql extension as a schema hook (ent/entc.go).
package gqlenum

import (
	"slices"

	"entgo.io/contrib/entgql"
	"entgo.io/ent/entc/gen"
	"entgo.io/ent/schema/field"
	"github.com/vektah/gqlparser/v2/ast"
)

// stringOps are the filter suffixes that only make sense on free text.
var stringOps = []string{"GT", "GTE", "LT", "LTE", "Contains", "HasPrefix", "HasSuffix", "EqualFold", "ContainsFold"}

// Hook removes the string-only filters of every enum-typed string field.
func Hook(g *gen.Graph, s *ast.Schema) error {
	for _, n := range g.Nodes {
		where := s.Types[n.Name+"WhereInput"]
		if where == nil {
			continue
		}
		for _, f := range n.Fields {
			if f.Type.Type != field.TypeString {
				continue
			}
			ant := &entgql.Annotation{}
			if raw, ok := f.Annotations[ant.Name()]; !ok || ant.Decode(raw) != nil || ant.Type == "" {
				continue
			}
			name := gen.Funcs["camel"].(func(string) string)(f.Name)
			where.Fields = slices.DeleteFunc(where.Fields, func(d *ast.FieldDefinition) bool {
				return slices.ContainsFunc(stringOps, func(op string) bool { return d.Name == name+op })
			})
		}
	}
	return nil
}
