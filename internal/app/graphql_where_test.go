package app

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"
	gqlast "github.com/vektah/gqlparser/v2/ast"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/graph/generated"
	"github.com/reten-io/reten/internal/viewer"
)

// whereInputTypes returns every where-input type the GraphQL API can receive:
// those the resolvers take, and every where input they reach through fields.
func whereInputTypes(t *testing.T) map[string]reflect.Type {
	t.Helper()
	out := map[string]reflect.Type{}
	var visit func(reflect.Type)
	visit = func(w reflect.Type) {
		if _, seen := out[w.Elem().Name()]; seen {
			return
		}
		out[w.Elem().Name()] = w
		for i := range w.Elem().NumField() {
			ft := w.Elem().Field(i).Type
			if ft.Kind() == reflect.Slice {
				ft = ft.Elem()
			}
			if isWhereInput(ft) {
				visit(ft)
			}
		}
	}
	root := reflect.TypeFor[generated.ResolverRoot]()
	for i := range root.NumMethod() {
		resolver := root.Method(i).Type.Out(0)
		for j := range resolver.NumMethod() {
			m := resolver.Method(j).Type
			for k := range m.NumIn() {
				if isWhereInput(m.In(k)) {
					visit(m.In(k))
				}
			}
		}
	}
	return out
}

// TestEveryWhereInputIsScoped walks the GraphQL schema: every where input a
// request can send is scoped by whereScope (where inputs come only as `where`
// arguments and through other where inputs), every where-input field of a
// where input is an edge filter or and/or/not, and every edge existence test
// has its edge filter. So a new edge or entity cannot escape the scope.
func TestEveryWhereInputIsScoped(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	reachable := map[string]bool{}
	var reach func(name string)
	reach = func(name string) {
		if reachable[name] {
			return
		}
		reachable[name] = true
		for _, f := range schema.Types[name].Fields {
			if strings.HasSuffix(f.Type.Name(), whereInputSuffix) {
				reach(f.Type.Name())
			}
		}
	}
	for name, def := range schema.Types {
		for _, f := range def.Fields {
			for _, a := range f.Arguments {
				if !strings.HasSuffix(a.Type.Name(), whereInputSuffix) {
					continue
				}
				if a.Name != "where" {
					t.Errorf("%s.%s(%s: %s): where inputs are taken as `where` arguments only", name, f.Name, a.Name, a.Type.Name())
				}
				reach(a.Type.Name())
			}
			if def.Kind == gqlast.InputObject && !strings.HasSuffix(name, whereInputSuffix) && strings.HasSuffix(f.Type.Name(), whereInputSuffix) {
				t.Errorf("input %s.%s holds a where input: whereScope scans arguments, not other inputs", name, f.Name)
			}
		}
	}
	types := whereInputTypes(t)
	for name := range reachable {
		if _, ok := types[name]; !ok {
			t.Errorf("%s can be sent, but no resolver method takes it: add the method that does to whereInputTypes", name)
		}
	}
	if len(reachable) < 30 {
		t.Fatalf("only %d where inputs reachable in the schema", len(reachable))
	}

	v := &viewer.Viewer{UserID: uuid.New(), TenantID: uuid.New(), ProjectID: uuid.New()}
	ctx := viewer.NewContext(context.Background(), v)
	client := ent.NewClient()
	for _, name := range slices.Sorted(maps.Keys(types)) {
		w := types[name]
		t.Run(name, func(t *testing.T) {
			checkScopeOf(t, ctx, client, w, v)
			for _, exists := range []bool{true, false} {
				root := fullWhereInput(t, w, exists)
				s := newWhereScoper(ctx, client)
				if err := s.scope(root); err != nil {
					t.Fatal(err)
				}
				checkScoped(t, s, root, name)
				if err, _ := root.MethodByName("P").Call(nil)[1].Interface().(error); err != nil {
					t.Fatalf("P() of the scoped %s: %v", name, err)
				}
			}
		})
	}
}

