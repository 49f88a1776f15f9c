package graph_test

import (
	"maps"
	"net/http"
	"reflect"
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
)

const transitionsQuery = `query($after: Cursor, $first: Int, $before: Cursor, $last: Int, $filter: CommerceLifecycleTransitionsFilter) {
	commerceLifecycleTransitions(after: $after, first: $first, before: $before, last: $last, filter: $filter) {
		totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
		edges { cursor node { commerceID activityGenerationConfigID fromCode toCode stateChangedAt source } } } }`

// transitionRows runs transitionsQuery and returns its rows as
// "commerce/agc from->to@day", with totalCount and pageInfo.
func (s snapSetup) transitionRows(t *testing.T, env *apptest.Env, h apptest.Headers, vars M) ([]string, int, M) {
	t.Helper()
	conn := get(t, gqlOK(t, env, h, transitionsQuery, vars), "commerceLifecycleTransitions")
	out := []string{}
	for _, e := range get(t, conn, "edges").([]any) {
		out = append(out, s.transitionKey(t, get(t, e, "node")))
	}
	return out, int(get(t, conn, "totalCount").(float64)), get(t, conn, "pageInfo").(M)
}

func (s snapSetup) transitionKey(t *testing.T, n any) string {
	t.Helper()
	from, _ := get(t, n, "fromCode").(string)
	if src := str(t, n, "source"); src != "API" {
		t.Fatalf("source %s of %v", src, n)
	}
	return s.name[str(t, n, "commerceID")] + "/" + s.name[str(t, n, "activityGenerationConfigID")] + " " + from + "->" +
		str(t, n, "toCode") + "@" + str(t, n, "stateChangedAt")[8:10]
}

// writeHistory writes, through the snapshot mutations (batch and single),
// Acme's history below and one transition of Beta's.
func (s snapSetup) writeHistory(t *testing.T, env *apptest.Env) []string {
	t.Helper()
	s.batch(t, env, s.h, s.item(s.c1, s.low, "new", "2026-01-01T00:00:00Z"), s.item(s.c2, s.low, "engaged", "2026-01-02T00:00:00Z"))
	s.batch(t, env, s.h, s.item(s.c1, s.low, "new", "2026-01-02T12:00:00Z"), // refreshed only: no transition
		s.item(s.c1, s.low, "engaged", "2026-01-03T00:00:00Z"), s.item(s.c1, s.high, "new", "2026-01-04T00:00:00Z"))
	gqlOK(t, env, s.h, upsertQuery, M{"in": snapItem(s.c2, s.low, "new", "ACTIVATION", "2026-01-05T00:00:00Z")})
	s.batch(t, env, s.bh, s.item(s.bc, s.bagc, "new", "2026-01-01T00:00:00Z"))
	return []string{"c1/low ->new@01", "c2/low ->engaged@02", "c1/low new->engaged@03", "c1/high ->new@04", "c2/low engaged->new@05"}
}

