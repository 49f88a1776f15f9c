// Package browsertest drives the service's front door (/, /docs and
// /playground) in Debian's Chromium, headless, against the real app on a
// loopback server.
package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
)

// chromiumPath is Debian's chromium package's binary (.ci/run installs it);
// CHROMIUM overrides it.
func chromiumPath(t *testing.T) string {
	t.Helper()
	p := os.Getenv("CHROMIUM")
	if p == "" {
		p = "/usr/bin/chromium"
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("Chromium is needed for the browser test and is not at %s (%v): install Debian's package "+
			"(apt-get install -y chromium; .ci/run does it) or point CHROMIUM at a Chromium binary", p, err)
	}
	return p
}

// traffic records what the page asked for and what went wrong in it.
type traffic struct {
	mu         sync.Mutex
	requests   []string // every request URL, in order
	failures   []string // responses >= 400 and failed loads
	exceptions []string // uncaught script exceptions
	// introspections holds the x-project-id header of every schema request.
	introspections []string
	// graphql holds the body of every GraphQL request.
	graphql []string
}

// introspectionProject returns the x-project-id of a request when it is a
// GraphQL introspection.
func introspectionProject(r *network.Request) (string, bool) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL, "/graphql") {
		return "", false
	}
	if !strings.Contains(postData(r), `"operationName":"IntrospectionQuery"`) {
		return "", false
	}
	for k, v := range r.Headers {
		if strings.EqualFold(k, "x-project-id") {
			return fmt.Sprint(v), true
		}
	}
	return "", true
}

// postData is a request's body.
func postData(r *network.Request) string {
	var body strings.Builder
	for _, e := range r.PostDataEntries {
		body.Write(e.Bytes)
	}
	return body.String()
}

func (tr *traffic) listen(ev any) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		tr.requests = append(tr.requests, e.Request.URL)
		if e.Request.Method == http.MethodPost && strings.HasSuffix(e.Request.URL, "/graphql") {
			tr.graphql = append(tr.graphql, postData(e.Request))
		}
		if project, ok := introspectionProject(e.Request); ok {
			tr.introspections = append(tr.introspections, project)
		}
	case *network.EventResponseReceived:
		if e.Response.Status >= 400 {
			tr.failures = append(tr.failures, fmt.Sprintf("%d %s", e.Response.Status, e.Response.URL))
		}
	case *network.EventLoadingFailed:
		if !e.Canceled {
			tr.failures = append(tr.failures, fmt.Sprintf("%s (%s %s)", e.ErrorText, e.Type, e.BlockedReason))
		}
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		tr.exceptions = append(tr.exceptions, fmt.Sprintf("%s (%s:%d)", msg, d.URL, d.LineNumber))
	}
}

func (tr *traffic) schemaRequests() []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return append([]string(nil), tr.introspections...)
}

func (tr *traffic) snapshot() (requests, failures, exceptions []string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return append([]string(nil), tr.requests...), append([]string(nil), tr.failures...), append([]string(nil), tr.exceptions...)
}

// foreign returns the requests that did not go to origin. data: URLs are
// no request, and a blob: URL belongs to the origin inside it.
func foreign(requests []string, origin *url.URL) []string {
	var out []string
	for _, raw := range requests {
		if strings.HasPrefix(raw, "data:") {
			continue
		}
		u, err := url.Parse(strings.TrimPrefix(raw, "blob:"))
		if err != nil || u.Scheme != origin.Scheme || u.Host != origin.Host {
			out = append(out, raw)
		}
	}
	return out
}

// browser starts Chromium with a fresh profile and records its traffic;
// the browser ends with the test.
func browser(t *testing.T, tr *traffic) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 1000),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancelBrowser()
		cancelAlloc()
	})
	// Opens the tab (network and runtime events are on from its start).
	if err := chromedp.Listen(ctx, tr.listen); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return ctx
}

// step runs actions within a bounded time, failing the test with its name.
func step(t *testing.T, ctx context.Context, name string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(sctx, actions...); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, pageState(ctx))
	}
}

// pageState is what a failed step leaves to read: the page's URL and text.
func pageState(ctx context.Context) string {
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	state, err := chromedp.Run(sctx, chromedp.Evaluate[string](`location.href + "\n" + document.body.innerText.slice(0, 3000)`))
	if err != nil {
		return "(page state unreadable: " + err.Error() + ")"
	}
	return "page: " + state
}

// read runs one action that returns a value, within a bounded time.
func read[T any](t *testing.T, ctx context.Context, name string, a chromedp.Action[T]) T {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(sctx, a)
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, pageState(ctx))
	}
	return v
}

