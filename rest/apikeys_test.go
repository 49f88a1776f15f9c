package rest_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/apikey"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/tenant"
)

// Messages of the API key endpoints, as SPEC.md and the issue spell them.
const (
	msgNotOwner      = "You do not own this API key"
	msgKeyNotFound   = "API key not found"
	msgNoKeyManage   = "Cannot assign api-key:manage to an API key"
	msgKeyRevoked    = "Cannot update permissions of a revoked API key"
	msgUUIDExpected  = "Validation failed (uuid is expected)"
	msgPermsMin      = "permissions must contain at least 1 elements"
	msgPermsUnique   = "All permissions's elements must be unique"
	msgKeyNameEmpty  = "name should not be empty"
	msgKeyScope      = "scope must be one of the following values: project, tenant"
	msgKeyProjectReq = "projectId is required when scope is project"
	msgKeyProjectNo  = "projectId must be empty when scope is tenant"
	msgKeyProjectTen = "projectId must be a project of the active tenant"
	msgKeyExpiresPst = "expiresAt must be in the future"
	msgNeedKeyManage = "Required permissions: api-key:manage"
)

// apiKeyFields are the members of the SPEC.md API key shape (list item,
// detail and permission-update response); creation adds plaintextKey.
var apiKeyFields = []string{"createdAt", "expiresAt", "id", "isActive", "keyPrefix", "lastUsedAt", "name",
	"permissions", "projectId", "revokedAt", "tenantId", "userId"}

type apiKeyBody struct {
	ID           uuid.UUID  `json:"id"`
	Name         string     `json:"name"`
	KeyPrefix    string     `json:"keyPrefix"`
	UserID       uuid.UUID  `json:"userId"`
	TenantID     uuid.UUID  `json:"tenantId"`
	ProjectID    *uuid.UUID `json:"projectId"`
	IsActive     bool       `json:"isActive"`
	Permissions  []string   `json:"permissions"`
	ExpiresAt    *time.Time `json:"expiresAt"`
	LastUsedAt   *time.Time `json:"lastUsedAt"`
	CreatedAt    time.Time  `json:"createdAt"`
	RevokedAt    *time.Time `json:"revokedAt"`
	PlaintextKey string     `json:"plaintextKey"`
}

type pageMeta struct {
	Page       int `json:"page"`
	Limit      int `json:"limit"`
	Total      int `json:"total"`
	TotalPages int `json:"totalPages"`
}

// requireStatus fails the test unless the response has the status.
func requireStatus(t *testing.T, res *apptest.Response, status int, what string) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("%s: status %d, want %d; body %s", what, res.Status, status, res.Body)
	}
}

