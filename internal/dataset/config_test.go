package dataset_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reten-io/reten/ent/tenantdataset"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/secret"
	"github.com/reten-io/reten/internal/tenancy"
)

func TestSetRules(t *testing.T) {
	const dsn = "postgres://u:pw@db.internal:5432/analytics"
	cases := []struct {
		name string
		in   dataset.ConfigInput
		msgs []string
	}{
		{"unknown engine", dataset.ConfigInput{Engine: "mysql", SchemaName: "x"},
			[]string{"engine must be one of the following values: bigquery, postgres, sqlite"}},
		{"empty engine", dataset.ConfigInput{}, []string{dataset.MsgEngine}},
		{"bigquery without project and dataset", dataset.ConfigInput{Engine: "bigquery"},
			[]string{"bigquery_project should not be empty", "bigquery_dataset should not be empty"}},
		{"bigquery with bad ids", dataset.ConfigInput{Engine: "bigquery", BigqueryProject: "Acme", BigqueryDataset: "a-b"},
			[]string{dataset.MsgProjectInvalid, "bigquery_dataset must be a BigQuery dataset id: letters, digits or underscores, at most 1024 characters"}},
		{"bigquery with a schema", dataset.ConfigInput{Engine: "bigquery", BigqueryProject: "acme-analytics", BigqueryDataset: "ev", SchemaName: "s"},
			[]string{"schema_name is only accepted with engine postgres"}},
		{"postgres without connection and schema", dataset.ConfigInput{Engine: "postgres"},
			[]string{"connection should not be empty", "schema_name should not be empty"}},
		{"postgres with blank connection", dataset.ConfigInput{Engine: "postgres", Connection: ptr("  "), SchemaName: "s"},
			[]string{dataset.MsgConnectionEmpty}},
		{"postgres with a bad URL and schema", dataset.ConfigInput{Engine: "postgres", Connection: ptr("mysql://x/y"), SchemaName: "1abc"},
			[]string{"connection must be a postgres:// or postgresql:// URL with a host and a database",
				"schema_name must be a valid SQL identifier: a letter or underscore, then letters, digits or underscores, at most 63 characters"}},
		{"postgres with a quoted schema", dataset.ConfigInput{Engine: "postgres", Connection: ptr(dsn), SchemaName: `a"b`},
			[]string{dataset.MsgSchemaNameIdentifier}},
		{"postgres with a 64-character schema", dataset.ConfigInput{Engine: "postgres", Connection: ptr(dsn), SchemaName: strings.Repeat("s", 64)},
			[]string{dataset.MsgSchemaNameIdentifier}},
		{"postgres with bigquery fields", dataset.ConfigInput{Engine: "postgres", Connection: ptr(dsn), SchemaName: "s", BigqueryProject: "p", BigqueryDataset: "d"},
			[]string{"bigquery_project is only accepted with engine bigquery", "bigquery_dataset is only accepted with engine bigquery"}},
		{"too long connection", dataset.ConfigInput{Engine: "sqlite", Connection: ptr(strings.Repeat("x", 4097))},
			[]string{"connection must be shorter than or equal to 4096 characters"}},
		{"sqlite path with a query", dataset.ConfigInput{Engine: "sqlite", Connection: ptr("data/x.db?mode=rwc")},
			[]string{"connection must be a file path without '?', '#' or '%'"}},
		{"sqlite path with an escape", dataset.ConfigInput{Engine: "sqlite", Connection: ptr("/tmp/a%2F..%2Fx.db")},
			[]string{"connection must be a file path without '?', '#' or '%'"}},
		{"postgres without a database", dataset.ConfigInput{Engine: "postgres", Connection: ptr("postgres://u@db.internal:5432"), SchemaName: "s"},
			[]string{"connection must be a postgres:// or postgresql:// URL with a host and a database"}},
		{"postgres system schemas", dataset.ConfigInput{Engine: "postgres", Connection: ptr(dsn), SchemaName: "pg_catalog"},
			[]string{"schema_name must not name a system schema (information_schema, or a name starting with pg_)"}},
		{"postgres information_schema", dataset.ConfigInput{Engine: "postgres", Connection: ptr(dsn), SchemaName: "Information_Schema"},
			[]string{dataset.MsgSchemaNameSystem}},
		{"postgres toast schema", dataset.ConfigInput{Engine: "postgres", Connection: ptr(dsn), SchemaName: "pg_toast"},
			[]string{dataset.MsgSchemaNameSystem}},
		{"sqlite without connection", dataset.ConfigInput{Engine: "sqlite"}, []string{dataset.MsgConnectionEmpty}},
	}
	apptest.EachWith(t, apptest.AllowDatasets(t, "db.internal:5432"), func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		ctx, s := admin(acme.TenantID), svc(env)
		for _, c := range cases {
			_, _, err := s.Set(ctx, c.in)
			dbtest.ExpectError(t, err, 400, c.msgs...)
		}
		// Nothing was stored.
		_, err := s.Get(ctx)
		dbtest.ExpectError(t, err, 404, dataset.MsgNotConfigured)
		// Valid ones, including the legacy domain-scoped BigQuery project.
		for _, in := range []dataset.ConfigInput{
			bigquery(),
			{Engine: "bigquery", BigqueryProject: "example.com:acme-analytics", BigqueryDataset: "D_1"},
			{Engine: "postgres", Connection: ptr(dsn), SchemaName: "_analytics_2"},
			{Engine: "sqlite", Connection: ptr(filepath.Join(t.TempDir(), "tenant.db"))},
		} {
			mustSet(t, ctx, s, in)
		}
	})
}

