package apptest

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
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
