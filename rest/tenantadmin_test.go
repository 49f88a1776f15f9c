package rest_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/audience"
	"github.com/reten-io/reten/ent/membership"
	"github.com/reten-io/reten/ent/project"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/tenant"
)

const (
	msgTenantNotFound   = "Tenant not found"
	msgTenantName       = "name should not be empty"
	msgTimeZone         = "time_zone must be a valid IANA time zone"
	msgDayCutoff        = "day_cutoff must be a time of day in HH:MM format"
	msgNeedTenantManage = "Required permissions: tenant:manage"
	msgTenantKeys       = "This operation needs a user session; API keys cannot administer tenants"
	msgProjectName      = "El nombre del proyecto es obligatorio."
)

var tenantFields = []string{"createdAt", "dayCutoff", "id", "isActive", "name", "timeZone", "updatedAt"}

type tenantBody struct {
	ID        uuid.UUID `json:"id"`
	Name      string    `json:"name"`
	TimeZone  string    `json:"timeZone"`
	DayCutoff string    `json:"dayCutoff"`
	IsActive  bool      `json:"isActive"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

func decodeTenant(t *testing.T, res *apptest.Response, status int, what string) tenantBody {
	t.Helper()
	requireStatus(t, res, status, what)
	requireMembers(t, res.Body, tenantFields)
	var tb tenantBody
	res.JSON(t, &tb)
	return tb
}

// tenantList decodes an array of tenants, checking each shape.
func tenantList(t *testing.T, res *apptest.Response, what string) []tenantBody {
	t.Helper()
	requireStatus(t, res, 200, what)
	var raws []json.RawMessage
	res.JSON(t, &raws)
	if raws == nil {
		t.Fatalf("%s: not an array: %s", what, res.Body)
	}
	out := []tenantBody{}
	for _, raw := range raws {
		requireMembers(t, raw, tenantFields)
		var tb tenantBody
		_ = json.Unmarshal(raw, &tb)
		out = append(out, tb)
	}
	return out
}

func tenantNames(ts []tenantBody) []string {
	out := []string{}
	for _, tb := range ts {
		out = append(out, tb.Name)
	}
	return out
}

func TestListTenants(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		// The Acme super_admin also administers Delta and is a mere admin of Beta.
		delta, err := tenant.Bootstrap(sys, env.App.DB.Client, tenant.BootstrapInput{Tenant: "Delta", Email: acme.Email, Password: apptest.Password})
		if err != nil {
			t.Fatal(err)
		}
		env.App.DB.Client.Membership.Create().SetTenantID(beta.TenantID).SetUserID(acme.UserID).SetRoles([]string{auth.RoleAdmin}).ExecX(sys)
		h := session(env, acme.Email, acme.TenantID)

		ts := tenantList(t, env.Do("GET", "/api/tenants", nil, h), "list tenants")
		if !slices.Equal(tenantNames(ts), []string{"Acme", "Delta"}) || ts[0].ID != acme.TenantID || ts[1].ID != delta.TenantID ||
			ts[0].TimeZone != "UTC" || ts[0].DayCutoff != "23:59" || !ts[0].IsActive || ts[0].CreatedAt.IsZero() || ts[0].UpdatedAt.IsZero() {
			t.Fatalf("tenants = %+v", ts)
		}
		// The same answer from Delta's context.
		if ts := tenantList(t, env.Do("GET", "/api/tenants", nil, session(env, acme.Email, delta.TenantID)), "from delta"); !slices.Equal(tenantNames(ts), []string{"Acme", "Delta"}) {
			t.Fatalf("tenants from delta = %v", tenantNames(ts))
		}
		// In Beta the caller is an admin: no tenant:manage there.
		apptest.ExpectError(t, env.Do("GET", "/api/tenants", nil, session(env, acme.Email, beta.TenantID)), 403, msgNeedTenantManage)
		env.CreateUser(acme.TenantID, "ana", auth.RoleAdmin)
		apptest.ExpectError(t, env.Do("GET", "/api/tenants", nil, session(env, "ana", acme.TenantID)), 403, msgNeedTenantManage)
		key, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermTenantManage)
		apptest.ExpectError(t, env.Do("GET", "/api/tenants", nil, apptest.Key(key)), 403, msgTenantKeys)
	})
}

func TestCreateTenant(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		env.Bootstrap("Beta")
		token := env.Login(acme.Email)
		h := apptest.JWT(token, acme.TenantID, uuid.Nil)

		zeta := decodeTenant(t, env.Do("POST", "/api/tenants", map[string]any{"name": "Zeta", "time_zone": "America/Santiago", "day_cutoff": "20:30"}, h),
			http.StatusCreated, "create zeta")
		if zeta.ID == uuid.Nil || zeta.Name != "Zeta" || zeta.TimeZone != "America/Santiago" || zeta.DayCutoff != "20:30" ||
			!zeta.IsActive || zeta.CreatedAt.IsZero() || zeta.UpdatedAt.IsZero() {
			t.Fatalf("zeta = %+v", zeta)
		}
		gamma := decodeTenant(t, env.Do("POST", "/api/tenants", map[string]any{"name": "Gamma"}, h), http.StatusCreated, "create gamma")
		if gamma.Name != "Gamma" || gamma.TimeZone != "UTC" || gamma.DayCutoff != "23:59" || !gamma.IsActive {
			t.Fatalf("gamma = %+v", gamma)
		}

		// The caller is super_admin of the new tenants.
		mine := tenantList(t, env.Do("GET", "/api/tenant/mine", nil, h), "mine")
		if !slices.Equal(tenantNames(mine), []string{"Acme", "Gamma", "Zeta"}) {
			t.Fatalf("mine = %v", tenantNames(mine))
		}
		if ts := tenantList(t, env.Do("GET", "/api/tenants", nil, h), "tenants"); !slices.Equal(tenantNames(ts), []string{"Acme", "Gamma", "Zeta"}) {
			t.Fatalf("tenants = %v", tenantNames(ts))
		}
		m := env.App.DB.Client.Membership.Query().Where(membership.TenantID(zeta.ID)).AllX(sys)
		if len(m) != 1 || m[0].UserID != acme.UserID || !slices.Equal(m[0].Roles, []string{auth.RoleSuperAdmin}) {
			t.Fatalf("zeta memberships = %+v", m)
		}

		// x-tenant-id of the new tenant works; it has one main project "Principal" with its root audience.
		zh := apptest.JWT(token, zeta.ID, uuid.Nil)
		res := env.Do("GET", "/api/projects", nil, zh)
		requireStatus(t, res, 200, "zeta projects")
		var ps []projectBody
		res.JSON(t, &ps)
		if len(ps) != 1 || ps[0].Name != "Principal" || !ps[0].IsMain || ps[0].RootAudienceID == nil {
			t.Fatalf("zeta projects = %s", res.Body)
		}
		res = env.Do("GET", "/api/audience-criterias/"+ps[0].RootAudienceID.String(), nil, zh.With("x-project-id", ps[0].ID.String()))
		requireStatus(t, res, 200, "zeta root audience")
		if a := res.Map(t); a["isRoot"] != true || a["projectId"] != ps[0].ID.String() {
			t.Fatalf("root audience = %s", res.Body)
		}
		// Zeta's users: the creator only.
		res = env.Do("GET", "/api/users", nil, zh)
		requireStatus(t, res, 200, "zeta users")
		var users struct {
			Data []userBody `json:"data"`
		}
		res.JSON(t, &users)
		if len(users.Data) != 1 || users.Data[0].ID != acme.UserID || !slices.Equal(users.Data[0].Roles, []string{auth.RoleSuperAdmin}) {
			t.Fatalf("zeta users = %s", res.Body)
		}

		key, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermTenantManage)
		env.CreateUser(acme.TenantID, "ana", auth.RoleAdmin)
		cases := []struct {
			name   string
			h      apptest.Headers
			body   any
			status int
			msg    any
		}{
			{"empty body", h, nil, 400, []string{msgTenantName}},
			{"blank name", h, map[string]any{"name": "  "}, 400, []string{msgTenantName}},
			{"unknown time zone", h, map[string]any{"name": "Omega", "time_zone": "Mars/Olympus"}, 400, []string{msgTimeZone}},
			{"empty time zone", h, map[string]any{"name": "Omega", "time_zone": ""}, 400, []string{msgTimeZone}},
			{"Local is not a zone", h, map[string]any{"name": "Omega", "time_zone": "Local"}, 400, []string{msgTimeZone}},
			{"time zone not a string", h, map[string]any{"name": "Omega", "time_zone": 3}, 400, []string{msgTimeZone}},
			{"cutoff out of range", h, map[string]any{"name": "Omega", "day_cutoff": "24:00"}, 400, []string{msgDayCutoff}},
			{"cutoff without leading zero", h, map[string]any{"name": "Omega", "day_cutoff": "9:30"}, 400, []string{msgDayCutoff}},
			{"cutoff with seconds", h, map[string]any{"name": "Omega", "day_cutoff": "20:30:00"}, 400, []string{msgDayCutoff}},
			{"every rule at once", h, map[string]any{"name": "", "time_zone": "Nowhere", "day_cutoff": "x"}, 400,
				[]string{msgTenantName, msgTimeZone, msgDayCutoff}},
			{"name too long", h, map[string]any{"name": strings.Repeat("n", 256)}, 400,
				[]string{"name must be shorter than or equal to 255 characters"}},
			{"name not a string", h, map[string]any{"name": 5}, 400, []string{"name must be a string"}},
			{"unknown property", h, map[string]any{"name": "Omega", "timeZone": "UTC"}, 400, []string{"property timeZone should not exist"}},
			{"name taken, other case", h, map[string]any{"name": "ACME"}, 409, `A tenant named "ACME" already exists`},
			{"name of a tenant the caller is not in", h, map[string]any{"name": "beta"}, 409, `A tenant named "beta" already exists`},
			{"name taken after trimming", h, map[string]any{"name": " zeta "}, 409, `A tenant named "zeta" already exists`},
			{"admin", session(env, "ana", acme.TenantID), map[string]any{"name": "Omega"}, 403, msgNeedTenantManage},
			{"API key with tenant:manage", apptest.Key(key), map[string]any{"name": "Omega"}, 403, msgTenantKeys},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("POST", "/api/tenants", c.body, c.h), c.status, c.msg)
			})
		}
		if n := env.App.DB.Client.Tenant.Query().CountX(sys); n != 4 {
			t.Fatalf("%d tenants, want 4 (Acme, Beta, Gamma, Zeta)", n)
		}
		// 255 characters are fine.
		decodeTenant(t, env.Do("POST", "/api/tenants", map[string]any{"name": strings.Repeat("ñ", 255)}, h), http.StatusCreated, "255 characters")
	})
}

func TestUpdateTenant(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		delta, err := tenant.Bootstrap(sys, env.App.DB.Client, tenant.BootstrapInput{Tenant: "Delta", Email: acme.Email, Password: apptest.Password})
		if err != nil {
			t.Fatal(err)
		}
		// The caller is an admin (not super_admin) of Epsilon.
		eps := env.Bootstrap("Epsilon")
		env.App.DB.Client.Membership.Create().SetTenantID(eps.TenantID).SetUserID(acme.UserID).SetRoles([]string{auth.RoleAdmin}).ExecX(sys)
		h := session(env, acme.Email, acme.TenantID)
		patch := func(id string, body any) *apptest.Response { return env.Do("PATCH", "/api/tenants/"+id, body, h) }

		got := decodeTenant(t, patch(acme.TenantID.String(), map[string]any{"time_zone": "America/Santiago", "day_cutoff": "20:30"}), 200, "update acme")
		if got.ID != acme.TenantID || got.Name != "Acme" || got.TimeZone != "America/Santiago" || got.DayCutoff != "20:30" || !got.IsActive {
			t.Fatalf("acme = %+v", got)
		}
		got = decodeTenant(t, patch(acme.TenantID.String(), map[string]any{"name": "Acme Corp"}), 200, "rename acme")
		if got.Name != "Acme Corp" || got.TimeZone != "America/Santiago" || got.DayCutoff != "20:30" {
			t.Fatalf("renamed acme = %+v", got)
		}
		// Own casing may change; an empty body changes nothing.
		decodeTenant(t, patch(acme.TenantID.String(), map[string]any{"name": "ACME CORP"}), 200, "own casing")
		if same := decodeTenant(t, patch(acme.TenantID.String(), map[string]any{}), 200, "empty body"); same.Name != "ACME CORP" ||
			same.TimeZone != "America/Santiago" {
			t.Fatalf("empty patch = %+v", same)
		}
		mine := tenantList(t, env.Do("GET", "/api/tenant/mine", nil, h), "mine")
		if mine[0].ID != acme.TenantID || mine[0].Name != "ACME CORP" || mine[0].TimeZone != "America/Santiago" || mine[0].DayCutoff != "20:30" {
			t.Fatalf("mine = %+v", mine)
		}
		// Another tenant the caller administers, from Acme's context.
		if d := decodeTenant(t, patch(delta.TenantID.String(), map[string]any{"time_zone": "Europe/Madrid"}), 200, "update delta"); d.TimeZone != "Europe/Madrid" {
			t.Fatalf("delta = %+v", d)
		}

		key, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermTenantManage)
		env.CreateUser(acme.TenantID, "ana", auth.RoleAdmin)
		cases := []struct {
			name   string
			h      apptest.Headers
			id     string
			body   any
			status int
			msg    any
		}{
			{"tenant the caller is not in", h, beta.TenantID.String(), map[string]any{"time_zone": "UTC"}, 404, msgTenantNotFound},
			{"tenant the caller is only admin of", h, eps.TenantID.String(), map[string]any{"time_zone": "UTC"}, 404, msgTenantNotFound},
			{"unknown tenant", h, uuid.NewString(), map[string]any{"time_zone": "UTC"}, 404, msgTenantNotFound},
			{"id not a uuid", h, "acme", map[string]any{"time_zone": "UTC"}, 400, msgUUIDExpected},
			{"invalid time zone", h, acme.TenantID.String(), map[string]any{"time_zone": "Mars/Olympus"}, 400, []string{msgTimeZone}},
			{"invalid cutoff", h, acme.TenantID.String(), map[string]any{"day_cutoff": "8pm"}, 400, []string{msgDayCutoff}},
			{"empty name", h, acme.TenantID.String(), map[string]any{"name": ""}, 400, []string{msgTenantName}},
			{"unknown property", h, acme.TenantID.String(), map[string]any{"isActive": false}, 400, []string{"property isActive should not exist"}},
			{"name taken by another tenant", h, acme.TenantID.String(), map[string]any{"name": "beta"}, 409, `A tenant named "beta" already exists`},
			{"admin", session(env, "ana", acme.TenantID), acme.TenantID.String(), map[string]any{"time_zone": "UTC"}, 403, msgNeedTenantManage},
			{"API key with tenant:manage", apptest.Key(key), acme.TenantID.String(), map[string]any{"time_zone": "UTC"}, 403, msgTenantKeys},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("PATCH", "/api/tenants/"+c.id, c.body, c.h), c.status, c.msg)
			})
		}
		for id, name := range map[uuid.UUID]string{beta.TenantID: "Beta", eps.TenantID: "Epsilon"} {
			if tn := env.App.DB.Client.Tenant.GetX(sys, id); tn.Name != name || tn.TimeZone != "UTC" {
				t.Fatalf("%s changed: %+v", name, tn)
			}
		}
		if tn := env.App.DB.Client.Tenant.GetX(sys, acme.TenantID); tn.Name != "ACME CORP" || tn.TimeZone != "America/Santiago" || tn.DayCutoff != "20:30" {
			t.Fatalf("acme after refused updates: %+v", tn)
		}
	})
}

func TestCreateProject(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		h := session(env, acme.Email, acme.TenantID)

		res := env.Do("POST", "/api/projects", map[string]any{"name": "  Ventas  "}, h)
		requireStatus(t, res, http.StatusCreated, "create project")
		requireMembers(t, res.Body, []string{"id", "isMain", "name", "rootAudienceId"})
		var p projectBody
		res.JSON(t, &p)
		if p.ID == uuid.Nil || p.Name != "Ventas" || p.IsMain || p.RootAudienceID == nil {
			t.Fatalf("project = %s", res.Body)
		}
		// Its root audience exists in the new project.
		res = env.Do("GET", "/api/audience-criterias/"+p.RootAudienceID.String(), nil, h.With("x-project-id", p.ID.String()))
		requireStatus(t, res, 200, "root audience")
		if a := res.Map(t); a["isRoot"] != true || a["projectId"] != p.ID.String() || a["id"] != p.RootAudienceID.String() {
			t.Fatalf("root audience = %s", res.Body)
		}
		if n := env.App.DB.Client.Audience.Query().Where(audience.ProjectID(p.ID), audience.IsRoot(true)).CountX(sys); n != 1 {
			t.Fatalf("%d root audiences", n)
		}
		row := env.App.DB.Client.Project.GetX(sys, p.ID)
		if row.TenantID != acme.TenantID {
			t.Fatalf("project tenant = %s", row.TenantID)
		}
		// Listed with the others, main first.
		res = env.Do("GET", "/api/projects", nil, h)
		var ps []projectBody
		res.JSON(t, &ps)
		if len(ps) != 2 || ps[0].ID != acme.ProjectID || ps[1].ID != p.ID {
			t.Fatalf("projects = %s", res.Body)
		}
		// Names are unique per tenant only.
		res = env.Do("POST", "/api/projects", map[string]any{"name": "Ventas"}, session(env, beta.Email, beta.TenantID))
		requireStatus(t, res, http.StatusCreated, "same name in beta")

		env.CreateUser(acme.TenantID, "vic", auth.RoleViewer)
		cases := []struct {
			name   string
			h      apptest.Headers
			body   any
			status int
			msg    any
		}{
			{"name taken, other case", h, map[string]any{"name": "ventas"}, 409, `Ya existe un proyecto con el nombre "ventas".`},
			{"main project's name", h, map[string]any{"name": " PRINCIPAL "}, 409, `Ya existe un proyecto con el nombre "PRINCIPAL".`},
			{"missing name", h, map[string]any{}, 400, []string{msgProjectName}},
			{"empty body", h, nil, 400, []string{msgProjectName}},
			{"blank name", h, map[string]any{"name": "   "}, 400, []string{msgProjectName}},
			{"name not a string", h, map[string]any{"name": 5}, 400, []string{"El nombre del proyecto debe ser texto."}},
			{"name too long", h, map[string]any{"name": strings.Repeat("a", 256)}, 400, []string{"El nombre del proyecto no puede superar los 255 caracteres."}},
			{"isMain", h, map[string]any{"name": "Otro", "isMain": true}, 400, []string{"property isMain should not exist"}},
			{"viewer", session(env, "vic", acme.TenantID), map[string]any{"name": "Otro"}, 403, "Required permissions: project:create"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("POST", "/api/projects", c.body, c.h), c.status, c.msg)
			})
		}
		if n := env.App.DB.Client.Project.Query().Where(project.TenantID(acme.TenantID)).CountX(sys); n != 2 {
			t.Fatalf("acme has %d projects, want 2", n)
		}

		// 255 characters are fine; a key holding project:create may create projects too.
		res = env.Do("POST", "/api/projects", map[string]any{"name": strings.Repeat("ñ", 255)}, h)
		requireStatus(t, res, http.StatusCreated, "255 characters")
		key, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermProjectCreate)
		res = env.Do("POST", "/api/projects", map[string]any{"name": "Por llave"}, apptest.Key(key))
		requireStatus(t, res, http.StatusCreated, "key creates a project")
		res.JSON(t, &p)
		if p.RootAudienceID == nil || rootAudience(t, env, p.ID) != *p.RootAudienceID {
			t.Fatalf("key-created project = %s", res.Body)
		}
	})
}