// TestWhereScopeOfADeniedEntity: when the data layer denies the caller a
// type altogether (no tenant in context), its edge filters match nothing.
func TestWhereScopeOfADeniedEntity(t *testing.T) {
	ctx := viewer.NewContext(context.Background(), &viewer.Viewer{UserID: uuid.New()})
	w := &ent.ProjectWhereInput{HasRootAudienceWith: []*ent.AudienceWhereInput{{}}}
	if err := newWhereScoper(ctx, ent.NewClient()).scope(reflect.ValueOf(w)); err != nil {
		t.Fatal(err)
	}
	p, err := w.HasRootAudienceWith[0].P()
	if err != nil {
		t.Fatal(err)
	}
	sel := sql.Dialect(dialect.Postgres).Select("*").From(sql.Table("audiences"))
	p(sel)
	if query, _ := sel.Query(); query != `SELECT * FROM "audiences" WHERE FALSE` {
		t.Fatalf("scope of a denied type: %s", query)
	}
}

// fullWhereInput builds a value of the where-input type w with every where
// field set (one level deep) and every edge existence test set to exists.
func fullWhereInput(t *testing.T, w reflect.Type, exists bool) reflect.Value {
	t.Helper()
	v := reflect.New(w.Elem())
	e := v.Elem()
	for i := range e.NumField() {
		f := w.Elem().Field(i)
		switch {
		case isWhereInput(f.Type):
			if f.Name != "Not" {
				t.Errorf("%s.%s: a single where input is only `not`", w.Elem().Name(), f.Name)
			}
			e.Field(i).Set(reflect.New(f.Type.Elem()))
		case f.Type.Kind() == reflect.Slice && isWhereInput(f.Type.Elem()):
			edge := strings.HasPrefix(f.Name, "Has") && strings.HasSuffix(f.Name, "With")
			if !edge && f.Name != "And" && f.Name != "Or" {
				t.Errorf("%s.%s: a list of where inputs is and, or, or an edge filter hasXWith", w.Elem().Name(), f.Name)
			}
			if edge {
				if has, ok := w.Elem().FieldByName(strings.TrimSuffix(f.Name, "With")); !ok || has.Type != reflect.TypeFor[*bool]() {
					t.Errorf("%s.%s: no existence test %s beside it", w.Elem().Name(), f.Name, strings.TrimSuffix(f.Name, "With"))
				}
			}
			e.Field(i).Set(reflect.Append(e.Field(i), reflect.New(f.Type.Elem().Elem())))
		case f.Type == reflect.TypeFor[*bool]() && strings.HasPrefix(f.Name, "Has"):
			if _, ok := w.Elem().FieldByName(f.Name + "With"); ok {
				b := exists
				e.Field(i).Set(reflect.ValueOf(&b))
			}
		}
	}
	return v
}

// checkScoped asserts that every where input of the tree rooted at w carries
// exactly the scope of its type, and that no scoped edge existence test is left.
func checkScoped(t *testing.T, s *whereScoper, w reflect.Value, path string) {
	t.Helper()
	want, err := s.predicates(w.Type())
	if err != nil {
		t.Fatal(err)
	}
	e := w.Elem()
	if got := e.FieldByName("Predicates").Len(); got != len(want) {
		t.Errorf("%s (%s): %d scope predicates, want %d", path, e.Type().Name(), got, len(want))
	}
	for i := range e.NumField() {
		f, fv := e.Type().Field(i), e.Field(i)
		switch {
		case f.Type == reflect.TypeFor[*bool]() && strings.HasPrefix(f.Name, "Has") && !fv.IsNil():
			if with, ok := e.Type().FieldByName(f.Name + "With"); ok {
				if scope, _ := s.predicates(with.Type.Elem()); len(scope) > 0 {
					t.Errorf("%s.%s: an unscoped existence test is left", path, f.Name)
				}
			}
		case isWhereInput(f.Type) && !fv.IsNil():
			checkScoped(t, s, fv, path+"."+f.Name)
		case f.Type.Kind() == reflect.Slice && isWhereInput(f.Type.Elem()):
			for j := range fv.Len() {
				checkScoped(t, s, fv.Index(j), path+"."+f.Name)
			}
		}
	}
}

