package rest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/demo"
	"github.com/reten-io/reten/internal/webhook"
)

// listSeed is what the list requests name: the demo tenant's records.
type listSeed struct {
	commerce, externalID, agc, rule, run, provider, endpoint, project, tenantID string
	tenant, inProject                                                           apptest.Headers // the super_admin's, in a project or not
}

// value is a documented value of a filter or path parameter.
func (s listSeed) value(tb testing.TB, route string, p listParam) string {
	tb.Helper()
	if enum, ok := p.Schema["enum"].([]any); ok {
		return fmt.Sprint(enum[0])
	}
	switch p.Name {
	case "commerce_id":
		return s.commerce
	case "commerceIdentifier":
		return s.externalID
	case "activity_generation_config_id":
		return s.agc
	case "rule_id":
		return s.rule
	case "run_id":
		return s.run
	case "providerId":
		return s.provider
	case "projectId":
		return s.project
	case "id":
		switch {
		case strings.HasPrefix(route, "/api/commerces/"):
			return s.commerce
		case strings.HasPrefix(route, "/api/activity-generation-configs/"):
			return s.agc
		case strings.HasPrefix(route, "/api/webhook-endpoints/"):
			return s.endpoint
		}
	case "code":
		return "at_risk"
	case "event_type":
		return webhook.EventTypes[0]
	case "scheduled_from", "scheduled_to":
		return "2026-01-01T00:00:00Z"
	}
	switch p.Schema["format"] {
	case "date-time":
		return "2026-01-01T00:00:00Z"
	case "uuid":
		tb.Fatalf("%s: no value for the uuid %s", route, p.Name)
	}
	switch p.Schema["type"] {
	case "boolean":
		return "true"
	case "string":
		return "a"
	}
	tb.Fatalf("%s: no value for %s %v", route, p.Name, p.Schema)
	return ""
}

// seedLists runs the demo (commerces with their users, the field
// organisation, an AGC with its rules, runs, snapshots, transitions,
// decisions and activities) and adds, through the API, what it does not
// make: an address, a supervisor, an audience, an event filter, a provider
// with a channel definition and a project's dispatch config, a webhook
// endpoint with a delivery, an API key and a trashed route.
func seedLists(tb testing.TB, env *apptest.Env) listSeed {
	tb.Helper()
	ctx := context.Background()
	res, err := env.App.Demo(ctx, dataset.DemoInput{Options: demo.Options{Now: time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)},
		Password: apptest.Password})
	if err != nil {
		tb.Fatal(err)
	}
	short := strings.ReplaceAll(res.TenantID, "-", "")[:8]
	tb.Cleanup(func() { _, _ = env.App.DB.SQL.Exec(`DROP SCHEMA IF EXISTS "demo_` + short + `" CASCADE`) })
	tid, pid := uuid.MustParse(res.TenantID), uuid.MustParse(res.ProjectID)
	token := env.Login(dataset.DemoEmail) // the demo's super_admin
	s := listSeed{agc: res.ActivityGenerationConfigID, project: res.ProjectID, tenantID: res.TenantID,
		tenant: apptest.JWT(token, tid, uuid.Nil), inProject: apptest.JWT(token, tid, pid)}
	th, ph := s.tenant, s.inProject
	do := func(method, path string, body any, h apptest.Headers, status int) map[string]any {
		tb.Helper()
		res := env.Do(method, path, body, h)
		if res.Status != status {
			tb.Fatalf("%s %s: %d %s", method, path, res.Status, res.Body)
		}
		if status == 204 {
			return nil
		}
		return res.Map(tb)
	}
	first := func(table, column string) string {
		tb.Helper()
		var v string
		if err := env.App.DB.SQL.QueryRow(`SELECT `+column+` FROM `+table+` WHERE tenant_id = $1 ORDER BY id LIMIT 1`, tid).Scan(&v); err != nil {
			tb.Fatalf("%s: %v", table, err)
		}
		return v
	}
	s.commerce, s.externalID = first("commerces", "id"), first("commerces", "external_id")
	s.rule, s.run = first("generation_rules", "id"), first("lifecycle_runs", "id")
	do("POST", "/api/commerces/"+s.commerce+"/addresses", map[string]any{"source": "RETEN", "is_primary": true}, th, 201)
	do("POST", "/api/supervisors", map[string]any{"name": "Sara"}, th, 201)
	do("POST", "/api/audience-criterias", map[string]any{"name": "Quito", "queryBlocks": auBlocks(auCityBlock("Quito"))}, ph, 201)
	do("POST", "/api/event-criterias", map[string]any{"name": "Compras", "queryBlocks": efPurchases()}, ph, 201)
	s.provider = do("POST", "/api/dispatch-providers", map[string]any{"name": "Log", "channel": "SMS", "kind": "log"}, th, 201)["id"].(string)
	do("POST", "/api/dispatch-providers/"+s.provider+"/channel-definitions", map[string]any{"name": "d"}, th, 201)
	do("PUT", "/api/projects/"+s.project+"/dispatch-configs/SMS", map[string]any{"provider_id": s.provider}, th, 201)
	s.endpoint = do("POST", "/api/webhook-endpoints", map[string]any{"url": "https://hooks.example.com/reten",
		"event_types": webhook.EventTypes}, th, 201)["id"].(string)
	do("POST", "/api/webhook-endpoints/"+s.endpoint+"/ping", nil, th, 200)
	do("POST", "/api/api-keys", map[string]any{"name": "Integración", "scope": "tenant", "permissions": []string{"activity:view"}}, th, 201)
	do("DELETE", "/api/routes/"+first("routes", "id"), nil, th, 204)
	return s
}
