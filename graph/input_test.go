package graph_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/reten-io/reten/internal/apptest"
)

// What a malformed value of each scalar is told it must be.
const (
	mustTime   = "must be an RFC 3339 instant (such as 2025-01-31T09:00:00Z)"
	mustCursor = "must be a cursor returned by the same connection"
	mustUUID   = "must be a UUID"
	mustMap    = "must be a JSON object"
)

// badArgument is the error of an argument that does not coerce: a 400
// naming the argument, on the argument's path.
func badArgument(path L, message string) M {
	return fieldError(path, message, "BAD_REQUEST", 400)
}

// TestMalformedArguments: bad input is a 400 naming the argument, inline or
// as a variable (a malformed Time, cursor or ID was a 500).
func TestMalformedArguments(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, acme.ProjectID)
		failed := func(t *testing.T, res *apptest.Response, data any, errs ...M) {
			t.Helper()
			expectBody(t, res, http.StatusOK, M{"data": data, "errors": errs})
		}

		t.Run("scheduledAt", func(t *testing.T) {
			const q = `mutation%s { createActivity(input: {commerceID: "%s", type: TASK, channel: SMS, scheduledAt: %s}) { id } }`
			want := badArgument(L{"createActivity", "input", "scheduledAt"}, "input.scheduledAt "+mustTime)
			failed(t, env.GraphQL(fmt.Sprintf(q, "", uuid.New(), `"tomorrow"`), nil, h), nil, want)
			failed(t, env.GraphQL(fmt.Sprintf(q, "($at: Time!)", uuid.New(), `$at`), M{"at": "tomorrow"}, h), nil, want)
		})

		t.Run("createdAtGT", func(t *testing.T) {
			want := badArgument(L{"commerces", "where", "createdAtGT"}, "where.createdAtGT "+mustTime)
			failed(t, env.GraphQL(`{ commerces(where: {createdAtGT: "yesterday"}) { totalCount } }`, nil, h), nil, want)
			failed(t, env.GraphQL(`query($w: CommerceWhereInput) { commerces(where: $w) { totalCount } }`,
				M{"w": M{"createdAtGT": "yesterday"}}, h), nil, want)
		})

		t.Run("cursor", func(t *testing.T) {
			failed(t, env.GraphQL(`{ commerces(after: "garbage") { totalCount } }`, nil, h), nil,
				badArgument(L{"commerces", "after"}, "after "+mustCursor))
			failed(t, env.GraphQL(`query($c: Cursor) { users(before: $c, last: 2) { totalCount } }`, M{"c": "garbage"}, h), nil,
				badArgument(L{"users", "before"}, "before "+mustCursor))
		})

		t.Run("first with last", func(t *testing.T) {
			expectInvalid(t, env.GraphQL(`{ commerces(first: 2, last: 2) { totalCount } }`, nil, h), "commerces",
				"first and last must not be given together")
		})

		t.Run("ID", func(t *testing.T) {
			want := badArgument(L{"node", "id"}, "id "+mustUUID)
			failed(t, env.GraphQL(`{ node(id: "nope") { id } }`, nil, h), M{"node": nil}, want)
			failed(t, env.GraphQL(`query($id: ID!) { node(id: $id) { id } }`, M{"id": "nope"}, h), M{"node": nil}, want)
			failed(t, env.GraphQL(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, M{"ids": L{uuid.NewString(), "nope"}}, h), nil,
				badArgument(L{"nodes", "ids", 1}, "ids[1] "+mustUUID))
		})
	})
}

// malformed is a value of each scalar of the schema that does not coerce,
// and the answer it gets: scalars gqlparser knows are refused by variable
// validation (422 naming the variable), the others by the argument's
// coercion (400 naming the argument). A new scalar fails the walk until it
// is listed here.
var malformed = map[string]struct {
	value any
	// must: the 400 message after the argument's path; "" for a 422.
	must string
}{
	"ID":         {"nope", mustUUID},
	"Time":       {"tomorrow", mustTime},
	"Cursor":     {"garbage", mustCursor},
	"Map":        {"not an object", mustMap},
	"Number":     {"two", "must be a number"},
	"QueryValue": {M{"not": "a scalar"}, "must be a string, number, boolean or a list of them"},
	"String":     {M{"not": "a string"}, ""},
	"Int":        {"many", ""},
	"Float":      {"much", ""},
	"Boolean":    {"yes", ""},
}

