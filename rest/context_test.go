package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/membership"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/project"
	"github.com/reten-io/reten/internal/viewer"
)

// Messages under test, spelled as SPEC.md spells them.
const (
	msgMissingTenant = "Missing required header: x-tenant-id"
	msgKeyInvalid    = "Invalid or revoked API key"
	msgKeyOwner      = "API key owner is inactive or not found"
	msgKeyMismatch   = "La API key pertenece a un proyecto distinto del que declara el header x-project-id."
	msgNeedProject   = "Falta el header obligatorio x-project-id."
	msgProjectUUID   = "El header x-project-id debe ser un UUID válido."
	msgNoProject     = "El proyecto no existe."
)

var sys = viewer.SystemContext(context.Background())

func rootAudience(t *testing.T, env *apptest.Env, projectID uuid.UUID) uuid.UUID {
	t.Helper()
	p, err := env.App.DB.Client.Project.Get(sys, projectID)
	if err != nil || p.RootAudienceID == nil {
		t.Fatalf("project %s has no root audience: %v", projectID, err)
	}
	return *p.RootAudienceID
}

func secondProject(t *testing.T, env *apptest.Env, tenantID uuid.UUID, name string) *ent.Project {
	t.Helper()
	p, err := project.Create(sys, env.App.DB.Client, tenantID, name, false, uuid.Nil)
	if err != nil {
		t.Fatalf("create project: %v", err)
	}
	return p
}

func TestCredentialErrors(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		token := env.Login(acme.Email)
		tid := acme.TenantID.String()
		cases := []struct {
			name   string
			h      apptest.Headers
			status int
			msg    string
		}{
			{"nothing", nil, 400, msgMissingTenant},
			{"tenant header without credentials", apptest.Headers{"x-tenant-id": tid}, 401, "Unauthorized"},
			{"bearer without tenant header", apptest.Headers{"Authorization": "Bearer " + token}, 400, msgMissingTenant},
			{"invalid bearer", apptest.Headers{"Authorization": "Bearer nope", "x-tenant-id": tid}, 401, "Unauthorized"},
			{"tenant header not a uuid", apptest.Headers{"Authorization": "Bearer " + token, "x-tenant-id": "acme"}, 400, "The x-tenant-id header must be a valid UUID"},
			{"tenant the user is not in", apptest.JWT(token, beta.TenantID, uuid.Nil), 403, "You are not a member of this tenant"},
			{"x-api-key without the prefix counts as no key", apptest.Headers{"x-api-key": "abc123"}, 400, msgMissingTenant},
			{"prefix-less key with tenant header", apptest.Headers{"x-api-key": "abc123", "x-tenant-id": tid}, 401, "Unauthorized"},
			{"unknown key", apptest.Key("svc_sk_doesnotexist"), 401, msgKeyInvalid},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("GET", "/api/projects", nil, c.h), c.status, c.msg)
			})
		}
	})
}

