package rest

import (
	_ "embed"
	"net/http"
)

// OpenAPI is the OpenAPI document of the REST layer; a test keeps it in step
// with the route table.
//
//go:embed openapi.yaml
var OpenAPI []byte

func (a *api) openAPI(w http.ResponseWriter, _ *http.Request) error {
	w.Header().Set("Content-Type", "application/yaml; charset=utf-8")
	_, err := w.Write(OpenAPI)
	return err
}
