package app

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/paging"
)

// fieldKey names a field of an object type without building
// "Object.field" for every field a request resolves or prices.
type fieldKey struct{ object, field string }

// nodesField is the field that loads nodes by a list of ids; it reads at
// most maxNodeIDs of them, as a connection reads at most a page.
var nodesField = fieldKey{"Query", "nodes"}

const maxNodeIDs = paging.MaxPerPage

// msgTooManyNodeIDs is the 400 of nodes(ids:) over maxNodeIDs.
var msgTooManyNodeIDs = fmt.Sprintf("ids must contain no more than %d elements", maxNodeIDs)

// connectionFields lists every field of schema that returns a Relay
// connection (a type named ...Connection with edges and pageInfo) and takes
// first and last: the fields whose window pageWindow bounds and whose cost
// is multiplied by their page.
func connectionFields(schema *ast.Schema) map[fieldKey]bool {
	out := map[fieldKey]bool{}
	for _, def := range schema.Types {
		if def.Kind != ast.Object || strings.HasPrefix(def.Name, "__") {
			continue
		}
		for _, f := range def.Fields {
			t := schema.Types[f.Type.Name()]
			if f.Type.Elem == nil && t != nil && strings.HasSuffix(t.Name, "Connection") &&
				t.Fields.ForName("edges") != nil && t.Fields.ForName("pageInfo") != nil &&
				f.Arguments.ForName("first") != nil && f.Arguments.ForName("last") != nil {
				out[fieldKey{def.Name, f.Name}] = true
			}
		}
	}
	return out
}

// pageWindow bounds every connection's window (paging.Window: first or
// last between 1 and paging.MaxPerPage, not both, first = DefaultPerPage
// when neither) and the ids of nodes, before the resolver runs: one rule for
// every connection, generated or hand-written, so none reads a whole table.
func pageWindow(schema *ast.Schema) graphql.FieldMiddleware {
	connections := connectionFields(schema)
	return func(ctx context.Context, next graphql.Resolver) (any, error) {
		fc := graphql.GetFieldContext(ctx)
		if fc == nil || fc.Field.Field == nil || fc.Args == nil {
			return next(ctx)
		}
		switch key := (fieldKey{fc.Object, fc.Field.Name}); {
		case connections[key]:
			first, _ := fc.Args["first"].(*int)
			last, _ := fc.Args["last"].(*int)
			first, last, msgs := paging.Window(first, last)
			if len(msgs) > 0 {
				return nil, apperr.Validation(msgs...)
			}
			// The resolver reads its arguments from this map.
			fc.Args["first"], fc.Args["last"] = first, last
			ctx = paging.KeepPlans(ctx, fc.Object == "Query" && firstPage(fc.Args))
		case key == nodesField:
			if ids, _ := fc.Args["ids"].([]uuid.UUID); len(ids) > maxNodeIDs {
				return nil, apperr.Validation(msgTooManyNodeIDs)
			}
		}
		return next(ctx)
	}
}

// firstPage reports whether a connection's arguments ask for its first
// page and nothing else: first alone is set (no cursor, no last, no filter,
// no order), the page whose plans paging.KeepPlans keeps.
func firstPage(args map[string]any) bool {
	for name, v := range args {
		if name == "first" {
			continue
		}
		if rv := reflect.ValueOf(v); v != nil && !(rv.Kind() == reflect.Pointer && rv.IsNil()) &&
			!(rv.Kind() == reflect.Slice && rv.Len() == 0) {
			return false
		}
	}
	return true
}

// costedSchema prices what a field reads: a connection costs 1 plus its
// selection times the rows its window reads (paging.WindowSize), and nodes
// its selection per id, so aliases of large pages add up to more than the
// complexity limit before anything runs. Other fields keep gqlgen's default
// (1 plus their selection).
type costedSchema struct {
	graphql.ExecutableSchema
	connections map[fieldKey]bool
}

func newCostedSchema(es graphql.ExecutableSchema) costedSchema {
	return costedSchema{ExecutableSchema: es, connections: connectionFields(es.Schema())}
}

// Complexity implements graphql.ExecutableSchema.
func (s costedSchema) Complexity(ctx context.Context, typeName, field string, child int, args map[string]any) (int, bool) {
	switch key := (fieldKey{typeName, field}); {
	case s.connections[key]:
		return perRow(child, paging.WindowSize(intArg(args, "first"), intArg(args, "last"))), true
	case key == nodesField:
		ids, _ := args["ids"].([]any)
		return perRow(child, min(len(ids), maxNodeIDs)), true
	}
	return s.ExecutableSchema.Complexity(ctx, typeName, field, child, args)
}

// perRow is 1 + child × rows, saturated instead of overflowing.
func perRow(child, rows int) int {
	if rows > 0 && child > (math.MaxInt-1)/rows {
		return math.MaxInt
	}
	return 1 + child*rows
}

// intArg reads a raw Int argument for pricing (a literal is an int64, a
// variable a json.Number); anything else counts as absent. Values beyond
// the page bounds are kept beyond them: WindowSize clamps.
func intArg(args map[string]any, name string) *int {
	var n int64
	switch v := args[name].(type) {
	case int:
		n = int64(v)
	case int64:
		n = v
	case interface{ Int64() (int64, error) }:
		i, err := v.Int64()
		if err != nil {
			return nil
		}
		n = i
	default:
		return nil
	}
	i := int(min(max(n, -1), paging.MaxPerPage+1))
	return &i
}
