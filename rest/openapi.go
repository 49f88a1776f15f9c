package rest

import (
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

//go:embed openapi/*.yaml
var openAPIFiles embed.FS

// OpenAPI returns the OpenAPI document of the REST layer: openapi/base.yaml
// with the paths and components of every domain fragment
// (openapi/<domain>.yaml) merged in, once, when it is first asked for (the
// merge takes tens of milliseconds that a starting process should not
// spend). A test keeps it in step with the route table.
var OpenAPI = sync.OnceValue(mustMergeOpenAPI)

func mustMergeOpenAPI() []byte {
	doc, err := mergeOpenAPI(openAPIFiles)
	if err != nil {
		panic(err)
	}
	return doc
}

func mergeOpenAPI(files fs.FS) ([]byte, error) {
	var base map[string]any
	if err := readYAML(files, "openapi/base.yaml", &base); err != nil {
		return nil, err
	}
	names, err := fs.Glob(files, "openapi/*.yaml")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	paths := base["paths"].(map[string]any)
	components := base["components"].(map[string]any)
	var tags []any
	baseTag, _ := base["x-tag"].(map[string]any)
	delete(base, "x-tag")
	if tags, err = tagOperations(tags, "openapi/base.yaml", baseTag, paths); err != nil {
		return nil, err
	}
	for _, name := range names {
		if name == "openapi/base.yaml" {
			continue
		}
		var frag struct {
			Paths      map[string]any            `yaml:"paths"`
			Components map[string]map[string]any `yaml:"components"` // schemas, parameters, ...
			Tag        map[string]any            `yaml:"x-tag"`      // {name, description}
		}
		if err := readYAML(files, name, &frag); err != nil {
			return nil, err
		}
		if tags, err = tagOperations(tags, name, frag.Tag, frag.Paths); err != nil {
			return nil, err
		}
		for k, v := range frag.Paths {
			if _, dup := paths[k]; dup {
				return nil, fmt.Errorf("%s: path %s is documented twice", name, k)
			}
			paths[k] = v
		}
		for section, entries := range frag.Components {
			merged, _ := components[section].(map[string]any)
			if merged == nil {
				merged = map[string]any{}
				components[section] = merged
			}
			for k, v := range entries {
				if _, dup := merged[k]; dup {
					return nil, fmt.Errorf("%s: component %s/%s is defined twice", name, section, k)
				}
				merged[k] = v
			}
		}
	}
	if err := completeOperations(paths); err != nil {
		return nil, err
	}
	base["tags"] = tags
	return yaml.Marshal(base)
}

// tagOperations gives every operation of a file the file's tag (its x-tag:
// the domain's name and description) and appends the tag to tags.
func tagOperations(tags []any, file string, tag map[string]any, paths map[string]any) ([]any, error) {
	name, _ := tag["name"].(string)
	if name == "" {
		return nil, fmt.Errorf("%s: x-tag needs a name", file)
	}
	for path, item := range paths {
		ops, _ := item.(map[string]any)
		for method, o := range ops {
			op, ok := o.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s: paths %s %s: not an operation", file, path, method)
			}
			op["tags"] = []any{name}
		}
	}
	return append(tags, tag), nil
}

// completeOperations documents the answers every operation of a kind can
// give, so the fragments state only what is particular to an operation:
// the guard's (400 for a credential header, 401, 429 past the rate limit;
// 403 and 404 for the project of a project-scoped route; 403 for a
// permission), the body's (400, 413 past the body limit), a path id's (400)
// and the database deadline's (503; every operation but this document's).
// Each is a reference to components/responses; a status a fragment
// documents itself is kept. An error answer documented without content
// carries the error envelope.
func completeOperations(paths map[string]any) error {
	for path, item := range paths {
		ops, _ := item.(map[string]any)
		for method, o := range ops {
			op, ok := o.(map[string]any)
			if !ok {
				return fmt.Errorf("paths %s %s: not an operation", path, method)
			}
			responses, _ := op["responses"].(map[string]any)
			if responses == nil {
				return fmt.Errorf("paths %s %s: no responses", path, method)
			}
			add := func(status, name string) {
				if _, ok := responses[status]; !ok {
					responses[status] = map[string]any{"$ref": "#/components/responses/" + name}
				}
			}
			scope, _ := op["x-scope"].(string)
			if scope != "public" {
				add("400", "BadRequest")
				add("401", "Unauthorized")
				add("429", "TooManyRequests")
			}
			if scope == "project-scoped" || scope == "project-optional" {
				add("403", "Forbidden")
				add("404", "NotFound")
			}
			if perm, _ := op["x-permission"].(string); perm != "" {
				add("403", "Forbidden")
			}
			if op["requestBody"] != nil {
				add("400", "BadRequest")
				add("413", "PayloadTooLarge")
			}
			if strings.Contains(path, "{") {
				add("400", "BadRequest")
			}
			if path != "/openapi.yaml" {
				add("503", "ServiceUnavailable")
			}
			for status, r := range responses {
				res, _ := r.(map[string]any)
				if res != nil && status >= "400" && res["$ref"] == nil && res["content"] == nil {
					res["content"] = map[string]any{"application/json": map[string]any{
						"schema": map[string]any{"$ref": "#/components/schemas/Error"}}}
				}
			}
		}
	}
	return nil
}

func readYAML(files fs.FS, name string, v any) error {
	raw, err := fs.ReadFile(files, name)
	if err != nil {
		return err
	}
	if err := yaml.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func (a *api) openAPI(w http.ResponseWriter, _ *http.Request) error {
	w.Header().Set("Content-Type", "application/yaml; charset=utf-8")
	_, err := w.Write(OpenAPI())
	return err
}
