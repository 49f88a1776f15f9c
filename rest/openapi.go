package rest

import (
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"sort"

	"gopkg.in/yaml.v3"
)

//go:embed openapi/*.yaml
var openAPIFiles embed.FS

// OpenAPI is the OpenAPI document of the REST layer: openapi/base.yaml with
// the paths and components of every domain fragment (openapi/<domain>.yaml)
// merged in. A test keeps it in step with the route table.
var OpenAPI = mustMergeOpenAPI()

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
	for _, name := range names {
		if name == "openapi/base.yaml" {
			continue
		}
		var frag struct {
			Paths      map[string]any            `yaml:"paths"`
			Components map[string]map[string]any `yaml:"components"` // schemas, parameters, ...
		}
		if err := readYAML(files, name, &frag); err != nil {
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
	return yaml.Marshal(base)
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
	_, err := w.Write(OpenAPI)
	return err
}