// wellFormed scalars fill the required arguments around the malformed one.
var wellFormed = map[string]any{
	"ID":   "00000000-0000-0000-0000-000000000001",
	"Time": "2025-01-31T09:00:00Z", "Map": M{}, "JSON": M{}, "String": "x", "Int": 1, "Float": 1.5, "Boolean": true, "Number": 2, "QueryValue": "x",
}

// TestMalformedScalarsWalk walks every scalar type of the schema, finds an
// argument that takes it (directly or inside input objects, Query fields
// first), sends a malformed value there with every required value around
// it well formed, and expects a 4xx naming where, never a 500.
func TestMalformedScalarsWalk(t *testing.T) {
	env := apptest.New(t, "sqlite")
	acme := env.Bootstrap("Acme")
	h := apptest.JWT(env.Login(acme.Email), acme.TenantID, acme.ProjectID)
	var scalars []string
	for name, def := range schemaUnderTest.Types {
		if def.Kind == ast.Scalar {
			scalars = append(scalars, name)
		}
	}
	slices.Sort(scalars)
	for _, scalar := range scalars {
		t.Run(scalar, func(t *testing.T) {
			if scalar == "JSON" {
				return // any JSON value is a JSON: nothing is malformed
			}
			bad, ok := malformed[scalar]
			if !ok {
				t.Fatalf("scalar %s has no malformed value: add one to malformed", scalar)
			}
			use := findScalarUse(scalar)
			if use == nil {
				t.Fatalf("no argument takes %s", scalar)
			}
			q, vars := use.request(bad.value)
			t.Logf("%s with %v", q, vars)
			res := env.GraphQL(q, vars, h)
			if strings.Contains(string(res.Body), "INTERNAL") || res.Status >= 500 {
				t.Fatalf("%s: %d %s", q, res.Status, res.Body)
			}
			var body struct {
				Errors []struct {
					Message    string
					Path       []any
					Extensions map[string]any
				}
			}
			res.JSON(t, &body)
			if len(body.Errors) != 1 {
				t.Fatalf("%s: %d %s", q, res.Status, res.Body)
			}
			e := body.Errors[0]
			if bad.must == "" {
				// Variable validation: 422 on the variable's path.
				if res.Status != http.StatusUnprocessableEntity || e.Extensions["code"] != "GRAPHQL_VALIDATION_FAILED" || len(e.Path) == 0 || e.Path[0] != "variable" {
					t.Fatalf("%s: %d %s", q, res.Status, res.Body)
				}
				return
			}
			path := append(L{use.field.Name}, use.path...)
			wantPath, _ := json.Marshal(path)
			gotPath, _ := json.Marshal(e.Path)
			if res.Status != http.StatusOK || e.Message != use.where()+" "+bad.must || string(gotPath) != string(wantPath) ||
				e.Extensions["code"] != "BAD_REQUEST" || e.Extensions["statusCode"] != float64(400) {
				t.Fatalf("%s: %d %s\nwant %q on %s", q, res.Status, res.Body, use.where()+" "+bad.must, wantPath)
			}
		})
	}
}

// scalarUse is an argument of a root field that reaches a scalar at path
// (input field names, list indexes).
type scalarUse struct {
	op    string
	field *ast.FieldDefinition
	arg   *ast.ArgumentDefinition
	path  []any
}

