package graph_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/dispatch"
)

func TestTrashAndDispatchOverGraphQL(t *testing.T) {
	each(t, newOrgSetup, func(t *testing.T, env *apptest.Env, s orgSetup) {

		t.Run("trash settings and purge", func(t *testing.T) {
			expectData(t, env.GraphQL(`{ trashSettings { retentionDays } }`, nil, s.h), M{"trashSettings": M{"retentionDays": 30}})
			expectData(t, env.GraphQL(`mutation { updateTrashSettings(input: {retentionDays: 45}) { retentionDays } }`, nil, s.h),
				M{"updateTrashSettings": M{"retentionDays": 45}})
			expectData(t, env.GraphQL(`{ trashSettings { retentionDays } }`, nil, s.h), M{"trashSettings": M{"retentionDays": 45}})
			expectData(t, env.GraphQL(`{ trashSettings { retentionDays } }`, nil, s.bh), M{"trashSettings": M{"retentionDays": 30}})
			expectInvalid(t, env.GraphQL(`mutation { updateTrashSettings(input: {retentionDays: 0}) { retentionDays } }`, nil, s.h),
				"updateTrashSettings", "retentionDays must not be less than 1")
			expectFieldError(t, env.GraphQL(`{ trashSettings { retentionDays } }`, nil, s.viewer),
				"trashSettings", "Required permissions: trash:manage-settings", "FORBIDDEN", 403)

			rt := gqlOK(t, env, s.h, `mutation { createRoute(input: {code: "TMP", name: "Temporal"}) { id } }`, nil)
			routeID := str(t, rt, "createRoute", "id")
			gqlOK(t, env, s.h, `mutation($id: ID!) { deleteRoute(id: $id) }`, M{"id": routeID})
			tid := trashOf(t, env, s.h, routeID, "ROUTE")
			expectFieldError(t, env.GraphQL(`mutation($id: ID!) { purgeTrashRecord(id: $id) }`, M{"id": tid}, s.bh),
				"purgeTrashRecord", "Trash record not found", "NOT_FOUND", 404)
			expectData(t, env.GraphQL(`mutation($id: ID!) { purgeTrashRecord(id: $id) }`, M{"id": tid}, s.h), M{"purgeTrashRecord": true})
			expectFieldError(t, env.GraphQL(`mutation($id: ID!) { restoreTrashRecord(id: $id) { id } }`, M{"id": tid}, s.h),
				"restoreTrashRecord", "Trash record not found", "NOT_FOUND", 404)
		})

		t.Run("providers keep credentials write-only", func(t *testing.T) {
			const secret = "s3cr3t-t0ken"
			const fields = `id name channel kind isActive settings hasCredentials`
			res := env.GraphQL(`mutation($c: Map) { createDispatchProvider(input: {name: "Bitácora", channel: SMS, kind: LOG,
				settings: {note: "x"}, credentials: $c}) { `+fields+` } }`, M{"c": M{"token": secret}}, s.h)
			if strings.Contains(string(res.Body), secret) {
				t.Fatalf("the response contains the secret: %s", res.Body)
			}
			var out struct {
				Data struct {
					P M `json:"createDispatchProvider"`
				} `json:"data"`
			}
			res.JSON(t, &out)
			pid, _ := out.Data.P["id"].(string)
			expectData(t, res, M{"createDispatchProvider": M{"id": pid, "name": "Bitácora", "channel": "SMS", "kind": "LOG",
				"isActive": true, "settings": M{"note": "x"}, "hasCredentials": true}})
			list := env.GraphQL(`{ dispatchProviders { totalCount edges { node { `+fields+` } } } }`, nil, s.h)
			if strings.Contains(string(list.Body), secret) {
				t.Fatalf("the connection contains the secret: %s", list.Body)
			}
			expectData(t, list, M{"dispatchProviders": M{"totalCount": 1, "edges": L{M{"node": M{"id": pid, "name": "Bitácora", "channel": "SMS",
				"kind": "LOG", "isActive": true, "settings": M{"note": "x"}, "hasCredentials": true}}}}})
			// No field of the type returns credentials.
			intro := gqlOK(t, env, s.h, `{ __type(name: "DispatchProvider") { fields { name } } }`, nil)
			for _, f := range get(t, intro, "__type", "fields").([]any) {
				if strings.Contains(strings.ToLower(str(t, f, "name")), "credential") && str(t, f, "name") != "hasCredentials" {
					t.Fatalf("DispatchProvider exposes %s", str(t, f, "name"))
				}
			}
			expectData(t, env.GraphQL(`mutation($id: ID!) { updateDispatchProvider(id: $id, input: {clearCredentials: true, name: "Bitácora 2"}) { name hasCredentials } }`,
				M{"id": pid}, s.h), M{"updateDispatchProvider": M{"name": "Bitácora 2", "hasCredentials": false}})
			expectFieldError(t, env.GraphQL(`mutation($id: ID!) { updateDispatchProvider(id: $id, input: {name: "Robado"}) { id } }`, M{"id": pid}, s.bh),
				"updateDispatchProvider", "Dispatch provider not found", "NOT_FOUND", 404)
			expectFieldError(t, env.GraphQL(`mutation { createDispatchProvider(input: {name: "X", channel: SMS, kind: LOG}) { id } }`, nil, s.viewer),
				"createDispatchProvider", "Required permissions: dispatch:manage", "FORBIDDEN", 403)

			def := gqlOK(t, env, s.h, `mutation($p: ID!) { createChannelDefinition(providerID: $p, input: {name: "Recordatorio", template: "Hola", ratePerMinute: 60}) {
				id name channel template ratePerMinute } }`, M{"p": pid})
			did := str(t, def, "createChannelDefinition", "id")
			if canon(t, def) != canon(t, M{"createChannelDefinition": M{"id": did, "name": "Recordatorio", "channel": "SMS", "template": "Hola", "ratePerMinute": 60}}) {
				t.Fatalf("createChannelDefinition = %v", def)
			}
			expectData(t, env.GraphQL(`mutation($p: ID!, $id: ID!) { updateChannelDefinition(providerID: $p, id: $id, input: {template: "Chao", clearRatePerMinute: true}) {
				template ratePerMinute } }`, M{"p": pid, "id": did}, s.h),
				M{"updateChannelDefinition": M{"template": "Chao", "ratePerMinute": nil}})

			expectData(t, env.GraphQL(`mutation($proj: ID!, $p: ID!, $d: ID!) { putDispatchConfig(projectID: $proj, channel: SMS,
				input: {providerID: $p, channelDefinitionID: $d, maxAttempts: 5}) { channel providerID channelDefinitionID maxAttempts retryBackoffSeconds isActive } }`,
				M{"proj": s.acme.ProjectID.String(), "p": pid, "d": did}, s.h),
				M{"putDispatchConfig": M{"channel": "SMS", "providerID": pid, "channelDefinitionID": did, "maxAttempts": 5,
					"retryBackoffSeconds": 300, "isActive": true}})
			expectData(t, env.GraphQL(`query($proj: ID!) { dispatchConfigs(projectID: $proj) { channel maxAttempts provider { name } } }`,
				M{"proj": s.acme.ProjectID.String()}, s.h),
				M{"dispatchConfigs": L{M{"channel": "SMS", "maxAttempts": 5, "provider": M{"name": "Bitácora 2"}}}})
			expectFieldError(t, env.GraphQL(`query($proj: ID!) { dispatchConfigs(projectID: $proj) { id } }`,
				M{"proj": s.acme.ProjectID.String()}, s.bh), "dispatchConfigs", "El proyecto no existe.", "NOT_FOUND", 404)

			other := gqlOK(t, env, s.h, `mutation { createDispatchProvider(input: {name: "Otro", channel: EMAIL, kind: LOG}) { id } }`, nil)
			oid := str(t, other, "createDispatchProvider", "id")
			expectData(t, env.GraphQL(`mutation($id: ID!) { deleteDispatchProvider(id: $id) }`, M{"id": oid}, s.h), M{"deleteDispatchProvider": true})
			expectData(t, env.GraphQL(`{ dispatchProviders { totalCount } }`, nil, s.h), M{"dispatchProviders": M{"totalCount": 1}})
		})
	})
}

