package rest_test

import (
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

const (
	integrationTasksPath   = "/api/integration/activities/tasks"
	integrationResultsPath = "/api/integration/activity-results/tasks"
	msgNeedsProject        = "Falta el header obligatorio x-project-id: un resultado sin activity_id necesita proyecto."
)

// intFixture is a tenant with two projects (main and Second), a task in each
// and a message in main; other is another tenant with a task of its own.
type intFixture struct {
	*resFixture
	second                    uuid.UUID
	hSecond                   apptest.Headers
	mainTask, secondTask, msg string
	otherTask                 string
}

func newIntFixture(t *testing.T, env *apptest.Env) *intFixture {
	f := &intFixture{resFixture: newResFixture(t, env, "Acme")}
	f.second = uuid.MustParse(actOK(t, env.Do("POST", "/api/projects", map[string]any{"name": "Second"}, f.th), 201)["id"].(string))
	f.hSecond = f.th.With("x-project-id", f.second.String())
	f.mainTask = f.task(resScheduledAt)
	f.msg = actOK(t, env.Do("POST", "/api/activities", map[string]any{"commerce_id": f.shopID, "type": "MESSAGE", "channel": "SMS",
		"scheduled_at": resScheduledAt}, f.h), 201)["id"].(string)
	f.secondTask = actOK(t, env.Do("POST", "/api/activities", map[string]any{"commerce_id": f.shopID, "type": "TASK", "channel": "EMAIL",
		"scheduled_at": "2030-05-02T10:00:00Z"}, f.hSecond), 201)["id"].(string)
	other := newResFixture(t, env, "Other")
	f.otherTask = other.task(resScheduledAt)
	return f
}

// listIDs returns the ids and projectIds of a task page, and its total.
func listIDs(t *testing.T, res *apptest.Response) (ids, projects []string, total float64) {
	t.Helper()
	page := actOK(t, res, 200)
	for _, it := range page["data"].([]any) {
		m := it.(map[string]any)
		ids = append(ids, m["id"].(string))
		projects = append(projects, m["projectId"].(string))
	}
	return ids, projects, page["meta"].(map[string]any)["total"].(float64)
}

func TestIntegrationTasksAreProjectOptional(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newIntFixture(t, env)
		main, second := f.ten.ProjectID.String(), f.second.String()

		// No project: every project's tasks of the tenant (no message, no other tenant's).
		ids, projects, total := listIDs(t, env.Do("GET", integrationTasksPath, nil, f.th))
		if !slices.Equal(ids, []string{f.mainTask, f.secondTask}) || !slices.Equal(projects, []string{main, second}) || total != 2 {
			t.Fatalf("tenant-wide: ids %v projects %v total %v", ids, projects, total)
		}
		// The header narrows; filters apply as on /activities/tasks.
		ids, _, total = listIDs(t, env.Do("GET", integrationTasksPath, nil, f.hSecond))
		if !slices.Equal(ids, []string{f.secondTask}) || total != 1 {
			t.Fatalf("narrowed: %v %v", ids, total)
		}
		ids, _, _ = listIDs(t, env.Do("GET", integrationTasksPath+"?channel=SMS", nil, f.th))
		if !slices.Equal(ids, []string{f.mainTask}) {
			t.Fatalf("filtered: %v", ids)
		}
		apptest.ExpectError(t, env.Do("GET", integrationTasksPath+"?status=DONE", nil, f.th), 400,
			[]string{"status must be one of the following values: READY, UNRESOLVED, DISPATCHED, COMPLETED, CANCELED, FAILED, RETRYING"})

		// A header is validated as on a project-scoped route.
		apptest.ExpectError(t, env.Do("GET", integrationTasksPath, nil, f.th.With("x-project-id", "zzz")), 400, "El header x-project-id debe ser un UUID válido.")
		apptest.ExpectError(t, env.Do("GET", integrationTasksPath, nil, f.th.With("x-project-id", uuid.NewString())), 404, "El proyecto no existe.")
		other := env.Bootstrap("Third")
		apptest.ExpectError(t, env.Do("GET", integrationTasksPath, nil, f.th.With("x-project-id", other.ProjectID.String())), 404, "El proyecto no existe.")

		// Keys: a tenant key covers the tenant, a project key its project.
		tenantKey, _ := env.CreateKey(f.ten.TenantID, f.ten.UserID, uuid.Nil, auth.PermActivityView)
		if ids, _, _ := listIDs(t, env.Do("GET", integrationTasksPath, nil, apptest.Key(tenantKey))); len(ids) != 2 {
			t.Fatalf("tenant key: %v", ids)
		}
		projectKey, _ := env.CreateKey(f.ten.TenantID, f.ten.UserID, f.second, auth.PermActivityView)
		if ids, _, _ := listIDs(t, env.Do("GET", integrationTasksPath, nil, apptest.Key(projectKey))); !slices.Equal(ids, []string{f.secondTask}) {
			t.Fatalf("project key: %v", ids)
		}
		apptest.ExpectError(t, env.Do("GET", integrationTasksPath, nil, apptest.Key(projectKey).With("x-project-id", main)), 403,
			"La API key pertenece a un proyecto distinto del que declara el header x-project-id.")

		// Order: project check, then permission.
		noPerm, _ := env.CreateKey(f.ten.TenantID, f.ten.UserID, uuid.Nil, auth.PermActivityResultSubmit)
		apptest.ExpectError(t, env.Do("GET", integrationTasksPath, nil, apptest.Key(noPerm).With("x-project-id", "zzz")), 400, "El header x-project-id debe ser un UUID válido.")
		apptest.ExpectError(t, env.Do("GET", integrationTasksPath, nil, apptest.Key(noPerm)), 403, "Required permissions: activity:view")
	})
}