func TestTransitionConnectionOverGraphQL(t *testing.T) {
	each(t, newSnapSetup, func(t *testing.T, env *apptest.Env, s snapSetup) {
		all := s.writeHistory(t, env)
		s.name[s.bc], s.name[s.bagc] = "bc", "bagc"
		pick := func(i ...int) []string {
			out := []string{}
			for _, k := range i {
				out = append(out, all[k])
			}
			return out
		}

		t.Run("filters", func(t *testing.T) {
			for _, c := range []struct {
				filter M
				want   []string
			}{
				{nil, all},
				{M{"commerceID": s.c1}, pick(0, 2, 3)},
				{M{"activityGenerationConfigID": s.high}, pick(3)},
				{M{"since": "2026-01-03T00:00:00Z"}, pick(2, 3, 4)}, // at or after
				{M{"since": "2026-01-03T01:00:00+01:00"}, pick(2, 3, 4)},
				{M{"source": "API"}, all},
				{M{"source": "ENGINE"}, pick()},
				{M{"runID": uuid.NewString()}, pick()},
				{M{"commerceID": s.c2, "activityGenerationConfigID": s.low, "since": "2026-01-02T00:00:01Z"}, pick(4)},
				{M{"since": "", "commerceID": nil}, all}, // empty and null values do not filter
				// Beta's commerce and AGC match nothing of Acme's.
				{M{"commerceID": s.bc}, pick()},
				{M{"activityGenerationConfigID": s.bagc}, pick()},
			} {
				rows, n, _ := s.transitionRows(t, env, s.h, M{"filter": c.filter})
				if !slices.Equal(rows, c.want) || n != len(c.want) {
					t.Errorf("filter %v: %d %v, want %v", c.filter, n, rows, c.want)
				}
			}
			// x-project-id is ignored; Beta sees only its own.
			if rows, n, _ := s.transitionRows(t, env, s.h.With("x-project-id", s.notHigh), nil); n != 5 || !slices.Equal(rows, all) {
				t.Fatalf("with x-project-id: %d %v", n, rows)
			}
			if rows, n, _ := s.transitionRows(t, env, s.bh, nil); n != 1 || !slices.Equal(rows, []string{"bc/bagc ->new@01"}) {
				t.Fatalf("Beta: %d %v", n, rows)
			}
		})

		t.Run("cursor paging", func(t *testing.T) {
			var got []string
			var after any
			for pages := 0; ; pages++ {
				rows, total, info := s.transitionRows(t, env, s.h, M{"first": 2, "after": after})
				if got = append(got, rows...); total != 5 || pages > 3 || info["hasNextPage"] != (len(got) < 5) {
					t.Fatalf("first 2: total %d, %v, pageInfo %v", total, got, info)
				}
				if info["hasNextPage"] == false {
					break
				}
				after = info["endCursor"]
			}
			if !slices.Equal(got, all) {
				t.Fatalf("pages = %v, want %v", got, all)
			}
			got = nil
			var before any
			for {
				rows, _, info := s.transitionRows(t, env, s.h, M{"last": 3, "before": before})
				if got = append(rows, got...); info["hasPreviousPage"] == false {
					break
				}
				before = info["startCursor"]
			}
			if !slices.Equal(got, all) {
				t.Fatalf("last/before pages = %v, want %v", got, all)
			}
		})

		// The commerce and the AGC a transition names (by id, without a
		// foreign key): null when outside the request's project or in the trash.
		t.Run("commerce and AGC", func(t *testing.T) {
			const q = `query($c: ID!) { commerceLifecycleTransitions(filter: {commerceID: $c}) {
				edges { node { toCode commerce { name } activityGenerationConfig { name } } } } }`
			rows := func(h apptest.Headers) any {
				return get(t, gqlOK(t, env, h, q, M{"c": s.c1}), "commerceLifecycleTransitions")
			}
			node := func(code string, commerce, agc any) M {
				return M{"node": M{"toCode": code, "commerce": commerce, "activityGenerationConfig": agc}}
			}
			name := func(id string) M {
				n := get(t, gqlOK(t, env, s.h, `query($id: ID!) { node(id: $id) { ... on ActivityGenerationConfig { name } } }`, M{"id": id}), "node")
				return M{"name": str(t, n, "name")}
			}
			c1, low, high := M{"name": "c1"}, name(s.low), name(s.high)
			if got, want := rows(s.h), (M{"edges": L{node("new", c1, low), node("engaged", c1, low), node("new", c1, high)}}); !reflect.DeepEqual(got, want) {
				t.Fatalf("transitions of c1 = %v, want %v", got, want)
			}
			if got, want := rows(s.h.With("x-project-id", s.notHigh)), (M{"edges": L{node("new", c1, low), node("engaged", c1, low), node("new", c1, nil)}}); !reflect.DeepEqual(got, want) {
				t.Fatalf("in the project without AGC high = %v, want %v", got, want)
			}
			gqlOK(t, env, s.h, `mutation($id: ID!) { deleteCommerce(id: $id) }`, M{"id": s.c1})
			if got, want := rows(s.h), (M{"edges": L{node("new", nil, low), node("engaged", nil, low), node("new", nil, high)}}); !reflect.DeepEqual(got, want) {
				t.Fatalf("after c1 went to the trash = %v, want %v", got, want)
			}
		})

		t.Run("errors and permission", func(t *testing.T) {
			const field = "commerceLifecycleTransitions"
			bad := func(filter M) *apptest.Response { return env.GraphQL(transitionsQuery, M{"filter": filter}, s.h) }
			expectInvalid(t, bad(M{"since": "yesterday"}), field, "since must be a valid ISO 8601 date string")
			expectVariableInvalid(t, bad(M{"source": "NOPE"}), L{"filter", "source"}, "NOPE is not a valid CommerceLifecycleTransitionSource")
			expectBody(t, bad(M{"source": "api"}), http.StatusOK, M{"data": nil, "errors": L{fieldError(L{field, "filter", "source"},
				"filter.source must be a valid CommerceLifecycleTransitionSource", "BAD_REQUEST", 400)}})
			expectBody(t, bad(M{"runID": "run-1"}), http.StatusOK, M{"data": nil, "errors": L{fieldError(L{field, "filter", "runID"},
				"filter.runID must be a UUID", "BAD_REQUEST", 400)}})
			expectInvalid(t, env.GraphQL(transitionsQuery, M{"first": 101}, s.h), field, "first must not be greater than 100")
			expectFieldError(t, env.GraphQL(transitionsQuery, nil, s.op), field, "Required permissions: commerce-lifecycle-snapshot:view", "FORBIDDEN", 403)
		})
	})
}

