package rest_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/reten-io/reten/ent/user"
	"github.com/reten-io/reten/graph/generated"
	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/viewer"
)

// TestCompiledConnectionsMatchGqlgen sends every root connection of the
// schema, selecting every field its writers compile
// (graph/generated/compiled_gen.go), to the service and to a second one
// over the same database whose GraphQL runs every field through gqlgen's
// executor (Config.GraphQLInterpreted):
// the answers must be the same bytes, and the compiled writer must have
// written each (reten_graphql_compiled_connections_total). The data is the
// demo's plus an activity whose texts need every escape and whose optional
// fields are set, beside the demo's with them unset. Selections with
// aliases, fragments, directives and variables, with a field the writers
// do not compile, and refused at the root are compared too.
func TestCompiledConnectionsMatchGqlgen(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		seed := seedLists(t, env)
		awkward := "tab\t quote\" backslash\\ newline\n cr\r bell\u0007 del\u007f é ✓ 😀 </script>"
		c := env.App.DB.Client
		sys := viewer.SystemContext(context.Background())
		when := time.Date(2026, 3, 4, 5, 6, 7, 891234567, time.FixedZone("", -5*3600))
		// The first activity of every page (the smallest id).
		c.Activity.Create().SetID(uuid.MustParse("00000000-0000-4000-8000-000000000001")).SetTenantID(uuid.MustParse(seed.tenantID)).SetProjectID(uuid.MustParse(seed.project)).
			SetCommerceID(uuid.MustParse(seed.commerce)).SetType("TASK").SetChannel("SMS").SetStatus("READY").
			SetScheduledAt(when).SetTitle(awkward).SetDescription(awkward).SetProviderActivityID("p-1").
			SetNextDispatchAt(when).SetDispatchAttempts(3).SaveX(sys)

		cfg := env.App.Config
		cfg.GraphQLInterpreted = true
		b, err := app.New(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = b.Close() })
		interpreted := &apptest.Env{T: t, App: b}

		written := func(writer string) int {
			t.Helper()
			res := env.Do("GET", "/metrics", nil, nil)
			m := regexp.MustCompile(`reten_graphql_compiled_connections_total\{writer="` + writer + `"\} (\d+)`).FindSubmatch(res.Body)
			if m == nil {
				return 0
			}
			n, _ := strconv.Atoi(string(m[1]))
			return n
		}
		// same sends doc to both services; the compiled one must have
		// written wantCompiled root fields with its writers and handed
		// wantInterpreted back to gqlgen.
		same := func(name, doc string, vars map[string]any, h apptest.Headers, wantCompiled, wantInterpreted int, wantErrors bool) {
			t.Helper()
			compiledBefore, interpretedBefore := written("compiled"), written("interpreted")
			got, want := env.GraphQL(doc, vars, h), interpreted.GraphQL(doc, vars, h)
			if got.Status != want.Status || string(got.Body) != string(want.Body) {
				t.Errorf("%s: compiled %d\n%s\ngqlgen %d\n%s", name, got.Status, got.Body, want.Status, want.Body)
			}
			if strings.Contains(string(want.Body), `"errors"`) != wantErrors {
				t.Errorf("%s: errors %v, want %v: %.400s", name, !wantErrors, wantErrors, want.Body)
			}
			nc, ni := written("compiled")-compiledBefore, written("interpreted")-interpretedBefore
			if nc != wantCompiled || ni != wantInterpreted {
				t.Errorf("%s: written compiled %d, interpreted %d; want %d and %d", name, nc, ni, wantCompiled, wantInterpreted)
			}
		}

		schema := generated.NewExecutableSchema(generated.Config{}).Schema()
		roots := 0
		for _, f := range schema.Query.Fields {
			if !generated.CompiledConnection(f.Type.Name()) {
				continue
			}
			roots++
			doc := "{ " + f.Name + "(first: 100) " + compiledSelection(t, schema, f.Type.Name(), 0) + " }"
			same(f.Name, doc, nil, seed.inProject, 1, 0, false)
		}
		if roots < 20 {
			t.Fatalf("%d root connections compiled, want at least 20", roots)
		}
		if !strings.Contains(string(env.GraphQL(`{ activities(first: 1) { edges { node { title } } } }`, nil, seed.inProject).Body),
			`"title":"tab\t quote\" backslash\\ newline\n cr\r bell\u0007 del`+"\u007f é ✓ 😀 "+`\u003c/script\u003e"`) { // < and > as encoding/json writes them
			t.Error("the awkward activity is not first")
		}

		same("aliases, fragments, directives and variables", `query Q($skip: Boolean!, $n: Int) {
			a: activities(first: $n) {
				total: totalCount
				...Edges
				pageInfo { ... on PageInfo { hasNextPage endCursor } startCursor __typename }
			}
			n: activities(first: 1) { edges { node { id } } }
		}
		fragment Edges on ActivityConnection {
			edges { cursor node { id ... on Activity { t: title @include(if: true) status } description @skip(if: $skip) } }
			edges { node { channel scheduledAt } __typename }
		}`, map[string]any{"skip": true, "n": 5}, seed.inProject, 2, 0, false)
		same("cursors of pages ordered by a time, an enum and strings", `{
			t: activities(first: 3, orderBy: {field: SCHEDULED_AT, direction: DESC}) { edges { cursor } pageInfo { startCursor endCursor } }
			s: activities(first: 3, orderBy: {field: STATUS}) { edges { cursor } pageInfo { endCursor } }
			n: commerces(first: 3, orderBy: {field: NAME}) { edges { cursor } pageInfo { endCursor } }
			x: commerces(first: 3, orderBy: {field: EXTERNAL_ID, direction: DESC}) { edges { cursor } pageInfo { endCursor } }
		}`, nil, seed.inProject, 4, 0, false)
		same("a field the writers do not compile", `{ activities(first: 3) { edges { node { id commerce { name } } } } }`,
			nil, seed.inProject, 0, 1, false)
		tid := uuid.MustParse(seed.tenantID)
		plain, _ := env.CreateKey(tid, c.User.Query().Where(user.EmailKey(dataset.DemoEmail)).OnlyIDX(sys), uuid.MustParse(seed.project), auth.PermActivityView)
		same("refused at the root", `{ commerces(first: 3) { edges { node { id } } } }`, nil, apptest.Key(plain), 0, 0, true)
	})
}

// compiledSelection selects every field the writer of typ writes, and of
// the objects below it (three levels down at most).
func compiledSelection(t *testing.T, schema *ast.Schema, typ string, depth int) string {
	t.Helper()
	def := schema.Types[typ]
	parts := []string{"__typename"}
	for _, name := range generated.CompiledFields[typ] {
		f := def.Fields.ForName(name)
		if f == nil {
			t.Fatalf("%s.%s is compiled but not in the schema", typ, name)
		}
		if _, object := generated.CompiledFields[f.Type.Name()]; !object {
			parts = append(parts, name)
		} else if depth < 3 {
			parts = append(parts, name+" "+compiledSelection(t, schema, f.Type.Name(), depth+1))
		}
	}
	return "{ " + strings.Join(parts, " ") + " }"
}
