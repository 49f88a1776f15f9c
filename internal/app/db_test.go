package app_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
)

// TestMigrationsApplyOnceAndConcurrently: a second run applies nothing, and
// several replicas migrating the same database at once all succeed.
func TestMigrationsApplyOnceAndConcurrently(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		n, err := env.App.DB.Migrate(context.Background())
		if err != nil || n != 0 {
			t.Fatalf("second migrate applied %d (%v), want 0", n, err)
		}
	})
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return
	}
	url := apptest.PostgresSchema(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = openAndMigrate(url)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("replica %d: %v", i, err)
		}
	}
}

// openAndMigrate opens url and applies the migrations, as a starting
// replica does.
func openAndMigrate(url string) error {
	db, err := app.OpenDB(url)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.Migrate(context.Background())
	return err
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("DATABASE_URL", "sqlite://"+filepath.Join(dir, "x.db"))
	t.Setenv("RETEN_JWT_SECRET", "")
	t.Setenv("RETEN_ADDR", "")
	cfg, err := app.LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr != "127.0.0.1:8080" || cfg.Postgres() || len(cfg.JWTSecret) != 64 {
		t.Fatalf("cfg = %+v", cfg)
	}
	again, err := app.LoadConfig()
	if err != nil || string(again.JWTSecret) != string(cfg.JWTSecret) {
		t.Fatalf("secret not kept: %v", err)
	}
	// The credentials key is derived from the JWT secret unless set.
	if len(cfg.SecretsKey) != 32 || string(again.SecretsKey) != string(cfg.SecretsKey) || string(cfg.SecretsKey) == string(cfg.JWTSecret[:32]) {
		t.Fatalf("derived secrets key = %x", cfg.SecretsKey)
	}
	t.Setenv("RETEN_SECRETS_KEY", strings.Repeat("ab", 32))
	if set, err := app.LoadConfig(); err != nil || string(set.SecretsKey) != strings.Repeat("\xab", 32) {
		t.Fatalf("RETEN_SECRETS_KEY: %x %v", set.SecretsKey, err)
	}
	// refused sets env (name, value pairs) and asserts that LoadConfig
	// fails with exactly msg.
	refused := func(msg string, env ...string) {
		t.Helper()
		for i := 0; i+1 < len(env); i += 2 {
			t.Setenv(env[i], env[i+1])
		}
		if _, err := app.LoadConfig(); err == nil || err.Error() != msg {
			t.Fatalf("err = %v, want %q", err, msg)
		}
	}
	refused("RETEN_SECRETS_KEY must be 64 hexadecimal characters (32 bytes)", "RETEN_SECRETS_KEY", "short")
	t.Setenv("RETEN_SECRETS_KEY", "")
	refused("RETEN_JWT_SECRET is required with PostgreSQL", "DATABASE_URL", "postgres://x@localhost/db")
	refused("DATABASE_URL must start with postgres:// or sqlite://", "DATABASE_URL", "mysql://x")
	refused("RETEN_JWT_SECRET must be at least 32 bytes", "DATABASE_URL", "postgres://x@localhost/db", "RETEN_JWT_SECRET", "short")
}

// TestFreshSQLiteStartedTwiceAtOnce: serve and bootstrap started together on
// a fresh data directory both come up with the same secret and one schema.
func TestFreshSQLiteStartedTwiceAtOnce(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("DATABASE_URL", "sqlite://"+filepath.Join(dir, "reten.db"))
	t.Setenv("RETEN_JWT_SECRET", "")
	const n = 4
	var wg sync.WaitGroup
	secrets := make([]string, n)
	errs := make([]error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cfg, err := app.LoadConfig()
			if err != nil {
				errs[i] = err
				return
			}
			secrets[i] = string(cfg.JWTSecret)
			errs[i] = openAndMigrate(cfg.DatabaseURL)
		}()
	}
	wg.Wait()
	for i := 0; i < n; i++ {
		if errs[i] != nil {
			t.Fatalf("starter %d: %v", i, errs[i])
		}
		if secrets[i] != secrets[0] || len(secrets[i]) != 64 {
			t.Fatalf("secrets differ or are short: %q vs %q", secrets[i], secrets[0])
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, "jwt.secret.*"))
	if len(leftovers) != 0 {
		t.Fatalf("temporary secret files left: %v", leftovers)
	}
}