// memberNames returns the sorted member names of a JSON object.
func memberNames(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("not a JSON object: %s", raw)
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// requireMembers fails unless the JSON object has exactly the members want.
func requireMembers(t *testing.T, raw json.RawMessage, want []string) {
	t.Helper()
	w := slices.Clone(want)
	slices.Sort(w)
	if got := memberNames(t, raw); !slices.Equal(got, w) {
		t.Fatalf("members = %v, want %v; body %s", got, w, raw)
	}
}

// session logs identifier in and returns JWT headers for tenantID.
func session(env *apptest.Env, identifier string, tenantID uuid.UUID) apptest.Headers {
	return apptest.JWT(env.Login(identifier), tenantID, uuid.Nil)
}

// postKey creates a key through POST /api/api-keys and checks the creation shape.
func postKey(t *testing.T, env *apptest.Env, h apptest.Headers, body any) apiKeyBody {
	t.Helper()
	res := env.Do("POST", "/api/api-keys", body, h)
	requireStatus(t, res, http.StatusCreated, "create key")
	requireMembers(t, res.Body, append(slices.Clone(apiKeyFields), "plaintextKey"))
	var k apiKeyBody
	res.JSON(t, &k)
	return k
}

func tenantKeyBody(name string, perms ...string) map[string]any {
	return map[string]any{"name": name, "permissions": perms, "scope": "tenant"}
}

// getKey reads a key through GET /api/api-keys/:id and checks the shape.
func getKey(t *testing.T, env *apptest.Env, h apptest.Headers, id uuid.UUID) apiKeyBody {
	t.Helper()
	res := env.Do("GET", "/api/api-keys/"+id.String(), nil, h)
	requireStatus(t, res, http.StatusOK, "get key")
	requireMembers(t, res.Body, apiKeyFields)
	var k apiKeyBody
	res.JSON(t, &k)
	return k
}

func TestCreateAPIKey(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		ventas := secondProject(t, env, acme.TenantID, "Ventas")
		h := session(env, acme.Email, acme.TenantID)
		before := time.Now()

		k := postKey(t, env, h, tenantKeyBody("Sync job", auth.PermProjectView, auth.PermUserView))
		if k.ID == uuid.Nil || k.Name != "Sync job" || k.UserID != acme.UserID || k.TenantID != acme.TenantID ||
			k.ProjectID != nil || !k.IsActive || !slices.Equal(k.Permissions, []string{auth.PermProjectView, auth.PermUserView}) ||
			k.ExpiresAt != nil || k.LastUsedAt != nil || k.RevokedAt != nil {
			t.Fatalf("created key = %+v", k)
		}
		if k.CreatedAt.Before(before.Add(-time.Minute)) || k.CreatedAt.After(time.Now().Add(time.Minute)) {
			t.Fatalf("createdAt = %v", k.CreatedAt)
		}
		if !strings.HasPrefix(k.KeyPrefix, auth.KeyPrefix) || len(k.KeyPrefix) != len(auth.KeyPrefix)+8 {
			t.Fatalf("keyPrefix = %q, want svc_sk_ plus 8 characters", k.KeyPrefix)
		}
		if !strings.HasPrefix(k.PlaintextKey, k.KeyPrefix) || len(k.PlaintextKey) <= len(k.KeyPrefix) {
			t.Fatalf("plaintextKey %q does not start with keyPrefix %q", k.PlaintextKey, k.KeyPrefix)
		}

		// Only the SHA-256 hex of the secret is stored.
		row, err := env.App.DB.Client.APIKey.Get(sys, k.ID)
		if err != nil {
			t.Fatal(err)
		}
		if row.KeyHash != auth.HashToken(k.PlaintextKey) || row.KeyHash == k.PlaintextKey || len(row.KeyHash) != 64 ||
			row.KeyPrefix != k.KeyPrefix || row.Scope != apikey.ScopeTenant {
			t.Fatalf("stored key: hash %q prefix %q scope %q", row.KeyHash, row.KeyPrefix, row.Scope)
		}

		// The key works on the next request, with its permissions.
		requireStatus(t, env.Do("GET", "/api/projects", nil, apptest.Key(k.PlaintextKey)), 200, "projects with the new key")
		requireStatus(t, env.Do("GET", "/api/users", nil, apptest.Key(k.PlaintextKey)), 200, "users with the new key")
		apptest.ExpectError(t, env.Do("PATCH", "/api/projects/"+acme.ProjectID.String(), map[string]string{"name": "X"}, apptest.Key(k.PlaintextKey)),
			403, "Required permissions: project:update")

		// A project-scoped key with an expiry is bound to its project.
		expires := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
		pk := postKey(t, env, h, map[string]any{"name": "Ventas feed", "permissions": []string{auth.PermAudienceView},
			"scope": "project", "projectId": ventas.ID, "expiresAt": expires.Format(time.RFC3339)})
		if pk.ProjectID == nil || *pk.ProjectID != ventas.ID || pk.ExpiresAt == nil || !pk.ExpiresAt.Equal(expires) {
			t.Fatalf("project key = %+v", pk)
		}
		if pk.PlaintextKey == k.PlaintextKey {
			t.Fatal("two keys share a secret")
		}
		res := env.Do("GET", "/api/audience-criterias/"+ventas.RootAudienceID.String(), nil, apptest.Key(pk.PlaintextKey))
		requireStatus(t, res, 200, "project key on its project")
		apptest.ExpectError(t, env.Do("GET", "/api/audience-criterias/"+rootAudience(t, env, acme.ProjectID).String(), nil,
			apptest.Key(pk.PlaintextKey).With("x-project-id", acme.ProjectID.String())), 403, msgKeyMismatch)

		// Any user holding api-key:manage may create keys for themself (fde does).
		fred := env.CreateUser(acme.TenantID, "fred", auth.RoleFDE)
		fk := postKey(t, env, session(env, "fred", acme.TenantID), tenantKeyBody("fde key", auth.PermProjectView))
		if fk.UserID != fred.ID || fk.TenantID != acme.TenantID {
			t.Fatalf("fde key = %+v", fk)
		}
	})
}

