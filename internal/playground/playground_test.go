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
		urls = append(urls, html.UnescapeString(m[1]))
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
		"boot.js":                     {"playground-config", "createFetcher", "isHeadersEditorEnabled: true", "shouldPersistHeaders: true"},
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
	if len(assets) != len(vendored)+1 {
		t.Fatalf("%d servable embedded assets, want %d", len(assets), len(vendored)+1)
	}
	for name, a := range assets {
		for _, host := range hosts {
			if strings.Contains(strings.ToLower(string(a.body)), host) {
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

func TestContentSecurityPolicy(t *testing.T) {
	res := do(t, stripped("/graphql"), http.MethodGet, "/playground/", nil)
	csp := res.Header.Get("Content-Security-Policy")
	directives := map[string]string{}
	for _, d := range strings.Split(csp, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		directives[name] = value
	}
	want := map[string]string{
		"default-src": "'none'",
		"script-src":  "'self'",
		"style-src":   "'self' 'unsafe-inline'",
		"connect-src": "'self'",
		"img-src":     "'self' data:",
		"font-src":    "'self' data:",
	}
	for name, value := range want {
		if directives[name] != value {
			t.Errorf("CSP %s = %q, want %q (CSP: %s)", name, directives[name], value, csp)
		}
	}
	if strings.Contains(csp, "http") {
		t.Errorf("CSP allows a remote origin: %s", csp)
	}

	// An endpoint on another origin must be reachable, and only that one.
	res = do(t, stripped("https://api.example.test:8443/graphql"), http.MethodGet, "/playground/", nil)
	if got := res.Header.Get("Content-Security-Policy"); !strings.Contains(got, "connect-src 'self' https://api.example.test:8443;") {
		t.Errorf("absolute endpoint: CSP %s", got)
	}
	res = do(t, stripped("https://evil;script-src *@x/graphql"), http.MethodGet, "/playground/", nil)
	if got := res.Header.Get("Content-Security-Policy"); !strings.Contains(got, "connect-src 'self';") || strings.Contains(got, "*") {
		t.Errorf("odd endpoint host leaked into the CSP: %s", got)
	}
}

func TestNotFound(t *testing.T) {
	h := stripped("/graphql")
	for _, target := range []string{
		"/playground/assets/nope.js",
		"/playground/assets/",
		"/playground/assets",
		"/playground/assets/boot.js/",
		"/playground/assets/index.html",
		"/playground/assets/graphiql.min.js.map",
		"/playground/index.html",
		"/playground/graphql",
		"/playground/x/assets/boot.js",
	} {
		if res := do(t, h, http.MethodGet, target, nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", target, res.StatusCode)
		}
	}
}

func TestMethodNotAllowed(t *testing.T) {
	h := stripped("/graphql")
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
		for _, target := range []string{"/playground/", "/playground/assets/graphiql.min.js", "/playground/nope"} {
			res := do(t, h, method, target, nil)
			if res.StatusCode != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: status %d, want 405", method, target, res.StatusCode)
			}
			if got := res.Header.Get("Allow"); got != "GET, HEAD" {
				t.Errorf("%s %s: Allow %q", method, target, got)
			}
		}
	}
}

func TestHead(t *testing.T) {
	h := stripped("/graphql")
	for target, ct := range map[string]string{
		"/playground/":                       "text/html; charset=utf-8",
		"/playground/assets/graphiql.min.js": "text/javascript; charset=utf-8",
	} {
		res := do(t, h, http.MethodHead, target, nil)
		if res.StatusCode != http.StatusOK {
			t.Errorf("HEAD %s: status %d, want 200", target, res.StatusCode)
		}
		if got := res.Header.Get("Content-Type"); got != ct {
			t.Errorf("HEAD %s: Content-Type %q, want %q", target, got, ct)
		}
		if b := body(t, res); b != "" {
			t.Errorf("HEAD %s: body of %d bytes", target, len(b))
		}
	}
}

func TestAssetRevalidation(t *testing.T) {
	h := stripped("/graphql")
	res := do(t, h, http.MethodGet, "/playground/assets/react.production.min.js", nil)
	etag := res.Header.Get("ETag")
	if len(etag) != 66 || etag[0] != '"' {
		t.Fatalf("ETag %q, want a quoted sha256", etag)
	}
	res = do(t, h, http.MethodGet, "/playground/assets/react.production.min.js", http.Header{"If-None-Match": {etag}})
	if res.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match: status %d, want 304", res.StatusCode)
	}
	res = do(t, h, http.MethodGet, "/playground/assets/react-dom.production.min.js", http.Header{"If-None-Match": {etag}})
	if res.StatusCode != http.StatusOK {
		t.Errorf("If-None-Match of another file: status %d, want 200", res.StatusCode)
	}
}

// TestMounting checks the ways the handler can be mounted: the prefix still
// on the path (as chi's Mount and a plain ServeMux leave it), at the root, and
// with a sloppy mount path.
func TestMounting(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/playground/", Handler("/playground", "/graphql"))
	mux.Handle("/tools/gql/", Handler("tools/gql/", "/graphql"))
	mux.Handle("/", Handler("", "/graphql"))

	for prefix, pageURL := range map[string]string{
		"/playground/assets/": "/playground/",
		"/tools/gql/assets/":  "/tools/gql/",
		"/assets/":            "/",
	} {
		page := getPage(t, mux, pageURL)
		urls := assetURLs(page)
		if len(urls) != len(vendored)+1 {
			t.Fatalf("page at %s references %d assets, want %d", pageURL, len(urls), len(vendored)+1)
		}
		for _, u := range urls {
			if !strings.HasPrefix(u, prefix) {
				t.Errorf("page at %s references %q, want prefix %s", pageURL, u, prefix)
			}
			if res := do(t, mux, http.MethodGet, u, nil); res.StatusCode != http.StatusOK {
				t.Errorf("GET %s: status %d, want 200", u, res.StatusCode)
			}
		}
	}
	if res := do(t, mux, http.MethodGet, "/elsewhere", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /elsewhere: status %d, want 404", res.StatusCode)
	}
}
