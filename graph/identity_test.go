package graph_test

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

// TestAPIKeyLifecycleOverGraphQL: create (plaintext once), use, narrow,
// revoke, through the same services as REST.
func TestAPIKeyLifecycleOverGraphQL(t *testing.T) {
	eachAcme(t, func(t *testing.T, env *apptest.Env, acme apptest.Tenant, h apptest.Headers) {
		created := gqlOK(t, env, h, `mutation { createAPIKey(input: {name: "sync", permissions: ["project:view"], scope: tenant}) {
			plaintextKey apiKey { id name keyPrefix scope permissions isActive projectID revokedAt } } }`, nil)
		plain, prefix := str(t, created, "createAPIKey", "plaintextKey"), str(t, created, "createAPIKey", "apiKey", "keyPrefix")
		if !strings.HasPrefix(plain, prefix) || len(prefix) != len("svc_sk_")+8 {
			t.Fatalf("createAPIKey = %v", created)
		}
		keyID := str(t, created, "createAPIKey", "apiKey", "id")
		key := apptest.Key(plain)
		expectData(t, env.GraphQL(`{ projects { totalCount } }`, nil, key), M{"projects": M{"totalCount": 1}})

		// Listed without the secret.
		expectData(t, env.GraphQL(`{ apiKeys { totalCount edges { node { id name permissions } } } }`, nil, h),
			M{"apiKeys": M{"totalCount": 1, "edges": L{M{"node": M{"id": keyID, "name": "sync", "permissions": L{"project:view"}}}}}})

		// Narrowed: the next request uses the new set.
		expectData(t, env.GraphQL(`mutation($id: ID!) { updateAPIKeyPermissions(id: $id, permissions: ["user:view"]) { permissions } }`,
			M{"id": keyID}, h), M{"updateAPIKeyPermissions": M{"permissions": L{"user:view"}}})
		expectBody(t, env.GraphQL(`{ projects { totalCount } }`, nil, key), 200, M{"data": nil, "errors": L{
			fieldError(L{"projects"}, "Required permissions: project:view", "FORBIDDEN", 403)}})
		expectBody(t, env.GraphQL(`mutation($id: ID!) { updateAPIKeyPermissions(id: $id, permissions: ["api-key:manage"]) { id } }`,
			M{"id": keyID}, h), 200, M{"data": nil, "errors": L{
			fieldError(L{"updateAPIKeyPermissions"}, "Cannot assign api-key:manage to an API key", "FORBIDDEN", 403)}})

		// Revoked: the next request with the key answers 401.
		res := env.GraphQL(`mutation($id: ID!) { revokeAPIKey(id: $id) { isActive } }`, M{"id": keyID}, h)
		expectData(t, res, M{"revokeAPIKey": M{"isActive": false}})
		expectBody(t, env.GraphQL(`{ viewer { isAPIKey } }`, nil, key), 401, preError("Invalid or revoked API key", "UNAUTHENTICATED", 401))

		// Validation errors carry every message.
		res = env.GraphQL(`mutation { createAPIKey(input: {name: "", permissions: [], scope: project}) { plaintextKey } }`, nil, h)
		expectBody(t, res, 200, M{"data": nil, "errors": L{M{
			"message": "name should not be empty; permissions must contain at least 1 elements; projectId is required when scope is project",
			"path":    L{"createAPIKey"},
			"extensions": M{"code": "BAD_REQUEST", "statusCode": 400, "messages": L{
				"name should not be empty", "permissions must contain at least 1 elements", "projectId is required when scope is project"}},
		}}})
	})
}

