// Package apptest runs the real service (router, services, database) inside
// tests, on embedded SQLite and, when TEST_DATABASE_URL is set, on
// PostgreSQL too (each test in a schema of its own).
package apptest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	_ "github.com/lib/pq"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/ratelimit"
	"github.com/reten-io/reten/internal/tenant"
	"github.com/reten-io/reten/internal/viewer"
)

// Password is the password of every user the helpers create.
const Password = "correct-horse-9"

var quietLogs sync.Once

// Env is one running service over a fresh database.
type Env struct {
	T   testing.TB
	App *app.App
}

// Each runs fn once per available database: "sqlite" always, "postgres"
// when TEST_DATABASE_URL is set (make test / .ci/run set it).
func Each(t *testing.T, fn func(t *testing.T, env *Env)) {
	t.Helper()
	EachWith(t, nil, fn)
}

// EachWith is Each with a hook to adjust the configuration (as NewWith).
func EachWith(t *testing.T, configure func(*app.Config), fn func(t *testing.T, env *Env)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, NewWith(t, "sqlite", configure)) })
	if os.Getenv("TEST_DATABASE_URL") != "" {
		t.Run("postgres", func(t *testing.T) { fn(t, NewWith(t, "postgres", configure)) })
	}
}

// New starts the service on a fresh database of the given kind.
func New(t testing.TB, kind string) *Env { return NewWith(t, kind, nil) }

// NewWith is New with a hook to adjust the configuration (rate limits...).
func NewWith(t testing.TB, kind string, configure func(*app.Config)) *Env {
	t.Helper()
	quietLogs.Do(func() {
		// Access lines would drown test output; warnings and errors still show.
		slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	})
	cfg := app.Config{DatabaseURL: dbtest.URL(t, kind), JWTSecret: []byte(strings.Repeat("s", 32)), MaxBodyBytes: 1 << 20,
		SecretsKey: []byte(strings.Repeat("k", 32)),
		// Generous limits: tests log in and call often; rate-limit tests set their own.
		RateLimit: ratelimit.Config{PerCredential: 100000, LoginPerIP: 100000, LoginPerIdentifier: 100000},
		// Tenants of the tests keep their datasets in temporary directories
		// and in the datasets database (DatasetDatabase).
		DatasetAllow: datasetAllow(t)}
	if configure != nil {
		configure(&cfg)
	}
	a, err := app.New(context.Background(), cfg)
	if err != nil {
		t.Fatalf("start app: %v", err)
	}
	t.Cleanup(func() { _ = a.Close() })
	return &Env{T: t, App: a}
}

// PostgresSchema creates a schema of its own for the test and returns a URL
// whose search_path selects it; the schema is dropped at cleanup.
func PostgresSchema(t testing.TB) string { return dbtest.PostgresSchema(t) }

// Response is a recorded HTTP response.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v, failing the test on error.
func (r *Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// Map decodes a JSON object body.
func (r *Response) Map(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	r.JSON(t, &m)
	return m
}

// Headers is a set of request headers.
type Headers map[string]string

// Do sends a request through the real router. body may be nil, a string
// (sent as is) or a value encoded as JSON.
func (e *Env) Do(method, path string, body any, h Headers) *Response {
	e.T.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			e.T.Fatalf("encode body: %v", err)
		}
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range h {
		req.Header.Set(k, v)
	}
	sent := req.Clone(req.Context())
	rec := httptest.NewRecorder()
	e.App.Handler.ServeHTTP(rec, req)
	checkContract(e.T, sent, raw, rec)
	return &Response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}

// Tenant is a bootstrapped tenant with its super_admin.
type Tenant struct {
	tenant.BootstrapResult
	Email string
}

// Bootstrap creates a tenant with its main project and a super_admin.
func (e *Env) Bootstrap(name string) Tenant {
	e.T.Helper()
	email := strings.ToLower(strings.ReplaceAll(name, " ", "")) + "-admin@example.test"
	res, err := tenant.Bootstrap(context.Background(), e.App.DB.Client, tenant.BootstrapInput{
		Tenant: name, Email: email, Password: Password,
	})
	if err != nil {
		e.T.Fatalf("bootstrap: %v", err)
	}
	return Tenant{BootstrapResult: res, Email: email}
}

