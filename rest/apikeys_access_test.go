package rest_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

func TestAPIKeyNameLength(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		h := session(env, acme.Email, acme.TenantID)
		// 255 characters (not bytes) are accepted.
		k := postKey(t, env, h, tenantKeyBody(strings.Repeat("ñ", 255), auth.PermProjectView))
		if k.Name != strings.Repeat("ñ", 255) {
			t.Fatalf("name = %q", k.Name)
		}
		// Longer names are a client error, never a 500 (the column is limited to 255 characters).
		res := env.Do("POST", "/api/api-keys", tenantKeyBody(strings.Repeat("a", 256), auth.PermProjectView), h)
		apptest.ExpectError(t, res, 400, []string{"name must be shorter than or equal to 255 characters"})
	})
}

func TestAPIKeyRoutesNeedAUserSession(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		h := session(env, acme.Email, acme.TenantID)
		k := postKey(t, env, h, tenantKeyBody("target", auth.PermProjectView))
		// A key listing every permission, api-key:manage included (stored directly).
		all, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.Catalog...)
		env.CreateUser(acme.TenantID, "olga", auth.RoleOperator)
		operator := session(env, "olga", acme.TenantID)
		path := "/api/api-keys/" + k.ID.String()
		routes := []struct {
			method, path string
			body         any
		}{
			{"POST", "/api/api-keys", tenantKeyBody("k", auth.PermProjectView)},
			{"GET", "/api/api-keys", nil},
			{"GET", path, nil},
			{"DELETE", path, nil},
			{"PUT", path + "/permissions", map[string]any{"permissions": []string{auth.PermUserView}}},
		}
		for _, r := range routes {
			t.Run(r.method+" "+r.path, func(t *testing.T) {
				apptest.ExpectError(t, env.Do(r.method, r.path, r.body, apptest.Key(all)), 403, msgNeedKeyManage)
				apptest.ExpectError(t, env.Do(r.method, r.path, r.body, operator), 403, msgNeedKeyManage)
			})
		}
		got := getKey(t, env, h, k.ID)
		if !got.IsActive || !slices.Equal(got.Permissions, []string{auth.PermProjectView}) {
			t.Fatalf("key changed by rejected requests: %+v", got)
		}
	})
}

func TestRevokeAPIKey(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		h := session(env, acme.Email, acme.TenantID)
		env.CreateUser(acme.TenantID, "ana", auth.RoleAdmin)
		ana := session(env, "ana", acme.TenantID)

		k := postKey(t, env, h, tenantKeyBody("doomed", auth.PermProjectView))
		requireStatus(t, env.Do("GET", "/api/projects", nil, apptest.Key(k.PlaintextKey)), 200, "before revocation")

		res := env.Do("DELETE", "/api/api-keys/"+k.ID.String(), nil, h)
		if res.Status != http.StatusNoContent || len(res.Body) != 0 {
			t.Fatalf("revoke: %d %q", res.Status, res.Body)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/projects", nil, apptest.Key(k.PlaintextKey)), 401, msgKeyInvalid)
		got := getKey(t, env, h, k.ID)
		if got.IsActive || got.RevokedAt == nil || time.Since(*got.RevokedAt) > time.Minute {
			t.Fatalf("revoked key = %+v", got)
		}

		// Only the owner, in the key's tenant, may revoke.
		anaKey := postKey(t, env, ana, tenantKeyBody("ana's", auth.PermProjectView))
		apptest.ExpectError(t, env.Do("DELETE", "/api/api-keys/"+anaKey.ID.String(), nil, h), 403, msgNotOwner)
		_, betaKey := env.CreateKey(beta.TenantID, beta.UserID, uuid.Nil, auth.PermProjectView)
		apptest.ExpectError(t, env.Do("DELETE", "/api/api-keys/"+betaKey.ID.String(), nil, h), 403, msgNotOwner)
		apptest.ExpectError(t, env.Do("DELETE", "/api/api-keys/"+uuid.NewString(), nil, h), 404, msgKeyNotFound)
		apptest.ExpectError(t, env.Do("DELETE", "/api/api-keys/not-a-uuid", nil, h), 400, msgUUIDExpected)
		requireStatus(t, env.Do("GET", "/api/projects", nil, apptest.Key(anaKey.PlaintextKey)), 200, "ana's key after a refused revocation")
		if row, err := env.App.DB.Client.APIKey.Get(sys, betaKey.ID); err != nil || !row.IsActive || row.RevokedAt != nil {
			t.Fatalf("beta key after a refused revocation: %+v %v", row, err)
		}
	})
}