func TestAPIKeyCreateValidation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		h := session(env, acme.Email, acme.TenantID)
		env.CreateUser(acme.TenantID, "fred", auth.RoleFDE)
		fred := session(env, "fred", acme.TenantID)
		past := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
		view := []string{auth.PermProjectView}

		cases := []struct {
			name   string
			h      apptest.Headers
			body   any
			status int
			msg    any
		}{
			{"empty body", h, nil, 400, []string{msgKeyNameEmpty, msgPermsMin, msgKeyScope}},
			{"empty object", h, map[string]any{}, 400, []string{msgKeyNameEmpty, msgPermsMin, msgKeyScope}},
			{"blank name", h, map[string]any{"name": "   ", "permissions": view, "scope": "tenant"}, 400, []string{msgKeyNameEmpty}},
			{"no permissions", h, map[string]any{"name": "k", "permissions": []string{}, "scope": "tenant"}, 400, []string{msgPermsMin}},
			{"duplicate and unknown permissions", h,
				map[string]any{"name": "k", "permissions": []string{"project:view", "project:view", "nope:do", "x"}, "scope": "tenant"}, 400,
				[]string{msgPermsUnique, "Unknown permission: nope:do", "Unknown permission: x"}},
			{"expiry in the past", h, map[string]any{"name": "k", "permissions": view, "scope": "tenant", "expiresAt": past}, 400,
				[]string{msgKeyExpiresPst}},
			{"unknown scope", h, map[string]any{"name": "k", "permissions": view, "scope": "global"}, 400, []string{msgKeyScope}},
			{"missing scope", h, map[string]any{"name": "k", "permissions": view}, 400, []string{msgKeyScope}},
			{"project scope without projectId", h, map[string]any{"name": "k", "permissions": view, "scope": "project"}, 400,
				[]string{msgKeyProjectReq}},
			{"tenant scope with projectId", h,
				map[string]any{"name": "k", "permissions": view, "scope": "tenant", "projectId": acme.ProjectID}, 400,
				[]string{msgKeyProjectNo}},
			{"project of another tenant", h,
				map[string]any{"name": "k", "permissions": view, "scope": "project", "projectId": beta.ProjectID}, 400,
				[]string{msgKeyProjectTen}},
			{"unknown project", h,
				map[string]any{"name": "k", "permissions": view, "scope": "project", "projectId": uuid.New()}, 400,
				[]string{msgKeyProjectTen}},
			{"every rule at once", h,
				map[string]any{"name": "", "permissions": []string{}, "scope": "project", "expiresAt": past}, 400,
				[]string{msgKeyNameEmpty, msgPermsMin, msgKeyExpiresPst, msgKeyProjectReq}},
			{"expiresAt not an instant", h,
				map[string]any{"name": "k", "permissions": view, "scope": "tenant", "expiresAt": "tomorrow"}, 400,
				[]string{"expiresAt must be a valid ISO 8601 date string"}},
			{"projectId not a uuid", h,
				map[string]any{"name": "k", "permissions": view, "scope": "project", "projectId": "abc"}, 400,
				[]string{"projectId must be a UUID"}},
			{"wrong types", h, map[string]any{"name": 5, "permissions": "project:view", "scope": "tenant"}, 400,
				[]string{"name must be a string", "permissions must be an array of strings"}},
			{"unknown property", h, map[string]any{"name": "k", "permissions": view, "scope": "tenant", "x": 1}, 400,
				[]string{"property x should not exist"}},
			{"malformed JSON", h, `{"name": `, 400, "Malformed JSON body"},
			{"api-key:manage", h, tenantKeyBody("k", auth.PermProjectView, auth.PermAPIKeyManage), 403, msgNoKeyManage},
			{"permissions the caller lacks", fred,
				tenantKeyBody("k", auth.PermProjectView, auth.PermTrashPurge, auth.PermTenantManage), 403,
				"Cannot assign permissions you do not have: trash:purge, tenant:manage"},
			{"api-key:manage by a caller lacking it too", fred, tenantKeyBody("k", auth.PermAPIKeyManage, auth.PermTrashPurge), 403,
				msgNoKeyManage},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("POST", "/api/api-keys", c.body, c.h), c.status, c.msg)
			})
		}
		if n := env.App.DB.Client.APIKey.Query().CountX(sys); n != 0 {
			t.Fatalf("%d keys stored by rejected requests", n)
		}
	})
}

