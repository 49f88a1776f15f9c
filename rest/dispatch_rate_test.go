package rest_test

import (
	"slices"
	"testing"

	"github.com/reten-io/reten/internal/apptest"
)

// TestDispatchKeepsTheChannelRate: a channel definition's rate_per_minute
// bounds the dispatches through it; a refused dispatch answers 429 and
// records nothing; a definition without a rate is not limited.
func TestDispatchKeepsTheChannelRate(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		p := actOK(t, env.Do("POST", "/api/dispatch-providers", map[string]any{"name": "Log", "channel": "SMS", "kind": "log"}, f.th), 201)["id"].(string)
		defs := "/api/dispatch-providers/" + p + "/channel-definitions"
		slow := actOK(t, env.Do("POST", defs, map[string]any{"name": "slow", "rate_per_minute": 2}, f.th), 201)["id"].(string)
		config := "/api/projects/" + f.ten.ProjectID.String() + "/dispatch-configs/SMS"
		actOK(t, env.Do("PUT", config, map[string]any{"provider_id": p, "channel_definition_id": slow}, f.th), 201)

		const msg = "The channel definition allows 2 dispatches per minute; the limit is reached, retry later"
		for i := range 2 {
			if got := actOK(t, env.Do("POST", "/api/activities/tasks/"+f.task(resScheduledAt)+"/dispatch", nil, f.h), 200); got["status"] != "DISPATCHED" {
				t.Fatalf("dispatch %d: %v", i, got)
			}
		}
		third := f.task(resScheduledAt)
		refused := env.Do("POST", "/api/activities/tasks/"+third+"/dispatch", nil, f.h)
		apptest.ExpectError(t, refused, 429, msg)
		if ra := refused.Header.Get("Retry-After"); ra != "60" {
			t.Fatalf("Retry-After %q, want 60 (the rate's window)", ra)
		}
		if st, ev := f.status(third), actEvents(t, env, third, f.h); st != "READY" || !slices.Equal(ev, []string{"CREATED:null>READY"}) {
			t.Fatalf("refused dispatch left %s, %v", st, ev)
		}
		var out struct {
			Errors []struct {
				Message    string
				Extensions map[string]any
			} `json:"errors"`
		}
		env.GraphQL(`mutation($id: ID!) { dispatchTask(id: $id) { status } }`, map[string]any{"id": third}, f.h).JSON(t, &out)
		if len(out.Errors) != 1 || out.Errors[0].Message != msg || out.Errors[0].Extensions["statusCode"] != float64(429) {
			t.Fatalf("graphql: %+v", out)
		}

		// Another definition without a rate: not limited.
		free := actOK(t, env.Do("POST", defs, map[string]any{"name": "free"}, f.th), 201)["id"].(string)
		actOK(t, env.Do("PUT", config, map[string]any{"provider_id": p, "channel_definition_id": free}, f.th), 200)
		for range 3 {
			actOK(t, env.Do("POST", "/api/activities/tasks/"+f.task(resScheduledAt)+"/dispatch", nil, f.h), 200)
		}
	})
}
