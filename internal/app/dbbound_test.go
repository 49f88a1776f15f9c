package app_test

import (
	"context"
	"database/sql"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/apptest"
)

const (
	readyBody       = `{"status":"ok","database":"ok"}` + "\n"
	unavailableBody = `{"status":"unavailable","database":"unreachable"}` + "\n"
	meQuery         = `{ viewer { user { email } } }`
)

// TestFrozenPostgresAnswers503AndRecovers: with PostgreSQL frozen (sockets
// open, nothing answered), /readyz and API requests answer 503 instead of
// hanging, and once it answers again so does the service, without a restart.
// PostgreSQL only, like the postgres half of apptest.Each.
func TestFrozenPostgresAnswers503AndRecovers(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return
	}
	var proxy *app.FreezeProxy
	var err error
	env := apptest.NewWith(t, "postgres", func(c *app.Config) {
		c.DatabaseURL, proxy = app.ViaFreezeProxy(t, c.DatabaseURL)
		c.RequestTimeout = time.Second
	})
	t.Cleanup(proxy.Close) // before the app closes: unblocks anything still stuck
	acme := env.Bootstrap("Acme")
	h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
	if res := env.Do("GET", "/api/projects", nil, h); res.Status != 200 {
		t.Fatalf("projects before the freeze: %d %s", res.Status, res.Body)
	}

	// Idle connections for each of the calls below, so that they wait on
	// established connections as well as on new ones.
	warm := make([]*sql.Conn, 3)
	for i := range warm {
		if warm[i], err = env.App.DB.SQL.Conn(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range warm {
		_ = c.Close()
	}

	// The main project was never checked: this credential's check reads it.
	unchecked := apptest.JWT(env.Login(acme.Email), acme.TenantID, acme.ProjectID)
	proxy.Freeze()
	res := app.Within(t, "/readyz while frozen", func() *apptest.Response { return env.Do("GET", "/readyz", nil, nil) })
	if res.Status != 503 || string(res.Body) != unavailableBody {
		t.Fatalf("/readyz while frozen: %d %s", res.Status, res.Body)
	}
	res = app.Within(t, "GET /api/projects while frozen", func() *apptest.Response { return env.Do("GET", "/api/projects", nil, h) })
	apptest.ExpectError(t, res, 503, apperr.MsgUnavailable)
	// A GraphQL request whose credential must be read (its project was
	// never checked) is refused before execution, with the status; one
	// whose check the replica cached fails in its field, with the code.
	for _, c := range []struct {
		name   string
		h      apptest.Headers
		status int
	}{
		{"a credential to read", unchecked, 503},
		{"a cached credential", h, 200},
	} {
		res = app.Within(t, "POST /graphql while frozen, "+c.name, func() *apptest.Response { return env.GraphQL(meQuery, nil, c.h) })
		var gql struct {
			Errors []struct {
				Message    string         `json:"message"`
				Extensions map[string]any `json:"extensions"`
			} `json:"errors"`
		}
		res.JSON(t, &gql)
		if res.Status != c.status || len(gql.Errors) != 1 || gql.Errors[0].Message != apperr.MsgUnavailable ||
			gql.Errors[0].Extensions["code"] != "SERVICE_UNAVAILABLE" || gql.Errors[0].Extensions["statusCode"] != 503.0 {
			t.Fatalf("graphql while frozen, %s: %d %s", c.name, res.Status, res.Body)
		}
	}

	proxy.Thaw()
	res = app.Within(t, "/readyz after the freeze", func() *apptest.Response { return env.Do("GET", "/readyz", nil, nil) })
	if res.Status != 200 || string(res.Body) != readyBody {
		t.Fatalf("/readyz after the freeze: %d %s", res.Status, res.Body)
	}
	for i := 0; i < 3; i++ { // more requests than idle connections survived
		if res := env.Do("GET", "/api/projects", nil, h); res.Status != 200 {
			t.Fatalf("projects after the freeze (%d): %d %s", i, res.Status, res.Body)
		}
	}
	if res := env.GraphQL(meQuery, nil, h); res.Status != 200 || !strings.Contains(string(res.Body), acme.Email) {
		t.Fatalf("graphql after the freeze: %d %s", res.Status, res.Body)
	}
}

// TestLockedSQLiteAnswers503: a write that waits for SQLite's write lock
// ends at the request's deadline with a 503, and succeeds once the lock is
// free.
func TestLockedSQLiteAnswers503(t *testing.T) {
	var file string
	env := apptest.NewWith(t, "sqlite", func(c *app.Config) {
		file = strings.TrimPrefix(c.DatabaseURL, "sqlite://")
		c.RequestTimeout = time.Second
	})
	acme := env.Bootstrap("Acme")
	h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)

	other, err := sql.Open("sqlite", "file:"+file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Close() })
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatalf("take the write lock: %v", err)
	}
	res := app.Within(t, "POST /api/projects while locked", func() *apptest.Response {
		return env.Do("POST", "/api/projects", map[string]any{"name": "Locked"}, h)
	})
	apptest.ExpectError(t, res, 503, apperr.MsgUnavailable)

	if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if res := env.Do("POST", "/api/projects", map[string]any{"name": "Unlocked"}, h); res.Status != 201 {
		t.Fatalf("after the lock: %d %s", res.Status, res.Body)
	}
}