// checkScopeOf asserts that the scope of a where-input type holds the filters
// of its entity's mixins, read from the columns the where input exposes: the
// viewer's tenant (tenantID), the active project (a required projectID) and
// live rows (archivedAt); and, for the entities outside a tenant, their own
// policies. Only global entities have no scope.
func checkScopeOf(t *testing.T, ctx context.Context, client *ent.Client, w reflect.Type, v *viewer.Viewer) {
	t.Helper()
	node := strings.TrimSuffix(w.Elem().Name(), whereInputSuffix)
	ps, err := client.DataScope(ctx, node)
	if err != nil {
		t.Fatalf("DataScope(%s): %v", node, err)
	}
	sel := sql.Dialect(dialect.Postgres).Select("*").From(sql.Table("t"))
	for _, p := range ps {
		p(sel)
	}
	query, args := sel.Query()
	column := func(field string) bool { _, ok := w.Elem().FieldByName(field); return ok }
	expect := func(what string, ok bool) {
		if !ok {
			t.Errorf("scope of %s: %s %v lacks %s", node, query, args, what)
		}
	}
	has := func(col string, v any) bool {
		return strings.Contains(query, `"`+col+`" = `) && slices.Contains(args, v)
	}
	switch {
	case column("TenantID"):
		expect("the tenant", has("tenant_id", v.TenantID))
		if column("ProjectID") && !column("ProjectIDIsNil") {
			expect("the project", has("project_id", v.ProjectID))
		}
		if column("ArchivedAtIsNil") {
			expect("live rows only", strings.Contains(query, `"archived_at" IS NULL`))
		}
	case node == "Tenant":
		expect("the viewer's memberships", has("user_id", v.UserID))
	case node == "User":
		expect("the tenant's members", has("tenant_id", v.TenantID))
	default:
		if !slices.Contains(globalEntities, node) {
			t.Errorf("%s has no tenantID: list it in globalEntities if it is global, else check its scope here", node)
		}
		expect("nothing", len(ps) == 0)
	}
}

// globalEntities are shared by every tenant: their filters need no scope.
var globalEntities = []string{"ResultType"}

// TestNoOrderThroughAnEdge: every order field the API offers sorts by a
// column of the entity itself. An order through an edge (a neighbour's
// column or count) would compile to an unscoped subquery, like the edge
// filters whereScope scopes, and leak other projects' and tenants' rows
// through the order of the results.
func TestNoOrderThroughAnEdge(t *testing.T) {
	const entDir = "../../ent"
	fset := token.NewFileSet()
	pagination, err := parser.ParseFile(fset, filepath.Join(entDir, "gql_pagination.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	terms := 0
	ast.Inspect(pagination, func(n ast.Node) bool {
		kv, ok := n.(*ast.KeyValueExpr)
		if !ok || !isIdent(kv.Key, "toTerm") {
			return true
		}
		terms++
		sel, ok := kv.Value.(*ast.SelectorExpr)
		if !ok {
			t.Errorf("%s: toTerm is not a column order of the entity", fset.Position(kv.Pos()))
			return true
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok {
			t.Errorf("%s: toTerm is not a column order of the entity", fset.Position(kv.Pos()))
			return true
		}
		if !ordersByOwnColumn(t, filepath.Join(entDir, pkg.Name, pkg.Name+".go"), sel.Sel.Name) {
			t.Errorf("%s: %s.%s does not order by a column of the entity", fset.Position(kv.Pos()), pkg.Name, sel.Sel.Name)
		}
		return true
	})
	if terms < 40 {
		t.Fatalf("found %d order terms in gql_pagination.go", terms)
	}
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// ordersByOwnColumn reports whether the function fn of file is
// `return sql.OrderByField(<column>, opts...).ToFunc()`.
func ordersByOwnColumn(t *testing.T, file, fn string) bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != fn || fd.Body == nil || len(fd.Body.List) != 1 {
			continue
		}
		ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			return false
		}
		toFunc, ok := ret.Results[0].(*ast.CallExpr)
		if !ok {
			return false
		}
		call, ok := toFunc.Fun.(*ast.SelectorExpr)
		if !ok || call.Sel.Name != "ToFunc" {
			return false
		}
		byField, ok := call.X.(*ast.CallExpr)
		if !ok {
			return false
		}
		order, ok := byField.Fun.(*ast.SelectorExpr)
		return ok && isIdent(order.X, "sql") && order.Sel.Name == "OrderByField"
	}
	return false
}
