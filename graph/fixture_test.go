package graph_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/project"
	"github.com/reten-io/reten/internal/viewer"
)

func sysCtx() context.Context { return viewer.SystemContext(context.Background()) }

// newProject adds a (non-main) project with its root audience to tenantID.
func newProject(t testing.TB, env *apptest.Env, tenantID uuid.UUID, name string) uuid.UUID {
	t.Helper()
	p, err := project.Create(sysCtx(), env.App.DB.Client, tenantID, name, false, uuid.Nil)
	if err != nil {
		t.Fatalf("create project %q: %v", name, err)
	}
	return p.ID
}

// rootAudience returns the root audience id of a project.
func rootAudience(t testing.TB, env *apptest.Env, projectID uuid.UUID) uuid.UUID {
	t.Helper()
	p, err := env.App.DB.Client.Project.Get(sysCtx(), projectID)
	if err != nil {
		t.Fatalf("load project: %v", err)
	}
	if p.RootAudienceID == nil {
		t.Fatalf("project %s has no root audience", projectID)
	}
	return *p.RootAudienceID
}

// projectName reads a project's name from the database.
func projectName(t testing.TB, env *apptest.Env, projectID uuid.UUID) string {
	t.Helper()
	p, err := env.App.DB.Client.Project.Get(sysCtx(), projectID)
	if err != nil {
		t.Fatalf("load project: %v", err)
	}
	return p.Name
}

func addMembership(t testing.TB, env *apptest.Env, tenantID, userID uuid.UUID, roles ...string) {
	t.Helper()
	if err := env.App.DB.Client.Membership.Create().SetTenantID(tenantID).SetUserID(userID).
		SetRoles(roles).Exec(sysCtx()); err != nil {
		t.Fatalf("add membership: %v", err)
	}
}

// eachCounting runs fn on SQLite, and on PostgreSQL when TEST_DATABASE_URL
// is set, with an app whose ent client counts the SQL statements it runs.
func eachCounting(t *testing.T, fn func(t *testing.T, env *apptest.Env, statements *atomic.Int64)) {
	kinds := []string{"sqlite"}
	if os.Getenv("TEST_DATABASE_URL") != "" {
		kinds = append(kinds, "postgres")
	}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			var statements atomic.Int64
			env := apptest.NewWith(t, kind, func(c *app.Config) {
				c.CredentialTTL = -1 // every request checks its credential: the counts are the handler's
				c.EntOptions = []ent.Option{ent.Debug(), ent.Log(func(args ...any) {
					// dialect.Debug logs one line per statement ("... query=... args=...")
					// besides transaction begin/commit lines.
					if strings.Contains(fmt.Sprint(args...), " query=") {
						statements.Add(1)
					}
				})}
			})
			fn(t, env, &statements)
		})
	}
}

// trashOf returns the id of the trash record of recordID ("" when none).
func trashOf(t *testing.T, env *apptest.Env, h apptest.Headers, recordID, kind string) string {
	t.Helper()
	data := gqlOK(t, env, h, `{ trashRecords(first: 100) { edges { node { id kind recordID } } } }`, nil)
	for _, e := range get(t, data, "trashRecords", "edges").([]any) {
		if str(t, e, "node", "recordID") == recordID {
			if got := str(t, e, "node", "kind"); got != kind {
				t.Fatalf("trash kind = %s, want %s", got, kind)
			}
			return str(t, e, "node", "id")
		}
	}
	return ""
}

// orgSetup is Acme's admin, a viewer of Acme and Beta's admin.
type orgSetup struct {
	acme, beta     apptest.Tenant
	h, viewer, bh  apptest.Headers
	viewerUsername string
}

func newOrgSetup(t *testing.T, env *apptest.Env) orgSetup {
	t.Helper()
	s := orgSetup{acme: env.Bootstrap("Acme"), beta: env.Bootstrap("Beta"), viewerUsername: "vera"}
	env.CreateUser(s.acme.TenantID, s.viewerUsername, auth.RoleViewer)
	s.h = apptest.JWT(env.Login(s.acme.Email), s.acme.TenantID, uuid.Nil)
	s.viewer = apptest.JWT(env.Login(s.viewerUsername), s.acme.TenantID, uuid.Nil)
	s.bh = apptest.JWT(env.Login(s.beta.Email), s.beta.TenantID, uuid.Nil)
	return s
}

// each runs fn on every database (apptest.Each) with the fixture setup
// builds there.
func each[S any](t *testing.T, setup func(*testing.T, *apptest.Env) S, fn func(t *testing.T, env *apptest.Env, s S)) {
	t.Helper()
	apptest.Each(t, func(t *testing.T, env *apptest.Env) { fn(t, env, setup(t, env)) })
}

// eachAcme runs fn on every database with Acme bootstrapped; h holds its
// super_admin's JWT without a project.
func eachAcme(t *testing.T, fn func(t *testing.T, env *apptest.Env, acme apptest.Tenant, h apptest.Headers)) {
	t.Helper()
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		fn(t, env, acme, apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil))
	})
}