func TestSetAPIKeyPermissions(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		h := session(env, acme.Email, acme.TenantID)
		env.CreateUser(acme.TenantID, "fred", auth.RoleFDE)
		fred := session(env, "fred", acme.TenantID)

		k := postKey(t, env, h, tenantKeyBody("switch", auth.PermProjectView))
		key := apptest.Key(k.PlaintextKey)
		requireStatus(t, env.Do("GET", "/api/projects", nil, key), 200, "projects before")
		apptest.ExpectError(t, env.Do("GET", "/api/users", nil, key), 403, "Required permissions: user:view")

		path := "/api/api-keys/" + k.ID.String() + "/permissions"
		res := env.Do("PUT", path, map[string]any{"permissions": []string{auth.PermUserView}}, h)
		requireStatus(t, res, 200, "set permissions")
		requireMembers(t, res.Body, apiKeyFields)
		var upd apiKeyBody
		res.JSON(t, &upd)
		if upd.ID != k.ID || upd.KeyPrefix != k.KeyPrefix || upd.Name != "switch" || !upd.IsActive ||
			!slices.Equal(upd.Permissions, []string{auth.PermUserView}) {
			t.Fatalf("updated key = %+v", upd)
		}
		// The secret does not change; the new set applies on the next request.
		apptest.ExpectError(t, env.Do("GET", "/api/projects", nil, key), 403, "Required permissions: project:view")
		requireStatus(t, env.Do("GET", "/api/users", nil, key), 200, "users after")
		if row, _ := env.App.DB.Client.APIKey.Get(sys, k.ID); row.KeyHash != auth.HashToken(k.PlaintextKey) {
			t.Fatal("the secret changed")
		}
		// Several permissions at once.
		res = env.Do("PUT", path, map[string]any{"permissions": []string{auth.PermUserView, auth.PermProjectView, auth.PermTrashPurge}}, h)
		requireStatus(t, res, 200, "set three permissions")
		res.JSON(t, &upd)
		if !slices.Equal(upd.Permissions, []string{auth.PermUserView, auth.PermProjectView, auth.PermTrashPurge}) {
			t.Fatalf("permissions = %v", upd.Permissions)
		}
		requireStatus(t, env.Do("GET", "/api/projects", nil, key), 200, "projects after the second update")

		fredKey := postKey(t, env, fred, tenantKeyBody("fred's", auth.PermProjectView))
		_, betaKey := env.CreateKey(beta.TenantID, beta.UserID, uuid.Nil, auth.PermProjectView)
		revoked := postKey(t, env, h, tenantKeyBody("revoked", auth.PermProjectView))
		requireStatus(t, env.Do("DELETE", "/api/api-keys/"+revoked.ID.String(), nil, h), 204, "revoke")
		perms := func(p ...string) map[string]any { return map[string]any{"permissions": p} }
		pathOf := func(id uuid.UUID) string { return "/api/api-keys/" + id.String() + "/permissions" }

		cases := []struct {
			name   string
			h      apptest.Headers
			path   string
			body   any
			status int
			msg    any
		}{
			{"empty list", h, path, perms(), 400, []string{msgPermsMin}},
			{"missing permissions", h, path, map[string]any{}, 400, []string{msgPermsMin}},
			{"null permissions", h, path, map[string]any{"permissions": nil}, 400, []string{msgPermsMin}},
			{"duplicates", h, path, perms(auth.PermUserView, auth.PermUserView), 400, []string{msgPermsUnique}},
			{"name outside the catalog", h, path, perms(auth.PermUserView, "user:fly"), 400, []string{"Unknown permission: user:fly"}},
			{"not an array", h, path, map[string]any{"permissions": "user:view"}, 400, []string{"permissions must be an array of strings"}},
			{"unknown property", h, path, map[string]any{"permissions": []string{auth.PermUserView}, "name": "x"}, 400,
				[]string{"property name should not exist"}},
			{"id not a uuid", h, "/api/api-keys/abc/permissions", perms(auth.PermUserView), 400, msgUUIDExpected},
			{"unknown id", h, pathOf(uuid.New()), perms(auth.PermUserView), 404, msgKeyNotFound},
			{"revoked key", h, pathOf(revoked.ID), perms(auth.PermUserView), 400, msgKeyRevoked},
			{"another user's key", h, pathOf(fredKey.ID), perms(auth.PermUserView), 403, msgNotOwner},
			{"another user's key, seen from its owner's side", fred, path, perms(auth.PermUserView), 403, msgNotOwner},
			{"another tenant's key", h, pathOf(betaKey.ID), perms(auth.PermUserView), 403, msgNotOwner},
			{"api-key:manage", h, path, perms(auth.PermUserView, auth.PermAPIKeyManage), 403, msgNoKeyManage},
			{"permission not held", fred, pathOf(fredKey.ID), perms(auth.PermProjectView, auth.PermTrashPurge, auth.PermUserUpdate), 403,
				"Cannot assign permissions you do not have: trash:purge, user:update"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("PUT", c.path, c.body, c.h), c.status, c.msg)
			})
		}
		// Nothing changed through the refused requests.
		if got := getKey(t, env, h, k.ID); !slices.Equal(got.Permissions, []string{auth.PermUserView, auth.PermProjectView, auth.PermTrashPurge}) {
			t.Fatalf("permissions after refused updates = %v", got.Permissions)
		}
		if got := getKey(t, env, fred, fredKey.ID); !slices.Equal(got.Permissions, []string{auth.PermProjectView}) {
			t.Fatalf("fred's key after refused updates = %v", got.Permissions)
		}
		if got := getKey(t, env, h, revoked.ID); !slices.Equal(got.Permissions, []string{auth.PermProjectView}) || got.IsActive {
			t.Fatalf("revoked key after a refused update = %+v", got)
		}
	})
}

