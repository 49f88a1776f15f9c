package graph_test

import (
	"bytes"
	"testing"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/demo"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

const gqlDSN = "postgres://reader:Gr4phQL-secret@warehouse.internal:5432/analytics"

// catalogVars is cat as a TenantDatasetCatalogInput variable.
func catalogVars(cat qb.Catalog) M {
	var columns func([]qb.Column) L
	columns = func(cs []qb.Column) L {
		out := L{}
		for _, c := range cs {
			out = append(out, M{"name": c.Name, "type": string(c.Type), "isRepeated": c.Repeated, "isIdentity": c.IsIdentity,
				"isDefaultTimeReference": c.IsDefaultTimeReference, "description": c.Description, "subFields": columns(c.SubFields)})
		}
		return out
	}
	tables := L{}
	for _, t := range cat.Tables {
		joins := L{}
		for _, sj := range t.SemiJoins {
			on := L{}
			for _, k := range sj.On {
				on = append(on, M{"left": k.Left, "right": k.Right})
			}
			joins = append(joins, M{"name": sj.Name, "toTable": sj.ToTable, "on": on})
		}
		tables = append(tables, M{"name": t.Name, "description": t.Description, "purpose": t.Purpose,
			"defaultTimeReferenceColumn": t.DefaultTimeReferenceColumn, "columns": columns(t.Columns), "semiJoins": joins})
	}
	return M{"tables": tables}
}

// catalogSelection reads back what catalogVars sends (plus stored order and parents).
const catalogSelection = `engine hasConnection tables { name description purpose defaultTimeReferenceColumn
	columns { name type isRepeated isIdentity isDefaultTimeReference description sortOrder subFields { name type description sortOrder } }
	semiJoins { name toTable { name } on { left right } } }`

// catalogData is the answer of catalogSelection for cat on a bigquery
// dataset: what catalogVars sends, with the stored order of columns and
// sub-fields and the semi-join's table as an object.
func catalogData(cat qb.Catalog) M {
	tables := catalogVars(cat)["tables"].(L)
	for _, t := range tables {
		for i, c := range t.(M)["columns"].(L) {
			col := c.(M)
			col["sortOrder"] = i
			for j, f := range col["subFields"].(L) {
				sub := f.(M)
				col["subFields"].(L)[j] = M{"name": sub["name"], "type": sub["type"], "description": sub["description"], "sortOrder": j}
			}
		}
		for _, sj := range t.(M)["semiJoins"].(L) {
			sj.(M)["toTable"] = M{"name": sj.(M)["toTable"]}
		}
	}
	return M{"engine": "bigquery", "hasConnection": false, "tables": tables}
}

func TestTenantDatasetOverGraphQL(t *testing.T) {
	apptest.EachWith(t, apptest.AllowDatasets(t, "warehouse.internal:5432/analytics"), func(t *testing.T, env *apptest.Env) {
		s := newOrgSetup(t, env)
		const get = `{ tenantDataset { ` + catalogSelection + ` } }`
		const setCatalog = `mutation($in: TenantDatasetCatalogInput!) { setTenantDatasetCatalog(input: $in) { ` + catalogSelection + ` } }`
		expectData(t, env.GraphQL(get, nil, s.h), M{"tenantDataset": nil})
		expectFieldError(t, env.GraphQL(setCatalog, M{"in": catalogVars(demo.Catalog())}, s.h),
			"setTenantDatasetCatalog", "Tenant dataset not configured", "NOT_FOUND", 404)

		// The connection is write-only: never in an answer, not even a field of the type.
		res := env.GraphQL(`mutation($c: String) { setTenantDataset(input: {engine: postgres, connection: $c, schemaName: "analytics"}) {
			engine schemaName bigqueryProject hasConnection } }`, M{"c": gqlDSN}, s.h)
		expectData(t, res, M{"setTenantDataset": M{"engine": "postgres", "schemaName": "analytics", "bigqueryProject": "", "hasConnection": true}})
		res = env.GraphQL(`{ tenantDataset { connection } }`, nil, s.h)
		if res.Status == 200 && !bytes.Contains(res.Body, []byte(`Cannot query field \"connection\" on type \"TenantDataset\"`)) ||
			bytes.Contains(res.Body, []byte("Gr4phQL-secret")) {
			t.Fatalf("connection field: %d %s", res.Status, res.Body)
		}
		// Omitted: kept; another engine: required again.
		expectData(t, env.GraphQL(`mutation { setTenantDataset(input: {engine: postgres, schemaName: "v2"}) { schemaName hasConnection } }`, nil, s.h),
			M{"setTenantDataset": M{"schemaName": "v2", "hasConnection": true}})
		expectInvalid(t, env.GraphQL(`mutation { setTenantDataset(input: {engine: sqlite, schemaName: "s"}) { id } }`, nil, s.h),
			"setTenantDataset", "connection should not be empty", "schemaName is only accepted with engine postgres")
		expectData(t, env.GraphQL(`mutation { setTenantDataset(input: {engine: bigquery, bigqueryProject: "acme-project", bigqueryDataset: "events"}) {
			engine schemaName bigqueryProject bigqueryDataset hasConnection } }`, nil, s.h),
			M{"setTenantDataset": M{"engine": "bigquery", "schemaName": "", "bigqueryProject": "acme-project", "bigqueryDataset": "events", "hasConnection": false}})

		// Catalog round trip: tables by name, columns in order with their sub-fields, semi-joins with keys.
		want := catalogData(demo.Catalog())
		expectData(t, env.GraphQL(setCatalog, M{"in": catalogVars(demo.Catalog())}, s.h), M{"setTenantDatasetCatalog": want})
		expectData(t, env.GraphQL(get, nil, s.viewer), M{"tenantDataset": want})

		// Rules by path; a rejected catalog leaves the stored one.
		broken := demo.Catalog()
		broken.Tables[1].Columns[9].Repeated = false
		broken.Tables[1].SemiJoins[0].On[0].Right = "nope"
		expectInvalid(t, env.GraphQL(setCatalog, M{"in": catalogVars(broken)}, s.h), "setTenantDatasetCatalog",
			"tables[1].columns[9].isRepeated must be true for a RECORD column",
			"tables[1].semiJoins[0].on[0].right must name a column of product_properties that is neither RECORD nor repeated")
		expectData(t, env.GraphQL(get, nil, s.h), M{"tenantDataset": want})

		// Permissions and isolation.
		expectFieldError(t, env.GraphQL(`mutation { setTenantDataset(input: {engine: bigquery, bigqueryProject: "acme-project", bigqueryDataset: "x"}) { id } }`, nil, s.viewer),
			"setTenantDataset", "Required permissions: dataset:manage", "FORBIDDEN", 403)
		expectFieldError(t, env.GraphQL(setCatalog, M{"in": M{"tables": L{}}}, s.viewer),
			"setTenantDatasetCatalog", "Required permissions: dataset:manage", "FORBIDDEN", 403)
		expectData(t, env.GraphQL(get, nil, s.bh), M{"tenantDataset": nil})
		expectFieldError(t, env.GraphQL(setCatalog, M{"in": M{"tables": L{}}}, s.bh),
			"setTenantDatasetCatalog", "Tenant dataset not configured", "NOT_FOUND", 404)
		expectData(t, env.GraphQL(get, nil, s.h), M{"tenantDataset": want})
	})
}

// TestTenantDatasetGuardOverGraphQL: the mutation runs the same guard as
// PUT /api/tenant-dataset (allowlist, hosted datasets keep their location).
func TestTenantDatasetGuardOverGraphQL(t *testing.T) {
	each(t, newOrgSetup, func(t *testing.T, env *apptest.Env, s orgSetup) {
		expectInvalid(t, env.GraphQL(`mutation { setTenantDataset(input: {engine: postgres, schemaName: "analytics",
			connection: "postgres://reader@warehouse.example:5432/analytics"}) { id } }`, nil, s.h), "setTenantDataset",
			"connection is not allowed: its host, port and database must match an entry of RETEN_DATASET_ALLOW")
		expectInvalid(t, env.GraphQL(`mutation { setTenantDataset(input: {engine: sqlite, connection: "/etc/passwd"}) { id } }`, nil, s.h),
			"setTenantDataset", "connection is not allowed: the file must lie inside a directory listed in RETEN_DATASET_ALLOW")

		apptest.DemoDataset(t, env, s.acme.TenantID, demo.Options{Seed: 3, Commerces: 10, Products: 5, Events: 50, Transactions: 10})
		res := gqlOK(t, env, s.h, `{ tenantDataset { engine schemaName managed } }`, nil)
		ds := res["tenantDataset"].(map[string]any)
		if ds["managed"] != true {
			t.Fatalf("hosted dataset = %v", ds)
		}
		expectInvalid(t, env.GraphQL(`mutation($e: TenantDatasetEngine!) { setTenantDataset(input: {engine: $e, schemaName: "public"}) { id } }`,
			M{"e": ds["engine"]}, s.h), "setTenantDataset",
			"the dataset is managed by the service: its engine, connection, schema, BigQuery project and BigQuery dataset cannot be changed")
		expectData(t, env.GraphQL(`{ tenantDataset { managed } }`, nil, s.bh), M{"tenantDataset": nil})
	})
}
