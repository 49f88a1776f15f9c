package app

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/executor"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/reten-io/reten/graph"
	"github.com/reten-io/reten/graph/generated"
	"github.com/reten-io/reten/internal/paging"
)

// introspectionQuery is graphql-js's getIntrospectionQuery() as GraphiQL
// sends it (graph/testdata).
func introspectionQuery(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("../../graph/testdata/introspection.graphql")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// underAliases spreads F (99 selections) under n aliases of viewer.
func underAliases(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, " v%d: viewer { ...F }", i)
	}
	b.WriteString(" } fragment F on Viewer {")
	for i := range 99 {
		fmt.Fprintf(&b, " f%d: isAPIKey", i)
	}
	return b.String() + " }"
}

// nested nests user { ... } levels deep under viewer, at depth levels+1.
func nested(levels int, field string) string {
	return "{ viewer {" + strings.Repeat(" "+field+" {", levels) + " id" + strings.Repeat(" }", levels) + " } }"
}

// doubling spreads Fi twice in distinct aliases down to F(levels) under
// introspection (exempt from depth): 2^levels selections.
func doubling(levels int) string {
	var b strings.Builder
	b.WriteString("{__schema{types{...F1}}}")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, " fragment F%d on __Type{a:ofType{...F%d} b:ofType{...F%d}}", i, i+1, i+1)
	}
	fmt.Fprintf(&b, " fragment F%d on __Type{name}", levels)
	return b.String()
}

func TestCheckDocument(t *testing.T) {
	tokens := func(n int) string { // n tokens: { viewer { x x ... } }
		return "{ viewer {" + strings.Repeat(" x", n-5) + " } }"
	}
	cases := []struct {
		name, query, want string
	}{
		{"introspection", introspectionQuery(t), ""},
		{"bytes at the limit", "{viewer{isAPIKey}}" + strings.Repeat(" ", maxDocumentBytes-18), ""},
		{"bytes over the limit", "{viewer{isAPIKey}}" + strings.Repeat(" ", maxDocumentBytes-17), msgDocumentTooLarge},
		{"tokens at the limit", tokens(maxDocumentTokens), msgFieldRepeated("x")},
		{"tokens over the limit", tokens(maxDocumentTokens + 1), msgTooManyTokens},
		{"20 repeats", "{viewer{" + strings.Repeat("user{id} ", 20) + "}}", ""},
		{"21 repeats", "{viewer{" + strings.Repeat("user{id} ", 21) + "}}", msgFieldRepeated("user")},
		{"21 repeats under repeated parents", "{" + strings.Repeat("viewer{ user{id} } ", 20) + "viewer{ user{id} user{id} }}", msgFieldRepeated("viewer")},
		{"repeats merge through fragments", "{viewer{" + strings.Repeat("...A ", 11) + "}} fragment A on Viewer{isAPIKey ...B} fragment B on Viewer{isAPIKey}", msgFieldRepeated("isAPIKey")},
		{"selections at the limit", underAliases(30), ""},
		{"selections over the limit", underAliases(31), msgTooManySelections},
		{"doubling fragments", doubling(30), msgTooManySelections},
		{"depth 12", nested(10, "user"), ""},
		{"depth 13", nested(11, "user"), msgQueryTooDeep},
		{"introspection is exempt from depth", "{ __type(name: \"Query\") {" + strings.Repeat(" ofType {", 40) + " name" + strings.Repeat(" }", 40) + " } }", ""},
		{"but not under an alias of another field", "{ a: viewer {" + strings.Repeat(" user {", 12) + " id" + strings.Repeat(" }", 12) + " } }", msgQueryTooDeep},
		{"fragment cycle", "{viewer{...A}} fragment A on Viewer{user{...B}} fragment B on User{viewer{...A}}", msgFragmentCycle("A")},
		{"unused fragments are walked", "{viewer{isAPIKey}} fragment U on Viewer{" + strings.Repeat("isAPIKey ", 21) + "}", msgFieldRepeated("isAPIKey")},
		{"syntax errors are gqlgen's", "{viewer{", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := checkDocument(c.query); got != c.want {
				t.Fatalf("checkDocument = %q, want %q", got, c.want)
			}
		})
	}
}

