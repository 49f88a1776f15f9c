package playground

import (
	"net/http"
	"strings"
	"testing"
)

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
