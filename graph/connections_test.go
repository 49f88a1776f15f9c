package graph_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
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
	"github.com/reten-io/reten/internal/auth"
)

// schemaUnderTest is the served schema, walked by the tests that must cover
// every field of a kind.
var schemaUnderTest = generated.NewExecutableSchema(generated.Config{}).Schema()

// connectionField is a field returning a Relay connection, as the walk
// queries it from the root.
type connectionField struct {
	name string // "commerces", "Commerce.lifecycleTransitions"
	// doc is the document's selection reading the field with args and sel.
	doc func(args, sel string) string
	// path is the field's response path; failed is the data of an answer
	// whose field failed (null propagated up to the nearest nullable).
	path   L
	failed any
}

// connectionParents says how the walk reaches the connection fields of a
// type other than Query: through one row of a root connection (the test
// creates that row), the row's path and the data when its field failed
// (the connection is non-null: the row is null).
var connectionParents = map[string]struct {
	wrap   string
	path   L
	failed any
}{
	"Commerce": {"commerces(first: 1) { edges { node { %s } } }", L{"commerces", "edges", 0, "node"}, M{"commerces": M{"edges": L{M{"node": nil}}}}},
}

// connectionRootFields walks the schema for every field returning a Relay
// connection; each must be a Query field or a field of a type in
// connectionParents, taking first and last and no required argument.
func connectionRootFields(t *testing.T) []connectionField {
	t.Helper()
	var out []connectionField
	for _, def := range schemaUnderTest.Types {
		if def.Kind != ast.Object || strings.HasPrefix(def.Name, "__") {
			continue
		}
		for _, f := range def.Fields {
			if !strings.HasSuffix(f.Type.Name(), "Connection") || f.Type.Elem != nil {
				continue
			}
			if f.Arguments.ForName("first") == nil || f.Arguments.ForName("last") == nil {
				t.Fatalf("%s.%s returns a connection without first and last", def.Name, f.Name)
			}
			for _, a := range f.Arguments {
				if a.Type.NonNull && a.DefaultValue == nil {
					t.Fatalf("%s.%s(%s:) is required: give the walk a value for it", def.Name, f.Name, a.Name)
				}
			}
			name := f.Name
			if def.Name == "Query" {
				out = append(out, connectionField{name: name, path: L{name},
					doc: func(args, sel string) string { return name + args + " " + sel }})
				continue
			}
			parent, ok := connectionParents[def.Name]
			if !ok {
				t.Fatalf("%s.%s returns a connection: extend this walk to reach it from the root", def.Name, f.Name)
			}
			out = append(out, connectionField{name: def.Name + "." + name, path: append(slices.Clone(parent.path), name), failed: parent.failed,
				doc: func(args, sel string) string { return fmt.Sprintf(parent.wrap, name+args+" "+sel) }})
		}
	}
	slices.SortFunc(out, func(a, b connectionField) int { return strings.Compare(a.name, b.name) })
	for _, known := range []string{"activities", "commerceLifecycleSnapshots", "commerces", "integrationTasks", "users", "Commerce.lifecycleTransitions"} {
		if !slices.ContainsFunc(out, func(c connectionField) bool { return c.name == known }) {
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
				c.CredentialTTL = -1 // every request checks its credential: the counts are the handler's
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
		env.App.DB.Client.Commerce.Create().SetTenantID(acme.TenantID).SetName("Row").SaveX(sysCtx()) // the row of connectionParents
		for _, c := range fields {
			t.Run(c.name, func(t *testing.T) {
				invalidAt := func(res *apptest.Response, messages ...string) {
					t.Helper()
					expectBody(t, res, http.StatusOK, M{"data": c.failed, "errors": L{M{
						"message": strings.Join(messages, "; "), "path": c.path,
						"extensions": M{"code": "BAD_REQUEST", "statusCode": 400, "messages": strs(messages)},
					}}})
				}
				invalid := func(args string, messages ...string) {
					t.Helper()
					invalidAt(env.GraphQL("{ "+c.doc(args, "{ totalCount }")+" }", nil, h), messages...)
				}
				invalid("(first: 101)", "first must not be greater than 100")
				invalid("(last: 101)", "last must not be greater than 100")
				invalid("(first: 0)", "first must not be less than 1")
				invalid("(last: -1)", "last must not be less than 1")
				invalid("(first: 1, last: 1)", "first and last must not be given together")
				invalid("(first: 1000000, last: 0)", "first must not be greater than 100",
					"last must not be less than 1", "first and last must not be given together")
				// As variables too.
				invalidAt(env.GraphQL("query($n: Int) { "+c.doc("(first: $n)", "{ totalCount }")+" }", M{"n": 3000000000}, h),
					"first must not be greater than 100")

				for _, args := range []string{"(first: 100)", "(last: 100)", "(first: 1)"} {
					res := env.GraphQL("{ "+c.doc(args, "{ totalCount }")+" }", nil, h)
					if res.Status != http.StatusOK || strings.Contains(string(res.Body), `"errors"`) {
						t.Fatalf("%s%s: status %d, body %s", c.name, args, res.Status, res.Body)
					}
				}

				// Without first and last the page statement reads 26 rows:
				// 25 and one more to tell hasNextPage.
				log.take()
				res := env.GraphQL("{ "+c.doc("", "{ edges { cursor } pageInfo { hasNextPage } }")+" }", nil, h)
				if res.Status != http.StatusOK || strings.Contains(string(res.Body), `"errors"`) {
					t.Fatalf("status %d, body %s", res.Status, res.Body)
				}
				// pageInfo comes from that row: nothing counts without totalCount.
				lines := log.take()
				if !slices.ContainsFunc(lines, func(s string) bool { return strings.Contains(s, " LIMIT 26") }) {
					t.Fatalf("no statement of %s reads LIMIT 26", c.name)
				}
				if i := slices.IndexFunc(lines, func(s string) bool { return strings.Contains(s, "COUNT(") }); i >= 0 {
					t.Fatalf("%s counts without totalCount: %s", c.name, lines[i])
				}
			})
		}
	})
}

