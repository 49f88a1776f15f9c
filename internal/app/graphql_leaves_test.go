package app

import (
	"context"
	"slices"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// TestLeafFields: a leaf takes no argument, returns a scalar or an enum
// (or a list of them) and is not a root field.
func TestLeafFields(t *testing.T) {
	schema := gqlparser.MustLoadSchema(&ast.Source{Input: `
		type Query { a: Int, t: T }
		type Mutation { m: Int }
		enum E { A }
		type T { s: String, e: E!, l: [String!]!, x(arg: Int): String, o: T, os: [T!] }`})
	leaves := leafFields(schema)
	var got []string
	for _, name := range []string{"Query", "Mutation", "T"} {
		for _, f := range schema.Types[name].Fields {
			if leaves[f] {
				got = append(got, name+"."+f.Name)
			}
		}
	}
	if want := []string{"T.s", "T.e", "T.l"}; !slices.Equal(got, want) {
		t.Fatalf("leaves %v, want %v", got, want)
	}
}

// TestSkipLeaves: the middlewares run, first outermost, around any field
// but a leaf, whose resolver runs alone.
func TestSkipLeaves(t *testing.T) {
	schema := gqlparser.MustLoadSchema(&ast.Source{Input: `type Query { t: T } type T { s: String, o: T }`})
	var trace []string
	mw := func(name string) graphql.FieldMiddleware {
		return func(ctx context.Context, next graphql.Resolver) (any, error) {
			trace = append(trace, name)
			return next(ctx)
		}
	}
	run := skipLeaves(schema, mw("outer"), mw("inner"))
	resolve := func(ctx context.Context) (any, error) { trace = append(trace, "resolver"); return nil, nil }
	for _, c := range []struct {
		object, field string
		want          []string
	}{
		{"T", "s", []string{"resolver"}},
		{"T", "o", []string{"outer", "inner", "resolver"}},
		{"Query", "t", []string{"outer", "inner", "resolver"}},
	} {
		trace = nil
		def := schema.Types[c.object].Fields.ForName(c.field)
		ctx := graphql.WithFieldContext(context.Background(), &graphql.FieldContext{Object: c.object,
			Field: graphql.CollectedField{Field: &ast.Field{Name: c.field, Definition: def}}})
		if _, err := run(ctx, resolve); err != nil || !slices.Equal(trace, c.want) {
			t.Errorf("%s.%s: %v (%v), want %v", c.object, c.field, trace, err, c.want)
		}
	}
}
