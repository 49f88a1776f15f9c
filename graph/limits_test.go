package graph_test

import (
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
)

// refused is the body of a request refused by a GraphQL limit before it
// runs: a 400 like every other, code BAD_REQUEST.
func refused(message string) M {
	return M{"data": nil, "errors": L{M{"message": message, "extensions": M{"code": "BAD_REQUEST", "statusCode": 400}}}}
}

// deepQuery nests projects { edges { node { rootAudience { queryBlocks {
// audience ... } } } } } so that the leaf field sits at depth levels.
func deepQuery(levels int, leaf string) string {
	fields := []string{"projects", "edges", "node", "rootAudience"}
	for len(fields) < levels-1 {
		if fields[len(fields)-1] == "queryBlocks" {
			fields = append(fields, "audience")
		} else {
			fields = append(fields, "queryBlocks")
		}
	}
	var b strings.Builder
	b.WriteString("{ ")
	for _, f := range fields {
		b.WriteString(f + " { ")
	}
	b.WriteString(leaf + strings.Repeat(" }", len(fields)+1))
	return b.String()
}

// aliases repeats one selection under n aliases a0..a(n-1).
func aliases(n int, selection string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, " a%d: %s", i, selection)
	}
	b.WriteString(" }")
	return b.String()
}

// aliased is the data of aliases(n, ...) when each alias answers value.
func aliased(n int, value any) M {
	out := M{}
	for i := range n {
		out[fmt.Sprintf("a%d", i)] = value
	}
	return out
}

func TestQueryLimits(t *testing.T) {
	eachAcme(t, func(t *testing.T, env *apptest.Env, acme apptest.Tenant, h apptest.Headers) {
		root := rootAudience(t, env, acme.ProjectID)
		tooDeep := refused("query is nested deeper than 12 levels")

		t.Run("depth 13 rejected", func(t *testing.T) {
			q := `{ projects { edges { node { rootAudience { queryBlocks { audience { queryBlocks { audience { queryBlocks { audience { queryBlocks { audience { name } } } } } } } } } } } } }`
			if q != deepQuery(13, "name") {
				t.Fatalf("deepQuery(13) = %s", deepQuery(13, "name"))
			}
			expectBody(t, env.GraphQL(q, nil, h), http.StatusBadRequest, tooDeep)
		})

		t.Run("depth 12 accepted", func(t *testing.T) {
			expectData(t, env.GraphQL(deepQuery(12, "id"), nil, h), M{"projects": M{"edges": L{
				M{"node": M{"rootAudience": M{"queryBlocks": L{}}}},
			}}})
		})

		t.Run("fragments count", func(t *testing.T) {
			q := `query { projects { edges { node { ...P } } } }
fragment P on Project { rootAudience { queryBlocks { audience { queryBlocks { audience { queryBlocks { audience { queryBlocks { audience { id } } } } } } } } } }`
			expectBody(t, env.GraphQL(q, nil, h), http.StatusBadRequest, tooDeep)
			q = `query($id: ID!) { node(id: $id) { ... on Audience { queryBlocks { audience { queryBlocks { audience { queryBlocks { audience { queryBlocks { audience { queryBlocks { audience { queryBlocks { id } } } } } } } } } } } } } }`
			expectBody(t, env.GraphQL(q, M{"id": root.String()}, h), http.StatusBadRequest, tooDeep)
		})

		// A connection costs 1 + its selection × its page (first or last, 25
		// when neither), and every alias counts: 34 × (1 + 100 × 3) = 10234.
		t.Run("complexity multiplies by the page and counts aliases", func(t *testing.T) {
			page := func(first string) string {
				return aliases(34, "commerces"+first+" { edges { node { id } } }")
			}
			expectBody(t, env.GraphQL(page("(first: 100)"), nil, h), http.StatusBadRequest,
				refused("operation has complexity 10234, which exceeds the limit of 10000"))
			expectBody(t, env.GraphQL(page("(last: 98)"), nil, h), http.StatusBadRequest,
				refused("operation has complexity 10030, which exceeds the limit of 10000"))
			// 34 × (1 + 97 × 3) = 9928 and 34 × (1 + 25 × 3) = 2584 run.
			for _, first := range []string{"(first: 97)", ""} {
				expectData(t, env.GraphQL(page(first), nil, h), aliased(34, M{"edges": L{}}))
			}
		})

		// The complexity of an operation without variables is computed
		// once per document and operation: asked again, the same document
		// is refused again, and another operation of it is priced as its own;
		// an operation with variables is priced with each request's values.
		t.Run("complexity per operation and variables", func(t *testing.T) {
			doc := "query Big " + aliases(34, "commerces(first: 100) { edges { node { id } } }") +
				" query Small { commerces(first: 2) { edges { node { id } } } }"
			big := refused("operation has complexity 10234, which exceeds the limit of 10000")
			for range 2 {
				expectBody(t, env.Do("POST", "/graphql", M{"query": doc, "operationName": "Big"}, h), http.StatusBadRequest, big)
				expectData(t, env.Do("POST", "/graphql", M{"query": doc, "operationName": "Small"}, h), M{"commerces": M{"edges": L{}}})
			}
			vars := "query($n: Int) " + aliases(34, "commerces(first: $n) { edges { node { id } } }")
			expectBody(t, env.GraphQL(vars, M{"n": 100}, h), http.StatusBadRequest, big)
			expectData(t, env.GraphQL(vars, M{"n": 2}, h), aliased(34, M{"edges": L{}}))
			expectBody(t, env.GraphQL(vars, M{"n": 100}, h), http.StatusBadRequest, big)
		})

		// The exploit: 40 aliases of commerces(first: 1000000)
		// returned 600,000 nodes. Out-of-bound pages are priced at the bound.
		t.Run("aliases of huge pages", func(t *testing.T) {
			expectBody(t, env.GraphQL(aliases(40, "commerces(first: 1000000) { edges { node { id name } } }"), nil, h),
				http.StatusBadRequest, refused("operation has complexity 16040, which exceeds the limit of 10000"))
			expectBody(t, env.GraphQL(`{ commerces(first: 1000000) { edges { node { id } } } }`, nil, h), http.StatusOK,
				M{"data": nil, "errors": L{M{"message": "first must not be greater than 100", "path": L{"commerces"},
					"extensions": M{"code": "BAD_REQUEST", "statusCode": 400, "messages": L{"first must not be greater than 100"}}}}})
		})
	})
}

