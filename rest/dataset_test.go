package rest_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"unicode"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/demo"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/viewer"
)

const datasetDSN = "postgres://reader:Sup3r-s3cret@analytics.internal:5432/warehouse"

// catalogBody is cat as a request body of PUT /api/tenant-dataset/catalog
// (snake_case members).
func catalogBody(cat qb.Catalog) map[string]any { return catalogShape(cat, snakeCase) }

// catalogJSON is cat in the JSON shape the catalog routes answer (camelCase).
func catalogJSON(cat qb.Catalog) map[string]any {
	return catalogShape(cat, func(k string) string { return k })
}

// snakeCase is a camelCase member name in snake_case.
func snakeCase(k string) string {
	var b strings.Builder
	for _, r := range k {
		if unicode.IsUpper(r) {
			b.WriteByte('_')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// catalogShape is cat as JSON with its camelCase member names passed through key.
func catalogShape(cat qb.Catalog, key func(string) string) map[string]any {
	orNull := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	var columns func(cs []qb.Column) []any
	columns = func(cs []qb.Column) []any {
		out := []any{}
		for _, c := range cs {
			out = append(out, map[string]any{"name": c.Name, "type": string(c.Type), key("isRepeated"): c.Repeated,
				key("isIdentity"): c.IsIdentity, key("isDefaultTimeReference"): c.IsDefaultTimeReference,
				"description": orNull(c.Description), key("subFields"): columns(c.SubFields)})
		}
		return out
	}
	tables := []any{}
	for _, t := range cat.Tables {
		joins := []any{}
		for _, sj := range t.SemiJoins {
			on := []any{}
			for _, k := range sj.On {
				on = append(on, map[string]any{"left": k.Left, "right": k.Right})
			}
			joins = append(joins, map[string]any{"name": sj.Name, key("toTable"): sj.ToTable, "on": on})
		}
		tables = append(tables, map[string]any{"name": t.Name, "description": orNull(t.Description), "purpose": t.Purpose,
			key("defaultTimeReferenceColumn"): orNull(t.DefaultTimeReferenceColumn), "columns": columns(t.Columns), key("semiJoins"): joins})
	}
	return map[string]any{"tables": tables}
}

// noSecret fails when a response reveals the connection.
func noSecret(t *testing.T, res *apptest.Response) {
	t.Helper()
	if bytes.Contains(res.Body, []byte("Sup3r-s3cret")) || bytes.Contains(res.Body, []byte("analytics.internal")) ||
		bytes.Contains(res.Body, []byte(`"connection"`)) {
		t.Fatalf("a response reveals the connection: %s", res.Body)
	}
}

func TestTenantDatasetConfig(t *testing.T) {
	apptest.EachWith(t, apptest.AllowDatasets(t, "analytics.internal:5432/warehouse"), func(t *testing.T, env *apptest.Env) {
		acme, beta := env.Bootstrap("Acme"), env.Bootstrap("Beta")
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		bh := apptest.JWT(env.Login(beta.Email), beta.TenantID, uuid.Nil)

		apptest.ExpectError(t, env.Do("GET", "/api/tenant-dataset", nil, h), 404, "Tenant dataset not configured")

		// Strict body: unknown members, wrong types, then the service's rules, one message each.
		apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "postgres", "dsn": "x", "Schema": 1}, h), 400,
			[]string{"property Schema should not exist", "property dsn should not exist"})
		apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": 1, "connection": 2, "schema_name": true,
			"bigquery_project": []int{}, "bigquery_dataset": map[string]any{}}, h), 400, []string{
			"engine must be one of the following values: bigquery, postgres, sqlite", "connection must be a string",
			"schema_name must be a string", "bigquery_project must be a string", "bigquery_dataset must be a string"})
		apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "postgres"}, h), 400,
			[]string{"connection should not be empty", "schema_name should not be empty"})
		apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "bigquery", "schema_name": "s"}, h), 400,
			[]string{"schema_name is only accepted with engine postgres", "bigquery_project should not be empty", "bigquery_dataset should not be empty"})
		// Request bodies are snake_case: the camelCase spelling is an unknown member.
		apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "bigquery", "bigqueryProject": "acme-project",
			"bigqueryDataset": "ds"}, h), 400, []string{"property bigqueryDataset should not exist", "property bigqueryProject should not exist"})
		apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset", "[]", h), 400, "Request body must be a JSON object")

		// Created (201), then replaced (200); the connection is never returned and kept when omitted (or null).
		res := env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "postgres", "connection": datasetDSN, "schema_name": "analytics"}, h)
		noSecret(t, res)
		if res.Status != 201 {
			t.Fatalf("create: %d %s", res.Status, res.Body)
		}
		created := res.Map(t)
		expectKeys(t, "dataset", created, "id", "engine", "schemaName", "bigqueryProject", "bigqueryDataset", "hasConnection", "managed", "createdAt", "updatedAt")
		sameMap(t, withoutVolatile(created), map[string]any{"engine": "postgres", "schemaName": "analytics",
			"bigqueryProject": nil, "bigqueryDataset": nil, "hasConnection": true, "managed": false})
		res = env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "postgres", "connection": nil, "schema_name": "analytics_v2"}, h)
		noSecret(t, res)
		replaced := dispatchOK(t, res, 200)
		if replaced["id"] != created["id"] || replaced["createdAt"] != created["createdAt"] || replaced["hasConnection"] != true {
			t.Fatalf("replaced = %v", replaced)
		}
		res = env.Do("GET", "/api/tenant-dataset", nil, h)
		noSecret(t, res)
		expectJSON(t, "GET", dispatchOK(t, res, 200), replaced)
		row := env.App.DB.Client.TenantDataset.GetX(viewer.NewContext(context.Background(), &viewer.Viewer{TenantID: acme.TenantID}),
			uuid.MustParse(replaced["id"].(string)))
		if bytes.Contains(row.Connection, []byte("Sup3r-s3cret")) || len(row.Connection) == 0 {
			t.Fatalf("stored connection: %q", row.Connection)
		}

		// Isolation: Beta has none and sets its own without touching Acme's.
		apptest.ExpectError(t, env.Do("GET", "/api/tenant-dataset", nil, bh), 404, "Tenant dataset not configured")
		res = env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "bigquery", "bigquery_project": "beta-project", "bigquery_dataset": "ds"}, bh)
		beta1 := dispatchOK(t, res, 201)
		sameMap(t, withoutVolatile(beta1), map[string]any{"engine": "bigquery", "schemaName": nil, "bigqueryProject": "beta-project",
			"bigqueryDataset": "ds", "hasConnection": false, "managed": false})
		expectJSON(t, "Acme after Beta", dispatchOK(t, env.Do("GET", "/api/tenant-dataset", nil, h), 200), replaced)

		// Permissions: a viewer reads, only managers write.
		env.CreateUser(acme.TenantID, "vic", auth.RoleViewer)
		vh := apptest.JWT(env.Login("vic"), acme.TenantID, uuid.Nil)
		dispatchOK(t, env.Do("GET", "/api/tenant-dataset", nil, vh), 200)
		apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "sqlite"}, vh), 403, "Required permissions: dataset:manage")
		env.CreateUser(acme.TenantID, "otto", auth.RoleOperator)
		oh := apptest.JWT(env.Login("otto"), acme.TenantID, uuid.Nil)
		apptest.ExpectError(t, env.Do("GET", "/api/tenant-dataset", nil, oh), 403, "Required permissions: dataset:view")
	})
}