// Login logs in and returns the access token.
func (e *Env) Login(identifier string) string {
	e.T.Helper()
	res := e.Do("POST", "/api/auth/login", map[string]string{"identifier": identifier, "password": Password}, nil)
	if res.Status != http.StatusCreated {
		e.T.Fatalf("login %s: %d %s", identifier, res.Status, res.Body)
	}
	var out struct {
		AccessToken string `json:"accessToken"`
	}
	res.JSON(e.T, &out)
	return out.AccessToken
}

// JWT returns the headers of a JWT request in tenant (and project when not Nil).
func JWT(token string, tenantID, projectID uuid.UUID) Headers {
	h := Headers{"Authorization": "Bearer " + token, "x-tenant-id": tenantID.String()}
	if projectID != uuid.Nil {
		h["x-project-id"] = projectID.String()
	}
	return h
}

// CreateUser adds a user with roles to tenantID and returns it.
func (e *Env) CreateUser(tenantID uuid.UUID, username string, roles ...string) *ent.User {
	e.T.Helper()
	ctx := viewer.SystemContext(context.Background())
	hash, err := auth.HashPassword(Password)
	if err != nil {
		e.T.Fatal(err)
	}
	c := e.App.DB.Client
	u, err := c.User.Create().SetEmail(username + "@example.test").SetEmailKey(username + "@example.test").
		SetUsername(username).SetUsernameKey(username).SetPasswordHash(hash).Save(ctx)
	if err != nil {
		e.T.Fatalf("create user: %v", err)
	}
	if err := c.Membership.Create().SetTenantID(tenantID).SetUserID(u.ID).SetRoles(roles).Exec(ctx); err != nil {
		e.T.Fatalf("create membership: %v", err)
	}
	return u
}

// CreateKey stores an API key for owner in tenantID (project-scoped when
// projectID is not Nil) and returns its plaintext.
func (e *Env) CreateKey(tenantID, ownerID, projectID uuid.UUID, permissions ...string) (string, *ent.APIKey) {
	e.T.Helper()
	plain, prefix, hash := auth.NewAPIKeySecret()
	b := e.App.DB.Client.APIKey.Create().SetTenantID(tenantID).SetUserID(ownerID).SetName("test key").
		SetKeyPrefix(prefix).SetKeyHash(hash).SetPermissions(permissions).SetScope("tenant")
	if projectID != uuid.Nil {
		b.SetProjectID(projectID).SetScope("project")
	}
	k, err := b.Save(viewer.SystemContext(context.Background()))
	if err != nil {
		e.T.Fatalf("create key: %v", err)
	}
	return plain, k
}

// Key returns the headers of an API-key request.
func Key(plain string) Headers { return Headers{"x-api-key": plain} }

// With returns h plus the extra header.
func (h Headers) With(k, v string) Headers {
	out := Headers{}
	for a, b := range h {
		out[a] = b
	}
	out[k] = v
	return out
}

// GraphQL posts a GraphQL query and returns the response.
func (e *Env) GraphQL(query string, vars map[string]any, h Headers) *Response {
	e.T.Helper()
	return e.Do("POST", "/graphql", map[string]any{"query": query, "variables": vars}, h)
}

// ExpectError asserts the SPEC.md error envelope with an exact message
// (a string, or a []string for DTO validation errors).
func ExpectError(t testing.TB, res *Response, status int, message any) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status = %d, want %d; body %s", res.Status, status, res.Body)
	}
	want := map[string]any{"statusCode": status, "error": http.StatusText(status), "message": message}
	wantJSON, _ := json.Marshal(want)
	var got, wantNorm any
	_ = json.Unmarshal(wantJSON, &wantNorm)
	if err := json.Unmarshal(res.Body, &got); err != nil {
		t.Fatalf("body is not JSON: %s", res.Body)
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(wantNorm)
	if !bytes.Equal(g, w) {
		t.Fatalf("body = %s\nwant   %s", g, w)
	}
}
