package rest_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/audience"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/tenant"
)

func TestMyTenants(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		// The same user also belongs to Beta.
		beta, err := tenant.Bootstrap(sys, env.App.DB.Client, tenant.BootstrapInput{Tenant: "Beta", Email: acme.Email, Password: apptest.Password})
		if err != nil {
			t.Fatal(err)
		}
		env.Bootstrap("Gamma") // not the user's

		res := env.Do("GET", "/api/tenant/mine", nil, apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil))
		if res.Status != 200 {
			t.Fatalf("%d %s", res.Status, res.Body)
		}
		var got []struct {
			ID        uuid.UUID `json:"id"`
			Name      string    `json:"name"`
			TimeZone  string    `json:"timeZone"`
			DayCutoff string    `json:"dayCutoff"`
			IsActive  bool      `json:"isActive"`
			CreatedAt time.Time `json:"createdAt"`
		}
		res.JSON(t, &got)
		if len(got) != 2 || got[0].ID != acme.TenantID || got[0].Name != "Acme" || got[1].ID != beta.TenantID ||
			got[1].Name != "Beta" || got[0].TimeZone != "UTC" || got[0].DayCutoff != "23:59" || !got[0].IsActive ||
			got[0].CreatedAt.IsZero() {
			t.Fatalf("tenants = %s", res.Body)
		}

		// An API key sees only its own tenant.
		key, _ := env.CreateKey(beta.TenantID, acme.UserID, uuid.Nil, auth.PermProjectView)
		res = env.Do("GET", "/api/tenant/mine", nil, apptest.Key(key))
		res.JSON(t, &got)
		if res.Status != 200 || len(got) != 1 || got[0].ID != beta.TenantID {
			t.Fatalf("key tenants: %d %s", res.Status, res.Body)
		}
	})
}

func TestPlaygroundIsServed(t *testing.T) {
	env := apptest.New(t, "sqlite")
	res := env.Do("GET", "/playground/", nil, nil)
	if res.Status != 200 || res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("playground: %d %q", res.Status, res.Header.Get("Content-Type"))
	}
}

func TestListProjects(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		env.Bootstrap("Beta")
		ventas := secondProject(t, env, acme.TenantID, "Ventas")
		res := env.Do("GET", "/api/projects", nil, apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil))
		if res.Status != 200 {
			t.Fatalf("%d %s", res.Status, res.Body)
		}
		var got []map[string]any
		res.JSON(t, &got)
		want := []map[string]any{
			{"id": acme.ProjectID.String(), "name": "Principal", "rootAudienceId": rootAudience(t, env, acme.ProjectID).String(), "isMain": true},
			{"id": ventas.ID.String(), "name": "Ventas", "rootAudienceId": ventas.RootAudienceID.String(), "isMain": false},
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Fatalf("projects = %s\nwant %s", g, w)
		}
		// Every project has exactly one root audience, in that project.
		for _, p := range []uuid.UUID{acme.ProjectID, ventas.ID} {
			n, err := env.App.DB.Client.Audience.Query().Where(audience.ProjectID(p), audience.IsRoot(true)).Count(sys)
			if err != nil || n != 1 {
				t.Fatalf("project %s root audiences = %d (%v)", p, n, err)
			}
		}
	})
}

func TestRenameProject(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		ventas := secondProject(t, env, acme.TenantID, "Ventas")
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		path := "/api/projects/" + acme.ProjectID.String()

		res := env.Do("PATCH", path, map[string]string{"name": "  Retail  "}, h)
		if res.Status != 200 {
			t.Fatalf("%d %s", res.Status, res.Body)
		}
		var got projectBody
		res.JSON(t, &got)
		if got.ID != acme.ProjectID || got.Name != "Retail" || !got.IsMain || got.RootAudienceID == nil ||
			*got.RootAudienceID != rootAudience(t, env, acme.ProjectID) {
			t.Fatalf("renamed project = %s", res.Body)
		}
		// A project may change its own casing.
		if res := env.Do("PATCH", "/api/projects/"+ventas.ID.String(), map[string]string{"name": "VENTAS"}, h); res.Status != 200 {
			t.Fatalf("own casing: %d %s", res.Status, res.Body)
		}
		// 255 characters are fine; 256 are not (counted as characters, not bytes).
		if res := env.Do("PATCH", path, map[string]string{"name": strings.Repeat("ñ", 255)}, h); res.Status != 200 {
			t.Fatalf("255 characters: %d %s", res.Status, res.Body)
		}

		cases := []struct {
			name   string
			path   string
			body   any
			status int
			msg    any
		}{
			{"missing name", path, map[string]any{}, 400, []string{"El nombre del proyecto es obligatorio."}},
			{"empty name", path, map[string]any{"name": ""}, 400, []string{"El nombre del proyecto es obligatorio."}},
			{"blank name", path, map[string]any{"name": "   "}, 400, []string{"El nombre del proyecto es obligatorio."}},
			{"null name", path, map[string]any{"name": nil}, 400, []string{"El nombre del proyecto es obligatorio."}},
			{"name not a string", path, map[string]any{"name": 5}, 400, []string{"El nombre del proyecto debe ser texto."}},
			{"name too long", path, map[string]any{"name": strings.Repeat("a", 256)}, 400, []string{"El nombre del proyecto no puede superar los 255 caracteres."}},
			{"isMain", path, map[string]any{"name": "X", "isMain": false}, 400, []string{"property isMain should not exist"}},
			{"two unknown fields", path, map[string]any{"name": "X", "rootAudienceId": "y", "isMain": true}, 400,
				[]string{"property isMain should not exist", "property rootAudienceId should not exist"}},
			{"id not a uuid", "/api/projects/123", map[string]any{"name": "X"}, 400, "Validation failed (uuid is expected)"},
			{"unknown id", "/api/projects/" + uuid.NewString(), map[string]any{"name": "X"}, 404, "El proyecto no existe."},
			{"another tenant's project", "/api/projects/" + beta.ProjectID.String(), map[string]any{"name": "X"}, 404, "El proyecto no existe."},
			{"duplicate, other casing", path, map[string]any{"name": "ventas"}, 409, `Ya existe un proyecto con el nombre "ventas".`},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("PATCH", c.path, c.body, h), c.status, c.msg)
			})
		}
		p, err := env.App.DB.Client.Project.Get(sys, beta.ProjectID)
		if err != nil || p.Name != "Principal" {
			t.Fatalf("another tenant's project changed: %v %v", p, err)
		}

		// Permissions: a viewer may list but not rename.
		env.CreateUser(acme.TenantID, "vicky", auth.RoleViewer)
		vh := apptest.JWT(env.Login("vicky"), acme.TenantID, uuid.Nil)
		if res := env.Do("GET", "/api/projects", nil, vh); res.Status != 200 {
			t.Fatalf("viewer list: %d %s", res.Status, res.Body)
		}
		// Permission comes before body validation.
		apptest.ExpectError(t, env.Do("PATCH", path, map[string]any{"isMain": true}, vh), 403, "Required permissions: project:update")
	})
}

type projectBody struct {
	ID             uuid.UUID  `json:"id"`
	Name           string     `json:"name"`
	RootAudienceID *uuid.UUID `json:"rootAudienceId"`
	IsMain         bool       `json:"isMain"`
}
