package rest_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/reten-io/reten/internal/apptest"
)

type statusBody struct {
	ID          uuid.UUID `json:"id"`
	Code        string    `json:"code"`
	Label       string    `json:"label"`
	Stage       string    `json:"stage"`
	Description *string   `json:"description"`
	IsActive    bool      `json:"isActive"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

func (c *catalogEnv) createStatus(t *testing.T, body map[string]any) statusBody {
	t.Helper()
	res := c.env.Do("POST", "/api/retention-status-configs", body, c.a)
	if res.Status != 201 {
		t.Fatalf("create status: %d %s", res.Status, res.Body)
	}
	var out statusBody
	res.JSON(t, &out)
	return out
}

func (c *catalogEnv) listStatuses(t *testing.T, query string, h apptest.Headers) []statusBody {
	t.Helper()
	res := c.env.Do("GET", "/api/retention-status-configs"+query, nil, h)
	if res.Status != 200 {
		t.Fatalf("list statuses: %d %s", res.Status, res.Body)
	}
	var out []statusBody
	res.JSON(t, &out)
	return out
}

func statusCodes(ss []statusBody) []string {
	out := []string{}
	for _, s := range ss {
		out = append(out, s.Code)
	}
	return out
}

func TestRetentionStatusConfigs(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		c := newCatalogEnv(t, env)
		res := env.Do("POST", "/api/retention-status-configs",
			map[string]any{"code": " engaged ", "label": " Comprometido ", "stage": "ENGAGEMENT", "description": "Compra seguido"}, c.a)
		if res.Status != 201 {
			t.Fatalf("create: %d %s", res.Status, res.Body)
		}
		m := res.Map(t)
		keys := []string{}
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if want := []string{"code", "createdAt", "description", "id", "isActive", "label", "stage", "updatedAt"}; !slices.Equal(keys, want) {
			t.Fatalf("shape = %v", keys)
		}
		if m["code"] != "engaged" || m["label"] != "Comprometido" || m["stage"] != "ENGAGEMENT" || m["description"] != "Compra seguido" || m["isActive"] != true {
			t.Fatalf("created = %v", m)
		}
		engaged := uuid.MustParse(m["id"].(string))
		act := c.createStatus(t, map[string]any{"code": "activated", "label": "Activado", "stage": "ACTIVATION"})
		if act.Description != nil {
			t.Fatalf("description = %v, want null", *act.Description)
		}
		lost := c.createStatus(t, map[string]any{"code": "lost", "label": "Perdido", "stage": "RESURRECTION", "description": "  "})
		if lost.Description != nil {
			t.Fatalf("blank description stored: %q", *lost.Description)
		}

		// List ordered by code, with filters; the viewer may read.
		if got := statusCodes(c.listStatuses(t, "", c.viewer)); !slices.Equal(got, []string{"activated", "engaged", "lost"}) {
			t.Fatalf("list = %v", got)
		}
		if got := statusCodes(c.listStatuses(t, "?stage=RESURRECTION", c.a)); !slices.Equal(got, []string{"lost"}) {
			t.Fatalf("stage filter = %v", got)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/retention-status-configs?stage=OTHER", nil, c.a), 400, []string{msgCatStageValues})
		apptest.ExpectError(t, env.Do("GET", "/api/retention-status-configs?is_active=maybe", nil, c.a), 400, []string{"is_active must be a boolean value"})

		// GET one.
		res = env.Do("GET", "/api/retention-status-configs/"+engaged.String(), nil, c.viewer)
		var one statusBody
		res.JSON(t, &one)
		if res.Status != 200 || one.Code != "engaged" || one.Stage != "ENGAGEMENT" {
			t.Fatalf("get: %d %s", res.Status, res.Body)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/retention-status-configs/"+uuid.NewString(), nil, c.a), 404, msgStatusNotFound)
		apptest.ExpectError(t, env.Do("GET", "/api/retention-status-configs/nope", nil, c.a), 400, msgUUIDExpected)

		// 409 and validation.
		apptest.ExpectError(t, env.Do("POST", "/api/retention-status-configs", map[string]any{"code": "lost", "label": "X", "stage": "ACTIVATION"}, c.a),
			409, `A retention status config with code "lost" already exists`)
		apptest.ExpectError(t, env.Do("POST", "/api/retention-status-configs", map[string]any{}, c.a), 400,
			[]string{msgCatCodeEmpty, msgCatLabelEmpty, msgCatStageValues})
		apptest.ExpectError(t, env.Do("POST", "/api/retention-status-configs", map[string]any{"code": "x", "label": "X", "stage": "activation"}, c.a), 400,
			[]string{msgCatStageValues})
		apptest.ExpectError(t, env.Do("POST", "/api/retention-status-configs", map[string]any{"code": "x", "label": "X", "stage": "ACTIVATION", "is_active": false}, c.a), 400,
			[]string{"property is_active should not exist"})

		// PATCH: label, stage, description (blank clears), is_active; code immutable.
		res = env.Do("PATCH", "/api/retention-status-configs/"+engaged.String(),
			map[string]any{"label": "Fiel", "stage": "ACTIVATION", "description": "", "is_active": false}, c.a)
		var p statusBody
		res.JSON(t, &p)
		if res.Status != 200 || p.Code != "engaged" || p.Label != "Fiel" || p.Stage != "ACTIVATION" || p.Description != nil || p.IsActive {
			t.Fatalf("patch: %d %s", res.Status, res.Body)
		}
		res = env.Do("PATCH", "/api/retention-status-configs/"+engaged.String(), map[string]any{"description": "Nueva"}, c.a)
		res.JSON(t, &p)
		if res.Status != 200 || p.Description == nil || *p.Description != "Nueva" || p.Label != "Fiel" {
			t.Fatalf("patch description: %d %s", res.Status, res.Body)
		}
		apptest.ExpectError(t, env.Do("PATCH", "/api/retention-status-configs/"+engaged.String(), map[string]any{"code": "other"}, c.a), 400,
			[]string{msgCatCodeNotExist})
		apptest.ExpectError(t, env.Do("PATCH", "/api/retention-status-configs/"+engaged.String(), map[string]any{"stage": "X", "label": " "}, c.a), 400,
			[]string{msgCatLabelEmpty, msgCatStageValues})
		apptest.ExpectError(t, env.Do("PATCH", "/api/retention-status-configs/"+uuid.NewString(), map[string]any{"label": "x"}, c.a), 404, msgStatusNotFound)

		// is_active filter.
		if got := statusCodes(c.listStatuses(t, "?is_active=false", c.a)); !slices.Equal(got, []string{"engaged"}) {
			t.Fatalf("inactive = %v", got)
		}
		if got := statusCodes(c.listStatuses(t, "?is_active=true", c.a)); !slices.Equal(got, []string{"activated", "lost"}) {
			t.Fatalf("active = %v", got)
		}

		// DELETE deactivates; the row stays.
		if res := env.Do("DELETE", "/api/retention-status-configs/"+lost.ID.String(), nil, c.a); res.Status != 204 || len(res.Body) != 0 {
			t.Fatalf("delete: %d %s", res.Status, res.Body)
		}
		res = env.Do("GET", "/api/retention-status-configs/"+lost.ID.String(), nil, c.a)
		res.JSON(t, &p)
		if res.Status != 200 || p.IsActive || p.Code != "lost" {
			t.Fatalf("after delete: %d %s", res.Status, res.Body)
		}
		apptest.ExpectError(t, env.Do("DELETE", "/api/retention-status-configs/"+uuid.NewString(), nil, c.a), 404, msgStatusNotFound)

		// Cross-tenant.
		for _, call := range []struct {
			method string
			body   any
		}{{"GET", nil}, {"PATCH", map[string]any{"label": "B"}}, {"DELETE", nil}} {
			apptest.ExpectError(t, env.Do(call.method, "/api/retention-status-configs/"+act.ID.String(), call.body, c.b), 404, msgStatusNotFound)
		}
		if got := c.listStatuses(t, "", c.b); len(got) != 0 {
			t.Fatalf("tenant B sees %v", got)
		}
		if res := env.Do("POST", "/api/retention-status-configs", map[string]any{"code": "lost", "label": "L", "stage": "RESURRECTION"}, c.b); res.Status != 201 {
			t.Fatalf("tenant B same code: %d %s", res.Status, res.Body)
		}
		res = env.Do("GET", "/api/retention-status-configs/"+act.ID.String(), nil, c.a)
		res.JSON(t, &p)
		if !p.IsActive || p.Label != "Activado" {
			t.Fatalf("tenant A changed by B: %s", res.Body)
		}
	})
}
