package app_test

import (
	"context"
	"maps"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/txn"
)

// identityProbes: auth, tenants, projects, API keys and users, with node,
// nodes and viewer (REST and GraphQL).
var identityProbes = map[string]probe{
	"POST /auth/register": {body: func() any {
		u := unique("u")
		return map[string]any{"email": u + "@example.test", "username": u, "password": "long-enough-1", "roles": []string{"viewer"}}
	}, session: true},
	"GET /tenant/mine":    {},
	"GET /tenants":        {session: true},
	"POST /tenants":       {body: func() any { return map[string]any{"name": unique("T")} }, session: true},
	"PATCH /tenants/{id}": {path: func(f *fixture) string { return "/tenants/" + f.a.TenantID.String() }, body: func() any { return map[string]any{"time_zone": "UTC"} }, crossCode: 404, crossMsg: "Tenant not found", session: true},
	"GET /projects":       {},
	"POST /projects":      {body: func() any { return map[string]any{"name": unique("P")} }},
	"PATCH /projects/{id}": {path: func(f *fixture) string { return "/projects/" + f.a.ProjectID.String() },
		body: func() any { return map[string]any{"name": unique("P")} }, crossCode: 404, crossMsg: "El proyecto no existe."},
	"POST /api-keys": {body: func() any {
		return map[string]any{"name": "k", "permissions": []string{auth.PermProjectView}, "scope": "tenant"}
	}},
	"GET /api-keys":      {},
	"GET /api-keys/{id}": {path: func(f *fixture) string { return "/api-keys/" + f.aKey.String() }, crossCode: 403, crossMsg: "You do not own this API key"},
	"DELETE /api-keys/{id}": {path: func(f *fixture) string { return "/api-keys/" + f.aKey.String() },
		crossCode: 403, crossMsg: "You do not own this API key"},
	"PUT /api-keys/{id}/permissions": {path: func(f *fixture) string { return "/api-keys/" + f.aKey.String() + "/permissions" },
		body: func() any { return map[string]any{"permissions": []string{auth.PermProjectView}} }, crossCode: 403, crossMsg: "You do not own this API key"},
	"GET /users":        {},
	"GET /users/{id}":   {path: func(f *fixture) string { return "/users/" + f.aUser.String() }, crossCode: 404, crossMsg: "User not found"},
	"PATCH /users/{id}": {path: func(f *fixture) string { return "/users/" + f.aUser.String() }, body: func() any { return map[string]any{"first_name": "X"} }, crossCode: 404, crossMsg: "User not found", session: true},
	"PUT /user/{id}/roles": {path: func(f *fixture) string { return "/user/" + f.aUser.String() + "/roles" },
		body: func() any { return map[string]any{"roles": []string{"operator"}} }, crossCode: 403, crossMsg: "Cannot modify roles for user outside your active tenant", session: true},

	"Query.node": {query: `query($id: ID!) { node(id: $id) { id } }`, vars: func(f *fixture) map[string]any { return map[string]any{"id": f.a.ProjectID} }, crossCode: 404, crossMsg: "Node not found",
		extra: []string{auth.PermProjectView}},
	"Query.nodes": {query: `query($id: ID!) { nodes(ids: [$id]) { id } }`, vars: func(f *fixture) map[string]any { return map[string]any{"id": f.a.ProjectID} },
		extra: []string{auth.PermProjectView}},
	"Query.viewer":              {query: `{ viewer { isAPIKey } }`},
	"Query.projects":            {query: `{ projects { totalCount } }`},
	"Query.apiKeys":             {query: `{ apiKeys { totalCount } }`},
	"Query.users":               {query: `{ users { totalCount } }`},
	"Query.administeredTenants": {query: `{ administeredTenants { id } }`, session: true},
	"Mutation.updateProject": {query: `mutation($id: ID!, $n: String!) { updateProject(id: $id, input: {name: $n}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.a.ProjectID, "n": unique("P")} }, crossCode: 404, crossMsg: "El proyecto no existe."},
	"Mutation.createProject": {query: `mutation($n: String!) { createProject(input: {name: $n}) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"n": unique("P")} }},
	"Mutation.createAPIKey": {query: `mutation { createAPIKey(input: {name: "k", permissions: ["project:view"], scope: tenant}) { plaintextKey } }`},
	"Mutation.revokeAPIKey": {query: `mutation($id: ID!) { revokeAPIKey(id: $id) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.aKey} }, crossCode: 403, crossMsg: "You do not own this API key"},
	"Mutation.updateAPIKeyPermissions": {query: `mutation($id: ID!) { updateAPIKeyPermissions(id: $id, permissions: ["project:view"]) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.aKey} }, crossCode: 403, crossMsg: "You do not own this API key"},
	"Mutation.registerUser": {query: `mutation($u: String!, $e: String!) { registerUser(input: {email: $e, username: $u, password: "long-enough-1", roles: [viewer]}) { id } }`,
		vars: func(*fixture) map[string]any {
			u := unique("u")
			return map[string]any{"u": u, "e": u + "@example.test"}
		}, session: true},
	"Mutation.updateUser": {query: `mutation($id: ID!) { updateUser(id: $id, input: {firstName: "X"}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.aUser} }, crossCode: 404, crossMsg: "User not found", session: true},
	"Mutation.setUserRoles": {query: `mutation($id: ID!) { setUserRoles(id: $id, roles: [operator]) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.aUser} }, crossCode: 403, crossMsg: "Cannot modify roles for user outside your active tenant", session: true},
	"Mutation.createTenant": {query: `mutation($n: String!) { createTenant(input: {name: $n}) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"n": unique("T")} }, session: true},
	"Mutation.updateTenant": {query: `mutation($id: ID!) { updateTenant(id: $id, input: {timeZone: "UTC"}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.a.TenantID} }, crossCode: 404, crossMsg: "Tenant not found", session: true},
}