// TestDocumentLimits: documents whose validation would cost quadratic time
// are refused by the pre-pass before gqlgen parses or validates them.
func TestDocumentLimits(t *testing.T) {
	env := apptest.New(t, "sqlite")
	acme := env.Bootstrap("Acme")
	h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
	repeated := func(n int, sel string) string { return "{viewer{" + strings.Repeat(sel, n) + "}}" }

	cases := []struct {
		name, query, message string
	}{
		// The document: 72 KB, 48 s of validation before.
		{"72 KB of repeated selections", repeated(8000, "user{id}"), "The GraphQL document is larger than 32768 bytes"},
		{"too many tokens", repeated(1200, "user{id}"), "The GraphQL document has more than 4000 tokens"},
		{"one field repeated", repeated(21, "user{id}"), `Field "user" is selected more than 20 times at one place of the response`},
		{"repeated through fragments", "{viewer{" + strings.Repeat("...V ", 21) + "}} fragment V on Viewer{isAPIKey}",
			`Field "isAPIKey" is selected more than 20 times at one place of the response`},
		{"repeated through parents", "{" + strings.Repeat("viewer{user{id}} ", 21) + "}",
			`Field "viewer" is selected more than 20 times at one place of the response`},
		// Thousands of selections from a few lines, exempt from the depth
		// limit as introspection: each fragment spreads the next twice.
		{"fragments doubling", exponentialFragments(12),
			"The GraphQL document selects more than 3000 fields (a fragment counts at every spread)"},
		{"fragment cycle", "{viewer{...A}} fragment A on Viewer{...B} fragment B on Viewer{...A}", `Fragment "A" spreads itself`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expectBody(t, env.GraphQL(c.query, nil, h), http.StatusBadRequest, refused(c.message))
		})
	}

	t.Run("within the limits", func(t *testing.T) {
		expectData(t, env.GraphQL(repeated(20, "isAPIKey "), nil, h), M{"viewer": M{"isAPIKey": false}})
		res := env.GraphQL(exponentialFragments(10), nil, h)
		if res.Status != http.StatusOK || strings.Contains(string(res.Body), `"errors"`) {
			t.Fatalf("status = %d; body %.300s", res.Status, res.Body)
		}
	})

	tooOften := refused(`Field "isAPIKey" is selected more than 20 times at one place of the response`)
	t.Run("GET is checked too", func(t *testing.T) {
		res := env.Do("GET", "/graphql?query="+url.QueryEscape(repeated(21, "isAPIKey ")), nil, h)
		expectBody(t, res, http.StatusBadRequest, tooOften)
	})

	// A persisted query is checked on every use, as its text.
	t.Run("persisted queries are checked too", func(t *testing.T) {
		q := repeated(21, "isAPIKey ")
		ext := M{"persistedQuery": M{"version": 1, "sha256Hash": fmt.Sprintf("%x", sha256.Sum256([]byte(q)))}}
		expectBody(t, env.Do("POST", "/graphql", M{"query": q, "extensions": ext}, h), http.StatusBadRequest, tooOften)
		expectBody(t, env.Do("POST", "/graphql", M{"extensions": ext}, h), http.StatusBadRequest, tooOften)
	})
}

// exponentialFragments selects __schema { types { ...F1 } } where Fi
// selects F(i+1) under two aliases and F(levels) selects name: about
// 2^levels selections in a few lines.
func exponentialFragments(levels int) string {
	var b strings.Builder
	b.WriteString("{__schema{types{...F1}}}")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, " fragment F%d on __Type{a:ofType{...F%d} b:ofType{...F%d}}", i, i+1, i+1)
	}
	fmt.Fprintf(&b, " fragment F%d on __Type{name}", levels)
	return b.String()
}