// setSelect chooses value in a <select> the way a person does: the change
// event is what React listens to.
func setSelect(sel, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const s = document.querySelector(%s);
		s.value = %s;
		s.dispatchEvent(new Event('change', {bubbles: true}));
	})()`, jsString(sel), jsString(value)))
}

// editorText is the expression of a GraphiQL CodeMirror editor's whole text.
func editorText(sel string) string {
	return `document.querySelector(` + jsString(sel+" .CodeMirror") + `).CodeMirror.getValue()`
}

// poll waits until the JavaScript expression is true.
func poll(expression string) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](expression, chromedp.WithPollingTimeout(30*time.Second))
}

func TestFrontDoorInChromium(t *testing.T) {
	env := apptest.New(t, "sqlite")
	acme := env.Bootstrap("Acme")
	token := env.Login(acme.Email)
	created := env.Do("POST", "/api/projects", map[string]string{"name": "Field team"}, apptest.JWT(token, acme.TenantID, uuid.Nil))
	if created.Status != http.StatusCreated {
		t.Fatalf("create project: %d %s", created.Status, created.Body)
	}
	var second struct{ ID string }
	created.JSON(t, &second)

	srv := httptest.NewServer(env.App.Handler)
	t.Cleanup(srv.Close)
	origin, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}

	tr := &traffic{}
	ctx := browser(t, tr)

	// The landing page, then its link to the REST reference.
	step(t, ctx, "landing page",
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`#link-docs`)),
	)
	if title := read(t, ctx, "landing title", chromedp.Title()); title != "Reten" {
		t.Errorf("landing page title %q, want Reten", title)
	}
	links := read(t, ctx, "landing links", chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('a[id^="link-"]')].map(a => a.id + ' ' + a.getAttribute('href'))`))
	wantLinks := []string{"link-console /console", "link-playground /playground", "link-docs /docs", "link-openapi /api/openapi.yaml",
		"link-sdl /graphql/schema.graphql", "link-healthz /healthz", "link-readyz /readyz", "link-metrics /metrics"}
	if strings.Join(links, ", ") != strings.Join(wantLinks, ", ") {
		t.Errorf("landing page links %q, want %q", links, wantLinks)
	}
	step(t, ctx, "REST reference renders",
		chromedp.Click(chromedp.CSS(`#link-docs`)),
		chromedp.WaitVisible(`//h2[normalize-space(.)='Log in with a username or email and a password.']`),
		// The request samples of login, API keys, the snapshot batch upsert and
		// a result submission come from the document's examples.
		poll(`['"change-me-now"', '"field-app"', '"C-1001"', '"6e5d4c3b-2a19-4f08-9e7d-6c5b4a392817"'].every(s => document.body.textContent.includes(s))`),
	)
	if loc := read(t, ctx, "docs location", chromedp.Location()); loc != srv.URL+"/docs" {
		t.Errorf("the docs link led to %s, want %s/docs", loc, srv.URL)
	}

	// The playground: a clean first screen, with the sign-in panel open.
	step(t, ctx, "playground loads",
		chromedp.Navigate(srv.URL+"/playground"),
		chromedp.WaitVisible(chromedp.CSS(`#signin-identifier`)),
		chromedp.WaitVisible(chromedp.CSS(`.graphiql-query-editor .CodeMirror`)),
		chromedp.Sleep(time.Second), // time for a wrongful introspection to show
	)
	requests, failures, _ := tr.snapshot()
	for _, r := range requests {
		if strings.HasPrefix(r, srv.URL+"/graphql") {
			t.Errorf("the playground's first screen sent %s before anyone signed in", r)
		}
	}
	if len(failures) > 0 {
		t.Errorf("the first screens had failed requests: %q", failures)
	}

	// Sign in through the form. The schema loads with the new headers and
	// the Docs explorer opens on it, listing the schema's types.
	step(t, ctx, "sign in",
		chromedp.SendKeys(chromedp.CSS(`#signin-identifier`), acme.Email),
		chromedp.SendKeys(chromedp.CSS(`#signin-password`), apptest.Password),
		chromedp.Click(chromedp.CSS(`#signin-submit`)),
	)
	for _, typ := range []string{"Viewer", "Project", "Activity"} {
		step(t, ctx, "Docs explorer lists "+typ, chromedp.WaitVisible(
			fmt.Sprintf(`//div[contains(@class,'graphiql-doc-explorer')]//a[normalize-space(.)=%q]`, typ)))
	}

	// The sign-in panel shows the user, the first tenant and its main project.
	step(t, ctx, "open the sign-in panel",
		chromedp.Click(chromedp.CSS(`button[aria-label="Show Sign in"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#signin-user`)),
	)
	user := read(t, ctx, "signed-in user", chromedp.Text(chromedp.CSS(`#signin-user`)))
	tenantValue := read(t, ctx, "tenant", chromedp.Value(chromedp.CSS(`#signin-tenant`)))
	tenantLabel := read(t, ctx, "tenant name", chromedp.Evaluate[string](`document.querySelector('#signin-tenant').selectedOptions[0].text`))
	projectValue := read(t, ctx, "project", chromedp.Value(chromedp.CSS(`#signin-project`)))
	if user != acme.Email || tenantValue != acme.TenantID.String() || tenantLabel != "Acme" || projectValue != acme.ProjectID.String() {
		t.Fatalf("after sign-in: user %q tenant %q (%q) project %q; want %q, %s (Acme), %s",
			user, tenantValue, tenantLabel, projectValue, acme.Email, acme.TenantID, acme.ProjectID)
	}

	// Choose the other project: the headers follow and the schema is
	// fetched again with them.
	if got := tr.schemaRequests(); strings.Join(got, " ") != acme.ProjectID.String() {
		t.Errorf("schema requests after sign-in sent x-project-id %q, want once %s", got, acme.ProjectID)
	}
	step(t, ctx, "choose a project",
		setSelect(`#signin-project`, second.ID),
		poll(`[...document.querySelectorAll('.graphiql-editor-tool .CodeMirror')].some(e => e.CodeMirror.getValue().includes(`+
			jsString(`"x-project-id": "`+second.ID+`"`)+`))`),
	)
	deadline := time.Now().Add(20 * time.Second)
	for len(tr.schemaRequests()) < 2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if got := tr.schemaRequests(); strings.Join(got, " ") != acme.ProjectID.String()+" "+second.ID {
		t.Errorf("schema requests sent x-project-id %q, want %s then %s", got, acme.ProjectID, second.ID)
	}

	// Run a viewer query from the editor and read its result from the page.
	query := "{ viewer { user { email } activeTenantID activeProjectID tenants { name } } }"
	step(t, ctx, "run a viewer query",
		chromedp.Evaluate[chromedp.Void](`document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.setValue(`+jsString(query)+`)`),
		chromedp.Click(chromedp.CSS(`.graphiql-execute-button`)),
		poll(editorText(".graphiql-response")+`.includes('activeProjectID')`),
	)
	response := read(t, ctx, "response", chromedp.Evaluate[string](editorText(".graphiql-response")))
	var got struct {
		Data struct {
			Viewer struct {
				User            struct{ Email string }
				ActiveTenantID  string
				ActiveProjectID string
				Tenants         []struct{ Name string }
			}
		}
		Errors []any
	}
	if err := json.Unmarshal([]byte(response), &got); err != nil {
		t.Fatalf("the response pane holds no JSON: %v\n%s", err, response)
	}
	v := got.Data.Viewer
	if len(got.Errors) != 0 || v.User.Email != acme.Email || v.ActiveTenantID != acme.TenantID.String() ||
		v.ActiveProjectID != second.ID || len(v.Tenants) != 1 || v.Tenants[0].Name != "Acme" {
		t.Errorf("viewer query answered %s", response)
	}

	tr.check(t, origin, "/docs/assets/redoc.standalone.js", "/api/openapi.yaml", "/api/auth/login", "/graphql")
}

// check fails the test when a page requested another origin than origin's,
// a request failed or a script threw, or when a page never requested one
// of paths.
func (tr *traffic) check(t *testing.T, origin *url.URL, paths ...string) {
	t.Helper()
	requests, failures, exceptions := tr.snapshot()
	if out := foreign(requests, origin); len(out) > 0 {
		t.Errorf("the pages requested other origins than %s: %q", origin, out)
	}
	if len(failures) > 0 {
		t.Errorf("failed requests: %q", failures)
	}
	if len(exceptions) > 0 {
		t.Errorf("uncaught exceptions: %q", exceptions)
	}
	for _, want := range paths {
		if !containsPath(requests, origin.String()+want) {
			t.Errorf("the pages never requested %s (requests: %q)", want, requests)
		}
	}
}

func containsPath(requests []string, prefix string) bool {
	for _, r := range requests {
		if strings.HasPrefix(r, prefix) {
			return true
		}
	}
	return false
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