// trashDispatchProbes: the trash and dispatch (entries of tenant A created
// by the path functions).
var trashDispatchProbes = map[string]probe{
	"GET /trash":            {},
	"GET /trash/settings":   {},
	"PATCH /trash/settings": {body: func() any { return map[string]any{"retention_days": 30} }},
	"GET /trash/{id}":       {path: func(f *fixture) string { return "/trash/" + f.trashEntry() }, crossCode: 404, crossMsg: "Trash record not found"},
	"POST /trash/{id}/restore": {id: (*fixture).trashEntry,
		crossCode: 404, crossMsg: "Trash record not found", extra: []string{auth.PermRouteDelete}},
	"DELETE /trash/{id}":           {path: func(f *fixture) string { return "/trash/" + f.trashEntry() }, crossCode: 404, crossMsg: "Trash record not found"},
	"POST /dispatch-providers":     {body: func() any { return map[string]any{"name": unique("P"), "channel": "SMS", "kind": "log"} }},
	"GET /dispatch-providers":      {},
	"GET /dispatch-providers/{id}": {id: (*fixture).provider, crossCode: 404, crossMsg: "Dispatch provider not found"},
	"PATCH /dispatch-providers/{id}": {id: (*fixture).provider,
		body: func() any { return map[string]any{"name": unique("P")} }, crossCode: 404, crossMsg: "Dispatch provider not found"},
	"DELETE /dispatch-providers/{id}": {id: (*fixture).provider, crossCode: 404, crossMsg: "Dispatch provider not found"},
	"POST /dispatch-providers/{providerId}/channel-definitions": {path: func(f *fixture) string { return "/dispatch-providers/" + f.provider() + "/channel-definitions" },
		body: func() any { return map[string]any{"name": unique("D")} }, crossCode: 404, crossMsg: "Dispatch provider not found"},
	"GET /dispatch-providers/{providerId}/channel-definitions": {path: func(f *fixture) string { return "/dispatch-providers/" + f.provider() + "/channel-definitions" },
		crossCode: 404, crossMsg: "Dispatch provider not found"},
	"PATCH /dispatch-providers/{providerId}/channel-definitions/{definitionId}": {path: func(f *fixture) string { return f.definition() },
		body: func() any { return map[string]any{"template": "x"} }, crossCode: 404, crossMsg: "Dispatch provider not found"},
	"GET /projects/{projectId}/dispatch-configs": {path: func(f *fixture) string { return "/projects/" + f.a.ProjectID.String() + "/dispatch-configs" },
		crossCode: 404, crossMsg: "El proyecto no existe."},
	"PUT /projects/{projectId}/dispatch-configs/{channel}": {path: func(f *fixture) string { return "/projects/" + f.a.ProjectID.String() + "/dispatch-configs/SMS" },
		body: func() any { return map[string]any{"provider_id": uuid.NewString()} }, crossCode: 404, crossMsg: "El proyecto no existe."},

	"Query.trashRecords":  {query: `{ trashRecords { totalCount } }`},
	"Query.trashSettings": {query: `{ trashSettings { retentionDays } }`},
	"Mutation.restoreTrashRecord": {query: `mutation($id: ID!) { restoreTrashRecord(id: $id) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.trashEntry()} }, crossCode: 404, crossMsg: "Trash record not found",
		extra: []string{auth.PermRouteDelete}},
	"Mutation.purgeTrashRecord": {query: `mutation($id: ID!) { purgeTrashRecord(id: $id) }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.trashEntry()} }, crossCode: 404, crossMsg: "Trash record not found"},
	"Mutation.updateTrashSettings": {query: `mutation { updateTrashSettings(input: {retentionDays: 30}) { retentionDays } }`},

	"Query.dispatchProviders": {query: `{ dispatchProviders { totalCount } }`},
	"Query.dispatchConfigs": {query: `query($p: ID!) { dispatchConfigs(projectID: $p) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"p": f.a.ProjectID} }, crossCode: 404, crossMsg: "El proyecto no existe."},
	"Mutation.createDispatchProvider": {query: `mutation($n: String!) { createDispatchProvider(input: {name: $n, channel: SMS, kind: LOG}) { id } }`,
		vars: func(*fixture) map[string]any { return map[string]any{"n": unique("P")} }},
	"Mutation.updateDispatchProvider": {query: `mutation($id: ID!, $n: String!) { updateDispatchProvider(id: $id, input: {name: $n}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.provider(), "n": unique("P")} }, crossCode: 404, crossMsg: "Dispatch provider not found"},
	"Mutation.deleteDispatchProvider": {query: `mutation($id: ID!) { deleteDispatchProvider(id: $id) }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"id": f.provider()} }, crossCode: 404, crossMsg: "Dispatch provider not found"},
	"Mutation.createChannelDefinition": {query: `mutation($p: ID!, $n: String!) { createChannelDefinition(providerID: $p, input: {name: $n}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"p": f.provider(), "n": unique("D")} }, crossCode: 404, crossMsg: "Dispatch provider not found"},
	"Mutation.updateChannelDefinition": {query: `mutation($p: ID!, $id: ID!) { updateChannelDefinition(providerID: $p, id: $id, input: {template: "x"}) { id } }`,
		vars: func(f *fixture) map[string]any {
			parts := strings.Split(f.definition(), "/") // /dispatch-providers/{p}/channel-definitions/{d}
			return map[string]any{"p": parts[2], "id": parts[4]}
		}, crossCode: 404, crossMsg: "Dispatch provider not found"},
	"Mutation.putDispatchConfig": {query: `mutation($p: ID!, $prov: ID!) { putDispatchConfig(projectID: $p, channel: SMS, input: {providerID: $prov}) { id } }`,
		vars: func(f *fixture) map[string]any { return map[string]any{"p": f.a.ProjectID, "prov": f.provider()} }, crossCode: 404, crossMsg: "El proyecto no existe."},
}

