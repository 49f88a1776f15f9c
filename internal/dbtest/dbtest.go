// Package dbtest opens a migrated database for the service-level tests of
// internal/ packages: embedded SQLite always and PostgreSQL too when
// TEST_DATABASE_URL is set, each test in a schema of its own, opened and
// migrated as the service does (internal/database). It links ent and the
// services it is given only, never the adapters (rest, graph) or
// internal/app, so that a service's own tests do not pay for them; the
// contract tests through the real router use internal/apptest.
package dbtest

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/database"
	"github.com/reten-io/reten/internal/project"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/tenant"
	"github.com/reten-io/reten/internal/testpg"
	"github.com/reten-io/reten/internal/viewer"
)

// DB is a fresh, migrated database of one kind ("sqlite" or "postgres").
type DB struct {
	*database.DB
	Kind string
}

// Each runs fn once per available database: "sqlite" always, "postgres"
// when TEST_DATABASE_URL is set (make test and .ci/run set it).
func Each(t *testing.T, fn func(t *testing.T, db *DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, Open(t, "sqlite")) })
	if testpg.URL() != "" {
		t.Run("postgres", func(t *testing.T) { fn(t, Open(t, "postgres")) })
	}
}

// Open opens and migrates a fresh database of kind; it is closed (and its
// PostgreSQL schema dropped) when the test ends.
func Open(t testing.TB, kind string) *DB {
	t.Helper()
	db, err := database.Open(URL(t, kind), database.Defaults)
	if err != nil {
		t.Fatalf("open %s: %v", kind, err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if _, err := db.Migrate(context.Background()); err != nil {
		t.Fatalf("migrate %s: %v", kind, err)
	}
	return &DB{DB: db, Kind: kind}
}

// URL returns the URL of a fresh, empty database of kind for the test: a
// file in the test's temporary directory, or a schema of its own on
// TEST_DATABASE_URL's PostgreSQL.
func URL(t testing.TB, kind string) string {
	t.Helper()
	switch kind {
	case "sqlite":
		return "sqlite://" + filepath.Join(t.TempDir(), "reten.db")
	case "postgres":
		return PostgresSchema(t)
	}
	t.Fatalf("unknown database kind %q", kind)
	return ""
}

// PostgresSchema creates a schema of its own for the test on
// TEST_DATABASE_URL's database and returns a URL whose search_path selects
// it; the schema is dropped at cleanup.
func PostgresSchema(t testing.TB) string {
	t.Helper()
	_, dsn := testpg.Create(t, "t_")
	return dsn
}

// Tenant is a bootstrapped tenant: its main project and its super_admin.
type Tenant struct {
	tenant.BootstrapResult
}

// Tenant bootstraps a tenant called name (letters and digits) with its main
// project and a super_admin (<name>-admin@example.test).
func (db *DB) Tenant(t testing.TB, name string) Tenant {
	t.Helper()
	res, err := tenant.Bootstrap(context.Background(), db.Client, tenant.BootstrapInput{
		Tenant: name, Email: strings.ToLower(name) + "-admin@example.test", Password: "correct-horse-9",
	})
	if err != nil {
		t.Fatalf("bootstrap %s: %v", name, err)
	}
	return Tenant{BootstrapResult: res}
}

// As returns a context acting in the tenant's main project as its
// super_admin user holding exactly permissions, as the route guard would
// leave it for a caller with those permissions.
func (tn Tenant) As(permissions ...string) context.Context {
	return tn.InProject(tn.ProjectID, permissions...)
}

// InProject is As in project (uuid.Nil: no active project). The context is
// admitted (tenancy.Admit) to a line of that scope that needs no
// permission, as a guard leaves it for a caller its route let through:
// service tests exercise the services' rules, a line's own checks are
// tenancy.Enter's (and the authorization test's, internal/app).
func (tn Tenant) InProject(project uuid.UUID, permissions ...string) context.Context {
	v := &viewer.Viewer{UserID: tn.UserID, TenantID: tn.TenantID, ProjectID: project, Permissions: sorted(permissions)}
	line := tenancy.Entry{Method: "TEST", Path: "/service", Scope: tenancy.ProjectScoped}
	if project == uuid.Nil {
		line.Scope = tenancy.ProjectOptional
	}
	ctx, err := tenancy.Admit(context.Background(), v, line)
	if err != nil {
		panic(err) // a line without permission admits any viewer of a tenant
	}
	return ctx
}

// Admin returns a context acting in the tenant's main project with every
// permission (a super_admin's).
func (tn Tenant) Admin() context.Context {
	return tn.As(auth.PermissionsOf([]string{auth.RoleSuperAdmin})...)
}

func sorted(permissions []string) []string {
	out := slices.Clone(permissions)
	slices.Sort(out)
	return slices.Compact(out)
}

// Project adds a (not main) project called name to the tenant.
func (db *DB) Project(t testing.TB, tn Tenant, name string) uuid.UUID {
	t.Helper()
	p, err := project.Create(viewer.SystemContext(context.Background()), db.Client, tn.TenantID, name, false, tn.UserID)
	if err != nil {
		t.Fatalf("project %s: %v", name, err)
	}
	return p.ID
}