func TestListAPIKeys(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		// The same user is also super_admin of Beta.
		beta, err := tenant.Bootstrap(sys, env.App.DB.Client, tenant.BootstrapInput{Tenant: "Beta", Email: acme.Email, Password: apptest.Password})
		if err != nil {
			t.Fatal(err)
		}
		token := env.Login(acme.Email)
		h := apptest.JWT(token, acme.TenantID, uuid.Nil)
		hBeta := apptest.JWT(token, beta.TenantID, uuid.Nil)
		env.CreateUser(acme.TenantID, "ana", auth.RoleAdmin)

		var mine []uuid.UUID
		for _, name := range []string{"first", "second", "third"} {
			mine = append(mine, postKey(t, env, h, tenantKeyBody(name, auth.PermProjectView)).ID)
		}
		betaKey := postKey(t, env, hBeta, tenantKeyBody("beta", auth.PermProjectView))
		postKey(t, env, session(env, "ana", acme.TenantID), tenantKeyBody("ana's", auth.PermProjectView))

		list := func(t *testing.T, h apptest.Headers, query string) ([]uuid.UUID, pageMeta) {
			t.Helper()
			res := env.Do("GET", "/api/api-keys"+query, nil, h)
			requireStatus(t, res, 200, "list keys"+query)
			requireMembers(t, res.Body, []string{"data", "meta"})
			var out struct {
				Data []json.RawMessage `json:"data"`
				Meta json.RawMessage   `json:"meta"`
			}
			res.JSON(t, &out)
			if out.Data == nil {
				t.Fatalf("data is not an array: %s", res.Body)
			}
			requireMembers(t, out.Meta, []string{"limit", "page", "total", "totalPages"})
			var meta pageMeta
			_ = json.Unmarshal(out.Meta, &meta)
			ids := []uuid.UUID{}
			for _, raw := range out.Data {
				requireMembers(t, raw, apiKeyFields) // never plaintextKey
				var k apiKeyBody
				_ = json.Unmarshal(raw, &k)
				if k.UserID != acme.UserID {
					t.Fatalf("another user's key listed: %s", raw)
				}
				ids = append(ids, k.ID)
			}
			return ids, meta
		}
		newestFirst := []uuid.UUID{mine[2], mine[1], mine[0]}
		check := func(t *testing.T, query string, ids []uuid.UUID, meta pageMeta) {
			t.Helper()
			gotIDs, gotMeta := list(t, h, query)
			if !slices.Equal(gotIDs, ids) || gotMeta != meta {
				t.Fatalf("list%s = %v %+v, want %v %+v", query, gotIDs, gotMeta, ids, meta)
			}
		}
		check(t, "", newestFirst, pageMeta{Page: 1, Limit: 25, Total: 3, TotalPages: 1})
		check(t, "?page=&per_page=", newestFirst, pageMeta{Page: 1, Limit: 25, Total: 3, TotalPages: 1})
		check(t, "?per_page=2", newestFirst[:2], pageMeta{Page: 1, Limit: 2, Total: 3, TotalPages: 2})
		check(t, "?page=2&per_page=2", newestFirst[2:], pageMeta{Page: 2, Limit: 2, Total: 3, TotalPages: 2})
		check(t, "?page=3&per_page=2", []uuid.UUID{}, pageMeta{Page: 3, Limit: 2, Total: 3, TotalPages: 2})
		check(t, "?per_page=100", newestFirst, pageMeta{Page: 1, Limit: 100, Total: 3, TotalPages: 1})

		// The same user in Beta sees only the Beta key.
		if ids, meta := list(t, hBeta, ""); !slices.Equal(ids, []uuid.UUID{betaKey.ID}) || meta.Total != 1 {
			t.Fatalf("beta list = %v %+v", ids, meta)
		}

		for query, msgs := range map[string][]string{
			"?per_page=101":          {"per_page must not be greater than 100"},
			"?page=0":                {"page must not be less than 1"},
			"?page=abc":              {"page must be an integer number"},
			"?per_page=0":            {"per_page must not be less than 1"},
			"?page=0&per_page=101":   {"page must not be less than 1", "per_page must not be greater than 100"},
			"?page=-1&per_page=x":    {"page must not be less than 1", "per_page must be an integer number"},
			"?page=1.5&per_page=100": {"page must be an integer number"},
		} {
			t.Run(query, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("GET", "/api/api-keys"+query, nil, h), 400, msgs)
			})
		}
	})
}