// TestDispatchProviderKind: the kind is the DispatchProviderKind enum on
// input, output and filter, with exactly the driver kinds as values.
func TestDispatchProviderKind(t *testing.T) {
	each(t, newOrgSetup, func(t *testing.T, env *apptest.Env, s orgSetup) {
		want := L{}
		for _, k := range dispatch.Kinds {
			want = append(want, M{"name": strings.ToUpper(k)})
		}
		expectData(t, env.GraphQL(`{ __type(name: "DispatchProviderKind") { enumValues { name } } }`, nil, s.h),
			M{"__type": M{"enumValues": want}})

		create := `mutation($k: DispatchProviderKind!, $n: String!) {
			createDispatchProvider(input: {name: $n, channel: SMS, kind: $k, settings: {url: "http://127.0.0.1:9/hook"}}) { name kind } }`
		expectData(t, env.GraphQL(create, M{"k": "WEBHOOK", "n": "Hook"}, s.h), M{"createDispatchProvider": M{"name": "Hook", "kind": "WEBHOOK"}})
		expectData(t, env.GraphQL(create, M{"k": "LOG", "n": "Log"}, s.h), M{"createDispatchProvider": M{"name": "Log", "kind": "LOG"}})
		expectBody(t, env.GraphQL(create, M{"k": "log", "n": "Low"}, s.h), http.StatusOK, M{"data": nil, "errors": L{
			fieldError(L{"createDispatchProvider", "input", "kind"}, "input.kind must be a valid DispatchProviderKind", "BAD_REQUEST", 400)}})

		byKind := `query($k: DispatchProviderKind!) { dispatchProviders(where: {kind: $k}) { edges { node { name kind } } } }`
		expectData(t, env.GraphQL(byKind, M{"k": "WEBHOOK"}, s.h),
			M{"dispatchProviders": M{"edges": L{M{"node": M{"name": "Hook", "kind": "WEBHOOK"}}}}})
		expectData(t, env.GraphQL(`{ dispatchProviders(where: {kindIn: [LOG]}) { totalCount } }`, nil, s.h),
			M{"dispatchProviders": M{"totalCount": 1}})
	})
}