// findScalarUse searches Query, then Mutation fields, by name, for an
// argument reaching scalar within seven levels of input objects, the
// shallowest first.
func findScalarUse(scalar string) *scalarUse {
	for _, op := range []struct {
		name string
		def  *ast.Definition
	}{{"query", schemaUnderTest.Query}, {"mutation", schemaUnderTest.Mutation}} {
		fields := slices.Clone(op.def.Fields)
		slices.SortFunc(fields, func(a, b *ast.FieldDefinition) int { return strings.Compare(a.Name, b.Name) })
		// The shallowest use first: an argument of the scalar itself.
		for levels := range 8 {
			for _, f := range fields {
				if strings.HasPrefix(f.Name, "__") {
					continue
				}
				for _, a := range f.Arguments {
					if path, ok := reach(a.Type, scalar, levels); ok {
						return &scalarUse{op: op.name, field: f, arg: a, path: append([]any{a.Name}, path...)}
					}
				}
			}
		}
	}
	return nil
}

// reach finds the path from type t to a position of scalar.
func reach(t *ast.Type, scalar string, levels int) ([]any, bool) {
	if t.Elem != nil {
		path, ok := reach(t.Elem, scalar, levels)
		return append([]any{0}, path...), ok
	}
	if t.Name() == scalar {
		return nil, true
	}
	def := schemaUnderTest.Types[t.Name()]
	if levels == 0 || def == nil || def.Kind != ast.InputObject {
		return nil, false
	}
	for _, f := range def.Fields {
		if path, ok := reach(f.Type, scalar, levels-1); ok {
			return append([]any{f.Name}, path...), true
		}
	}
	return nil, false
}

// value is the argument's value: well formed everywhere, bad at the path.
func (u *scalarUse) value(bad any) any {
	var build func(t *ast.Type, path []any) any
	build = func(t *ast.Type, path []any) any {
		if t.Elem != nil {
			return L{build(t.Elem, path[1:])}
		}
		if len(path) == 0 {
			return bad
		}
		def := schemaUnderTest.Types[t.Name()]
		obj := M{}
		for _, f := range def.Fields {
			switch {
			case f.Name == path[0]:
				obj[f.Name] = build(f.Type, path[1:])
			case f.Type.NonNull && f.DefaultValue == nil:
				obj[f.Name] = wellFormedValue(f.Type)
			}
		}
		return obj
	}
	return build(u.arg.Type, u.path[1:])
}

// wellFormedValue is a valid value of t.
func wellFormedValue(t *ast.Type) any {
	if t.Elem != nil {
		return L{wellFormedValue(t.Elem)}
	}
	def := schemaUnderTest.Types[t.Name()]
	switch def.Kind {
	case ast.Enum:
		return def.EnumValues[0].Name
	case ast.InputObject:
		obj := M{}
		for _, f := range def.Fields {
			if f.Type.NonNull && f.DefaultValue == nil {
				obj[f.Name] = wellFormedValue(f.Type)
			}
		}
		return obj
	}
	return wellFormed[t.Name()]
}

// request is the operation passing the argument as $v and well-formed
// values of the other required arguments as variables of their own.
func (u *scalarUse) request(bad any) (string, M) {
	defs := []string{"$v: " + u.arg.Type.String()}
	args := []string{u.arg.Name + ": $v"}
	vars := M{"v": u.value(bad)}
	for _, a := range u.field.Arguments {
		if a != u.arg && a.Type.NonNull && a.DefaultValue == nil {
			defs = append(defs, "$"+a.Name+": "+a.Type.String())
			args = append(args, a.Name+": $"+a.Name)
			vars[a.Name] = wellFormedValue(a.Type)
		}
	}
	return fmt.Sprintf("%s(%s) { %s(%s) %s }", u.op, strings.Join(defs, ", "), u.field.Name, strings.Join(args, ", "), selection(u.field)), vars
}

// where names the position as the error message does: input.items[0].at.
func (u *scalarUse) where() string {
	var b strings.Builder
	for i, p := range u.path {
		switch p := p.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", p)
		case string:
			if i > 0 {
				b.WriteString(".")
			}
			b.WriteString(p)
		}
	}
	return b.String()
}

// selection selects __typename of a field returning an object.
func selection(f *ast.FieldDefinition) string {
	if def := schemaUnderTest.Types[f.Type.Name()]; def != nil && def.Kind != ast.Scalar && def.Kind != ast.Enum {
		return "{ __typename }"
	}
	return ""
}