// TestNodesIDsLimit: nodes(ids:) loads at most 100 nodes.
func TestNodesIDsLimit(t *testing.T) {
	eachAcme(t, func(t *testing.T, env *apptest.Env, acme apptest.Tenant, h apptest.Headers) {
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

func TestNode(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		ventas := newProject(t, env, acme.TenantID, "Ventas")
		root := rootAudience(t, env, acme.ProjectID)
		ventasRoot := rootAudience(t, env, ventas)
		admin := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		env.CreateUser(acme.TenantID, "vera", auth.RoleViewer)
		env.CreateUser(acme.TenantID, "otto", auth.RoleOperator)
		vh := apptest.JWT(env.Login("vera"), acme.TenantID, uuid.Nil)
		oh := apptest.JWT(env.Login("otto"), acme.TenantID, uuid.Nil)

		const nodeQ = `query($id: ID!) {
  node(id: $id) {
    __typename
    id
    ... on Project { name isMain rootAudienceID }
    ... on Audience { name isRoot projectID }
    ... on User { username }
  }
}`
		projectNode := M{"node": M{"__typename": "Project", "id": acme.ProjectID.String(), "name": "Principal",
			"isMain": true, "rootAudienceID": root.String()}}
		audienceNode := M{"node": M{"__typename": "Audience", "id": root.String(), "name": "Audiencia raíz",
			"isRoot": true, "projectID": acme.ProjectID.String()}}
		node := func(id uuid.UUID, h apptest.Headers) *apptest.Response {
			return env.GraphQL(nodeQ, M{"id": id.String()}, h)
		}

		t.Run("super_admin", func(t *testing.T) {
			expectData(t, node(acme.ProjectID, admin), projectNode)
			expectData(t, node(root, admin), audienceNode)
			expectData(t, node(acme.UserID, admin), M{"node": M{"__typename": "User", "id": acme.UserID.String(), "username": "acme-admin"}})
			expectBody(t, node(uuid.New(), admin), http.StatusOK, M{"data": M{"node": nil},
				"errors": L{fieldError(L{"node"}, "Node not found", "NOT_FOUND", 404)}})
		})

		t.Run("active project narrows project-owned nodes", func(t *testing.T) {
			inVentas := apptest.JWT(env.Login(acme.Email), acme.TenantID, ventas)
			expectBody(t, node(root, inVentas), http.StatusOK, M{"data": M{"node": nil},
				"errors": L{fieldError(L{"node"}, "Node not found", "NOT_FOUND", 404)}})
			expectData(t, node(ventasRoot, inVentas), M{"node": M{"__typename": "Audience", "id": ventasRoot.String(),
				"name": "Audiencia raíz", "isRoot": true, "projectID": ventas.String()}})
			// Projects themselves are tenant-level.
			expectData(t, node(acme.ProjectID, inVentas), projectNode)
		})

		t.Run("viewer role", func(t *testing.T) {
			expectData(t, node(acme.ProjectID, vh), projectNode)
			expectData(t, node(root, vh), audienceNode)
		})

		t.Run("operator lacks audience-criteria:view", func(t *testing.T) {
			expectData(t, node(acme.ProjectID, oh), projectNode)
			expectBody(t, node(root, oh), http.StatusOK, M{"data": M{"node": nil},
				"errors": L{fieldError(L{"node"}, "Required permissions: audience-criteria:view", "FORBIDDEN", 403)}})
			// nodes fails as a whole on a permission error (only not-found ids become null).
			res := env.GraphQL(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`,
				M{"ids": L{acme.ProjectID.String(), root.String()}}, oh)
			expectBody(t, res, http.StatusOK, M{"data": nil,
				"errors": L{fieldError(L{"nodes"}, "Required permissions: audience-criteria:view", "FORBIDDEN", 403)}})
		})

		t.Run("edges apply the read permission of their type", func(t *testing.T) {
			// node(rootAudience) is forbidden to an operator; so is the same
			// audience through the Project.rootAudience edge.
			const msg = "Required permissions: audience-criteria:view"
			res := env.GraphQL(`{ projects(orderBy: {field: NAME}) { edges { node { name rootAudience { name } } } } }`, nil, oh)
			expectUnordered(t, res, M{"projects": M{"edges": L{
				M{"node": M{"name": "Principal", "rootAudience": nil}},
				M{"node": M{"name": "Ventas", "rootAudience": nil}},
			}}}, L{
				fieldError(L{"projects", "edges", 0, "node", "rootAudience"}, msg, "FORBIDDEN", 403),
				fieldError(L{"projects", "edges", 1, "node", "rootAudience"}, msg, "FORBIDDEN", 403),
			})
			res = env.GraphQL(`{ viewer { projects { name rootAudience { name } } } }`, nil, oh)
			expectUnordered(t, res, M{"viewer": M{"projects": L{
				M{"name": "Principal", "rootAudience": nil},
				M{"name": "Ventas", "rootAudience": nil},
			}}}, L{
				fieldError(L{"viewer", "projects", 0, "rootAudience"}, msg, "FORBIDDEN", 403),
				fieldError(L{"viewer", "projects", 1, "rootAudience"}, msg, "FORBIDDEN", 403),
			})
			// A viewer-role user holds audience-criteria:view.
			res = env.GraphQL(`{ viewer { projects { name rootAudience { name isRoot } } } }`, nil, vh)
			expectData(t, res, M{"viewer": M{"projects": L{
				M{"name": "Principal", "rootAudience": M{"name": "Audiencia raíz", "isRoot": true}},
				M{"name": "Ventas", "rootAudience": M{"name": "Audiencia raíz", "isRoot": true}},
			}}})
		})

		t.Run("key permissions", func(t *testing.T) {
			plain, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermAudienceView)
			expectData(t, node(root, apptest.Key(plain)), audienceNode)
			expectBody(t, node(acme.ProjectID, apptest.Key(plain)), http.StatusOK, M{"data": M{"node": nil},
				"errors": L{fieldError(L{"node"}, "Required permissions: project:view", "FORBIDDEN", 403)}})
		})
	})
}

// TestMutationAuthorizationAndKeyProjectCase: updateProject is authorised by
// project:update alone (as PATCH is), and a project key's own id is accepted
// in any letter case.
func TestMutationAuthorizationAndKeyProjectCase(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")

		t.Run("updateProject needs project:update only", func(t *testing.T) {
			// PATCH /api/projects/:id needs project:update alone; the GraphQL
			// mutation must authorize the same way and name that permission.
			update, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermProjectUpdate)
			expectData(t, env.GraphQL(updateMutation, M{"id": acme.ProjectID.String(), "name": "Central"}, apptest.Key(update)),
				M{"updateProject": M{"id": acme.ProjectID.String(), "name": "Central", "isMain": true}})
			other, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermActivityView)
			expectBody(t, env.GraphQL(updateMutation, M{"id": acme.ProjectID.String(), "name": "Otro"}, apptest.Key(other)),
				http.StatusOK, M{"data": nil, "errors": L{
					fieldError(L{"updateProject"}, "Required permissions: project:update", "FORBIDDEN", 403),
				}})
		})

		t.Run("project key accepts its own id in any case", func(t *testing.T) {
			plain, _ := env.CreateKey(acme.TenantID, acme.UserID, acme.ProjectID, auth.PermProjectView)
			res := env.GraphQL(`{ viewer { activeProjectID } }`, nil,
				apptest.Key(plain).With("x-project-id", strings.ToUpper(acme.ProjectID.String())))
			expectData(t, res, M{"viewer": M{"activeProjectID": acme.ProjectID.String()}})
		})
	})
}

func TestGETTransport(t *testing.T) {
	eachAcme(t, func(t *testing.T, env *apptest.Env, acme apptest.Tenant, h apptest.Headers) {
		get := func(q string, vars M, h apptest.Headers) *apptest.Response {
			path := "/graphql?query=" + url.QueryEscape(q)
			if vars != nil {
				raw, _ := json.Marshal(vars)
				path += "&variables=" + url.QueryEscape(string(raw))
			}
			return env.Do("GET", path, nil, h)
		}

		t.Run("query", func(t *testing.T) {
			expectData(t, get(`{ viewer { activeTenantID isAPIKey } projects { totalCount } }`, nil, h),
				M{"viewer": M{"activeTenantID": acme.TenantID.String(), "isAPIKey": false}, "projects": M{"totalCount": 1}})
		})

		t.Run("variables", func(t *testing.T) {
			expectData(t, get(`query($id: ID!) { node(id: $id) { ... on Project { name } } }`, M{"id": acme.ProjectID.String()}, h),
				M{"node": M{"name": "Principal"}})
		})

		t.Run("mutation refused", func(t *testing.T) {
			res := get(`mutation { updateProject(id: "`+acme.ProjectID.String()+`", input: {name: "Otro"}) { name } }`, nil, h)
			expectBody(t, res, http.StatusNotAcceptable, M{"data": nil, "errors": L{M{"message": "GET requests only allow query operations"}}})
			if got := projectName(t, env, acme.ProjectID); got != "Principal" {
				t.Fatalf("stored name = %q, want unchanged", got)
			}
		})

		t.Run("credentials checked", func(t *testing.T) {
			expectBody(t, get(`{ viewer { isAPIKey } }`, nil, nil), http.StatusBadRequest,
				preError("Missing required header: x-tenant-id", "BAD_REQUEST", 400))
		})
	})
}
