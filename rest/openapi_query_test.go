package rest_test

import (
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/rest"
)

// queryParam is a query parameter of a documented operation.
type queryParam struct {
	method, path, name string
	allowEmpty         bool
}

// documentedQueryParams lists the query parameters of every operation of
// the served document, $refs resolved, in path order.
func documentedQueryParams(t *testing.T) []queryParam {
	t.Helper()
	type param struct {
		Ref        string `yaml:"$ref"`
		Name       string `yaml:"name"`
		In         string `yaml:"in"`
		AllowEmpty bool   `yaml:"allowEmptyValue"`
	}
	var doc struct {
		Paths      map[string]map[string]yaml.Node `yaml:"paths"`
		Components struct {
			Parameters map[string]param `yaml:"parameters"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(rest.OpenAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	var out []queryParam
	for path, item := range doc.Paths {
		for method, node := range item {
			var op struct {
				Parameters []param `yaml:"parameters"`
			}
			if err := node.Decode(&op); err != nil {
				continue // not an operation (the path item's own members)
			}
			for _, p := range op.Parameters {
				if p.Ref != "" {
					p = doc.Components.Parameters[p.Ref[strings.LastIndex(p.Ref, "/")+1:]]
				}
				if p.In == "query" {
					out = append(out, queryParam{strings.ToUpper(method), path, p.Name, p.AllowEmpty})
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].path+out[i].method+out[i].name < out[j].path+out[j].method+out[j].name
	})
	return out
}

// TestEmptyQueryValueMeansNotSent: the server reads an empty query value as
// a value not sent, so the document declares allowEmptyValue on every query
// parameter; every list route without path parameters answers a parameter
// sent empty exactly as without it (and the contract check validates the
// request as sent, empty value included).
func TestEmptyQueryValueMeansNotSent(t *testing.T) {
	params := documentedQueryParams(t)
	if len(params) < 80 {
		t.Fatalf("%d query parameters documented", len(params))
	}
	for _, p := range params {
		if !p.allowEmpty {
			t.Errorf("%s %s: query parameter %s does not declare allowEmptyValue", p.method, p.path, p.name)
		}
	}
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		ten := env.Bootstrap("Acme")
		h := apptest.JWT(env.Login(ten.Email), ten.TenantID, ten.ProjectID)
		checked := 0
		for _, p := range params {
			if p.method != "GET" || strings.Contains(p.path, "{") {
				continue
			}
			plain := env.Do("GET", "/api"+p.path, nil, h)
			empty := env.Do("GET", "/api"+p.path+"?"+p.name+"=", nil, h)
			if plain.Status != 200 || empty.Status != plain.Status || string(empty.Body) != string(plain.Body) {
				t.Errorf("GET %s?%s= answered %d %.300s; without it %d %.300s", p.path, p.name, empty.Status, empty.Body,
					plain.Status, plain.Body)
			}
			checked++
		}
		if checked < 60 {
			t.Fatalf("checked %d parameters", checked)
		}
	})
}
