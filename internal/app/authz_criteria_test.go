package app_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/demo"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/viewer"
)

// audienceProbes: audience criteria (tenant A's dataset is configured by
// auReady where an allowed call needs it; REST calls of tenant B or without
// a dataset answer 404, which the matrix walk accepts).
var audienceProbes = map[string]probe{
	"GET /audience-criterias":                            {},
	"POST /audience-criterias":                           {body: func() any { return map[string]any{"name": unique("A"), "queryBlocks": auProbeBlocks()} }},
	"GET /audience-criterias/tables":                     {},
	"GET /audience-criterias/tables/{tableName}/columns": {path: func(*fixture) string { return "/audience-criterias/tables/events/columns" }},
	"POST /audience-criterias/generate-sql":              {body: func() any { return map[string]any{"queryBlocks": auProbeBlocks()} }},
	"POST /audience-criterias/validate-from-body":        {body: func() any { return map[string]any{"queryBlocks": auProbeBlocks()} }},
	"POST /audience-criterias/preview-from-body":         {body: func() any { return map[string]any{"queryBlocks": auProbeBlocks()} }},
	"GET /audience-criterias/{id}":                       {path: func(f *fixture) string { return "/audience-criterias/" + f.aRoot.String() }, crossCode: 404, crossMsg: "Audience criteria not found"},
	"PATCH /audience-criterias/{id}": {path: func(f *fixture) string { return "/audience-criterias/" + f.aRoot.String() },
		body: func() any { return map[string]any{"name": unique("A")} }, crossCode: 404, crossMsg: "Audience criteria not found"},
	"DELETE /audience-criterias/{id}":       {id: (*fixture).auAudience, crossCode: 404, crossMsg: "Audience criteria not found"},
	"GET /audience-criterias/{id}/sql":      {id: (*fixture).auAudience, crossCode: 404, crossMsg: "Audience criteria not found"},
	"POST /audience-criterias/{id}/preview": {id: (*fixture).auAudience, crossCode: 404, crossMsg: "Audience criteria not found"},
	"POST /audience-criterias/{id}/preview-change": {id: (*fixture).auAudience,
		body: func() any { return map[string]any{} }, crossCode: 404, crossMsg: "Audience criteria not found"},

	"Query.audiences": {query: `{ audiences { totalCount edges { node { id conditionCount } } } }`},
	"Query.audience": {query: `query($id: ID!) { audience(id: $id) { id isRoot } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.aRoot} }, crossCode: 404, crossMsg: "Audience criteria not found"},
	"Query.audienceTables": {query: `{ audienceTables { name identityColumn } }`,
		vars: func(f *fixture) map[string]any { f.auReady(); return nil }},
	"Query.audienceColumns": {query: `{ audienceColumns(table: "events") { table columns { name isIdentity } } }`,
		vars: func(f *fixture) map[string]any { f.auReady(); return nil }},
	"Query.audienceSQL": {query: `query($id: ID!) { audienceSQL(id: $id) { subjectColumn } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.auAudience()} }, crossCode: 404, crossMsg: "Audience criteria not found"},
	"Query.generateAudienceSQL": {query: `query($b: [QueryBlockInput!]!) { generateAudienceSQL(queryBlocks: $b) { subjectColumn } }`,
		vars: func(f *fixture) map[string]any { f.auReady(); return map[string]any{"b": auProbeBlocksGraph()} }},
	"Query.validateAudience": {query: `query($b: [QueryBlockInput!]!) { validateAudience(queryBlocks: $b) { valid } }`,
		vars: func(f *fixture) map[string]any { f.auReady(); return map[string]any{"b": auProbeBlocksGraph()} }},
	"Query.previewAudience": {query: `query($b: [QueryBlockInput!]!) { previewAudience(queryBlocks: $b, limit: 1) { subjectCount } }`,
		vars: func(f *fixture) map[string]any { f.auReady(); return map[string]any{"b": auProbeBlocksGraph()} }},
	"Query.audienceMembershipChange": {query: `query($id: ID!, $b: [QueryBlockInput!]!) { audienceMembershipChange(id: $id, queryBlocks: $b) { entering } }`,
		vars: func(f *fixture) map[string]any {
			return map[string]any{"id": f.auAudience(), "b": auProbeBlocksGraph()}
		},
		crossCode: 404, crossMsg: "Audience criteria not found"},
	"Mutation.createAudience": {query: `mutation($n: String!, $b: [QueryBlockInput!]!) { createAudience(input: {name: $n, queryBlocks: $b}) { id } }`,
		vars: func(f *fixture) map[string]any {
			f.auReady()
			return map[string]any{"n": unique("A"), "b": auProbeBlocksGraph()}
		}},
	"Mutation.updateAudience": {query: `mutation($id: ID!, $n: String!) { updateAudience(id: $id, input: {name: $n}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.aRoot, "n": unique("A")} }, crossCode: 404, crossMsg: "Audience criteria not found"},
	"Mutation.deleteAudience": {query: `mutation($id: ID!) { deleteAudience(id: $id) }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.auAudience()} }, crossCode: 404, crossMsg: "Audience criteria not found"},
}