// TestCheckDocumentWorkIsBounded: the pre-pass stops at the limits, so its
// own work is bounded whatever the document describes.
func TestCheckDocumentWorkIsBounded(t *testing.T) {
	huge := strings.Repeat("{viewer{user{id}}}", 1<<20)
	if n := countTokens(huge, maxDocumentTokens+1); n != maxDocumentTokens+1 {
		t.Fatalf("countTokens read %d tokens, want to stop at %d", n, maxDocumentTokens+1)
	}
	// 2^30 selections described in 30 lines: the walk stops one past the limit.
	doc, err := parser.ParseQuery(&ast.Source{Input: doubling(30)})
	if err != nil {
		t.Fatal(err)
	}
	w := newShapeWalker(doc)
	if msg := w.walk(doc); msg != msgTooManySelections || w.selections != maxSelections+1 {
		t.Fatalf("walk = %q after %d selections, want %q after %d", msg, w.selections, msgTooManySelections, maxSelections+1)
	}
}

// TestSchemaDescribesTheLimits keeps the schema's description (the first
// page of the playground's docs) in step with the limits.
func TestSchemaDescribesTheLimits(t *testing.T) {
	for _, want := range []string{
		fmt.Sprintf("at most %d bytes and %d tokens, %d field selections", maxDocumentBytes, maxDocumentTokens, maxSelections),
		fmt.Sprintf("%d selections of one response name at one place", maxFieldRepeats),
		fmt.Sprintf("depth: at most %d levels of fields (introspection is exempt)", maxQueryDepth),
		fmt.Sprintf("complexity: at most %d;", maxQueryComplexity),
		fmt.Sprintf("first or last between 1 and %d, not both; %d rows when neither", paging.MaxPerPage, paging.DefaultPerPage),
		fmt.Sprintf("nodes(ids:): at most %d ids", maxNodeIDs),
		fmt.Sprintf("nested at most %d levels", maxVariablesDepth),
	} {
		if !strings.Contains(graphSchema.Description, want) {
			t.Errorf("the schema description does not say %q:\n%s", want, graphSchema.Description)
		}
	}
}

func TestJSONDeeperThan(t *testing.T) {
	cases := []struct {
		text  string
		limit int
		want  bool
	}{
		{`{"a": [1, {"b": 2}]}`, 3, false},
		{`{"a": [1, {"b": 2}]}`, 2, true},
		{`{"a": "[[[[{{{{"}`, 1, false},
		{`{"a": "\"[[["}`, 1, false},
		{`[[]] [[]]`, 2, false},
		{``, 0, false},
	}
	for _, c := range cases {
		if got := jsonDeeperThan([]byte(c.text), c.limit); got != c.want {
			t.Errorf("jsonDeeperThan(%s, %d) = %t, want %t", c.text, c.limit, got, c.want)
		}
	}
}

// BenchmarkDocumentLimits measures what a request costs before it runs
// (pre-pass, parse, validation, complexity): the worst documents the limits
// accept, and the exploits, refused.
func BenchmarkDocumentLimits(b *testing.B) {
	es := generated.NewExecutableSchema(generated.Config{Resolvers: &graph.Resolver{}})
	exec := executor.New(es)
	exec.Use(newRequestLimits(es))
	// Most fragment pairs the token limit allows: every pair is compared.
	var pairs strings.Builder
	pairs.WriteString("{viewer{")
	for i := range 360 {
		fmt.Fprintf(&pairs, "...G%d ", i)
	}
	pairs.WriteString("}}")
	for i := range 360 {
		fmt.Fprintf(&pairs, "fragment G%d on Viewer{a%d:isAPIKey} ", i, i)
	}
	// Most repeated selections: 20 of each of 33 names.
	var repeats strings.Builder
	repeats.WriteString("{viewer{")
	for i := range 33 {
		repeats.WriteString(strings.Repeat(fmt.Sprintf("a%d:user{id} ", i), 20))
	}
	repeats.WriteString("}}")
	docs := []struct{ name, query string }{
		{"introspection", introspectionQuery(b)},
		{"fragment pairs", pairs.String()},
		{"repeats", repeats.String()},
		{"selections", underAliases(30)},
		{"exploit 72KB", "{viewer{" + strings.Repeat("user{id}", 8000) + "}}"},
		{"exploit doubling", doubling(30)},
	}
	for _, d := range docs {
		b.Run(d.name, func(b *testing.B) {
			for b.Loop() {
				// A fresh executor cache each time: gqlgen caches nothing here.
				ctx := graphql.StartOperationTrace(context.Background())
				exec.CreateOperationContext(ctx, &graphql.RawParams{Query: d.query})
			}
		})
	}
}