// TestRequestShape: a batch and over-deep variables are 400s saying what
// is wrong (they were 500s), before gqlgen decodes the body.
func TestRequestShape(t *testing.T) {
	env := apptest.New(t, "sqlite")
	acme := env.Bootstrap("Acme")
	h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
	bad := func(message string) M { return preError(message, "BAD_REQUEST", 400) }
	const deepMsg = "variables and extensions must not be nested deeper than 32 levels"

	t.Run("batch", func(t *testing.T) {
		res := env.Do("POST", "/graphql", `[{"query":"{viewer{isAPIKey}}"},{"query":"{viewer{isAPIKey}}"}]`, h)
		expectBody(t, res, http.StatusBadRequest, bad("Batched operations are not supported: send one operation per request"))
	})

	t.Run("not an object", func(t *testing.T) {
		for _, body := range []string{`null`, `"{viewer{isAPIKey}}"`, `{"query": 5}`, `{"query": "{viewer{isAPIKey}}"`} {
			expectBody(t, env.Do("POST", "/graphql", body, h), http.StatusBadRequest,
				bad("The request body must be a JSON object {query, operationName, variables, extensions}"))
		}
	})

	// where: {and: [...]} nested k times is 2k+2 levels deep in variables.
	nested := func(k int) M {
		w := M{"name": "x"}
		for range k {
			w = M{"and": L{w}}
		}
		return M{"w": w}
	}
	const whereQuery = `query($w: CommerceWhereInput) { commerces(where: $w) { totalCount } }`

	t.Run("variables at the limit", func(t *testing.T) {
		expectData(t, env.GraphQL(whereQuery, nested(15), h), M{"commerces": M{"totalCount": 0}})
	})

	t.Run("variables too deep", func(t *testing.T) {
		expectBody(t, env.GraphQL(whereQuery, nested(16), h), http.StatusBadRequest, bad(deepMsg))
		// Deeper than the JSON decoder itself accepts.
		deep := strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000)
		res := env.Do("POST", "/graphql", `{"query":"query($m: Map){viewer{isAPIKey}}","variables":{"m":`+deep+`}}`, h)
		expectBody(t, res, http.StatusBadRequest, bad(deepMsg))
		res = env.Do("GET", "/graphql?query="+url.QueryEscape("{viewer{isAPIKey}}")+"&extensions="+url.QueryEscape(deep), nil, h)
		expectBody(t, res, http.StatusBadRequest, bad(deepMsg))
	})
}

// TestIntrospectionQuery: graphql-js getIntrospectionQuery() as GraphiQL
// sends it (descriptions, specifiedByURL, isRepeatable, schema description,
// input value deprecation) is answered: introspection is exempt from the
// depth limit (its TypeRef fragment alone nests 10 levels), not from the
// size limits.
func TestIntrospectionQuery(t *testing.T) {
	env := apptest.New(t, "sqlite")
	acme := env.Bootstrap("Acme")
	h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
	query, err := os.ReadFile("testdata/introspection.graphql")
	if err != nil {
		t.Fatal(err)
	}

	t.Run("answered", func(t *testing.T) {
		res := env.Do("POST", "/graphql", M{"query": string(query), "operationName": "IntrospectionQuery"}, h)
		if res.Status != http.StatusOK {
			t.Fatalf("status = %d; body %.500s", res.Status, res.Body)
		}
		var body struct {
			Data struct {
				Schema struct {
					QueryType struct{ Name string } `json:"queryType"`
					Types     []struct {
						Name   string
						Fields []struct {
							Name string
							Type struct {
								Kind   string
								OfType struct{ Kind, Name string } `json:"ofType"`
							}
						}
					}
				} `json:"__schema"`
			}
			Errors []any
		}
		res.JSON(t, &body)
		if body.Errors != nil || body.Data.Schema.QueryType.Name != "Query" {
			t.Fatalf("errors %v, queryType %q", body.Errors, body.Data.Schema.QueryType.Name)
		}
		for _, typ := range body.Data.Schema.Types {
			for _, f := range typ.Fields {
				if typ.Name == "Query" && f.Name == "commerces" {
					if f.Type.Kind != "NON_NULL" || f.Type.OfType.Name != "CommerceConnection" {
						t.Fatalf("Query.commerces type = %+v", f.Type)
					}
					return
				}
			}
		}
		t.Fatalf("Query.commerces not in the introspection answer")
	})

	t.Run("size limits still apply", func(t *testing.T) {
		// Under 21 aliases each selection has its own place; without, not.
		expectData(t, env.GraphQL(aliases(21, "__schema { queryType { name } }"), nil, h), aliased(21, M{"queryType": M{"name": "Query"}}))
		q := "{" + strings.Repeat(" __schema { description }", 21) + " }"
		expectBody(t, env.GraphQL(q, nil, h), http.StatusBadRequest,
			refused(`Field "__schema" is selected more than 20 times at one place of the response`))
		padded := string(query) + strings.Repeat(" ", 32<<10)
		expectBody(t, env.Do("POST", "/graphql", M{"query": padded}, h), http.StatusBadRequest,
			refused("The GraphQL document is larger than 32768 bytes"))
	})
}
