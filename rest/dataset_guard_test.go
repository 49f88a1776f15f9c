package rest_test

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/demo"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// allowOwnLocation is a configuration hook whose allowlist names the
// service's own server (PostgreSQL) or the directory of its file (SQLite):
// the own database must stay refused whatever the setting says.
func allowOwnLocation(t *testing.T) func(*app.Config) {
	return func(c *app.Config) {
		own := filepath.Dir(strings.TrimPrefix(c.DatabaseURL, "sqlite://"))
		if c.Postgres() {
			u, err := url.Parse(c.DatabaseURL)
			if err != nil {
				t.Fatal(err)
			}
			own = u.Host
		}
		apptest.AllowDatasets(t, own)(c)
	}
}

// ownConnection is the service's own database as a tenant would name it.
func ownConnection(env *apptest.Env) map[string]any {
	if env.App.DB.Dialect == "postgres" {
		u, _ := url.Parse(env.App.Config.DatabaseURL)
		u.RawQuery = "sslmode=disable" // its search_path parameter would be refused first
		return map[string]any{"engine": "postgres", "connection": u.String(), "schema_name": "public"}
	}
	return map[string]any{"engine": "sqlite", "connection": strings.TrimPrefix(env.App.Config.DatabaseURL, "sqlite://")}
}

// usersCatalog names the service's users table as if it were the tenant's.
func usersCatalog() map[string]any {
	return catalogBody(qb.Catalog{Tables: []qb.Table{{Name: "users", Purpose: qb.PurposeOther, Columns: []qb.Column{
		{Name: "id", Type: qb.TypeString, IsIdentity: true}, {Name: "email", Type: qb.TypeString},
		{Name: "password_hash", Type: qb.TypeString}}}}})
}

// usersPreview selects every user's email and password hash.
func usersPreview() map[string]any {
	return map[string]any{"queryBlocks": []any{map[string]any{"order": 0, "setOperator": nil, "from": map[string]any{"table": "users"},
		"select": map[string]any{"items": []any{efColumnItem("users", "email"), efColumnItem("users", "password_hash")}}}}}
}

// TestHostedDatasetKeepsItsLocation reproduces the demo exploit: keeping
// the hosted connection while pointing the dataset at the service's
// schema, then reading users through a catalog that names them.
func TestHostedDatasetKeepsItsLocation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newEFFix(t, env)
		apptest.DemoDataset(t, env, f.acme.TenantID, demo.Options{Seed: 3, Commerces: 10, Products: 5, Events: 50, Transactions: 10})
		stored := efStatus(t, env.Do("GET", "/api/tenant-dataset", nil, f.th), 200)
		if stored["managed"] != true || stored["hasConnection"] != true {
			t.Fatalf("hosted dataset = %v", stored)
		}
		engine := stored["engine"].(string)

		moves := []map[string]any{
			{"engine": engine, "connection": ownConnection(env)["connection"]},
			{"engine": "bigquery", "bigquery_project": "acme-project", "bigquery_dataset": "analytics"},
		}
		if engine == dataset.EnginePostgres {
			moves = append(moves, map[string]any{"engine": engine, "schema_name": "public"}, map[string]any{"engine": engine, "schema_name": "pg_catalog"})
		} else {
			moves = append(moves, map[string]any{"engine": engine, "connection": filepath.Join(t.TempDir(), "other.db")})
		}
		for _, body := range moves {
			apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset", body, f.th), 400, []string{dataset.MsgManaged})
		}
		// Keeping everything is a no-op.
		same := map[string]any{"engine": engine}
		if s, ok := stored["schemaName"].(string); ok {
			same["schema_name"] = s
		}
		expectJSON(t, "unchanged PUT", efStatus(t, env.Do("PUT", "/api/tenant-dataset", same, f.th), 200), stored)

		// A catalog naming the service's users reads nothing of them.
		efStatus(t, env.Do("PUT", "/api/tenant-dataset/catalog", usersCatalog(), f.th), 200)
		res := env.Do("POST", "/api/event-criterias/preview-from-body", usersPreview(), f.h)
		apptest.ExpectError(t, res, 422, dataset.MsgQueryFailed)
		if bytes.Contains(res.Body, []byte("$2")) || bytes.Contains(res.Body, []byte(f.acme.Email)) {
			t.Fatalf("the preview answered service data: %s", res.Body)
		}
	})
}

