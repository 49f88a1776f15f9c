package app_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
)

// TestFrontDoorRoutes checks the human-facing routes through the real router.
func TestFrontDoorRoutes(t *testing.T) {
	env := apptest.New(t, "sqlite")
	for _, tc := range []struct {
		method, path string
		status       int
		contentType  string
		contains     []string
	}{
		{"GET", "/", 200, "text/html; charset=utf-8", []string{"<title>Reten</title>", `href="/console"`, `href="/playground"`, `href="/docs"`, `href="/api/openapi.yaml"`, `href="/graphql/schema.graphql"`, `href="/metrics"`}},
		{"HEAD", "/", 200, "text/html; charset=utf-8", nil},
		{"POST", "/", 405, "text/plain; charset=utf-8", []string{"Method Not Allowed"}},
		{"GET", "/docs", 200, "text/html; charset=utf-8", []string{`data-spec-url="/api/openapi.yaml"`, `src="/docs/assets/redoc.standalone.js?v=`}},
		{"GET", "/docs/nope", 404, "text/plain; charset=utf-8", nil},
		{"GET", "/playground", 200, "text/html; charset=utf-8", []string{"<title>Reten GraphQL playground</title>"}},
		{"GET", "/console", 200, "text/html; charset=utf-8", []string{"<title>Reten console</title>", `src="/console/assets/chart.umd.min.js?v=`}},
		{"GET", "/console/assets/console.js", 200, "text/javascript; charset=utf-8", []string{"upliftRows"}},
		{"GET", "/console/assets/README.md", 404, "", nil},
		{"GET", "/graphql/schema.graphql", 200, "text/plain; charset=utf-8", []string{"type Query {", "\n  viewer: Viewer!\n", "type Viewer {", "input ProjectWhereInput {"}},
		{"GET", "/api/openapi.yaml", 200, "application/yaml; charset=utf-8", []string{"openapi: 3.1.0"}},
		{"GET", "/index.html", 404, "", nil},
	} {
		res := env.Do(tc.method, tc.path, nil, nil)
		if res.Status != tc.status {
			t.Errorf("%s %s: status %d, want %d", tc.method, tc.path, res.Status, tc.status)
			continue
		}
		if tc.contentType != "" && res.Header.Get("Content-Type") != tc.contentType {
			t.Errorf("%s %s: Content-Type %q, want %q", tc.method, tc.path, res.Header.Get("Content-Type"), tc.contentType)
		}
		for _, s := range tc.contains {
			if !bytes.Contains(res.Body, []byte(s)) {
				t.Errorf("%s %s: body lacks %q", tc.method, tc.path, s)
			}
		}
	}
}

func TestBaseURL(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8080": "http://127.0.0.1:8080/",
		"0.0.0.0:9000":   "http://127.0.0.1:9000/",
		"[::]:9000":      "http://127.0.0.1:9000/",
		"[::1]:9000":     "http://[::1]:9000/",
		"10.1.2.3:80":    "http://10.1.2.3:80/",
	} {
		tcp, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := app.BaseURL(tcp); got != want {
			t.Errorf("BaseURL(%s) = %q, want %q", addr, got, want)
		}
	}
	want := "Reten is ready: http://127.0.0.1:8080/ (console http://127.0.0.1:8080/console, playground http://127.0.0.1:8080/playground, REST reference http://127.0.0.1:8080/docs)"
	if got := app.ReadyLine("http://127.0.0.1:8080/"); got != want {
		t.Errorf("ReadyLine = %q, want %q", got, want)
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var readyRe = regexp.MustCompile(`^Reten is ready: (http://127\.0\.0\.1:\d+/) \(console http://127\.0\.0\.1:\d+/console, playground http://127\.0\.0\.1:\d+/playground, REST reference http://127\.0\.0\.1:\d+/docs\)\n$`)

// TestServePrintsTheURLsOnceListening serves on a free port: the ready line
// names the real address, which answers the landing page at once.
func TestServePrintsTheURLsOnceListening(t *testing.T) {
	env := apptest.New(t, "sqlite")
	a := env.App
	a.Config.Addr = "127.0.0.1:0"
	a.Config.ShutdownTimeout = 5 * time.Second
	ctx, cancel := context.WithCancel(context.Background())
	var out syncBuffer
	served := make(chan error, 1)
	go func() { served <- a.Serve(ctx, &out) }()

	var base string
	deadline := time.Now().Add(20 * time.Second)
	for base == "" {
		if m := readyRe.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
		} else if time.Now().After(deadline) {
			cancel()
			t.Fatalf("no ready line after 20 s: %q", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	res, err := http.Get(base)
	if err != nil {
		cancel()
		t.Fatalf("GET %s: %v", base, err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "<title>Reten</title>") {
		t.Errorf("GET %s: %d %.200s", base, res.StatusCode, body)
	}
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve returned %v after its context ended", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return 10 s after its context ended")
	}
}
