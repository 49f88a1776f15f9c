package rest_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/reten-io/reten/ent/membership"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

func TestUserEmailLength(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		h := session(env, acme.Email, acme.TenantID)
		olga := env.CreateUser(acme.TenantID, "olga", auth.RoleOperator)
		// An over-long address is a client error, never a 500 (the column holds 320 characters).
		long := strings.Repeat("a", 320) + "@example.test"
		t.Run("register", func(t *testing.T) {
			b := registerBody("longmail", auth.RoleViewer)
			b["email"] = long
			apptest.ExpectError(t, env.Do("POST", "/api/auth/register", b, h), 400, []string{msgEmailInvalid})
		})
		t.Run("update", func(t *testing.T) {
			apptest.ExpectError(t, env.Do("PATCH", "/api/users/"+olga.ID.String(), map[string]any{"email": long}, h), 400,
				[]string{msgEmailInvalid})
		})
	})
}

func TestSetUserRoles(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		root := session(env, acme.Email, acme.TenantID)
		ana := env.CreateUser(acme.TenantID, "ana", auth.RoleAdmin)
		adam := env.CreateUser(acme.TenantID, "adam", auth.RoleAdmin)
		mixed := env.CreateUser(acme.TenantID, "mixed", auth.RoleViewer, auth.RoleAdmin) // highest role: admin
		olga := env.CreateUser(acme.TenantID, "olga", auth.RoleOperator)
		fred := env.CreateUser(acme.TenantID, "fred", auth.RoleFDE)
		env.CreateUser(acme.TenantID, "vic", auth.RoleViewer)
		zed := env.CreateUser(beta.TenantID, "zed", auth.RoleViewer)
		anaH := session(env, "ana", acme.TenantID)
		put := func(h apptest.Headers, id string, body any) *apptest.Response {
			return env.Do("PUT", "/api/user/"+id+"/roles", body, h)
		}
		roles := func(r ...string) map[string]any { return map[string]any{"roles": r} }
		ok := func(t *testing.T, res *apptest.Response) {
			t.Helper()
			requireStatus(t, res, 200, "set roles")
			if string(res.Body) != "{\"message\":\"Roles updated successfully\"}\n" {
				t.Fatalf("body = %q", res.Body)
			}
		}

		// olga (operator) cannot list users; promoted to supervisor + viewer, she can on her next request.
		olgaH := session(env, "olga", acme.TenantID)
		apptest.ExpectError(t, env.Do("GET", "/api/users", nil, olgaH), 403, "Required permissions: user:view")
		ok(t, put(anaH, olga.ID.String(), roles(auth.RoleViewer, auth.RoleSupervisor)))
		if got := getUser(t, env, root, olga.ID); !sameSet(got.Roles, []string{auth.RoleSupervisor, auth.RoleViewer}) {
			t.Fatalf("olga's roles = %v", got.Roles)
		}
		requireStatus(t, env.Do("GET", "/api/users", nil, olgaH), 200, "olga lists users after promotion")

		// fred (fde) manages keys; lowered to viewer he cannot, on his next request.
		fredH := session(env, "fred", acme.TenantID)
		postKey(t, env, fredH, tenantKeyBody("fred's", auth.PermProjectView))
		ok(t, put(root, fred.ID.String(), roles(auth.RoleViewer)))
		apptest.ExpectError(t, env.Do("POST", "/api/api-keys", tenantKeyBody("again", auth.PermProjectView), fredH), 403, msgNeedKeyManage)
		if got := getUser(t, env, root, fred.ID); !slices.Equal(got.Roles, []string{auth.RoleViewer}) {
			t.Fatalf("fred's roles = %v", got.Roles)
		}
		// The super_admin may make someone an admin (lower than super_admin).
		ok(t, put(root, fred.ID.String(), roles(auth.RoleAdmin)))
		if got := getUser(t, env, root, fred.ID); !slices.Equal(got.Roles, []string{auth.RoleAdmin}) {
			t.Fatalf("fred's roles = %v", got.Roles)
		}

		key, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermUserUpdate, auth.PermUserView)
		cases := []struct {
			name   string
			h      apptest.Headers
			id     string
			body   any
			status int
			msg    any
		}{
			{"empty roles", anaH, olga.ID.String(), roles(), 400, []string{msgRolesRequired}},
			{"missing roles", anaH, olga.ID.String(), map[string]any{}, 400, []string{msgRolesRequired}},
			{"unknown role", anaH, olga.ID.String(), roles("boss"), 400, []string{msgRoleValues}},
			{"super_admin is not assignable", root, olga.ID.String(), roles(auth.RoleSuperAdmin), 400, []string{msgRoleValues}},
			{"roles not an array", anaH, olga.ID.String(), map[string]any{"roles": "viewer"}, 400, []string{"roles must be an array of strings"}},
			{"unknown property", anaH, olga.ID.String(), map[string]any{"roles": []string{"viewer"}, "x": 1}, 400,
				[]string{"property x should not exist"}},
			{"own roles", anaH, ana.ID.String(), roles(auth.RoleViewer), 403, msgOwnRoles},
			{"own roles, super_admin", root, acme.UserID.String(), roles(auth.RoleAdmin), 403, msgOwnRoles},
			{"user of another tenant only", anaH, zed.ID.String(), roles(auth.RoleViewer), 403, msgOutsideTenant},
			{"equal role", anaH, adam.ID.String(), roles(auth.RoleViewer), 403, msgRolesEqualOrHi},
			{"equal highest role among several", anaH, mixed.ID.String(), roles(auth.RoleViewer), 403, msgRolesEqualOrHi},
			{"higher role", anaH, acme.UserID.String(), roles(auth.RoleViewer), 403, msgRolesEqualOrHi},
			{"assign own role", anaH, olga.ID.String(), roles(auth.RoleAdmin), 403, msgAssignTooHigh(auth.RoleAdmin)},
			{"assign own role among others", anaH, olga.ID.String(), roles(auth.RoleViewer, auth.RoleAdmin), 403, msgAssignTooHigh(auth.RoleAdmin)},
			{"unknown user", anaH, uuid.NewString(), roles(auth.RoleViewer), 404, msgUserNotFound},
			{"id not a uuid", anaH, "abc", roles(auth.RoleViewer), 400, msgUUIDExpected},
			{"viewer caller", session(env, "vic", acme.TenantID), olga.ID.String(), roles(auth.RoleViewer), 403, msgNeedUserUpdate},
			{"API key with user:update", apptest.Key(key), olga.ID.String(), roles(auth.RoleViewer), 403,
				"This operation needs a user session; API keys cannot change roles"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, put(c.h, c.id, c.body), c.status, c.msg)
			})
		}
		// Nothing changed through the refused requests.
		for id, want := range map[uuid.UUID][]string{
			olga.ID: {auth.RoleSupervisor, auth.RoleViewer}, adam.ID: {auth.RoleAdmin}, ana.ID: {auth.RoleAdmin},
			mixed.ID: {auth.RoleViewer, auth.RoleAdmin}, acme.UserID: {auth.RoleSuperAdmin},
		} {
			if got := getUser(t, env, root, id); !sameSet(got.Roles, want) {
				t.Fatalf("%s roles = %v, want %v", got.Username, got.Roles, want)
			}
		}
		if m := env.App.DB.Client.Membership.Query().Where(membership.UserID(zed.ID)).OnlyX(sys); !slices.Equal(m.Roles, []string{auth.RoleViewer}) {
			t.Fatalf("zed's roles = %v", m.Roles)
		}
	})
}