func TestGetAPIKey(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta, err := tenant.Bootstrap(sys, env.App.DB.Client, tenant.BootstrapInput{Tenant: "Beta", Email: acme.Email, Password: apptest.Password})
		if err != nil {
			t.Fatal(err)
		}
		token := env.Login(acme.Email)
		h := apptest.JWT(token, acme.TenantID, uuid.Nil)
		env.CreateUser(acme.TenantID, "ana", auth.RoleAdmin)
		ana := session(env, "ana", acme.TenantID)

		created := postKey(t, env, h, tenantKeyBody("reader", auth.PermProjectView))
		got := getKey(t, env, h, created.ID)
		if got.ID != created.ID || got.Name != "reader" || got.KeyPrefix != created.KeyPrefix || got.UserID != acme.UserID ||
			got.TenantID != acme.TenantID || got.ProjectID != nil || !got.IsActive ||
			!slices.Equal(got.Permissions, []string{auth.PermProjectView}) || got.ExpiresAt != nil || got.RevokedAt != nil ||
			got.PlaintextKey != "" || got.CreatedAt.Sub(created.CreatedAt).Abs() > time.Millisecond {
			t.Fatalf("key = %+v, created %+v", got, created)
		}
		if got.LastUsedAt != nil {
			t.Fatalf("lastUsedAt before any use = %v", got.LastUsedAt)
		}
		// lastUsedAt is set once the key is used.
		requireStatus(t, env.Do("GET", "/api/projects", nil, apptest.Key(created.PlaintextKey)), 200, "use the key")
		if used := getKey(t, env, h, created.ID); used.LastUsedAt == nil || time.Since(*used.LastUsedAt) > time.Minute {
			t.Fatalf("lastUsedAt after use = %v", used.LastUsedAt)
		}

		anaKey := postKey(t, env, ana, tenantKeyBody("ana's", auth.PermProjectView))
		betaKey := postKey(t, env, apptest.JWT(token, beta.TenantID, uuid.Nil), tenantKeyBody("beta", auth.PermProjectView))
		apptest.ExpectError(t, env.Do("GET", "/api/api-keys/"+anaKey.ID.String(), nil, h), 403, msgNotOwner)
		apptest.ExpectError(t, env.Do("GET", "/api/api-keys/"+created.ID.String(), nil, ana), 403, msgNotOwner)
		apptest.ExpectError(t, env.Do("GET", "/api/api-keys/"+betaKey.ID.String(), nil, h), 403, msgNotOwner)
		apptest.ExpectError(t, env.Do("GET", "/api/api-keys/"+uuid.NewString(), nil, h), 404, msgKeyNotFound)
		apptest.ExpectError(t, env.Do("GET", "/api/api-keys/abc", nil, h), 400, msgUUIDExpected)
		// The owner reads their Beta key in Beta.
		getKey(t, env, apptest.JWT(token, beta.TenantID, uuid.Nil), betaKey.ID)
	})
}
