package playground

import (
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/reten-io/reten/internal/web"
)

const mount = "/playground"

// vendored are the files copied from npm; boot.js is ours.
var vendored = []string{
	"graphiql.min.css",
	"graphiql.min.js",
	"react-dom.production.min.js",
	"react.production.min.js",
}

// wantType is the Content-Type each referenced asset must be served with.
var wantType = map[string]string{
	"graphiql.min.css":            "text/css; charset=utf-8",
	"graphiql.min.js":             "text/javascript; charset=utf-8",
	"react-dom.production.min.js": "text/javascript; charset=utf-8",
	"react.production.min.js":     "text/javascript; charset=utf-8",
	"boot.js":                     "text/javascript; charset=utf-8",
}

// stripped serves the playground the http.StripPrefix way.
func stripped(endpoint string) http.Handler {
	return http.StripPrefix(mount, Handler(mount, endpoint))
}

func do(t *testing.T, h http.Handler, method, target string, header http.Header) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func getPage(t *testing.T, h http.Handler, target string) string {
	t.Helper()
	res := do(t, h, http.MethodGet, target, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d, want 200", target, res.StatusCode)
	}
	if got := res.Header.Get("Content-Type"); got != "text/html; charset=utf-8" {
		t.Fatalf("GET %s: Content-Type %q, want text/html; charset=utf-8", target, got)
	}
	return body(t, res)
}

var assetRef = regexp.MustCompile(`(?:src|href)="([^"]*)"`)

// assetURLs returns the src/href URLs of the page, unescaped.
func assetURLs(page string) []string {
	var urls []string
	for _, m := range assetRef.FindAllStringSubmatch(page, -1) {
		if u := html.UnescapeString(m[1]); u != "data:," { // the empty favicon
			urls = append(urls, u)
		}
	}
	return urls
}

var configRe = regexp.MustCompile(`(?s)<script id="playground-config" type="application/json">(.*?)</script>`)

func pageConfigOf(t *testing.T, page string) pageConfig {
	t.Helper()
	m := configRe.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("page has no playground-config script:\n%s", page)
	}
	var cfg pageConfig
	if err := json.Unmarshal([]byte(m[1]), &cfg); err != nil {
		t.Fatalf("playground-config is not JSON: %v\n%s", err, m[1])
	}
	return cfg
}

func TestPage(t *testing.T) {
	h := stripped("/graphql")
	for _, target := range []string{"/playground/", "/playground"} {
		res := do(t, h, http.MethodGet, target, nil)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: status %d, want 200", target, res.StatusCode)
		}
		if got := res.Header.Get("Content-Type"); got != "text/html; charset=utf-8" {
			t.Errorf("GET %s: Content-Type %q", target, got)
		}
		if got := res.Header.Get("Cache-Control"); got != "no-cache" {
			t.Errorf("GET %s: Cache-Control %q, want no-cache", target, got)
		}
		page := body(t, res)
		if !strings.Contains(page, "<title>Reten GraphQL playground</title>") {
			t.Errorf("GET %s: title missing:\n%s", target, page)
		}
	}
}

func TestPageHasNoAbsoluteURLs(t *testing.T) {
	page := getPage(t, stripped("/graphql"), "/playground/")
	if i := strings.Index(page, "http://"); i >= 0 {
		t.Errorf("page contains http:// at %d: %q", i, page[i:min(len(page), i+60)])
	}
	if i := strings.Index(page, "https://"); i >= 0 {
		t.Errorf("page contains https:// at %d: %q", i, page[i:min(len(page), i+60)])
	}
	for _, u := range assetURLs(page) {
		if !strings.HasPrefix(u, "/playground/assets/") {
			t.Errorf("page loads %q, which is not under /playground/assets/", u)
		}
	}
}

func TestPageReferencesAndServesEveryAsset(t *testing.T) {
	h := stripped("/graphql")
	page := getPage(t, h, "/playground/")

	var names []string
	for _, u := range assetURLs(page) {
		p, _, _ := strings.Cut(u, "?")
		name, ok := strings.CutPrefix(p, "/playground/assets/")
		if !ok {
			t.Fatalf("page references %q outside /playground/assets/", u)
		}
		names = append(names, name)

		res := do(t, h, http.MethodGet, u, nil)
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s: status %d, want 200", u, res.StatusCode)
			continue
		}
		if got, want := res.Header.Get("Content-Type"), wantType[name]; got != want {
			t.Errorf("GET %s: Content-Type %q, want %q", u, got, want)
		}
		if got := res.Header.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
			t.Errorf("GET %s: Cache-Control %q", u, got)
		}
		if b := body(t, res); len(b) == 0 {
			t.Errorf("GET %s: empty body", u)
		}
	}

	want := append(slices.Clone(vendored), "boot.js")
	slices.Sort(want)
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Errorf("page references assets %q, want %q", names, want)
	}
	for _, name := range vendored {
		if !strings.Contains(page, `"/playground/assets/`+name+`?v=`) {
			t.Errorf("page does not reference /playground/assets/%s", name)
		}
	}
}

