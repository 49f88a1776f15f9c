package console

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/reten-io/reten/internal/web"
)

func get(t *testing.T, h http.Handler, method, target string) (*http.Response, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, target, nil))
	res := rec.Result()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

func TestPage(t *testing.T) {
	h := Handler("/console", "/graphql")
	res, page := get(t, h, http.MethodGet, "/console")
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("GET /console: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	wantCSP := "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data: blob:; " +
		"base-uri 'none'; form-action 'none'; frame-ancestors 'self'"
	if got := res.Header.Get("Content-Security-Policy"); got != wantCSP {
		t.Errorf("CSP %q, want %q", got, wantCSP)
	}
	// The configuration the script reads.
	m := regexp.MustCompile(`<script id="console-config" type="application/json">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no configuration in the page:\n%s", page)
	}
	var cfg map[string]string
	if err := json.Unmarshal([]byte(m[1]), &cfg); err != nil {
		t.Fatalf("configuration %q: %v", m[1], err)
	}
	if cfg["endpoint"] != "/graphql" || cfg["authPath"] != "/api/auth" || len(cfg) != 2 {
		t.Errorf("configuration %v", cfg)
	}
	// Every script and style sheet is an embedded asset under a hashed URL;
	// nothing is loaded from elsewhere.
	refs := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(page, -1)
	var assetRefs []string
	for _, r := range refs {
		if r[1] == "data:," {
			continue
		}
		assetRefs = append(assetRefs, r[1])
		res, body := get(t, h, http.MethodGet, r[1])
		if res.StatusCode != http.StatusOK || body == "" {
			t.Errorf("GET %s: %d", r[1], res.StatusCode)
		}
		if res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("GET %s: Cache-Control %q", r[1], res.Header.Get("Cache-Control"))
		}
	}
	want := regexp.MustCompile(`^/console/assets/(console\.css|chart\.umd\.min\.js|console\.js)\?v=[0-9a-f]{12}$`)
	if len(assetRefs) != 3 {
		t.Errorf("page loads %q, want the style sheet, Chart.js and console.js", assetRefs)
	}
	for _, r := range assetRefs {
		if !want.MatchString(r) {
			t.Errorf("page loads %q", r)
		}
	}
	for _, name := range []string{"index.html", "assets/console.js", "assets/console.css"} {
		b, err := files.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "http://") || strings.Contains(string(b), "https://") {
			t.Errorf("%s names a remote URL", name)
		}
	}
	// Every control has an accessible name: a label, its text or aria-label.
	for _, id := range []string{"identifier", "password"} {
		if !strings.Contains(page, `<label for="`+id+`">`) {
			t.Errorf("input #%s has no label", id)
		}
	}
}

// TestVendoredChartJS: the served bundle is the one assets/README.md names.
func TestVendoredChartJS(t *testing.T) {
	readme, err := os.ReadFile("assets/README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`\| chart\.umd\.min\.js \(as served\) \| ([0-9a-f]{64}) \|`).FindSubmatch(readme)
	if m == nil {
		t.Fatal("assets/README.md lists no hash of chart.umd.min.js")
	}
	assets := web.LoadAssets(files, "assets")
	sum := sha256.Sum256(assets["chart.umd.min.js"].Body)
	if got := hex.EncodeToString(sum[:]); got != string(m[1]) {
		t.Errorf("chart.umd.min.js sha256 %s, README says %s", got, m[1])
	}
	if !strings.HasPrefix(string(assets["chart.umd.min.js"].Body), "/*!\n * Chart.js v4.6.1\n") {
		t.Error("chart.umd.min.js is not Chart.js 4.6.1")
	}
}

func TestRoutes(t *testing.T) {
	h := Handler("/console", "/graphql")
	for _, tc := range []struct {
		method, target string
		status         int
	}{
		{http.MethodGet, "/console/", 200},
		{http.MethodHead, "/console", 200},
		{http.MethodPost, "/console", 405},
		{http.MethodGet, "/console/assets/console.js", 200},
		{http.MethodGet, "/console/assets/README.md", 404},
		{http.MethodGet, "/console/assets/chart.js.LICENSE.md", 404},
		{http.MethodGet, "/console/index.html", 404},
		{http.MethodGet, "/console/nope", 404},
	} {
		if res, _ := get(t, h, tc.method, tc.target); res.StatusCode != tc.status {
			t.Errorf("%s %s: %d, want %d", tc.method, tc.target, res.StatusCode, tc.status)
		}
	}
}
