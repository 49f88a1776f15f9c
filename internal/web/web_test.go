package web

import (
	"crypto/sha256"
	"encoding/hex"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

var links = Links{Playground: "/playground", Console: "/console", Docs: "/docs", OpenAPI: "/api/openapi.yaml", SDL: "/graphql/schema.graphql", GraphQL: "/graphql"}

func get(t *testing.T, h http.Handler, method, target string) (*http.Response, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, target, nil))
	res := rec.Result()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

var hrefRe = regexp.MustCompile(`(?:href|src)="([^"]*)"`)

func refs(page string) []string {
	var out []string
	for _, m := range hrefRe.FindAllStringSubmatch(page, -1) {
		if u := html.UnescapeString(m[1]); u != "data:," { // the empty favicon
			out = append(out, u)
		}
	}
	return out
}

func TestLanding(t *testing.T) {
	h := Landing(links)
	res, page := get(t, h, http.MethodGet, "/")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /: status %d", res.StatusCode)
	}
	for k, want := range map[string]string{
		"Content-Type":            "text/html; charset=utf-8",
		"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
		"X-Content-Type-Options":  "nosniff",
		"Cache-Control":           "no-cache",
	} {
		if got := res.Header.Get(k); got != want {
			t.Errorf("GET /: %s %q, want %q", k, got, want)
		}
	}
	want := []string{"/console", "/playground", "/docs", "/api/openapi.yaml", "/graphql/schema.graphql", "/healthz", "/readyz", "/metrics"}
	got := refs(page)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("landing page links %q, want %q", got, want)
	}
	if !strings.Contains(page, "<title>Reten</title>") || !strings.Contains(page, "retention lifecycle and field activity") {
		t.Errorf("landing page does not say what the service is:\n%s", page)
	}
	if strings.Contains(page, "<script") {
		t.Errorf("landing page runs a script")
	}
	if res, _ := get(t, h, http.MethodPost, "/"); res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST /: status %d, Allow %q", res.StatusCode, res.Header.Get("Allow"))
	}
	if res, body := get(t, h, http.MethodHead, "/"); res.StatusCode != http.StatusOK || body != "" {
		t.Errorf("HEAD /: status %d, body %q", res.StatusCode, body)
	}
}

func TestDocsPage(t *testing.T) {
	h := Docs("/docs", "/api/openapi.yaml")
	for _, target := range []string{"/docs", "/docs/"} {
		res, page := get(t, h, http.MethodGet, target)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Fatalf("GET %s: status %d, Content-Type %q", target, res.StatusCode, res.Header.Get("Content-Type"))
		}
		if !strings.Contains(page, `data-spec-url="/api/openapi.yaml"`) {
			t.Errorf("GET %s: the page does not name the OpenAPI document:\n%s", target, page)
		}
		csp := res.Header.Get("Content-Security-Policy")
		for _, d := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self'", "worker-src blob:", "font-src 'self' data:"} {
			if !strings.Contains(csp, d+";") {
				t.Errorf("GET %s: CSP %q lacks %q", target, csp, d)
			}
		}
		if strings.Contains(csp, "http") || strings.Contains(csp, "*") {
			t.Errorf("GET %s: CSP allows another origin: %s", target, csp)
		}
	}
	_, page := get(t, h, http.MethodGet, "/docs/")
	var served []string
	for _, u := range refs(page) {
		if u == "/api/openapi.yaml" {
			continue
		}
		name, ok := strings.CutPrefix(strings.Split(u, "?")[0], "/docs/assets/")
		if !ok {
			t.Fatalf("docs page loads %q outside /docs/assets/", u)
		}
		served = append(served, name)
		res, body := get(t, h, http.MethodGet, u)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/javascript; charset=utf-8" ||
			res.Header.Get("Cache-Control") != AssetCacheControl || len(body) == 0 {
			t.Errorf("GET %s: status %d, Content-Type %q, Cache-Control %q, %d bytes",
				u, res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Cache-Control"), len(body))
		}
	}
	if strings.Join(served, " ") != "redoc.standalone.js docs.js" {
		t.Errorf("docs page loads %q, want the Redoc bundle then docs.js", served)
	}
	for _, target := range []string{"/docs/assets/README.md", "/docs/assets/redoc.LICENSE", "/docs/assets/nope.js", "/docs/other", "/docs/assets/"} {
		if res, _ := get(t, h, http.MethodGet, target); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", target, res.StatusCode)
		}
	}
}

// TestVendoredRedoc checks the bundle against the checksum its README
// records, and that nothing embedded names a CDN or a font service (the
// host names are split so that this file does not name them either).
func TestVendoredRedoc(t *testing.T) {
	readme, err := os.ReadFile("assets/README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"redoc.standalone.js", "redoc.LICENSE"} {
		b, err := os.ReadFile("assets/" + name)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if row := "| " + name + " | " + hex.EncodeToString(sum[:]) + " |"; !strings.Contains(string(readme), row) {
			t.Errorf("assets/README.md lacks the row %q: the file changed without its record", row)
		}
	}
	licenses, err := os.ReadFile("assets/redoc.standalone.js.LICENSE.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "**redoc 2.5.4**") || !strings.Contains(string(licenses), `Version: "2.5.4"`) {
		t.Errorf("README and bundle disagree on the Redoc version")
	}
	assets := docsAssets()
	served := string(assets["redoc.standalone.js"].Body)
	if strings.Contains(served, "https://cdn.") || !strings.Contains(served, `alt:"redocly logo",onError:()=>t(!1),src:""`) {
		t.Errorf("the served bundle still loads its remote logo")
	}
	for name, a := range assets {
		body := strings.ToLower(string(a.Body))
		for _, host := range []string{"unpkg" + ".com", "cdn" + ".jsdelivr", "cdnjs" + ".cloudflare", "fonts" + ".googleapis", "fonts" + ".gstatic", "cdn" + ".redoc.ly"} {
			if strings.Contains(body, host) {
				t.Errorf("embedded %s names %s", name, host)
			}
		}
	}
}

func TestSDL(t *testing.T) {
	schema := gqlparser.MustLoadSchema(&ast.Source{Name: "s.graphql", Input: `
"The caller."
type Viewer { "Its name." name: String! }
type Query { viewer: Viewer! }
`})
	h := SDL(schema)
	res, body := get(t, h, http.MethodGet, "/graphql/schema.graphql")
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Fatalf("status %d, Content-Type %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	for _, want := range []string{"type Query {\n  viewer: Viewer!\n}", "\"\"\"\nThe caller.\n\"\"\"\ntype Viewer {", "  \"\"\"\n  Its name.\n  \"\"\"\n  name: String!"} {
		if !strings.Contains(body, want) {
			t.Errorf("SDL lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "__Schema") || strings.Contains(body, "scalar String") {
		t.Errorf("SDL prints built-in definitions:\n%s", body)
	}
	if res, _ := get(t, h, http.MethodPost, "/graphql/schema.graphql"); res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: status %d, want 405", res.StatusCode)
	}
}