func init() { maps.Copy(probes, audienceProbes) }

// auProbeBlocks is a valid audience definition over the demo catalog.
func auProbeBlocks() []any {
	return []any{map[string]any{"order": 0, "setOperator": nil, "from": map[string]any{"table": "commerces", "joins": []any{}, "unnests": []any{}},
		"select": map[string]any{"distinct": false, "items": []any{map[string]any{"kind": "column",
			"column": map[string]any{"table": "commerces", "column": "commerce_id"}}}},
		"where": map[string]any{"kind": "predicate", "column": map[string]any{"table": "commerces", "column": "segment"},
			"comparisonOperator": "EQUALS", "value": "pharmacy"}}}
}

// auProbeBlocksGraph is auProbeBlocks as GraphQL's QueryBlockInput (the
// filter node wrapped in its @oneOf member).
func auProbeBlocksGraph() []any { return graphBlocks(auProbeBlocks()) }

// efProbeBlocksGraph is efProbeBlocks as GraphQL's QueryBlockInput.
func efProbeBlocksGraph() []any { return graphBlocks(efProbeBlocks()) }

// graphBlocks wraps each block's where predicate in its @oneOf member.
func graphBlocks(blocks []any) []any {
	for _, b := range blocks {
		block := b.(map[string]any)
		where := block["where"].(map[string]any)
		delete(where, "kind")
		block["where"] = map[string]any{"predicate": where}
	}
	return blocks
}

// auDatasets holds, per test environment, the demo dataset file of tenant A.
var auDatasets = map[*apptest.Env]string{}

// auReady (re)configures tenant A's dataset as a small demo sqlite file
// with the demo catalog (other probes may have replaced the configuration).
func (f *fixture) auReady() {
	path, ok := auDatasets[f.env]
	if !ok {
		path = filepath.Join(f.env.T.TempDir(), "audience-dataset.db")
		db, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			panic(err)
		}
		defer db.Close()
		if _, err := demo.Create(context.Background(), db, demo.DialectSQLite, "",
			demo.Options{Seed: 3, Commerces: 20, Products: 10, Events: 100, Transactions: 20}); err != nil {
			panic(err)
		}
		auDatasets[f.env] = path
	}
	if _, _, err := f.env.App.Dataset.Set(f.aAdmin("PUT /tenant-dataset"), dataset.ConfigInput{Engine: dataset.EngineSQLite, Connection: &path}); err != nil {
		panic(err)
	}
	if _, err := f.env.App.Dataset.SetCatalog(f.aAdmin("PUT /tenant-dataset/catalog"), demo.Catalog()); err != nil {
		panic(err)
	}
}

// aAdmin is tenant A's super_admin admitted to the matrix line key.
func (f *fixture) aAdmin(key string) context.Context {
	ctx, err := tenancy.Enter(viewer.NewContext(context.Background(), &viewer.Viewer{UserID: f.a.UserID, TenantID: f.a.TenantID,
		Roles: []string{auth.RoleSuperAdmin}, Permissions: auth.PermissionsOf([]string{auth.RoleSuperAdmin})}), key)
	if err != nil {
		panic(err)
	}
	return ctx
}

// auAudience creates a live audience of tenant A's main project with a
// valid definition (each probe call gets its own) and returns its id.
func (f *fixture) auAudience() string {
	return f.createInProject("/api/audience-criterias", map[string]any{"name": unique("A"), "queryBlocks": auProbeBlocks()})
}

