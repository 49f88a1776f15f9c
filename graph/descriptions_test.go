package graph_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"

	"github.com/reten-io/reten/graph"
	"github.com/reten-io/reten/graph/generated"
)

// introspected is the part of the standard introspection answer that carries
// descriptions.
type introspected struct {
	Data struct {
		Schema struct {
			Types []struct {
				Kind        string
				Name        string
				Description *string
				Fields      []introspectedField
				InputFields []introspectedValue
				EnumValues  []introspectedValue
			}
			Directives []struct {
				Name        string
				Description *string
				Args        []introspectedValue
			}
		} `json:"__schema"`
	}
	Errors []any
}

type introspectedField struct {
	Name        string
	Description *string
	Args        []introspectedValue
}

type introspectedValue struct {
	Name        string
	Description *string
}

// builtinScalars are described by the GraphQL specification itself.
var builtinScalars = []string{"Boolean", "Float", "ID", "Int", "String"}

// TestEverythingIsDescribed runs the standard introspection query (the one
// GraphiQL sends) against the served schema and lists every type, field,
// argument, input field, enum value and directive a client sees without a
// description.
func TestEverythingIsDescribed(t *testing.T) {
	query, err := os.ReadFile("testdata/introspection.graphql")
	if err != nil {
		t.Fatal(err)
	}
	srv := handler.New(generated.NewExecutableSchema(generated.Config{Resolvers: &graph.Resolver{}}))
	srv.AddTransport(transport.POST{})
	srv.Use(extension.Introspection{})
	body, err := json.Marshal(map[string]string{"query": string(query)})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("introspection answered %d: %s", rec.Code, rec.Body)
	}
	var res introspected
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 || len(res.Data.Schema.Types) == 0 {
		t.Fatalf("introspection failed: %s", rec.Body)
	}

	var missing []string
	undescribed := func(d *string) bool { return d == nil || strings.TrimSpace(*d) == "" }
	check := func(d *string, path string) {
		if undescribed(d) {
			missing = append(missing, path)
		}
	}
	types := 0
	for _, typ := range res.Data.Schema.Types {
		if strings.HasPrefix(typ.Name, "__") || slices.Contains(builtinScalars, typ.Name) {
			continue
		}
		types++
		check(typ.Description, typ.Kind+" "+typ.Name)
		for _, f := range typ.Fields {
			check(f.Description, typ.Name+"."+f.Name)
			for _, a := range f.Args {
				check(a.Description, typ.Name+"."+f.Name+"("+a.Name+":)")
			}
		}
		for _, f := range typ.InputFields {
			check(f.Description, typ.Name+"."+f.Name)
		}
		for _, v := range typ.EnumValues {
			check(v.Description, typ.Name+"."+v.Name)
		}
	}
	for _, d := range res.Data.Schema.Directives {
		check(d.Description, "@"+d.Name)
		for _, a := range d.Args {
			check(a.Description, "@"+d.Name+"("+a.Name+":)")
		}
	}
	// The walk reached the schema's own types, not an empty answer.
	if types < 100 {
		t.Fatalf("introspection listed %d types", types)
	}
	if len(missing) > 0 {
		t.Errorf("%d schema elements have no description:\n%s", len(missing), strings.Join(missing, "\n"))
	}
}
