package apptest

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi/datamodel"
	"gopkg.in/yaml.v3"

	"github.com/reten-io/reten/rest"
)

// Contract is the validator of the served OpenAPI document (rest.OpenAPI),
// built once per process. Strict mode reports properties the document does
// not declare, in requests and in responses.
var Contract = sync.OnceValues(func() (validator.Validator, error) {
	// A schema may hold an array of itself (catalog columns' sub-fields):
	// an empty array ends it, so that circle is not an error.
	doc, err := libopenapi.NewDocumentWithConfiguration(rest.OpenAPI,
		&datamodel.DocumentConfiguration{IgnoreArrayCircularReferences: true})
	if err != nil {
		return nil, err
	}
	v, errs := validator.NewValidator(doc, config.WithStrictMode(), config.WithFormatAssertions(),
		// Tenant-level routes ignore x-project-id (SPEC.md "Project context"):
		// clients may send it everywhere.
		config.WithStrictIgnoredHeadersExtra("x-project-id"))
	if len(errs) > 0 {
		return nil, fmt.Errorf("build the OpenAPI validator: %v", errs)
	}
	return v, nil
})

// checkContract validates one exchange of Env.Do against the document:
// the response always, the request when the server accepted it (2xx), so a
// request the server takes is one the document admits while deliberately
// bad requests only have their error answers checked. Paths outside /api/
// (GraphQL, playground, probes) are not part of the document. An /api/ path
// the document does not know must be the router's 404 or 405.
func checkContract(t interface {
	Helper()
	Errorf(string, ...any)
}, req *http.Request, reqBody []byte, rec *httptest.ResponseRecorder) {
	t.Helper()
	if !strings.HasPrefix(req.URL.Path, "/api/") {
		return
	}
	v, err := Contract()
	if err != nil {
		t.Errorf("OpenAPI document: %v", err)
		return
	}
	res := rec.Result()
	body := rec.Body.Bytes()
	res.Body = io.NopCloser(bytes.NewReader(body))
	var findings []*errors.ValidationError
	// sent is the request as sent, with a body the validator can read.
	sent := func() *http.Request {
		r := req.Clone(req.Context())
		r.Body = io.NopCloser(bytes.NewReader(reqBody))
		return r
	}
	if _, errs := v.ValidateHttpResponse(sent(), res); len(errs) > 0 {
		if unrouted(errs) && (res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusMethodNotAllowed) {
			return
		}
		findings = append(findings, errs...)
	}
	if res.StatusCode >= 200 && res.StatusCode < 300 {
		vreq := sent()
		// An empty query value counts as not sent (the document's
		// allowEmptyValue, which the validator does not read).
		q := vreq.URL.Query()
		for k, vs := range q {
			if len(vs) == 1 && vs[0] == "" {
				q.Del(k)
			}
		}
		vreq.URL.RawQuery = q.Encode()
		if _, errs := v.ValidateHttpRequestSync(vreq); len(errs) > 0 {
			findings = append(findings, errs...)
		}
	}
	findings = slices.DeleteFunc(findings, inMap)
	if len(findings) == 0 {
		return
	}
	var b strings.Builder
	for _, f := range findings {
		fmt.Fprintf(&b, "\n  %s: %s", f.Message, f.Reason)
		for _, s := range f.SchemaValidationErrors {
			fmt.Fprintf(&b, "\n    %s at %s (schema %s)", s.Reason, s.FieldPath, s.KeywordLocation)
		}
	}
	t.Errorf("OpenAPI contract: %s %s answered %d; the document disagrees:%s\n  request body: %.500s\n  response body: %.500s",
		req.Method, req.URL.RequestURI(), res.StatusCode, b.String(), reqBody, body)
}

// maps are the positions (line, column) in the document of the schemas
// that declare a map: additionalProperties other than false and no
// properties (event details, attributes, raw payloads). Strict mode reports
// every member of such an object as undeclared; a member of a map is
// declared by the map. An object schema without additionalProperties
// stays closed to members it does not list.
var maps = sync.OnceValue(func() map[[2]int]bool {
	var root yaml.Node
	if err := yaml.Unmarshal(rest.OpenAPI, &root); err != nil {
		panic(err)
	}
	out := map[[2]int]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			var additional, properties bool
			for i := 0; i+1 < len(n.Content); i += 2 {
				switch n.Content[i].Value {
				case "additionalProperties":
					additional = n.Content[i+1].Value != "false"
				case "properties":
					properties = true
				}
			}
			if additional && !properties {
				out[[2]int{n.Line, n.Column}] = true
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&root)
	return out
})

// inMap tells a strict-mode finding about a member of a map.
func inMap(e *errors.ValidationError) bool {
	return e.ValidationType == errors.StrictValidationType && e.ValidationSubType == errors.StrictSubTypeProperty &&
		maps()[[2]int{e.SpecLine, e.SpecCol}]
}

func unrouted(errs []*errors.ValidationError) bool {
	for _, e := range errs {
		if e.IsPathMissingError() || e.IsOperationMissingError() {
			return true
		}
	}
	return false
}