func mapsEqual(a, b map[string][]string) bool { return maps.EqualFunc(a, b, slices.Equal) }

func TestCommerceLifecycleTransitionsField(t *testing.T) {
	each(t, newSnapSetup, func(t *testing.T, env *apptest.Env, s snapSetup) {
		all := s.writeHistory(t, env)
		const q = `query($a: ID, $first: Int) { commerces(orderBy: {field: NAME}) { edges { node { name
			lifecycleTransitions(activityGenerationConfigID: $a, first: $first) { totalCount edges { node {
				commerceID activityGenerationConfigID fromCode toCode stateChangedAt source } } } } } } }`
		byCommerce := func(h apptest.Headers, vars M) map[string][]string {
			out := map[string][]string{}
			for _, e := range get(t, gqlOK(t, env, h, q, vars), "commerces", "edges").([]any) {
				conn := get(t, e, "node", "lifecycleTransitions")
				rows := []string{}
				for _, te := range get(t, conn, "edges").([]any) {
					rows = append(rows, s.transitionKey(t, get(t, te, "node")))
				}
				if int(get(t, conn, "totalCount").(float64)) != len(rows) && vars["first"] == nil {
					t.Fatalf("totalCount %v for %v", get(t, conn, "totalCount"), rows)
				}
				out[str(t, e, "node", "name")] = rows
			}
			return out
		}
		want := map[string][]string{"c1": {all[0], all[2], all[3]}, "c2": {all[1], all[4]}, "c3": {}}
		if got := byCommerce(s.h, nil); !mapsEqual(got, want) {
			t.Fatalf("per commerce = %v, want %v", got, want)
		}
		want = map[string][]string{"c1": {all[0], all[2]}, "c2": {all[1], all[4]}, "c3": {}}
		if got := byCommerce(s.h, M{"a": s.low}); !mapsEqual(got, want) {
			t.Fatalf("under low = %v, want %v", got, want)
		}
		want = map[string][]string{"c1": {all[0]}, "c2": {all[1]}, "c3": {}}
		if got := byCommerce(s.h, M{"first": 1}); !mapsEqual(got, want) {
			t.Fatalf("first 1 = %v, want %v", got, want)
		}
		s.name[s.bc], s.name[s.bagc] = "bc", "bagc"
		if got := byCommerce(s.bh, nil); !mapsEqual(got, map[string][]string{"bc": {"bc/bagc ->new@01"}}) {
			t.Fatalf("Beta = %v", got)
		}
		// Through node() too.
		expectData(t, env.GraphQL(`query($id: ID!) { node(id: $id) { ... on Commerce { lifecycleTransitions { totalCount } } } }`,
			M{"id": s.c1}, s.h), M{"node": M{"lifecycleTransitions": M{"totalCount": 3}}})
		// The field needs commerce-lifecycle-snapshot:view: the operator reads commerces, not their history.
		const one = `{ commerces(first: 1, orderBy: {field: NAME}) { edges { node { name lifecycleTransitions { totalCount } } } } }`
		expectBody(t, env.GraphQL(one, nil, s.op), http.StatusOK, M{"data": M{"commerces": M{"edges": L{M{"node": nil}}}}, "errors": L{
			fieldError(L{"commerces", "edges", 0, "node", "lifecycleTransitions"}, "Required permissions: commerce-lifecycle-snapshot:view", "FORBIDDEN", 403)}})
		// A bad value names the argument (the connection is non-null: each commerce of the page is null).
		bad := func(i int) M {
			return fieldError(L{"commerces", "edges", i, "node", "lifecycleTransitions", "activityGenerationConfigID"},
				"activityGenerationConfigID must be a UUID", "BAD_REQUEST", 400)
		}
		expectUnordered(t, env.GraphQL(q, M{"a": "agc"}, s.h), M{"commerces": M{"edges": L{M{"node": nil}, M{"node": nil}, M{"node": nil}}}},
			L{bad(0), bad(1), bad(2)})
	})
}
