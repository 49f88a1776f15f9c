package graph_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/dispatch"
)

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