// TestLoadConfigTimeouts: the request and statement bounds have defaults,
// read their settings and cannot be switched off.
func TestLoadConfigTimeouts(t *testing.T) {
	t.Setenv("DATABASE_URL", "sqlite://"+t.TempDir()+"/x.db")
	t.Setenv("RETEN_JWT_SECRET", strings.Repeat("s", 32))
	t.Setenv("RETEN_REQUEST_TIMEOUT", "")
	t.Setenv("RETEN_DB_STATEMENT_TIMEOUT", "")
	cfg, err := app.LoadConfig()
	if err != nil || cfg.RequestTimeout != app.DefaultRequestTimeout || cfg.DBStatementTimeout != app.DefaultDBStatementTimeout {
		t.Fatalf("defaults: %v %v %v", cfg.RequestTimeout, cfg.DBStatementTimeout, err)
	}
	t.Setenv("RETEN_REQUEST_TIMEOUT", "90s")
	t.Setenv("RETEN_DB_STATEMENT_TIMEOUT", "2m")
	if cfg, err = app.LoadConfig(); err != nil || cfg.RequestTimeout != 90*time.Second || cfg.DBStatementTimeout != 2*time.Minute {
		t.Fatalf("set: %v %v %v", cfg.RequestTimeout, cfg.DBStatementTimeout, err)
	}
	for key, v := range map[string]string{"RETEN_REQUEST_TIMEOUT": "0", "RETEN_DB_STATEMENT_TIMEOUT": "soon"} {
		t.Setenv(key, v)
		want := key + `: "` + v + `" is not a positive duration (like 30s)`
		if _, err := app.LoadConfig(); err == nil || err.Error() != want {
			t.Fatalf("%s=%s: %v, want %s", key, v, err, want)
		}
		t.Setenv(key, "30s")
	}
}

// TestLoadConfigPrepared: RETEN_DB_PREPARED sets how many statements the
// PostgreSQL pool keeps prepared; 0 prepares none; the default is
// database.DefaultPrepared.
func TestLoadConfigPrepared(t *testing.T) {
	t.Setenv("DATABASE_URL", "sqlite://"+t.TempDir()+"/x.db")
	t.Setenv("RETEN_JWT_SECRET", strings.Repeat("s", 32))
	for v, want := range map[string]int{"": 0, "64": 64, "0": -1} {
		t.Setenv("RETEN_DB_PREPARED", v)
		if cfg, err := app.LoadConfig(); err != nil || cfg.DBPrepared != want {
			t.Fatalf("RETEN_DB_PREPARED=%q: %d, %v; want %d", v, cfg.DBPrepared, err, want)
		}
	}
	for _, v := range []string{"-1", "many"} {
		t.Setenv("RETEN_DB_PREPARED", v)
		want := `RETEN_DB_PREPARED: "` + v + `" is not a whole number (0 prepares no statement)`
		if _, err := app.LoadConfig(); err == nil || err.Error() != want {
			t.Fatalf("RETEN_DB_PREPARED=%s: %v, want %s", v, err, want)
		}
	}
}