func init() {
	maps.Copy(probes, identityProbes)
	maps.Copy(probes, trashDispatchProbes)
}

// trashEntry archives a new route of tenant A and returns its trash entry id.
func (f *fixture) trashEntry() string {
	ctx, c := f.aCtx(), f.env.App.DB.Client
	r := c.Route.Create().SetTenantID(f.a.TenantID).SetCode(unique("R")).SetName("R").SaveX(ctx)
	if err := txn.Run(ctx, c, func(ctx context.Context, tx *ent.Client) error {
		if err := tx.Route.UpdateOneID(r.ID).SetArchivedAt(time.Now()).Exec(ctx); err != nil {
			return err
		}
		return trash.Archive(ctx, tx, trash.Record{Kind: trash.KindRoute, RecordID: r.ID, Label: r.Code})
	}); err != nil {
		panic(err)
	}
	return c.TrashRecord.Query().Where(trashrecord.RecordID(r.ID)).OnlyX(ctx).ID.String()
}

// provider creates a dispatch provider of tenant A and returns its id.
func (f *fixture) provider() string {
	return f.env.App.DB.Client.DispatchProvider.Create().SetTenantID(f.a.TenantID).SetName(unique("P")).
		SetChannel("SMS").SetKind("log").SaveX(f.aCtx()).ID.String()
}

// definition creates a provider and a channel definition of tenant A and returns the definition's path.
func (f *fixture) definition() string {
	pid := f.provider()
	d := f.env.App.DB.Client.ChannelDefinition.Create().SetTenantID(f.a.TenantID).SetProviderID(uuid.MustParse(pid)).
		SetName(unique("D")).SetChannel("SMS").SaveX(f.aCtx())
	return "/dispatch-providers/" + pid + "/channel-definitions/" + d.ID.String()
}