func TestAPIKeyNarrowedWithItsOwnerRoles(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		root := session(env, acme.Email, acme.TenantID)
		ana := env.CreateUser(acme.TenantID, "ana", auth.RoleAdmin)
		k := postKey(t, env, session(env, "ana", acme.TenantID),
			tenantKeyBody("ana's", auth.PermProjectView, auth.PermProjectUpdate, auth.PermUserView))
		key := apptest.Key(k.PlaintextKey)
		rename := func(name string) *apptest.Response {
			return env.Do("PATCH", "/api/projects/"+acme.ProjectID.String(), map[string]string{"name": name}, key)
		}
		requireStatus(t, rename("Retail"), 200, "rename while admin")
		requireStatus(t, env.Do("GET", "/api/users", nil, key), 200, "users while admin")

		// The owner is lowered to operator: the key loses what the owner lost, on the very next request.
		res := env.Do("PUT", "/api/user/"+ana.ID.String()+"/roles", map[string]any{"roles": []string{auth.RoleOperator}}, root)
		requireStatus(t, res, 200, "lower ana")
		apptest.ExpectError(t, rename("Retail 2"), 403, "Required permissions: project:update")
		apptest.ExpectError(t, env.Do("GET", "/api/users", nil, key), 403, "Required permissions: user:view")
		requireStatus(t, env.Do("GET", "/api/projects", nil, key), 200, "projects while operator (operator holds project:view)")
		// The key's own list is unchanged: narrowing is computed per request.
		if row, _ := env.App.DB.Client.APIKey.Get(sys, k.ID); len(row.Permissions) != 3 {
			t.Fatalf("stored permissions changed: %v", row.Permissions)
		}

		// Restoring the owner's role restores the key within its own list.
		requireStatus(t, env.Do("PUT", "/api/user/"+ana.ID.String()+"/roles", map[string]any{"roles": []string{auth.RoleAdmin}}, root), 200, "restore ana")
		requireStatus(t, rename("Retail 3"), 200, "rename after restoring")
	})
}

func TestAPIKeyExpiry(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		h := session(env, acme.Email, acme.TenantID)
		now := time.Now()
		body := tenantKeyBody("short-lived", auth.PermProjectView)
		body["expiresAt"] = now.Add(time.Minute).UTC().Format(time.RFC3339Nano)
		k := postKey(t, env, h, body)
		if k.ExpiresAt == nil || k.ExpiresAt.Sub(now.Add(time.Minute)).Abs() > time.Millisecond {
			t.Fatalf("expiresAt = %v", k.ExpiresAt)
		}
		key := apptest.Key(k.PlaintextKey)
		requireStatus(t, env.Do("GET", "/api/projects", nil, key), 200, "before expiry")
		env.App.Auth.SetClock(func() time.Time { return now.Add(30 * time.Second) })
		requireStatus(t, env.Do("GET", "/api/projects", nil, key), 200, "30 s before expiry")
		env.App.Auth.SetClock(func() time.Time { return now.Add(2 * time.Minute) })
		apptest.ExpectError(t, env.Do("GET", "/api/projects", nil, key), 401, msgKeyInvalid)
		// A key without expiry still works at that time.
		other := postKey(t, env, h, tenantKeyBody("forever", auth.PermProjectView))
		requireStatus(t, env.Do("GET", "/api/projects", nil, apptest.Key(other.PlaintextKey)), 200, "key without expiry")
	})
}