// TestAssetContents checks that each URL serves the file its name says, so a
// mix-up in the handler or a bad copy from node_modules is caught.
func TestAssetContents(t *testing.T) {
	h := stripped("/graphql")
	markers := map[string][]string{
		"react.production.min.js":     {".React=", `version="18.3.1"`},
		"react-dom.production.min.js": {".ReactDOM=", "createRoot"},
		"graphiql.min.js":             {".GraphiQL=", "createFetcher"},
		"graphiql.min.css":            {".graphiql-container"},
		"boot.js":                     {"playground-config", "isHeadersEditorEnabled: true", "shouldPersistHeaders: false", "config.authPath + '/login'", "schema: hasCredentials(schemaHeaders) ? undefined : null"},
	}
	for name, subs := range markers {
		b := body(t, do(t, h, http.MethodGet, "/playground/assets/"+name, nil))
		for _, s := range subs {
			if !strings.Contains(b, s) {
				t.Errorf("/playground/assets/%s (%d bytes) does not contain %q", name, len(b), s)
			}
		}
		if strings.Contains(b, "sourceMappingURL") {
			t.Errorf("/playground/assets/%s points at a source map that is not shipped", name)
		}
	}
}

// TestAssetsNeedNoCDN guards the embedded files against references to
// public CDNs. The host names are split so that this file does not contain
// them either.
func TestAssetsNeedNoCDN(t *testing.T) {
	hosts := []string{
		"unpkg" + ".com",
		"cdn" + ".jsdelivr",
		"cdnjs" + ".cloudflare",
		"fonts" + ".googleapis",
	}
	assets := web.LoadAssets(files, "assets")
	if len(assets) != len(vendored)+1 {
		t.Fatalf("%d servable embedded assets, want %d", len(assets), len(vendored)+1)
	}
	for name, a := range assets {
		for _, host := range hosts {
			if strings.Contains(strings.ToLower(string(a.Body)), host) {
				t.Errorf("embedded asset %s mentions %s", name, host)
			}
		}
	}
}

func TestHeaderTemplate(t *testing.T) {
	cfg := pageConfigOf(t, getPage(t, stripped("/graphql"), "/playground/"))
	var headers map[string]string
	if err := json.Unmarshal([]byte(cfg.DefaultHeaders), &headers); err != nil {
		t.Fatalf("defaultHeaders is not a JSON object of strings: %v\n%s", err, cfg.DefaultHeaders)
	}
	want := map[string]string{
		"Authorization": "Bearer <access token>",
		"x-tenant-id":   "<tenant uuid>",
		"x-project-id":  "",
	}
	if len(headers) != len(want) {
		t.Errorf("defaultHeaders has %d keys, want %d: %v", len(headers), len(want), headers)
	}
	for k, v := range want {
		if headers[k] != v {
			t.Errorf("defaultHeaders[%q] = %q, want %q", k, headers[k], v)
		}
	}
	if cfg.AuthPath != "/api/auth" {
		t.Errorf("authPath %q, want /api/auth", cfg.AuthPath)
	}
	if !strings.Contains(cfg.DefaultQuery, "viewer") {
		t.Errorf("defaultQuery %q does not query the viewer", cfg.DefaultQuery)
	}
}

func TestEndpoint(t *testing.T) {
	for _, tc := range []struct{ endpoint, want string }{
		{"/graphql", "/graphql"},
		{"", DefaultEndpoint},
		{"/api/v2/graphql?x=1&y=2", "/api/v2/graphql?x=1&y=2"},
	} {
		page := getPage(t, stripped(tc.endpoint), "/playground/")
		if got := pageConfigOf(t, page).Endpoint; got != tc.want {
			t.Errorf("Handler(%q, %q): page endpoint %q, want %q", mount, tc.endpoint, got, tc.want)
		}
		if !strings.Contains(page, `"endpoint":"`+strings.ReplaceAll(tc.want, "&", `\u0026`)+`"`) {
			t.Errorf("Handler(%q, %q): endpoint not found in page:\n%s", mount, tc.endpoint, page)
		}
	}
	if DefaultEndpoint != "/graphql" {
		t.Errorf("DefaultEndpoint = %q", DefaultEndpoint)
	}
}

func TestEndpointIsEscaped(t *testing.T) {
	evil := `/graphql"</script><script>alert(1)</script>`
	page := getPage(t, stripped(evil), "/playground/")
	if strings.Contains(page, "<script>alert(1)") {
		t.Fatalf("endpoint injected markup:\n%s", page)
	}
	if got := pageConfigOf(t, page).Endpoint; got != evil {
		t.Errorf("endpoint round-trips as %q, want %q", got, evil)
	}
}
