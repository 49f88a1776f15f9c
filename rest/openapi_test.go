package rest_test

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/rest"
)

// TestOpenAPIDocumentsEveryRoute fails when a route is added without its
// documentation, or documented with another scope or permission.
func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]struct {
			Scope      string `yaml:"x-scope"`
			Permission string `yaml:"x-permission"`
		} `yaml:"paths"`
	}
	if err := yaml.Unmarshal(rest.OpenAPI(), &doc); err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	documented := map[string]bool{}
	for path, ops := range doc.Paths {
		for method := range ops {
			documented[strings.ToUpper(method)+" "+path] = true
		}
	}
	for _, r := range rest.Routes() {
		key := r.Method + " " + r.Path
		op, ok := doc.Paths[r.Path][strings.ToLower(r.Method)]
		if !ok {
			t.Errorf("%s is not documented in rest/openapi.yaml", key)
			continue
		}
		delete(documented, key)
		if op.Scope != r.Scope.String() || op.Permission != r.Permission {
			t.Errorf("%s documented as scope %q permission %q, routed as %q %q", key, op.Scope, op.Permission, r.Scope, r.Permission)
		}
	}
	var extra []string
	for k := range documented {
		extra = append(extra, k)
	}
	sort.Strings(extra)
	if len(extra) > 0 {
		t.Errorf("documented but not routed: %v", extra)
	}
}

func TestOpenAPIServed(t *testing.T) {
	env := apptest.New(t, "sqlite")
	res := env.Do("GET", "/api/openapi.yaml", nil, nil)
	if res.Status != 200 || res.Header.Get("Content-Type") != "application/yaml; charset=utf-8" || string(res.Body) != string(rest.OpenAPI()) {
		t.Fatalf("GET /api/openapi.yaml: %d %q", res.Status, res.Header.Get("Content-Type"))
	}
}

// TestOpenAPIRefsResolve fails when a $ref names a component that no
// fragment defines (fragments are merged, so a typo would go unnoticed).
func TestOpenAPIRefsResolve(t *testing.T) {
	var doc map[string]any
	if err := yaml.Unmarshal(rest.OpenAPI(), &doc); err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	components := doc["components"].(map[string]any)
	refs := 0
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok {
				refs++
				parts := strings.Split(strings.TrimPrefix(ref, "#/components/"), "/")
				section, _ := components[parts[0]].(map[string]any)
				if len(parts) != 2 || section[parts[1]] == nil {
					t.Errorf("$ref %q resolves to nothing", ref)
				}
			}
			for _, c := range v {
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		}
	}
	walk(doc)
	if refs < 100 {
		t.Fatalf("walked %d $refs; the document has hundreds", refs)
	}
}

// TestOpenAPIDocumentValid validates the served document against the
// OpenAPI 3.1 specification schema (the validator apptest checks every
// exchange of the REST tests with).
func TestOpenAPIDocumentValid(t *testing.T) {
	v, err := apptest.Contract()
	if err != nil {
		t.Fatal(err)
	}
	if ok, errs := v.ValidateDocument(); !ok {
		for _, e := range errs {
			t.Errorf("%s", e.Error())
			for _, s := range e.SchemaValidationErrors {
				t.Errorf("  %s at %s", s.Reason, s.KeywordLocation)
			}
		}
	}
}

// TestOpenAPIOperationIDs fails when an operation has no operationId, or
// one that is not camelCase or is used twice.
func TestOpenAPIOperationIDs(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `yaml:"operationId"`
		} `yaml:"paths"`
	}
	if err := yaml.Unmarshal(rest.OpenAPI(), &doc); err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	camel := regexp.MustCompile(`^[a-z][a-zA-Z0-9]*$`)
	seen := map[string]string{}
	for path, ops := range doc.Paths {
		for method, op := range ops {
			key := strings.ToUpper(method) + " " + path
			switch {
			case !camel.MatchString(op.OperationID):
				t.Errorf("%s: operationId %q is not camelCase", key, op.OperationID)
			case seen[op.OperationID] != "":
				t.Errorf("%s: operationId %q is also %s's", key, op.OperationID, seen[op.OperationID])
			}
			seen[op.OperationID] = key
		}
	}
}