func TestConnectionIsSealedKeptAndNeverReturned(t *testing.T) {
	const dsn = "postgres://reader:pa55-w0rd@db.internal:5432/analytics?sslmode=require"
	apptest.EachWith(t, apptest.AllowDatasets(t, "db.internal:5432"), func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		ctx, s := admin(acme.TenantID), svc(env)

		d, created, err := s.Set(ctx, dataset.ConfigInput{Engine: "postgres", Connection: ptr(" " + dsn + " "), SchemaName: " analytics "})
		if err != nil || !created {
			t.Fatalf("first set: created=%v err=%v", created, err)
		}
		if d.Engine != tenantdataset.EnginePostgres || d.SchemaName != "analytics" || !dataset.HasConnection(d) || d.TenantID != acme.TenantID {
			t.Fatalf("stored %+v", d)
		}
		// Sealed at rest, bound to the row: the bytes do not hold the DSN and open with the row id only.
		row := env.App.DB.Client.TenantDataset.GetX(ctx, d.ID)
		if bytes.Contains(row.Connection, []byte("pa55-w0rd")) || bytes.Contains(row.Connection, []byte("db.internal")) {
			t.Fatalf("connection stored in clear: %q", row.Connection)
		}
		box := secret.New(env.App.Config.SecretsKey)
		if plain, err := box.Open(d.ID, row.Connection); err != nil || string(plain) != dsn {
			t.Fatalf("open = %q, %v", plain, err)
		}
		if _, err := box.Open(acme.TenantID, row.Connection); err == nil {
			t.Fatal("the connection opens for another owner")
		}

		// Omitted: kept (same engine), even with other fields changed.
		d2, created, err := s.Set(ctx, dataset.ConfigInput{Engine: "postgres", SchemaName: "analytics_v2"})
		if err != nil || created || d2.ID != d.ID || d2.SchemaName != "analytics_v2" {
			t.Fatalf("second set: %+v created=%v err=%v", d2, created, err)
		}
		row = env.App.DB.Client.TenantDataset.GetX(ctx, d.ID)
		if plain, err := box.Open(d.ID, row.Connection); err != nil || string(plain) != dsn {
			t.Fatalf("kept connection = %q, %v", plain, err)
		}
		if !d2.UpdatedAt.After(d.UpdatedAt) || !d2.CreatedAt.Equal(d.CreatedAt) {
			t.Fatalf("timestamps: %v %v -> %v %v", d.CreatedAt, d.UpdatedAt, d2.CreatedAt, d2.UpdatedAt)
		}

		// Another engine does not inherit it: sqlite needs its own path.
		_, _, err = s.Set(ctx, dataset.ConfigInput{Engine: "sqlite"})
		dbtest.ExpectError(t, err, 400, dataset.MsgConnectionEmpty)
		// bigquery drops it (credentials are optional there), and "" clears credentials.
		d3, _, err := s.Set(ctx, bigquery())
		if err != nil || dataset.HasConnection(d3) || d3.SchemaName != "" || d3.BigqueryProject != "acme-analytics" {
			t.Fatalf("bigquery: %+v %v", d3, err)
		}
		in := bigquery()
		in.Connection = ptr(`{"type":"service_account"}`)
		if d4, _, err := s.Set(ctx, in); err != nil || !dataset.HasConnection(d4) {
			t.Fatalf("bigquery credentials: %v", err)
		}
		in.Connection = ptr("")
		if d5, _, err := s.Set(ctx, in); err != nil || dataset.HasConnection(d5) {
			t.Fatalf("bigquery credentials cleared: %v", err)
		}

		// Get needs dataset:view; Set dataset:manage (a viewer has the first
		// only): their lines' permissions, applied on entering the lines.
		viewerCtx := as(acme.TenantID, auth.RoleViewer)
		getCtx, err := tenancy.Enter(viewerCtx, "GET /tenant-dataset")
		dbtest.NoError(t, err)
		if _, err := s.Get(getCtx); err != nil {
			t.Fatalf("viewer get: %v", err)
		}
		_, err = tenancy.Enter(viewerCtx, "PUT /tenant-dataset")
		dbtest.ExpectError(t, err, 403, "Required permissions: dataset:manage")
		_, err = tenancy.Enter(as(acme.TenantID, auth.RoleOperator), "GET /tenant-dataset")
		dbtest.ExpectError(t, err, 403, "Required permissions: dataset:view")

		// Another tenant sees none of it.
		beta := env.Bootstrap("Beta")
		_, err = s.Get(admin(beta.TenantID))
		dbtest.ExpectError(t, err, 404, dataset.MsgNotConfigured)
	})
}
