package rest_test

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/ratelimit"
)

const msgTooMany = "Too many requests, please retry later"

func limited(perCredential, loginIP, loginIdentifier int) func(*app.Config) {
	return func(c *app.Config) {
		c.RateLimit = ratelimit.Config{PerCredential: perCredential, Window: time.Hour,
			LoginPerIP: loginIP, LoginPerIdentifier: loginIdentifier, LoginWindow: time.Hour}
	}
}

func expectRateHeaders(t *testing.T, res *apptest.Response, limit, remaining int) {
	t.Helper()
	if got := res.Header.Get("RateLimit-Limit"); got != strconv.Itoa(limit) {
		t.Fatalf("RateLimit-Limit = %q, want %d", got, limit)
	}
	if got := res.Header.Get("RateLimit-Remaining"); got != strconv.Itoa(remaining) {
		t.Fatalf("RateLimit-Remaining = %q, want %d", got, remaining)
	}
	reset, err := strconv.ParseInt(res.Header.Get("RateLimit-Reset"), 10, 64)
	if err != nil || reset < time.Now().Unix() {
		t.Fatalf("RateLimit-Reset = %q", res.Header.Get("RateLimit-Reset"))
	}
}

func TestRateLimitPerCredential(t *testing.T) {
	env := apptest.NewWith(t, "sqlite", limited(3, 1000, 1000))
	acme := env.Bootstrap("Acme")
	keyA, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermProjectView)
	keyB, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermProjectView)
	for i := 0; i < 3; i++ {
		res := env.Do("GET", "/api/projects", nil, apptest.Key(keyA))
		if res.Status != 200 {
			t.Fatalf("request %d: %d %s", i+1, res.Status, res.Body)
		}
		expectRateHeaders(t, res, 3, 2-i)
	}
	res := env.Do("GET", "/api/projects", nil, apptest.Key(keyA))
	apptest.ExpectError(t, res, 429, msgTooMany)
	expectRateHeaders(t, res, 3, 0)
	if res.Header.Get("Retry-After") != "3600" {
		t.Fatalf("Retry-After = %q", res.Header.Get("Retry-After"))
	}
	// Another key has its own budget; so does a user session.
	if res := env.Do("GET", "/api/projects", nil, apptest.Key(keyB)); res.Status != 200 {
		t.Fatalf("second key: %d %s", res.Status, res.Body)
	}
	h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
	if res := env.Do("GET", "/api/projects", nil, h); res.Status != 200 {
		t.Fatalf("user session: %d %s", res.Status, res.Body)
	}
	// GraphQL shares the credential budget.
	for i := 0; i < 2; i++ {
		env.Do("GET", "/api/projects", nil, h)
	}
	gql := env.GraphQL(`{ viewer { isAPIKey } }`, nil, h)
	if gql.Status != 429 {
		t.Fatalf("graphql over the limit: %d %s", gql.Status, gql.Body)
	}
}

func TestRateLimitLogin(t *testing.T) {
	env := apptest.NewWith(t, "sqlite", limited(1000, 4, 2))
	acme := env.Bootstrap("Acme")
	body := func(id string) map[string]string {
		return map[string]string{"identifier": id, "password": "wrong-password"}
	}

	// Per identifier (case-insensitive): 2 attempts, then 429 even with the right password.
	apptest.ExpectError(t, env.Do("POST", "/api/auth/login", body(acme.Email), nil), 401, "Invalid credentials")
	apptest.ExpectError(t, env.Do("POST", "/api/auth/login", body(" "+acme.Email), nil), 401, "Invalid credentials")
	res := env.Do("POST", "/api/auth/login", map[string]string{"identifier": acme.Email, "password": apptest.Password}, nil)
	apptest.ExpectError(t, res, 429, msgTooMany)
	expectRateHeaders(t, res, 2, 0)

	// Per IP: 4 attempts from one address in all, whatever the identifier.
	apptest.ExpectError(t, env.Do("POST", "/api/auth/login", body("someone@else.test"), nil), 401, "Invalid credentials")
	apptest.ExpectError(t, env.Do("POST", "/api/auth/login", body("another@else.test"), nil), 429, msgTooMany)
}

// TestRateLimitLoginPerAccount: the identifier budget belongs to the account
// an identifier names, so alternating a user's email and username (in any
// case) draws on one counter; identifiers naming no user count on their own.
func TestRateLimitLoginPerAccount(t *testing.T) {
	apptest.EachWith(t, limited(1000, 1000, 3), func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		env.CreateUser(acme.TenantID, "ana")
		login := func(id, password string) *apptest.Response {
			return env.Do("POST", "/api/auth/login", map[string]string{"identifier": id, "password": password}, nil)
		}
		apptest.ExpectError(t, login("ana@example.test", "wrong-password"), 401, "Invalid credentials")
		apptest.ExpectError(t, login("ANA", "wrong-password"), 401, "Invalid credentials")
		apptest.ExpectError(t, login(" Ana@Example.test ", "wrong-password"), 401, "Invalid credentials")
		res := login("ana", apptest.Password)
		apptest.ExpectError(t, res, 429, msgTooMany)
		expectRateHeaders(t, res, 3, 0)
		apptest.ExpectError(t, login("ana@example.test", apptest.Password), 429, msgTooMany)

		// Another account keeps its budget.
		env.Login(acme.Email)

		// An identifier naming no user counts for itself.
		for range 3 {
			apptest.ExpectError(t, login("nobody@example.test", "wrong-password"), 401, "Invalid credentials")
		}
		apptest.ExpectError(t, login("Nobody@example.test", "wrong-password"), 429, msgTooMany)
		apptest.ExpectError(t, login("nobody", "wrong-password"), 401, "Invalid credentials")
	})
}

// TestRateLimitSharedAcrossReplicas: two instances over one database and one
// Redis count together. CI sets TEST_REDIS_URL.
func TestRateLimitSharedAcrossReplicas(t *testing.T) {
	url := os.Getenv("TEST_REDIS_URL")
	if url == "" {
		t.Log("TEST_REDIS_URL not set: the shared-counter case runs in CI")
		return
	}
	raw := make([]byte, 6)
	_, _ = rand.Read(raw)
	prefix := "reten-test:" + hex.EncodeToString(raw)
	shared := func(c *app.Config) {
		limited(4, 1000, 1000)(c)
		c.RateLimit.RedisURL, c.RateLimit.Prefix = url, prefix
	}
	one := apptest.NewWith(t, "sqlite", shared)
	cfg := one.App.Config
	twoApp, err := app.Wire(cfg, one.App.DB)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = twoApp.Limiter.Close() })
	two := &apptest.Env{T: t, App: twoApp}

	acme := one.Bootstrap("Acme")
	key, _ := one.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermProjectView)
	for i := 0; i < 4; i++ {
		env := []*apptest.Env{one, two}[i%2]
		if res := env.Do("GET", "/api/projects", nil, apptest.Key(key)); res.Status != 200 {
			t.Fatalf("request %d: %d %s", i+1, res.Status, res.Body)
		}
	}
	apptest.ExpectError(t, one.Do("GET", "/api/projects", nil, apptest.Key(key)), 429, msgTooMany)
	apptest.ExpectError(t, two.Do("GET", "/api/projects", nil, apptest.Key(key)), 429, msgTooMany)
}