// createInProject posts body to path as tenant A's super_admin in its main
// project, over tenant A's demo dataset, and returns the created id.
func (f *fixture) createInProject(path string, body map[string]any) string {
	f.auReady()
	res := f.env.Do("POST", path, body, apptest.JWT(f.aToken, f.a.TenantID, f.a.ProjectID))
	if res.Status != 201 {
		panic(fmt.Sprintf("fixture %s: %d %s", path, res.Status, res.Body))
	}
	var out struct{ ID string }
	if err := json.Unmarshal(res.Body, &out); err != nil {
		panic(err)
	}
	return out.ID
}

// datasetProbes: the tenant's dataset and its catalog (tenant-level). A
// tenant-B call answers B's own dataset, or 404 when B has none.
var datasetProbes = map[string]probe{
	"GET /tenant-dataset": {path: func(f *fixture) string { f.datasetA(); return "/tenant-dataset" }},
	"PUT /tenant-dataset": {body: func() any {
		return map[string]any{"engine": "bigquery", "bigquery_project": "acme-probe", "bigquery_dataset": "events"}
	}},
	"GET /tenant-dataset/catalog": {path: func(f *fixture) string { f.datasetA(); return "/tenant-dataset/catalog" }},
	"PUT /tenant-dataset/catalog": {path: func(f *fixture) string { f.datasetA(); return "/tenant-dataset/catalog" },
		body: func() any {
			return map[string]any{"tables": []any{map[string]any{"name": "t", "columns": []any{map[string]any{"name": "id", "type": "STRING"}}}}}
		}},
	"Query.tenantDataset": {query: `{ tenantDataset { id engine tables { name } } }`,
		vars: func(f *fixture) map[string]any { f.datasetA(); return nil }},
	"Mutation.setTenantDataset": {query: `mutation { setTenantDataset(input: {engine: bigquery, bigqueryProject: "acme-probe", bigqueryDataset: "events"}) { id } }`},
	"Mutation.setTenantDatasetCatalog": {query: `mutation { setTenantDatasetCatalog(input: {tables: [{name: "t", columns: [{name: "id", type: STRING}]}]}) { id } }`,
		vars: func(f *fixture) map[string]any { f.datasetA(); return nil }},
}

func init() { maps.Copy(probes, datasetProbes) }

// datasetA gives tenant A a (bigquery) dataset unless it has one.
func (f *fixture) datasetA() {
	_, err := f.env.App.Dataset.Get(f.aAdmin("GET /tenant-dataset"))
	if dataset.NotConfigured(err) {
		_, _, err = f.env.App.Dataset.Set(f.aAdmin("PUT /tenant-dataset"), dataset.ConfigInput{Engine: dataset.EngineBigQuery,
			BigqueryProject: "acme-probe", BigqueryDataset: "events"})
	}
	if err != nil {
		panic(err)
	}
}