func TestAPIKeyAuthentication(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		c := env.App.DB.Client
		valid, key := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermProjectView)

		res := env.Do("GET", "/api/projects", nil, apptest.Key(valid))
		if res.Status != 200 {
			t.Fatalf("valid key: %d %s", res.Status, res.Body)
		}
		// lastUsedAt is stamped on use, at most once a minute.
		used, err := c.APIKey.Get(sys, key.ID)
		if err != nil || used.LastUsedAt == nil {
			t.Fatalf("lastUsedAt not set: %v", err)
		}
		env.Do("GET", "/api/projects", nil, apptest.Key(valid))
		again, _ := c.APIKey.Get(sys, key.ID)
		if !again.LastUsedAt.Equal(*used.LastUsedAt) {
			t.Fatalf("lastUsedAt rewritten within a minute: %v -> %v", used.LastUsedAt, again.LastUsedAt)
		}

		// The key's permission list bounds it: project:update is not in it.
		apptest.ExpectError(t, env.Do("PATCH", "/api/projects/"+acme.ProjectID.String(), map[string]string{"name": "X"}, apptest.Key(valid)),
			403, "Required permissions: project:update")

		// Effective permissions are key ∩ owner: a viewer's key holding project:update cannot use it.
		viewerUser := env.CreateUser(acme.TenantID, "vera", auth.RoleViewer)
		narrowed, _ := env.CreateKey(acme.TenantID, viewerUser.ID, uuid.Nil, auth.PermProjectView, auth.PermProjectUpdate)
		apptest.ExpectError(t, env.Do("PATCH", "/api/projects/"+acme.ProjectID.String(), map[string]string{"name": "X"}, apptest.Key(narrowed)),
			403, "Required permissions: project:update")

		// Revoked, inactive and expired keys.
		revoked, k := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermProjectView)
		if err := c.APIKey.UpdateOne(k).SetIsActive(false).SetRevokedAt(time.Now()).Exec(sys); err != nil {
			t.Fatal(err)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/projects", nil, apptest.Key(revoked)), 401, msgKeyInvalid)
		expired, k := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermProjectView)
		if err := c.APIKey.UpdateOne(k).SetExpiresAt(time.Now().Add(-time.Second)).Exec(sys); err != nil {
			t.Fatal(err)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/projects", nil, apptest.Key(expired)), 401, msgKeyInvalid)

		// The owner's state is read on every request.
		owner := env.CreateUser(acme.TenantID, "omar", auth.RoleAdmin)
		ownerKey, _ := env.CreateKey(acme.TenantID, owner.ID, uuid.Nil, auth.PermProjectView)
		if res := env.Do("GET", "/api/projects", nil, apptest.Key(ownerKey)); res.Status != 200 {
			t.Fatalf("owner key: %d %s", res.Status, res.Body)
		}
		if _, err := c.Membership.Delete().Where(membership.UserID(owner.ID)).Exec(sys); err != nil {
			t.Fatal(err)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/projects", nil, apptest.Key(ownerKey)), 401, msgKeyOwner)
		inactive := env.CreateUser(acme.TenantID, "ines", auth.RoleAdmin)
		inactiveKey, _ := env.CreateKey(acme.TenantID, inactive.ID, uuid.Nil, auth.PermProjectView)
		if err := c.User.UpdateOne(inactive).SetIsActive(false).Exec(sys); err != nil {
			t.Fatal(err)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/projects", nil, apptest.Key(inactiveKey)), 401, msgKeyOwner)
	})
}