// TestDatasetNeverTheServiceDatabase reproduces the direct exploit: a
// tenant's own connection naming the service's database (or, on SQLite,
// its file), refused even when the allowlist names its server or directory.
func TestDatasetNeverTheServiceDatabase(t *testing.T) {
	apptest.EachWith(t, allowOwnLocation(t), func(t *testing.T, env *apptest.Env) {
		f := newEFFix(t, env)
		apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset", ownConnection(env), f.th), 400, []string{dataset.MsgOwnDatabase})
		if env.App.DB.Dialect != "postgres" {
			// A symlink in an allowed directory is followed; so is a path that climbs out of one.
			own := strings.TrimPrefix(env.App.Config.DatabaseURL, "sqlite://")
			link := filepath.Join(t.TempDir(), "innocent.db")
			if err := os.Symlink(own, link); err != nil {
				t.Fatal(err)
			}
			apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "sqlite", "connection": link}, f.th),
				400, []string{dataset.MsgOwnDatabase})
			dir := t.TempDir()
			climb := dir + strings.Repeat("/..", strings.Count(dir, "/")) + own
			apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "sqlite", "connection": climb}, f.th),
				400, []string{dataset.MsgOwnDatabase})
			apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "sqlite", "connection": "/etc/passwd"}, f.th),
				400, []string{dataset.MsgSQLiteNotAllowed})
		} else {
			// Another name of the same server and database.
			u, _ := url.Parse(env.App.Config.DatabaseURL)
			u.Host = "localhost:" + u.Port()
			u.RawQuery = "sslmode=disable"
			apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "postgres", "connection": u.String(),
				"schema_name": "public"}, f.th), 400, []string{dataset.MsgOwnDatabase})
			// Parameters that would redirect the connection.
			u.Host = "127.0.0.1:" + u.Port()
			u.Path = "/elsewhere"
			u.RawQuery = "host=/var/run/postgresql"
			apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "postgres", "connection": u.String(),
				"schema_name": "public"}, f.th), 400, []string{dataset.MsgConnectionParams})
		}
		apptest.ExpectError(t, env.Do("GET", "/api/tenant-dataset", nil, f.th), 404, dataset.MsgNotConfigured)
	})
}

// TestDatasetAllowlistIsRequired: without an entry nothing is allowed, and
// the refusal names the setting.
func TestDatasetAllowlistIsRequired(t *testing.T) {
	empty := func(c *app.Config) { c.DatasetAllow = dataset.Allowlist{} }
	apptest.EachWith(t, empty, func(t *testing.T, env *apptest.Env) {
		f := newEFFix(t, env)
		apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "sqlite",
			"connection": filepath.Join(t.TempDir(), "tenant.db")}, f.th), 400,
			[]string{"connection is not allowed: the file must lie inside a directory listed in RETEN_DATASET_ALLOW"})
		apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "postgres",
			"connection": "postgres://reader@warehouse.example:5432/analytics", "schema_name": "analytics"}, f.th), 400,
			[]string{"connection is not allowed: its host, port and database must match an entry of RETEN_DATASET_ALLOW"})
		// BigQuery datasets are compile-only: nothing to connect to.
		efStatus(t, env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "bigquery", "bigquery_project": "acme-project",
			"bigquery_dataset": "analytics"}, f.th), 201)
	})
}

// TestCatalogRefusesSystemTables: a catalog table is a plain name of the
// dataset's own schema or file.
func TestCatalogRefusesSystemTables(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newEFFix(t, env)
		efStatus(t, env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "bigquery", "bigquery_project": "acme-project",
			"bigquery_dataset": "analytics"}, f.th), 201)
		var tables []qb.Table
		for _, name := range []string{"pg_shadow", "PG_AUTHID", "sqlite_master", "pragma_database_list", "information_schema", "events"} {
			tables = append(tables, qb.Table{Name: name, Purpose: qb.PurposeOther, Columns: []qb.Column{{Name: "id", Type: qb.TypeString}}})
		}
		var want []string
		for i := range 5 {
			want = append(want, fmt.Sprintf("tables[%d].name must not name a system table (information_schema, or a name starting with pg_, sqlite_ or pragma_)", i))
		}
		apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset/catalog", catalogBody(qb.Catalog{Tables: tables}), f.th), 400, want)
		// A qualified name is not an identifier.
		apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset/catalog", catalogBody(qb.Catalog{Tables: []qb.Table{{Name: "public.users",
			Purpose: qb.PurposeOther, Columns: []qb.Column{{Name: "id", Type: qb.TypeString}}}}}), f.th), 400,
			[]string{"tables[0].name must be a valid SQL identifier: a letter or underscore, then letters, digits or underscores, at most 128 characters"})
	})
}