// TestRegisterUserDuplicateRoles: a role list is a set; PUT /api/user/:id/roles
// dedupes it, so registration must not store or show a role twice.
func TestRegisterUserDuplicateRoles(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		h := session(env, acme.Email, acme.TenantID)
		u := decodeUser(t, env.Do("POST", "/api/auth/register", registerBody("dup", auth.RoleViewer, auth.RoleOperator, auth.RoleViewer), h),
			http.StatusCreated, "register with a repeated role")
		if !sameSet(u.Roles, []string{auth.RoleOperator, auth.RoleViewer}) || len(u.Roles) != 2 {
			t.Errorf("registered roles = %v, want operator and viewer once each", u.Roles)
		}
		if got := getUser(t, env, h, u.ID); len(got.Roles) != 2 {
			t.Errorf("stored roles = %v, want operator and viewer once each", got.Roles)
		}
	})
}

// TestUserAdministrationStaysInItsTenant: users are global identities, so a
// change through PATCH /api/users/:id (active flag, email) reaches every tenant
// the user belongs to. An admin of one tenant must not thereby lock out or
// rename a user who holds an equal or higher role in another tenant.
func TestUserAdministrationStaysInItsTenant(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		// Beta's super_admin is a mere viewer in Acme.
		env.App.DB.Client.Membership.Create().SetTenantID(acme.TenantID).SetUserID(beta.UserID).SetRoles([]string{auth.RoleViewer}).ExecX(sys)
		env.CreateUser(acme.TenantID, "ana", auth.RoleAdmin)
		ana := session(env, "ana", acme.TenantID)
		path := "/api/users/" + beta.UserID.String()

		res := env.Do("PATCH", path, map[string]any{"is_active": false}, ana)
		t.Logf("deactivation by another tenant's admin: %d %s", res.Status, res.Body)
		login := env.Do("POST", "/api/auth/login", map[string]string{"identifier": beta.Email, "password": apptest.Password}, nil)
		if login.Status != http.StatusCreated {
			t.Errorf("Beta's super_admin locked out by an Acme admin: login %d %s", login.Status, login.Body)
			env.App.DB.Client.User.UpdateOneID(beta.UserID).SetIsActive(true).ExecX(sys)
		}
		requireStatus(t, env.Do("GET", "/api/projects", nil, session(env, beta.Email, beta.TenantID)), 200, "Beta's super_admin in Beta")

		res = env.Do("PATCH", path, map[string]any{"email": "taken-over@example.test"}, ana)
		t.Logf("email change by another tenant's admin: %d %s", res.Status, res.Body)
		if u := env.App.DB.Client.User.GetX(sys, beta.UserID); u.Email != beta.Email {
			t.Errorf("Beta's super_admin's email changed by an Acme admin to %q", u.Email)
		}
	})
}