func TestProjectContext(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		token := env.Login(acme.Email)
		root := rootAudience(t, env, acme.ProjectID)
		path := "/api/audience-criterias/" + root.String()
		jwt := apptest.JWT(token, acme.TenantID, uuid.Nil)
		other := secondProject(t, env, acme.TenantID, "Ventas")

		tenantKey, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermAudienceView)
		projectKey, _ := env.CreateKey(acme.TenantID, acme.UserID, acme.ProjectID, auth.PermAudienceView)
		weakKey, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermProjectView)

		cases := []struct {
			name   string
			h      apptest.Headers
			status int
			msg    string
		}{
			{"JWT without x-project-id", jwt, 400, msgNeedProject},
			{"JWT with an empty x-project-id", jwt.With("x-project-id", " "), 400, msgNeedProject},
			{"JWT with a non-uuid x-project-id", jwt.With("x-project-id", "main"), 400, msgProjectUUID},
			{"JWT with an unknown project", jwt.With("x-project-id", uuid.NewString()), 404, msgNoProject},
			{"JWT with another tenant's project", jwt.With("x-project-id", beta.ProjectID.String()), 404, msgNoProject},
			{"tenant key without x-project-id", apptest.Key(tenantKey), 400, msgNeedProject},
			{"tenant key with a non-uuid x-project-id", apptest.Key(tenantKey).With("x-project-id", "x"), 400, msgProjectUUID},
			{"project key naming another project", apptest.Key(projectKey).With("x-project-id", other.ID.String()), 403, msgKeyMismatch},
			{"project key naming a non-uuid", apptest.Key(projectKey).With("x-project-id", "x"), 403, msgKeyMismatch},
			// Project check first, then permissions.
			{"missing permission but missing project", apptest.Key(weakKey), 400, msgNeedProject},
			{"missing permission", apptest.Key(weakKey).With("x-project-id", acme.ProjectID.String()), 403, "Required permissions: audience-criteria:view"},
			{"audience of another project", jwt.With("x-project-id", other.ID.String()), 404, "Audience criteria not found"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("GET", path, nil, c.h), c.status, c.msg)
			})
		}

		for name, h := range map[string]apptest.Headers{
			"JWT with its project":             jwt.With("x-project-id", acme.ProjectID.String()),
			"tenant key with its project":      apptest.Key(tenantKey).With("x-project-id", acme.ProjectID.String()),
			"project key without the header":   apptest.Key(projectKey),
			"project key with an empty header": apptest.Key(projectKey).With("x-project-id", ""),
			"project key naming its project":   apptest.Key(projectKey).With("x-project-id", acme.ProjectID.String()),
		} {
			t.Run(name, func(t *testing.T) {
				res := env.Do("GET", path, nil, h)
				if res.Status != 200 {
					t.Fatalf("%d %s", res.Status, res.Body)
				}
				got := res.Map(t)
				if got["id"] != root.String() || got["projectId"] != acme.ProjectID.String() || got["isRoot"] != true ||
					got["name"] != project.RootAudienceName || got["description"] != nil || got["isActive"] != true {
					t.Fatalf("root audience = %s", res.Body)
				}
				if qb, ok := got["queryBlocks"].([]any); !ok || len(qb) != 0 {
					t.Fatalf("queryBlocks = %v", got["queryBlocks"])
				}
				if cs, ok := got["compositions"].([]any); !ok || len(cs) != 0 {
					t.Fatalf("compositions = %v", got["compositions"])
				}
			})
		}

		// Tenant-level routes ignore x-project-id entirely.
		if res := env.Do("GET", "/api/projects", nil, jwt.With("x-project-id", "not-a-uuid")); res.Status != 200 {
			t.Fatalf("tenant-level route with a bad x-project-id: %d %s", res.Status, res.Body)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/audience-criterias/abc", nil, jwt.With("x-project-id", acme.ProjectID.String())),
			400, "Validation failed (uuid is expected)")
	})
}

func TestEnvelopeForUnknownRoutesAndLargeBodies(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		apptest.ExpectError(t, env.Do("GET", "/api/nope", nil, nil), 404, "Cannot GET /api/nope")
		apptest.ExpectError(t, env.Do("DELETE", "/api/projects", nil, nil), 404, "Cannot DELETE /api/projects")
		big := `{"identifier":"` + strings.Repeat("a", 2<<20) + `"}`
		apptest.ExpectError(t, env.Do("POST", "/api/auth/login", big, nil), http.StatusRequestEntityTooLarge, "Request body is too large")
		res := env.Do("GET", "/healthz", nil, nil)
		if res.Status != 200 || string(res.Body) != "{\"status\":\"ok\"}\n" {
			t.Fatalf("healthz: %d %q", res.Status, res.Body)
		}
		res = env.Do("GET", "/readyz", nil, nil)
		if res.Status != 200 || string(res.Body) != "{\"status\":\"ok\",\"database\":\"ok\"}\n" {
			t.Fatalf("readyz: %d %q", res.Status, res.Body)
		}
		if res.Header.Get("X-Request-Id") == "" {
			t.Fatal("no X-Request-Id header")
		}
		res = env.Do("GET", "/metrics", nil, nil)
		if res.Status != 200 || !strings.Contains(string(res.Body), `reten_http_requests_total{method="GET",route="/healthz",status="200"} 1`) ||
			!strings.Contains(string(res.Body), `route="unmatched"`) || strings.Contains(string(res.Body), `route="/api/nope"`) {
			t.Fatalf("metrics: %d\n%s", res.Status, res.Body)
		}
		// readyz reports an unreachable database.
		if err := env.App.DB.SQL.Close(); err != nil {
			t.Fatal(err)
		}
		res = env.Do("GET", "/readyz", nil, nil)
		if res.Status != 503 || string(res.Body) != "{\"status\":\"unavailable\",\"database\":\"unreachable\"}\n" {
			t.Fatalf("readyz with the database down: %d %q", res.Status, res.Body)
		}
	})
}
