package tenancy

import (
	"slices"
	"sync"

	"github.com/reten-io/reten/internal/auth"
)

// Entry is one line of the authorization matrix: a REST route (Method and
// Path relative to /api) or a GraphQL root field (Method "Query" or
// "Mutation", Path the field name), with its scope and the permission it
// needs ("" when authentication suffices or, for node/nodes, when the
// permission depends on the entity returned).
type Entry struct {
	Method     string
	Path       string
	Scope      Scope
	Permission string
}

// IsGraphQL reports whether the entry is a GraphQL root field.
func (e Entry) IsGraphQL() bool { return e.Method == "Query" || e.Method == "Mutation" }

// Key identifies the entry: "GET /projects", "Query.viewer".
func (e Entry) Key() string {
	if e.IsGraphQL() {
		return e.Method + "." + e.Path
	}
	return e.Method + " " + e.Path
}

// Matrix lists every REST route and every GraphQL operation: it is the only
// statement of their scope and permission. The REST router is built from it
// and the GraphQL field guard looks root fields up in it; both admit a
// request to its line (Admit) and put the access in the context, where the
// services read tenant, project and principal (From). A test fails when a
// route or operation is missing from it. Each domain keeps its lines in a
// file of its own (matrix_<domain>.go).
var Matrix = slices.Concat(identityMatrix, commerceMatrix, fieldOrgMatrix, trashMatrix, dispatchMatrix, catalogMatrix, agcMatrix, generationMatrix, snapshotMatrix, datasetMatrix, eventFilterMatrix, audienceMatrix, activityMatrix, resultTypeMatrix, resultMatrix, integrationMatrix, webhookMatrix)

// identityMatrix: auth, tenants, projects, API keys, users.
var identityMatrix = []Entry{
	// REST: public.
	{"GET", "/openapi.yaml", Public, ""},
	{"POST", "/auth/login", Public, ""},
	{"POST", "/auth/refresh", Public, ""},
	{"POST", "/auth/logout", Public, ""},
	// REST: identity and tenancy (tenant-level).
	{"POST", "/auth/register", TenantLevel, auth.PermUserUpdate},
	{"GET", "/tenant/mine", TenantLevel, ""},
	{"GET", "/tenants", TenantLevel, auth.PermTenantManage},
	{"POST", "/tenants", TenantLevel, auth.PermTenantManage},
	{"PATCH", "/tenants/{id}", TenantLevel, auth.PermTenantManage},
	{"GET", "/projects", TenantLevel, auth.PermProjectView},
	{"POST", "/projects", TenantLevel, auth.PermProjectCreate},
	{"PATCH", "/projects/{id}", TenantLevel, auth.PermProjectUpdate},
	{"POST", "/api-keys", TenantLevel, auth.PermAPIKeyManage},
	{"GET", "/api-keys", TenantLevel, auth.PermAPIKeyManage},
	{"GET", "/api-keys/{id}", TenantLevel, auth.PermAPIKeyManage},
	{"DELETE", "/api-keys/{id}", TenantLevel, auth.PermAPIKeyManage},
	{"PUT", "/api-keys/{id}/permissions", TenantLevel, auth.PermAPIKeyManage},
	{"GET", "/users", TenantLevel, auth.PermUserView},
	{"GET", "/users/{id}", TenantLevel, auth.PermUserView},
	{"PATCH", "/users/{id}", TenantLevel, auth.PermUserUpdate},
	{"PUT", "/user/{id}/roles", TenantLevel, auth.PermUserUpdate},

	// GraphQL queries.
	{"Query", "node", ProjectOptional, ""},
	{"Query", "nodes", ProjectOptional, ""},
	{"Query", "viewer", ProjectOptional, ""},
	{"Query", "projects", TenantLevel, auth.PermProjectView},
	{"Query", "apiKeys", TenantLevel, auth.PermAPIKeyManage},
	{"Query", "users", TenantLevel, auth.PermUserView},
	{"Query", "administeredTenants", TenantLevel, auth.PermTenantManage},
	// GraphQL mutations.
	{"Mutation", "updateProject", TenantLevel, auth.PermProjectUpdate},
	{"Mutation", "createProject", TenantLevel, auth.PermProjectCreate},
	{"Mutation", "createAPIKey", TenantLevel, auth.PermAPIKeyManage},
	{"Mutation", "revokeAPIKey", TenantLevel, auth.PermAPIKeyManage},
	{"Mutation", "updateAPIKeyPermissions", TenantLevel, auth.PermAPIKeyManage},
	{"Mutation", "registerUser", TenantLevel, auth.PermUserUpdate},
	{"Mutation", "updateUser", TenantLevel, auth.PermUserUpdate},
	{"Mutation", "setUserRoles", TenantLevel, auth.PermUserUpdate},
	{"Mutation", "createTenant", TenantLevel, auth.PermTenantManage},
	{"Mutation", "updateTenant", TenantLevel, auth.PermTenantManage},
}

// Lookup returns the matrix entry with key (see Entry.Key).
func Lookup(key string) (Entry, bool) {
	e, ok := byKey()[key]
	return e, ok
}

// byKey indexes Matrix by Key, once (the first entry of a key wins, as a
// scan would find it).
var byKey = sync.OnceValue(func() map[string]Entry {
	out := make(map[string]Entry, len(Matrix))
	for _, e := range Matrix {
		if _, seen := out[e.Key()]; !seen {
			out[e.Key()] = e
		}
	}
	return out
})