func TestTenantDatasetCatalog(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme, beta := env.Bootstrap("Acme"), env.Bootstrap("Beta")
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		bh := apptest.JWT(env.Login(beta.Email), beta.TenantID, uuid.Nil)
		body, want := catalogBody(demo.Catalog()), catalogJSON(demo.Catalog())

		apptest.ExpectError(t, env.Do("GET", "/api/tenant-dataset/catalog", nil, h), 404, dataset.MsgNotConfigured)
		apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset/catalog", body, h), 404, dataset.MsgNotConfigured)
		dispatchOK(t, env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "bigquery", "bigquery_project": "acme-project", "bigquery_dataset": "ds"}, h), 201)
		expectJSON(t, "empty catalog", dispatchOK(t, env.Do("GET", "/api/tenant-dataset/catalog", nil, h), 200), map[string]any{"tables": []any{}})

		// Round trip: PUT answers what GET returns, which is what was sent
		// (a snake_case body, a camelCase answer).
		put := dispatchOK(t, env.Do("PUT", "/api/tenant-dataset/catalog", body, h), 200)
		expectJSON(t, "PUT response", put, want)
		expectJSON(t, "GET after PUT", dispatchOK(t, env.Do("GET", "/api/tenant-dataset/catalog", nil, h), 200), want)
		// The camelCase spelling of a member is an unknown member.
		camel := map[string]any{"tables": []any{map[string]any{"name": "t", "defaultTimeReferenceColumn": "at", "semiJoins": []any{},
			"columns": []any{map[string]any{"name": "at", "type": "TIMESTAMP", "isDefaultTimeReference": true, "subFields": []any{}}}}}}
		apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset/catalog", camel, h), 400, []string{
			"tables[0].property defaultTimeReferenceColumn should not exist", "tables[0].property semiJoins should not exist",
			"tables[0].columns[0].property isDefaultTimeReference should not exist", "tables[0].columns[0].property subFields should not exist",
		})

		// Strict nested bodies: every type error and unknown member, by path.
		bad := map[string]any{"tables": []any{
			map[string]any{"name": 1, "purpose": "EVENTS", "columns": "x", "semi_joins": []any{
				map[string]any{"name": "j", "to_table": 2, "on": []any{map[string]any{"left": "a", "right": "b", "op": "="}, 7}},
			}, "extra": true},
			"nope",
			map[string]any{"name": "t", "columns": []any{map[string]any{"name": "c", "type": "RECORD", "is_repeated": "yes", "is_identity": 1,
				"is_default_time_reference": nil, "description": 3, "sub_fields": []any{map[string]any{"name": "s", "type": "STRING", "Type": "x"}}}}},
		}, "version": 2}
		apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset/catalog", bad, h), 400, []string{
			"property version should not exist",
			"tables[0].property extra should not exist",
			"tables[0].name must be a string",
			"tables[0].columns must be an array",
			"tables[0].semi_joins[0].to_table must be a string",
			"tables[0].semi_joins[0].on[0].property op should not exist",
			"tables[0].semi_joins[0].on[1] must be an object",
			"tables[1] must be an object",
			"tables[2].columns[0].is_repeated must be a boolean value",
			"tables[2].columns[0].is_identity must be a boolean value",
			"tables[2].columns[0].description must be a string",
			"tables[2].columns[0].sub_fields[0].property Type should not exist",
		})
		for _, b := range []any{map[string]any{}, map[string]any{"tables": nil}, map[string]any{"tables": map[string]any{}}} {
			apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset/catalog", b, h), 400, []string{"tables must be an array"})
		}

		// A rule broken: 400 by path, and the stored catalog is untouched.
		broken := demo.Catalog()
		broken.Tables[1].Columns[2].Type = "TEXT"
		broken.Tables[1].SemiJoins[0].ToTable = "products"
		apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset/catalog", catalogBody(broken), h), 400, []string{
			"tables[1].columns[2].type must be one of the following values: STRING, TIMESTAMP, BOOLEAN, FLOAT64, INT64, NUMERIC, BIGNUMERIC, RECORD",
			"tables[1].semi_joins[0].to_table must name a table of the catalog",
		})
		expectJSON(t, "GET after a rejected PUT", dispatchOK(t, env.Do("GET", "/api/tenant-dataset/catalog", nil, h), 200), want)

		// Optional members default: purpose OTHER, empty lists, null descriptions.
		minimal := map[string]any{"tables": []any{map[string]any{"name": "t", "columns": []any{map[string]any{"name": "id", "type": "INT64"}}}}}
		expectJSON(t, "minimal", dispatchOK(t, env.Do("PUT", "/api/tenant-dataset/catalog", minimal, h), 200), map[string]any{"tables": []any{
			map[string]any{"name": "t", "description": nil, "purpose": "OTHER", "defaultTimeReferenceColumn": nil, "semiJoins": []any{},
				"columns": []any{map[string]any{"name": "id", "type": "INT64", "isRepeated": false, "isIdentity": false,
					"isDefaultTimeReference": false, "description": nil, "subFields": []any{}}}}}})

		// Isolation and permissions.
		apptest.ExpectError(t, env.Do("GET", "/api/tenant-dataset/catalog", nil, bh), 404, dataset.MsgNotConfigured)
		apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset/catalog", body, bh), 404, dataset.MsgNotConfigured)
		env.CreateUser(acme.TenantID, "vic", auth.RoleViewer)
		vh := apptest.JWT(env.Login("vic"), acme.TenantID, uuid.Nil)
		dispatchOK(t, env.Do("GET", "/api/tenant-dataset/catalog", nil, vh), 200)
		apptest.ExpectError(t, env.Do("PUT", "/api/tenant-dataset/catalog", body, vh), 403, "Required permissions: dataset:manage")
	})
}
