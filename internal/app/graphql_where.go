package app

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"entgo.io/ent/dialect/sql"
	"github.com/99designs/gqlgen/graphql"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/privacy"
)

// whereInputSuffix ends the name of every where input entgql generates
// (XWhereInput filters the node type X).
const whereInputSuffix = "WhereInput"

// entPackage is the import path of the generated where inputs.
var entPackage = reflect.TypeFor[ent.ProjectWhereInput]().PkgPath()

// whereScope narrows every where input among a field's arguments to the
// caller's data scope. entgql compiles the edge filters of a where input
// (hasXWith, hasX) into subqueries that neither the privacy policy nor the
// interceptors of the edge's type run for: alone, they would match rows the
// edge itself never returns (another project's activities, another tenant's
// memberships, archived records) and let a filter probe them. So every where
// input, at any depth (the root, its and/or/not, each edge filter and theirs),
// gets the predicates that ent.Client.DataScope gives for its type, which are
// the ones the data layer adds to a query of that type; and an edge existence
// test (hasX) becomes the same test on a scoped, empty edge filter.
func whereScope(client *ent.Client) graphql.FieldMiddleware {
	return func(ctx context.Context, next graphql.Resolver) (any, error) {
		fc := graphql.GetFieldContext(ctx)
		if fc == nil || len(fc.Args) == 0 {
			return next(ctx)
		}
		var s *whereScoper // most fields take no where input: built on the first
		for _, arg := range fc.Args {
			if v := reflect.ValueOf(arg); v.Kind() == reflect.Pointer && !v.IsNil() && isWhereInput(v.Type()) {
				if s == nil {
					s = newWhereScoper(ctx, client)
				}
				if err := s.scope(v); err != nil {
					return nil, err
				}
			}
		}
		return next(ctx)
	}
}

// whereScoper applies the data scope of one request to where inputs.
type whereScoper struct {
	ctx    context.Context
	client *ent.Client
	// preds caches, per where-input type, its scope as AddPredicates arguments.
	preds map[reflect.Type][]reflect.Value
}

func newWhereScoper(ctx context.Context, client *ent.Client) *whereScoper {
	return &whereScoper{ctx: ctx, client: client, preds: map[reflect.Type][]reflect.Value{}}
}

// isWhereInput reports whether t is a pointer to a generated where input.
func isWhereInput(t reflect.Type) bool {
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return false
	}
	if t.Elem().PkgPath() != entPackage || !strings.HasSuffix(t.Elem().Name(), whereInputSuffix) {
		return false // before the method lookup, which costs microseconds
	}
	_, adds := t.MethodByName("AddPredicates")
	return adds
}

// scope adds the scope of its type to the where input w (a non-nil pointer),
// rewrites its edge existence tests, then scopes every where input it holds.
func (s *whereScoper) scope(w reflect.Value) error {
	preds, err := s.predicates(w.Type())
	if err != nil {
		return err
	}
	if len(preds) > 0 {
		w.MethodByName("AddPredicates").Call(preds)
	}
	e := w.Elem()
	t := e.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if _, paired := t.FieldByName(f.Name + "With"); paired && strings.HasPrefix(f.Name, "Has") && f.Type == reflect.TypeFor[*bool]() {
			if err := s.scopeExistence(e, f.Name); err != nil {
				return err
			}
		}
	}
	for i := range t.NumField() {
		fv := e.Field(i)
		switch {
		case isWhereInput(fv.Type()):
			if !fv.IsNil() {
				if err := s.scope(fv); err != nil {
					return err
				}
			}
		case fv.Kind() == reflect.Slice && isWhereInput(fv.Type().Elem()):
			for j := range fv.Len() {
				if item := fv.Index(j); !item.IsNil() {
					if err := s.scope(item); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// scopeExistence rewrites the edge existence test hasX of the where input e
// (an unscoped EXISTS or foreign-key test) into the same test on an empty
// edge filter, which the walk then scopes: hasX: true becomes
// hasXWith: [{}], and hasX: false becomes and: [{not: {hasXWith: [{}]}}].
// Edge types without a scope keep the plain test.
func (s *whereScoper) scopeExistence(e reflect.Value, hasX string) error {
	has, with := e.FieldByName(hasX), e.FieldByName(hasX+"With")
	if has.IsNil() {
		return nil
	}
	preds, err := s.predicates(with.Type().Elem())
	if err != nil || len(preds) == 0 {
		return err
	}
	exists := has.Elem().Bool()
	has.SetZero()
	probe := reflect.New(with.Type().Elem().Elem())
	if exists {
		with.Set(reflect.Append(with, probe))
		return nil
	}
	inner := reflect.New(e.Type())
	inner.Elem().FieldByName(hasX + "With").Set(reflect.Append(reflect.MakeSlice(with.Type(), 0, 1), probe))
	outer := reflect.New(e.Type())
	outer.Elem().FieldByName("Not").Set(inner)
	and := e.FieldByName("And")
	and.Set(reflect.Append(and, outer))
	return nil
}

// predicates returns the scope of the where-input type t (a pointer type) as
// arguments of its AddPredicates method. A policy that denies the caller every
// row of the type scopes the filter to nothing, as if no row existed.
func (s *whereScoper) predicates(t reflect.Type) ([]reflect.Value, error) {
	if out, ok := s.preds[t]; ok {
		return out, nil
	}
	node := strings.TrimSuffix(t.Elem().Name(), whereInputSuffix)
	ps, err := s.client.DataScope(s.ctx, node)
	switch {
	case errors.Is(err, privacy.Deny):
		ps = []func(*sql.Selector){func(sel *sql.Selector) { sel.Where(sql.False()) }}
	case err != nil:
		return nil, fmt.Errorf("scope of %s filters: %w", node, err)
	}
	add, _ := t.MethodByName("AddPredicates")
	pred := add.Type.In(1).Elem() // func(receiver, ...predicate.X)
	out := make([]reflect.Value, len(ps))
	for i, p := range ps {
		out[i] = reflect.ValueOf(p).Convert(pred)
	}
	s.preds[t] = out
	return out, nil
}