func TestUserDeactivationEndsAccess(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		root := session(env, acme.Email, acme.TenantID)
		fran := env.CreateUser(acme.TenantID, "fran", auth.RoleFDE)
		token, cookie := loginFull(t, env, "fran")
		franH := apptest.JWT(token, acme.TenantID, uuid.Nil)
		k := postKey(t, env, franH, tenantKeyBody("fran's", auth.PermProjectView))
		requireStatus(t, env.Do("GET", "/api/projects", nil, apptest.Key(k.PlaintextKey)), 200, "key before deactivation")

		u := decodeUser(t, env.Do("PATCH", "/api/users/"+fran.ID.String(), map[string]any{"is_active": false}, root), 200, "deactivate")
		if u.IsActive {
			t.Fatalf("deactivated user = %+v", u)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/projects", nil, apptest.Key(k.PlaintextKey)), 401, msgKeyOwner)
		apptest.ExpectError(t, env.Do("POST", "/api/auth/refresh", nil, cookieHeader(cookie)), 401, msgInvalidRefresh)
		apptest.ExpectError(t, env.Do("POST", "/api/auth/login", map[string]string{"identifier": "fran", "password": apptest.Password}, nil),
			401, "Invalid credentials")
		apptest.ExpectError(t, env.Do("GET", "/api/projects", nil, franH), 401, "Unauthorized")
		if got := getUser(t, env, root, fran.ID); got.IsActive {
			t.Fatalf("listed as active: %+v", got)
		}

		// Reactivated, the user logs in again.
		decodeUser(t, env.Do("PATCH", "/api/users/"+fran.ID.String(), map[string]any{"is_active": true}, root), 200, "reactivate")
		env.Login("fran")
	})
}
