package apptest

import (
	"bytes"
	"encoding/json"
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
	"github.com/pb33f/libopenapi-validator/paths"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/pb33f/libopenapi/datamodel"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"gopkg.in/yaml.v3"

	"github.com/reten-io/reten/rest"
)

// document is the served OpenAPI document (rest.OpenAPI()), parsed once.
var document = sync.OnceValues(func() (libopenapi.Document, error) {
	// A schema may hold an array of itself (catalog columns' sub-fields):
	// an empty array ends it, so that circle is not an error.
	return libopenapi.NewDocumentWithConfiguration(rest.OpenAPI(),
		&datamodel.DocumentConfiguration{IgnoreArrayCircularReferences: true})
})

// Contract is the validator of the served OpenAPI document, built once per
// process. Strict mode reports properties the document does not declare,
// in requests and in responses.
var Contract = sync.OnceValues(func() (validator.Validator, error) {
	doc, err := document()
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

// model is the document's model, for what the validator does not check:
// the parameters that allow an empty value, the error envelope of the
// answers of paths the document does not know.
var model = sync.OnceValues(func() (*v3.Document, error) {
	doc, err := document()
	if err != nil {
		return nil, err
	}
	m, err := doc.BuildV3Model()
	if err != nil {
		return nil, fmt.Errorf("build the OpenAPI model: %w", err)
	}
	return &m.Model, nil
})

// checkContract validates one exchange of Env.Do against the document:
// the response always, the request when the server accepted it (2xx), so a
// request the server takes is one the document admits while deliberately
// bad requests only have their error answers checked. Paths outside /api/
// (GraphQL, playground, probes) are not part of the document. An /api/ path
// the document does not know must be the router's 404 or 405, with the
// error envelope (unroutedFindings).
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
	m, err := model()
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
		if unrouted(errs) {
			findings = unroutedFindings(m, res, body)
		} else {
			findings = append(findings, errs...)
		}
	}
	if res.StatusCode >= 200 && res.StatusCode < 300 {
		vreq := sent()
		vreq.URL.RawQuery = withoutAllowedEmpty(m, vreq)
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

// withoutAllowedEmpty is the query of req without the empty values of the
// parameters of its operation that declare allowEmptyValue (empty means
// not sent), which the validator does not read. Any other empty value is
// validated as sent.
func withoutAllowedEmpty(m *v3.Document, req *http.Request) string {
	item, errs, _ := paths.FindPath(req, m, nil)
	if item == nil || len(errs) > 0 {
		return req.URL.RawQuery
	}
	params := item.Parameters
	if op := item.GetOperations().GetOrZero(strings.ToLower(req.Method)); op != nil {
		params = append(slices.Clone(params), op.Parameters...)
	}
	q := req.URL.Query()
	for _, p := range params {
		if p.In == "query" && p.AllowEmptyValue {
			if vs := q[p.Name]; len(vs) == 1 && vs[0] == "" {
				q.Del(p.Name)
			}
		}
	}
	return q.Encode()
}

// unroutedFindings checks the answer to a path or method the document does
// not know: the router's 404 or 405, a JSON error envelope (the document's
// Error schema, with no member it does not declare) whose statusCode is
// the answer's status.
func unroutedFindings(m *v3.Document, res *http.Response, body []byte) []*errors.ValidationError {
	finding := func(reason string) []*errors.ValidationError {
		return []*errors.ValidationError{{Message: "answer to a path the document does not know", Reason: reason}}
	}
	if res.StatusCode != http.StatusNotFound && res.StatusCode != http.StatusMethodNotAllowed {
		return finding("the status is not the router's 404 or 405")
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return finding(fmt.Sprintf("content type %q, not application/json", ct))
	}
	proxy := m.Components.Schemas.GetOrZero("Error")
	if proxy == nil {
		return finding("the document has no Error schema")
	}
	schema := proxy.Schema()
	if ok, errs := schema_validation.NewSchemaValidator().ValidateSchemaBytes(schema, body); !ok {
		return errs
	}
	var envelope map[string]any
	if err := json.Unmarshal(body, &envelope); err != nil {
		return finding(err.Error())
	}
	for member := range envelope {
		if schema.Properties.GetOrZero(member) == nil {
			return finding(fmt.Sprintf("member %q is not in the Error schema", member))
		}
	}
	if code, _ := envelope["statusCode"].(float64); int(code) != res.StatusCode {
		return finding(fmt.Sprintf("statusCode %v is not the status %d", envelope["statusCode"], res.StatusCode))
	}
	return nil
}

// maps are the positions (line, column) in the document of the schemas
// that declare a map: additionalProperties other than false and no
// properties (event details, attributes, raw payloads). Strict mode reports
// every member of such an object as undeclared; a member of a map is
// declared by the map. An object schema without additionalProperties
// stays closed to members it does not list.
var maps = sync.OnceValue(func() map[[2]int]bool {
	var root yaml.Node
	if err := yaml.Unmarshal(rest.OpenAPI(), &root); err != nil {
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
