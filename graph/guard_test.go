package graph_test

import (
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/tenant"
)

// TestWhereFiltersNeedReadPermission: a filter on an edge cannot probe an
// entity the caller may not read.
func TestWhereFiltersNeedReadPermission(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		env.CreateUser(acme.TenantID, "oscar", auth.RoleOperator) // project:view, no audience-criteria:view
		h := apptest.JWT(env.Login("oscar"), acme.TenantID, uuid.Nil)
		probe := `query($w: ProjectWhereInput) { projects(where: $w) { totalCount } }`

		expectData(t, env.GraphQL(probe, M{"w": M{"isMain": true}}, h), M{"projects": M{"totalCount": 1}})
		for name, w := range map[string]M{
			"direct": {"hasRootAudienceWith": L{M{"nameContains": "raíz"}}},
			"nested": {"or": L{M{"isMain": false}, M{"hasRootAudienceWith": L{M{"nameContains": "x"}}}}},
		} {
			t.Run(name, func(t *testing.T) {
				expectBody(t, env.GraphQL(probe, M{"w": w}, h), 200, M{"data": nil, "errors": L{
					fieldError(L{"projects"}, "Required permissions: audience-criteria:view", "FORBIDDEN", 403)}})
			})
		}
		// Inline (not a variable) too.
		expectBody(t, env.GraphQL(`{ projects(where: {hasRootAudience: true, hasRootAudienceWith: {isRoot: true}}) { totalCount } }`, nil, h),
			200, M{"data": nil, "errors": L{fieldError(L{"projects"}, "Required permissions: audience-criteria:view", "FORBIDDEN", 403)}})
		// A caller who may read audiences may filter on them.
		admin := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		expectData(t, env.GraphQL(probe, M{"w": M{"hasRootAudienceWith": L{M{"isRoot": true}}}}, admin), M{"projects": M{"totalCount": 1}})
	})
}

// TestKeyCannotReachItsOwnersOtherTenants: a key of Beta whose owner is also a
// member of Acme cannot read Acme's tenant record, not even through node().
func TestKeyCannotReachItsOwnersOtherTenants(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta, err := tenant.Bootstrap(sysCtx(), env.App.DB.Client, tenant.BootstrapInput{Tenant: "Beta", Email: acme.Email, Password: apptest.Password})
		if err != nil {
			t.Fatal(err)
		}
		key, _ := env.CreateKey(beta.TenantID, acme.UserID, uuid.Nil, auth.PermProjectView)
		res := env.GraphQL(`query($id: ID!) { node(id: $id) { id } }`, M{"id": acme.TenantID}, apptest.Key(key))
		expectBody(t, res, 200, M{"data": M{"node": nil}, "errors": L{fieldError(L{"node"}, "Node not found", "NOT_FOUND", 404)}})
		expectData(t, env.GraphQL(`query($id: ID!) { node(id: $id) { id } }`, M{"id": beta.TenantID}, apptest.Key(key)),
			M{"node": M{"id": beta.TenantID.String()}})
	})
}

// TestCreateProjectWhileAnotherProjectIsActive: the new project's root
// audience belongs to the new project even when x-project-id names another.
func TestCreateProjectWhileAnotherProjectIsActive(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, acme.ProjectID)
		created := gqlOK(t, env, h, `mutation { createProject(input: {name: "Ventas"}) { id name isMain rootAudience { isRoot } } }`, nil)
		p := uuid.MustParse(str(t, created, "createProject", "id"))
		if get(t, created, "createProject", "name") != "Ventas" || get(t, created, "createProject", "isMain") != false || p == uuid.Nil {
			t.Fatalf("createProject = %v", created)
		}
		// The audience is the new project's, so it is visible with the new project active...
		vh := apptest.JWT(env.Login(acme.Email), acme.TenantID, p)
		expectData(t, env.GraphQL(`query($id: ID!) { node(id: $id) { ... on Project { rootAudience { isRoot project: id } } } }`, M{"id": p}, vh),
			M{"node": M{"rootAudience": M{"isRoot": true, "project": rootAudience(t, env, p).String()}}})
	})
}

// TestNodeShowsOnlyOwnAPIKeys: another user's key of the same tenant is not
// a node for the caller.
func TestNodeShowsOnlyOwnAPIKeys(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		other := env.CreateUser(acme.TenantID, "ana", auth.RoleAdmin)
		_, theirs := env.CreateKey(acme.TenantID, other.ID, uuid.Nil, auth.PermProjectView)
		_, mine := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermProjectView)
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		q := `query($id: ID!) { node(id: $id) { id } }`
		expectData(t, env.GraphQL(q, M{"id": mine.ID}, h), M{"node": M{"id": mine.ID.String()}})
		expectBody(t, env.GraphQL(q, M{"id": theirs.ID}, h), 200, M{"data": M{"node": nil},
			"errors": L{fieldError(L{"node"}, "Node not found", "NOT_FOUND", 404)}})
	})
}
