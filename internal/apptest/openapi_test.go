package apptest

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
)

// findings records what checkContract reports instead of failing.
type findings []string

func (f *findings) Helper() {}

func (f *findings) Errorf(format string, args ...any) { *f = append(*f, fmt.Sprintf(format, args...)) }

func exchange(method, path, reqBody string, status int, resBody string) []string {
	req := httptest.NewRequest(method, path, strings.NewReader(reqBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer token")
	req.Header.Set("x-tenant-id", "8a4b2e9c-4a7e-4b8e-9a53-0d1f7b7c2a11")
	rec := httptest.NewRecorder()
	if resBody != "" {
		rec.Header().Set("Content-Type", "application/json")
	}
	rec.WriteHeader(status)
	rec.WriteString(resBody)
	var f findings
	checkContract(&f, req, []byte(reqBody), rec)
	return f
}

const project = `{"id":"8a4b2e9c-4a7e-4b8e-9a53-0d1f7b7c2a11","name":"Main","rootAudienceId":"8a4b2e9c-4a7e-4b8e-9a53-0d1f7b7c2a12","isMain":true}`

func TestContractAcceptsDocumentedExchanges(t *testing.T) {
	for _, c := range []struct {
		method, path, req string
		status            int
		res               string
	}{
		{"GET", "/api/projects", "", 200, "[" + project + "]"},
		{"POST", "/api/projects", `{"name":"Main"}`, 201, project},
		{"POST", "/api/projects", `{"name":7}`, 400, `{"statusCode":400,"error":"Bad Request","message":["name must be a string"]}`},
		{"GET", "/api/no-such-route", "", 404, `{"statusCode":404,"error":"Not Found","message":"Cannot GET /api/no-such-route"}`},
		{"GET", "/graphql", "", 418, "teapot"},
	} {
		if f := exchange(c.method, c.path, c.req, c.status, c.res); len(f) > 0 {
			t.Errorf("%s %s %d: %v", c.method, c.path, c.status, f)
		}
	}
}

func TestContractReportsWhatTheDocumentDoesNotSay(t *testing.T) {
	for _, c := range []struct {
		name, method, path, req string
		status                  int
		res, want               string
	}{
		{"undocumented status", "GET", "/api/projects", "", 418, `{"statusCode":418,"error":"x","message":"x"}`, "GET /api/projects answered 418"},
		{"undocumented field", "GET", "/api/projects", "", 200, `[` + strings.TrimSuffix(project, "}") + `,"extra":1}]`, "extra"},
		{"missing required field", "GET", "/api/projects", "", 200, `[{"id":"8a4b2e9c-4a7e-4b8e-9a53-0d1f7b7c2a11"}]`, "name"},
		{"null", "GET", "/api/projects", "", 200, `[` + strings.Replace(project, `"Main"`, "null", 1) + `]`, "name"},
		{"error without envelope", "POST", "/api/projects", `{"name":7}`, 400, `{"message":"no"}`, "statusCode"},
		{"accepted request the document refuses", "POST", "/api/projects", `{"name":"Main","color":"red"}`, 201, project, "color"},
	} {
		f := exchange(c.method, c.path, c.req, c.status, c.res)
		if len(f) != 1 || !strings.Contains(f[0], c.want) || !strings.Contains(f[0], "OpenAPI contract: "+c.method+" "+c.path) {
			t.Errorf("%s: findings %q, want one naming %q", c.name, f, c.want)
		}
	}
}

const envelope404 = `{"statusCode":404,"error":"Not Found","message":"Cannot DELETE /api/projects"}`

// TestContractChecksUnroutedAnswers: the answer to a path or method the
// document does not know is the router's 404 (or 405) with the error
// envelope, nothing else.
func TestContractChecksUnroutedAnswers(t *testing.T) {
	if f := exchange("DELETE", "/api/projects", "", 404, envelope404); len(f) > 0 {
		t.Errorf("unknown method: %v", f)
	}
	if f := exchange("GET", "/api/nowhere", "", 405, `{"statusCode":405,"error":"Method Not Allowed","message":"x"}`); len(f) > 0 {
		t.Errorf("405: %v", f)
	}
	for _, c := range []struct {
		name   string
		status int
		res    string
		want   string
	}{
		{"another status", 200, `{"statusCode":200,"error":"OK","message":"x"}`, "the status is not the router's 404 or 405"},
		{"no envelope", 404, `{"message":"x"}`, "statusCode"},
		{"not JSON", 404, "", `content type ""`},
		{"message of another type", 404, `{"statusCode":404,"error":"Not Found","message":7}`, "message"},
		{"undeclared member", 404, `{"statusCode":404,"error":"Not Found","message":"x","path":"/api/nowhere"}`, `member "path"`},
		{"statusCode of another status", 404, `{"statusCode":400,"error":"Not Found","message":"x"}`, "statusCode 400 is not the status 404"},
	} {
		f := exchange("GET", "/api/nowhere", "", c.status, c.res)
		if len(f) != 1 || !strings.Contains(f[0], c.want) || !strings.Contains(f[0], "OpenAPI contract: GET /api/nowhere") {
			t.Errorf("%s: findings %q, want one naming %q", c.name, f, c.want)
		}
	}
}

// TestContractEmptyQueryValues: an accepted request's empty query value is
// left out only for a parameter that declares allowEmptyValue; any other
// is validated as sent.
func TestContractEmptyQueryValues(t *testing.T) {
	doc, err := libopenapi.NewDocument([]byte(`openapi: 3.1.0
info: {title: t, version: "1"}
servers: [{url: /api}]
paths:
  /things:
    parameters: [{name: shared, in: query, allowEmptyValue: true, schema: {type: integer}}]
    get:
      parameters:
        - {name: page, in: query, allowEmptyValue: true, schema: {type: integer}}
        - {name: status, in: query, schema: {type: string, enum: [A]}}
      responses: {"200": {description: ok}}
`))
	if err != nil {
		t.Fatal(err)
	}
	m, err := doc.BuildV3Model()
	if err != nil {
		t.Fatal(err)
	}
	for query, want := range map[string]string{
		"page=&status=&shared=": "status=",
		"page=2&shared=3":       "page=2&shared=3",
		"page=&page=&other=":    "other=&page=&page=",
	} {
		req := httptest.NewRequest("GET", "/api/things?"+query, nil)
		if got := withoutAllowedEmpty(&m.Model, req); got != want {
			t.Errorf("%s: %q, want %q", query, got, want)
		}
	}
	// A path the document does not know keeps its query.
	if got := withoutAllowedEmpty(&m.Model, httptest.NewRequest("GET", "/api/nowhere?page=", nil)); got != "page=" {
		t.Errorf("unknown path: %q", got)
	}
	// The served document: declared parameters allow an empty value; an
	// empty value of a parameter it does not declare is one.
	const page = `{"data":[],"meta":{"page":1,"limit":25,"total":0,"totalPages":0}}`
	if f := exchange("GET", "/api/activities?status=&page=&search=", "", 200, page); len(f) > 0 {
		t.Errorf("declared empty parameters: %q", f)
	}
	if f := exchange("GET", "/api/activities?nope=", "", 200, page); len(f) != 1 || !strings.Contains(f[0], "nope") {
		t.Errorf("an undeclared empty parameter: %q", f)
	}
}