// TestUserAdministrationOverGraphQL: register, list with roles, change roles,
// update, with the hierarchy rules of REST.
func TestUserAdministrationOverGraphQL(t *testing.T) {
	eachAcme(t, func(t *testing.T, env *apptest.Env, acme apptest.Tenant, h apptest.Headers) {
		res := env.GraphQL(`mutation { registerUser(input: {email: "nina@acme.test", username: "nina", password: "correct-horse-9",
			firstName: "Nina", roles: [operator, operator]}) { id username firstName roles } }`, nil, h)
		var out struct {
			Data struct {
				RegisterUser struct {
					ID string `json:"id"`
				} `json:"registerUser"`
			} `json:"data"`
		}
		res.JSON(t, &out)
		nina := out.Data.RegisterUser.ID
		expectData(t, res, M{"registerUser": M{"id": nina, "username": "nina", "firstName": "Nina", "roles": L{"operator"}}})
		env.Login("nina") // the new user can log in

		expectData(t, env.GraphQL(`{ users(orderBy: {field: CREATED_AT}) { totalCount edges { node { username roles } } } }`, nil, h),
			M{"users": M{"totalCount": 2, "edges": L{
				M{"node": M{"username": "acme-admin", "roles": L{"super_admin"}}},
				M{"node": M{"username": "nina", "roles": L{"operator"}}},
			}}})

		expectData(t, env.GraphQL(`mutation($id: ID!) { setUserRoles(id: $id, roles: [supervisor]) { roles } }`, M{"id": nina}, h),
			M{"setUserRoles": M{"roles": L{"supervisor"}}})
		expectBody(t, env.GraphQL(`mutation($id: ID!) { setUserRoles(id: $id, roles: [viewer]) { roles } }`, M{"id": acme.UserID}, h),
			200, M{"data": nil, "errors": L{fieldError(L{"setUserRoles"}, "Cannot modify your own roles", "FORBIDDEN", 403)}})
		// Roles are the Role enum: the schema refuses other names.
		expectVariableInvalid(t, env.GraphQL(`mutation($id: ID!, $r: [Role!]!) { setUserRoles(id: $id, roles: $r) { roles } }`,
			M{"id": nina, "r": L{"viewer", "root"}}, h), L{"r", 1}, "root is not a valid Role")
		expectData(t, env.GraphQL(`mutation($id: ID!) { updateUser(id: $id, input: {lastName: "Ortiz", isActive: false}) { lastName isActive } }`,
			M{"id": nina}, h), M{"updateUser": M{"lastName": "Ortiz", "isActive": false}})

		// A supervisor cannot manage an admin; a viewer cannot register anyone.
		env.CreateUser(acme.TenantID, "vicky", auth.RoleViewer)
		vh := apptest.JWT(env.Login("vicky"), acme.TenantID, uuid.Nil)
		expectBody(t, env.GraphQL(`mutation { registerUser(input: {email: "x@acme.test", username: "xx1", password: "long-enough-1", roles: [viewer]}) { id } }`, nil, vh),
			200, M{"data": nil, "errors": L{fieldError(L{"registerUser"}, "Required permissions: user:update", "FORBIDDEN", 403)}})
	})
}

// TestTenantAdministrationOverGraphQL: createTenant makes the caller its
// super_admin with a main project; updateTenant reaches only administered tenants.
func TestTenantAdministrationOverGraphQL(t *testing.T) {
	eachAcme(t, func(t *testing.T, env *apptest.Env, acme apptest.Tenant, h apptest.Headers) {
		beta := env.Bootstrap("Beta")
		res := env.GraphQL(`mutation { createTenant(input: {name: "Gamma", timeZone: "America/Santiago"}) { id name timeZone dayCutoff } }`, nil, h)
		var out struct {
			Data struct {
				CreateTenant struct {
					ID uuid.UUID `json:"id"`
				} `json:"createTenant"`
			} `json:"data"`
		}
		res.JSON(t, &out)
		gamma := out.Data.CreateTenant.ID
		expectData(t, res, M{"createTenant": M{"id": gamma.String(), "name": "Gamma", "timeZone": "America/Santiago", "dayCutoff": "23:59"}})
		expectData(t, env.GraphQL(`{ administeredTenants { name } }`, nil, h), M{"administeredTenants": L{M{"name": "Acme"}, M{"name": "Gamma"}}})
		gh := apptest.JWT(env.Login(acme.Email), gamma, uuid.Nil)
		expectData(t, env.GraphQL(`{ projects { edges { node { name isMain } } } }`, nil, gh),
			M{"projects": M{"edges": L{M{"node": M{"name": "Principal", "isMain": true}}}}})

		expectBody(t, env.GraphQL(`mutation($id: ID!) { updateTenant(id: $id, input: {timeZone: "Mars/Olympus"}) { id } }`, M{"id": gamma}, h),
			200, M{"data": nil, "errors": L{M{"message": "timeZone must be a valid IANA time zone", "path": L{"updateTenant"},
				"extensions": M{"code": "BAD_REQUEST", "statusCode": 400, "messages": L{"timeZone must be a valid IANA time zone"}}}}})
		expectBody(t, env.GraphQL(`mutation($id: ID!) { updateTenant(id: $id, input: {name: "Mine"}) { id } }`, M{"id": beta.TenantID}, h),
			200, M{"data": nil, "errors": L{fieldError(L{"updateTenant"}, "Tenant not found", "NOT_FOUND", 404)}})
	})
}
