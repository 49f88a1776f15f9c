package graph_test

import (
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/graph/generated"
	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
)

// schemaUnderTest is the served schema, walked by the tests that must cover
// every field of a kind.
var schemaUnderTest = generated.NewExecutableSchema(generated.Config{}).Schema()

// connectionRootFields walks the schema for every field returning a Relay
// connection; each must be a Query field (the walk queries them from the
// root) taking first and last and no required argument.
func connectionRootFields(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, def := range schemaUnderTest.Types {
		if def.Kind != ast.Object || strings.HasPrefix(def.Name, "__") {
			continue
		}
		for _, f := range def.Fields {
			if !strings.HasSuffix(f.Type.Name(), "Connection") || f.Type.Elem != nil {
				continue
			}
			if def.Name != "Query" {
				t.Fatalf("%s.%s returns a connection: extend this walk to reach it from the root", def.Name, f.Name)
			}
			if f.Arguments.ForName("first") == nil || f.Arguments.ForName("last") == nil {
				t.Fatalf("Query.%s returns a connection without first and last", f.Name)
			}
			for _, a := range f.Arguments {
				if a.Type.NonNull && a.DefaultValue == nil {
					t.Fatalf("Query.%s(%s:) is required: give the walk a value for it", f.Name, a.Name)
				}
			}
			out = append(out, f.Name)
		}
	}
	slices.Sort(out)
	for _, known := range []string{"activities", "commerceLifecycleSnapshots", "commerces", "integrationTasks", "users"} {
		if !slices.Contains(out, known) {
			t.Fatalf("the walk found %v, not %s", out, known)
		}
	}
	return out
}

// statementLog records the SQL statements an app runs.
type statementLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *statementLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.lines
	l.lines = nil
	return out
}

// eachLogged runs fn on SQLite, and on PostgreSQL when TEST_DATABASE_URL is
// set, with an app whose ent client logs its SQL statements to log.
func eachLogged(t *testing.T, fn func(t *testing.T, env *apptest.Env, log *statementLog)) {
	kinds := []string{"sqlite"}
	if os.Getenv("TEST_DATABASE_URL") != "" {
		kinds = append(kinds, "postgres")
	}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			log := &statementLog{}
			env := apptest.NewWith(t, kind, func(c *app.Config) {
				c.EntOptions = []ent.Option{ent.Debug(), ent.Log(func(args ...any) {
					if line := fmt.Sprint(args...); strings.Contains(line, " query=") {
						log.mu.Lock()
						log.lines = append(log.lines, line)
						log.mu.Unlock()
					}
				})}
			})
			fn(t, env, log)
		})
	}
}

// TestConnectionWindows: every connection of the schema, generated or
// hand-written, takes first or last between 1 and 100 (not both) and reads
// 25 rows when neither is given; a new connection cannot escape the rule.
func TestConnectionWindows(t *testing.T) {
	fields := connectionRootFields(t)
	eachLogged(t, func(t *testing.T, env *apptest.Env, log *statementLog) {
		acme := env.Bootstrap("Acme")
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, acme.ProjectID)
		for _, field := range fields {
			t.Run(field, func(t *testing.T) {
				invalid := func(args string, messages ...string) {
					t.Helper()
					expectInvalid(t, env.GraphQL("{ "+field+args+" { totalCount } }", nil, h), field, messages...)
				}
				invalid("(first: 101)", "first must not be greater than 100")
				invalid("(last: 101)", "last must not be greater than 100")
				invalid("(first: 0)", "first must not be less than 1")
				invalid("(last: -1)", "last must not be less than 1")
				invalid("(first: 1, last: 1)", "first and last must not be given together")
				invalid("(first: 1000000, last: 0)", "first must not be greater than 100",
					"last must not be less than 1", "first and last must not be given together")
				// As variables too.
				res := env.GraphQL("query($n: Int) { "+field+"(first: $n) { totalCount } }", M{"n": 3000000000}, h)
				expectInvalid(t, res, field, "first must not be greater than 100")

				for _, args := range []string{"(first: 100)", "(last: 100)", "(first: 1)"} {
					res := env.GraphQL("{ "+field+args+" { totalCount } }", nil, h)
					if res.Status != http.StatusOK || strings.Contains(string(res.Body), `"errors"`) {
						t.Fatalf("%s%s: status %d, body %s", field, args, res.Status, res.Body)
					}
				}

				// Without first and last the page statement reads 26 rows:
				// 25 and one more to tell hasNextPage.
				log.take()
				res = env.GraphQL("{ "+field+" { edges { cursor } pageInfo { hasNextPage } } }", nil, h)
				if res.Status != http.StatusOK || strings.Contains(string(res.Body), `"errors"`) {
					t.Fatalf("status %d, body %s", res.Status, res.Body)
				}
				if !slices.ContainsFunc(log.take(), func(s string) bool { return strings.Contains(s, " LIMIT 26") }) {
					t.Fatalf("no statement of %s reads LIMIT 26", field)
				}
			})
		}
	})
}

// TestNodesIDsLimit: nodes(ids:) loads at most 100 nodes.
func TestNodesIDsLimit(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		ids := func(n int) L {
			out := L{acme.ProjectID.String()}
			for len(out) < n {
				out = append(out, uuid.NewString())
			}
			return out
		}
		const q = `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`
		expectInvalid(t, env.GraphQL(q, M{"ids": ids(101)}, h), "nodes", "ids must contain no more than 100 elements")
		res := env.GraphQL(q, M{"ids": ids(100)}, h)
		var body struct {
			Data struct {
				Nodes []*struct{ ID string }
			}
		}
		res.JSON(t, &body)
		if res.Status != http.StatusOK || len(body.Data.Nodes) != 100 || body.Data.Nodes[0] == nil || body.Data.Nodes[0].ID != acme.ProjectID.String() {
			t.Fatalf("status %d, body %.300s", res.Status, res.Body)
		}
	})
}