func TestIntegrationResultTakesItsActivityProject(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newIntFixture(t, env)
		second := f.second.String()

		// No project: the result takes the project of its activity, which syncs.
		res := actOK(t, env.Do("POST", integrationResultsPath, linked(f.secondTask, "COMPLETED", "success"), f.th), 201)
		if res["projectId"] != second || res["activityId"] != f.secondTask || res["source"] != "RETEN_ACTIVITY" || res["resultStatus"] != "COMPLETED" {
			t.Fatalf("result: %v", res)
		}
		if st := actOK(t, env.Do("GET", "/api/activities/"+f.secondTask, nil, f.hSecond), 200)["status"]; st != "COMPLETED" {
			t.Fatalf("activity status %v", st)
		}
		if ev := actEvents(t, env, f.secondTask, f.hSecond); !slices.Equal(ev, []string{"CREATED:null>READY", "COMPLETED:READY>COMPLETED"}) {
			t.Fatalf("events %v", ev)
		}

		// The header narrows: another project's activity matches nothing;
		// another tenant's never does, nor a message: the result is then
		// standalone and needs its commerce reference.
		for _, c := range []struct {
			id string
			h  apptest.Headers
		}{{f.secondTask, f.h}, {f.otherTask, f.th}, {f.msg, f.th}, {uuid.NewString(), f.th}} {
			apptest.ExpectError(t, env.Do("POST", integrationResultsPath, linked(c.id, "COMPLETED", "success"), c.h), 400, []string{msgCommerceExt})
		}

		// The 422s of the project-scoped route apply.
		actOK(t, env.Do("POST", "/api/activities/"+f.mainTask+"/cancel", map[string]any{}, f.h), 200)
		apptest.ExpectError(t, env.Do("POST", integrationResultsPath, linked(f.mainTask, "COMPLETED", "success"), f.th), 422, msgState)

		// A result without activity_id needs a project: the 400 comes after the body rules.
		standalone := map[string]any{"commerce_external_id": "EXT-Acme", "occurred_at": resOccurredAt, "status": "COMPLETED",
			"task_result": map[string]any{"result": "success"}}
		apptest.ExpectError(t, env.Do("POST", integrationResultsPath, standalone, f.th), 400, msgNeedsProject)
		withProvider := map[string]any{"provider_activity_id": "prov-1", "commerce_external_id": "EXT-Acme", "occurred_at": resOccurredAt,
			"status": "COMPLETED", "task_result": map[string]any{"result": "success"}}
		apptest.ExpectError(t, env.Do("POST", integrationResultsPath, withProvider, f.th), 400, msgNeedsProject)
		apptest.ExpectError(t, env.Do("POST", integrationResultsPath, map[string]any{"status": "COMPLETED"}, f.th), 400, []string{
			"occurred_at should not be empty", "commerce_external_id should not be empty when activity_id is absent", "task_result should not be empty"})
		tenantKey, _ := env.CreateKey(f.ten.TenantID, f.ten.UserID, uuid.Nil, auth.PermActivityResultSubmit)
		apptest.ExpectError(t, env.Do("POST", integrationResultsPath, standalone, apptest.Key(tenantKey)), 400, msgNeedsProject)

		// With a project (header or project key) it is a standalone result of that project.
		res = actOK(t, env.Do("POST", integrationResultsPath, standalone, f.h), 201)
		if res["projectId"] != f.ten.ProjectID.String() || res["source"] != "STANDALONE" || res["activityId"] != nil || res["commerceId"] != f.shopID {
			t.Fatalf("standalone with header: %v", res)
		}
		projectKey, _ := env.CreateKey(f.ten.TenantID, f.ten.UserID, f.second, auth.PermActivityResultSubmit)
		res = actOK(t, env.Do("POST", integrationResultsPath, standalone, apptest.Key(projectKey)), 201)
		if res["projectId"] != second || res["source"] != "STANDALONE" {
			t.Fatalf("standalone with project key: %v", res)
		}
		apptest.ExpectError(t, env.Do("POST", integrationResultsPath, standalone, apptest.Key(projectKey).With("x-project-id", f.ten.ProjectID.String())),
			403, "La API key pertenece a un proyecto distinto del que declara el header x-project-id.")

		// Order: project (when sent), permission, body, then the project-less 400.
		noPerm, _ := env.CreateKey(f.ten.TenantID, f.ten.UserID, uuid.Nil, auth.PermActivityView)
		bad := map[string]any{"foo": 1}
		apptest.ExpectError(t, env.Do("POST", integrationResultsPath, bad, apptest.Key(noPerm).With("x-project-id", "zzz")), 400, "El header x-project-id debe ser un UUID válido.")
		apptest.ExpectError(t, env.Do("POST", integrationResultsPath, bad, apptest.Key(noPerm).With("x-project-id", uuid.NewString())), 404, "El proyecto no existe.")
		apptest.ExpectError(t, env.Do("POST", integrationResultsPath, bad, apptest.Key(noPerm)), 403, "Required permissions: activity-result:submit")
		apptest.ExpectError(t, env.Do("POST", integrationResultsPath, bad, apptest.Key(tenantKey)), 400, []string{"property foo should not exist",
			"occurred_at should not be empty", msgStatusEnum, "commerce_external_id should not be empty when activity_id is absent",
			"task_result should not be empty"})
	})
}