// eventFilterProbes: event filters (project-scoped). Tenant A's demo
// dataset is (re)configured by auReady wherever an allowed call needs it;
// tenant B has no dataset, so its calls that name no filter answer 404.
var eventFilterProbes = map[string]probe{
	"GET /event-criterias": {},
	"POST /event-criterias": {path: func(f *fixture) string { f.auReady(); return "/event-criterias" },
		body: func() any { return map[string]any{"name": unique("EF"), "queryBlocks": efProbeBlocks()} }},
	"GET /event-criterias/tables": {path: func(f *fixture) string { f.auReady(); return "/event-criterias/tables" }},
	"GET /event-criterias/tables/{tableName}/columns": {path: func(f *fixture) string {
		f.auReady()
		return "/event-criterias/tables/events/columns"
	}},
	"POST /event-criterias/generate-sql": {path: func(f *fixture) string { f.auReady(); return "/event-criterias/generate-sql" },
		body: func() any { return map[string]any{"queryBlocks": efProbeBlocks(), "format": "literal"} }},
	"POST /event-criterias/validate-from-body": {path: func(f *fixture) string { f.auReady(); return "/event-criterias/validate-from-body" },
		body: func() any { return map[string]any{"queryBlocks": efProbeBlocks()} }},
	"POST /event-criterias/preview-from-body": {path: func(f *fixture) string { f.auReady(); return "/event-criterias/preview-from-body?limit=2" },
		body: func() any { return map[string]any{"queryBlocks": efProbeBlocks()} }},
	"GET /event-criterias/{id}": {id: (*fixture).efFilter, crossCode: 404, crossMsg: "Event criteria not found"},
	"PATCH /event-criterias/{id}": {id: (*fixture).efFilter,
		body: func() any { return map[string]any{"name": unique("EF"), "queryBlocks": efProbeBlocks()} }, crossCode: 404, crossMsg: "Event criteria not found"},
	"DELETE /event-criterias/{id}":       {id: (*fixture).efFilter, crossCode: 404, crossMsg: "Event criteria not found"},
	"GET /event-criterias/{id}/sql":      {id: (*fixture).efFilter, crossCode: 404, crossMsg: "Event criteria not found"},
	"POST /event-criterias/{id}/preview": {id: (*fixture).efFilter, crossCode: 404, crossMsg: "Event criteria not found"},

	// GraphQL: list answers select projectID, so tenant B seeing A's rows fails the probe.
	"Query.eventFilters": {query: `{ eventFilters { totalCount edges { node { id projectID conditionCount queryBlocks { id where { __typename } } } } } }`,
		vars: func(f *fixture) map[string]any { f.efFilter(); return nil }},
	"Query.eventFilter": {query: `query($id: ID!) { eventFilter(id: $id) { id conditionCount queryBlocks { from { table } select { distinct } } } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.efFilter()} }, crossCode: 404, crossMsg: "Event criteria not found"},
	"Query.eventFilterTables": {query: `{ eventFilterTables { name purpose } }`,
		vars: func(f *fixture) map[string]any { f.auReady(); return nil }},
	"Query.eventFilterColumns": {query: `{ eventFilterColumns(table: "events") { table columns { name } semiJoins { name } } }`,
		vars: func(f *fixture) map[string]any { f.auReady(); return nil }},
	"Query.eventFilterSQL": {query: `query($id: ID!) { eventFilterSQL(id: $id) { query } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.efFilter()} }, crossCode: 404, crossMsg: "Event criteria not found"},
	"Query.generateEventFilterSQL": {query: `query($b: [QueryBlockInput!]!) { generateEventFilterSQL(queryBlocks: $b) { query params types } }`,
		vars: func(f *fixture) map[string]any { f.auReady(); return map[string]any{"b": efProbeBlocksGraph()} }},
	"Query.validateEventFilter": {query: `query($b: [QueryBlockInput!]!) { validateEventFilter(queryBlocks: $b) { valid } }`,
		vars: func(f *fixture) map[string]any { f.auReady(); return map[string]any{"b": efProbeBlocksGraph()} }},
	"Query.previewEventFilter": {query: `query($id: ID!) { previewEventFilter(id: $id, limit: 2) { columns rows rowCount } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.efFilter()} }, crossCode: 404, crossMsg: "Event criteria not found"},
	"Mutation.createEventFilter": {query: `mutation($n: String!, $b: [QueryBlockInput!]!) { createEventFilter(input: {name: $n, queryBlocks: $b}) { id } }`,
		vars: func(f *fixture) map[string]any {
			f.auReady()
			return map[string]any{"n": unique("EF"), "b": efProbeBlocksGraph()}
		}},
	"Mutation.updateEventFilter": {query: `mutation($id: ID!, $n: String!) { updateEventFilter(id: $id, input: {name: $n}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.efFilter(), "n": unique("EF")} }, crossCode: 404, crossMsg: "Event criteria not found"},
	"Mutation.deleteEventFilter": {query: `mutation($id: ID!) { deleteEventFilter(id: $id) }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.efFilter()} }, crossCode: 404, crossMsg: "Event criteria not found"},
}

func init() { maps.Copy(probes, eventFilterProbes) }

// efProbeBlocks is a valid event filter definition over the demo catalog.
func efProbeBlocks() []any {
	return []any{map[string]any{"order": 0, "setOperator": nil, "from": map[string]any{"table": "events"},
		"select": map[string]any{"items": []any{map[string]any{"kind": "column", "column": map[string]any{"table": "events", "column": "event_id"}}}},
		"where": map[string]any{"kind": "predicate", "column": map[string]any{"table": "events", "column": "event_name"},
			"comparisonOperator": "EQUALS", "value": "purchase"}}}
}

// efFilter creates a live event filter of tenant A's main project (each
// probe call gets its own, over tenant A's demo dataset) and returns its id.
func (f *fixture) efFilter() string {
	return f.createInProject("/api/event-criterias", map[string]any{"name": unique("EF"), "queryBlocks": efProbeBlocks()})
}