// TestIntegrationGraphQL: the project-optional GraphQL fields.
func TestIntegrationGraphQL(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newIntFixture(t, env)
		var tasks struct {
			Data struct {
				IntegrationTasks struct {
					TotalCount int
					Edges      []struct {
						Node struct{ ID, ProjectID string }
					}
				} `json:"integrationTasks"`
			} `json:"data"`
		}
		env.GraphQL(`{ integrationTasks(orderBy: {field: SCHEDULED_AT}) { totalCount edges { node { id projectID } } } }`, nil, f.th).JSON(t, &tasks)
		got := tasks.Data.IntegrationTasks
		if got.TotalCount != 2 || len(got.Edges) != 2 || got.Edges[0].Node.ID != f.mainTask || got.Edges[1].Node.ID != f.secondTask ||
			got.Edges[1].Node.ProjectID != f.second.String() {
			t.Fatalf("integrationTasks: %+v", got)
		}
		env.GraphQL(`{ integrationTasks { totalCount edges { node { id projectID } } } }`, nil, f.hSecond).JSON(t, &tasks)
		if got := tasks.Data.IntegrationTasks; got.TotalCount != 1 || got.Edges[0].Node.ID != f.secondTask {
			t.Fatalf("narrowed integrationTasks: %+v", got)
		}

		var sub struct {
			Data struct {
				Submit *struct{ ID, ProjectID, ResultStatus string } `json:"submitIntegrationActivityResult"`
			} `json:"data"`
			Errors []struct {
				Message    string
				Extensions map[string]any
			} `json:"errors"`
		}
		env.GraphQL(`mutation($a: ID!) { submitIntegrationActivityResult(input: {activityID: $a, occurredAt: "2030-05-01T12:00:00Z",
			resultStatus: COMPLETED, resultCode: success}) { id projectID resultStatus } }`, map[string]any{"a": f.secondTask}, f.th).JSON(t, &sub)
		if sub.Data.Submit == nil || sub.Data.Submit.ProjectID != f.second.String() || sub.Data.Submit.ResultStatus != "COMPLETED" {
			t.Fatalf("submitIntegrationActivityResult: %+v", sub)
		}
		env.GraphQL(`mutation { submitIntegrationActivityResult(input: {commerceExternalID: "EXT-Acme", occurredAt: "2030-05-01T12:00:00Z",
			resultStatus: COMPLETED, resultCode: success}) { id } }`, nil, f.th).JSON(t, &sub)
		if len(sub.Errors) != 1 || sub.Errors[0].Message != "Falta el header obligatorio x-project-id: un resultado sin activityID necesita proyecto." || sub.Errors[0].Extensions["statusCode"] != float64(400) {
			t.Fatalf("project-less: %+v", sub)
		}
	})
}
