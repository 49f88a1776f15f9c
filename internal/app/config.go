// Package app wires the service: configuration, database, services and the
// HTTP server that mounts /api, /graphql, /playground and the probes.
package app

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/hkdf"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/database"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/outbound"
	"github.com/reten-io/reten/internal/ratelimit"
)

// DefaultDatabaseURL is the embedded SQLite file used when DATABASE_URL is unset.
const DefaultDatabaseURL = "sqlite://./data/reten.db"

// Config is read from the environment (see README "Configuration").
type Config struct {
	DatabaseURL     string        // DATABASE_URL: postgres://... or sqlite://PATH
	Addr            string        // RETEN_ADDR
	JWTSecret       []byte        // RETEN_JWT_SECRET
	LogLevel        slog.Level    // RETEN_LOG_LEVEL: debug, info, warn, error
	MaxBodyBytes    int64         // RETEN_MAX_BODY_BYTES
	ShutdownTimeout time.Duration // RETEN_SHUTDOWN_TIMEOUT
	SecureCookies   bool          // RETEN_SECURE_COOKIES
	RateLimit       ratelimit.Config

	// RequestTimeout is the deadline of every HTTP request's work
	// (RETEN_REQUEST_TIMEOUT); zero means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// DBStatementTimeout bounds each PostgreSQL statement on the server
	// (RETEN_DB_STATEMENT_TIMEOUT); zero means DefaultDBStatementTimeout.
	DBStatementTimeout time.Duration
	// DBPrepared is how many statement texts the PostgreSQL pool keeps
	// prepared (RETEN_DB_PREPARED, where 0 prepares none: for a pooler in
	// transaction mode); zero means database.DefaultPrepared, a negative
	// value none.
	DBPrepared int

	// DatasetAllow lists the dataset connections tenants may configure:
	// RETEN_DATASET_ALLOW (empty: none).
	DatasetAllow dataset.Allowlist
	// OutboundAllow lists the private host:port targets webhook endpoints
	// and webhook dispatch providers may reach besides public addresses:
	// RETEN_OUTBOUND_ALLOW (empty: none).
	OutboundAllow outbound.Allowlist
	// SecretsKey (32 bytes) encrypts provider credentials at rest:
	// RETEN_SECRETS_KEY (64 hex characters), or derived from the JWT secret.
	SecretsKey []byte
	// CredentialTTL is how long a replica reuses a credential's check: zero
	// means auth.CredentialTTL, a negative value no reuse (tests that count
	// a handler's own statements); not read from the environment.
	CredentialTTL time.Duration
	// GraphQLInterpreted leaves every GraphQL field to gqlgen's executor:
	// no compiled connection (graph/compiled). Tests compare the two; not
	// read from the environment.
	GraphQLInterpreted bool
	// EntOptions are extra options of the ent client (tests: ent.Debug and
	// ent.Log to count SQL statements); not read from the environment.
	EntOptions []ent.Option
}

// The defaults of the time bounds: a request answers (503 at worst) within
// DefaultRequestTimeout, below the server's write timeout; a statement the
// server has run for DefaultDBStatementTimeout is cancelled.
const (
	DefaultRequestTimeout     = 60 * time.Second
	DefaultDBStatementTimeout = database.DefaultStatementTimeout
)

// requestTimeout is RequestTimeout or its default.
func (c Config) requestTimeout() time.Duration {
	return orDefault(c.RequestTimeout, DefaultRequestTimeout)
}

// dbSettings are the PostgreSQL pool's settings: DBStatementTimeout and
// DBPrepared or their defaults.
func (c Config) dbSettings() database.Settings {
	set := database.Settings{StatementTimeout: orDefault(c.DBStatementTimeout, DefaultDBStatementTimeout),
		Prepared: database.DefaultPrepared}
	if c.DBPrepared != 0 {
		set.Prepared = max(c.DBPrepared, 0)
	}
	return set
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// Postgres reports whether the configured database is PostgreSQL.
func (c Config) Postgres() bool { return isPostgres(c.DatabaseURL) }

func isPostgres(url string) bool { return database.IsPostgres(url) }

// LoadConfig reads the environment. In embedded mode a JWT secret is generated
// once and kept beside the database file; with PostgreSQL it is required.
func LoadConfig() (Config, error) {
	c := Config{
		DatabaseURL:     envOr("DATABASE_URL", DefaultDatabaseURL),
		Addr:            envOr("RETEN_ADDR", "127.0.0.1:8080"),
		MaxBodyBytes:    16 << 20,
		ShutdownTimeout: 15 * time.Second,
		SecureCookies:   os.Getenv("RETEN_SECURE_COOKIES") == "true",
	}
	rl, err := ratelimit.ConfigFromEnv()
	if err != nil {
		return c, err
	}
	c.RateLimit = rl
	if c.DatasetAllow, err = dataset.ParseAllowlist(os.Getenv(dataset.AllowSetting)); err != nil {
		return c, err
	}
	if c.OutboundAllow, err = outbound.ParseAllowlist(os.Getenv(outbound.AllowSetting)); err != nil {
		return c, err
	}
	if err := c.LogLevel.UnmarshalText([]byte(envOr("RETEN_LOG_LEVEL", "info"))); err != nil {
		return c, fmt.Errorf("RETEN_LOG_LEVEL: %w", err)
	}
	if v := os.Getenv("RETEN_MAX_BODY_BYTES"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return c, fmt.Errorf("RETEN_MAX_BODY_BYTES: %q is not a positive integer", v)
		}
		c.MaxBodyBytes = n
	}
	if v := os.Getenv("RETEN_SHUTDOWN_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return c, fmt.Errorf("RETEN_SHUTDOWN_TIMEOUT: %w", err)
		}
		c.ShutdownTimeout = d
	}
	if c.RequestTimeout, err = positiveDuration("RETEN_REQUEST_TIMEOUT", DefaultRequestTimeout); err != nil {
		return c, err
	}
	if c.DBStatementTimeout, err = positiveDuration("RETEN_DB_STATEMENT_TIMEOUT", DefaultDBStatementTimeout); err != nil {
		return c, err
	}
	if v := os.Getenv("RETEN_DB_PREPARED"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return c, fmt.Errorf("RETEN_DB_PREPARED: %q is not a whole number (0 prepares no statement)", v)
		}
		c.DBPrepared = n
		if n == 0 {
			c.DBPrepared = -1
		}
	}
	switch {
	case !isPostgres(c.DatabaseURL) && !strings.HasPrefix(c.DatabaseURL, "sqlite://"):
		return c, fmt.Errorf("DATABASE_URL must start with postgres:// or sqlite://")
	case os.Getenv("RETEN_JWT_SECRET") != "":
		c.JWTSecret = []byte(os.Getenv("RETEN_JWT_SECRET"))
	case c.Postgres():
		return c, errors.New("RETEN_JWT_SECRET is required with PostgreSQL")
	default:
		secret, err := embeddedSecret(filepath.Dir(database.SQLitePath(c.DatabaseURL)))
		if err != nil {
			return c, err
		}
		c.JWTSecret = secret
	}
	if len(c.JWTSecret) < 32 {
		return c, errors.New("RETEN_JWT_SECRET must be at least 32 bytes")
	}
	key, err := secretsKey(os.Getenv("RETEN_SECRETS_KEY"), c.JWTSecret)
	if err != nil {
		return c, err
	}
	c.SecretsKey = key
	return c, nil
}

// secretsKey decodes RETEN_SECRETS_KEY, or derives a key from the JWT secret
// (HKDF-SHA256) so that the embedded default needs no extra setting.
func secretsKey(hexKey string, jwtSecret []byte) ([]byte, error) {
	if hexKey != "" {
		key, err := hex.DecodeString(hexKey)
		if err != nil || len(key) != 32 {
			return nil, errors.New("RETEN_SECRETS_KEY must be 64 hexadecimal characters (32 bytes)")
		}
		return key, nil
	}
	key := make([]byte, 32)
	if _, err := io.ReadFull(hkdf.New(sha256.New, jwtSecret, nil, []byte("reten provider credentials")), key); err != nil {
		return nil, err
	}
	return key, nil
}

// embeddedSecret reads, or creates once, the JWT secret of the data
// directory. The file appears whole or not at all (written aside, then
// linked), and of two processes creating it at once both use the winner's.
func embeddedSecret(dir string) ([]byte, error) {
	path := filepath.Join(dir, "jwt.secret")
	if b, err := os.ReadFile(path); err == nil {
		return []byte(strings.TrimSpace(string(b))), nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(dir, "jwt.secret.*")
	if err != nil {
		return nil, fmt.Errorf("write JWT secret: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(hex.EncodeToString(raw) + "\n"); err != nil {
		_ = tmp.Close()
		return nil, fmt.Errorf("write JWT secret: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return nil, fmt.Errorf("write JWT secret: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("write JWT secret: %w", err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read JWT secret: %w", err)
	}
	return []byte(strings.TrimSpace(string(b))), nil
}

// positiveDuration reads a bound that cannot be switched off: nothing may
// wait forever.
func positiveDuration(key string, def time.Duration) (time.Duration, error) {
	v := os.Getenv(key)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s: %q is not a positive duration (like 30s)", key, v)
	}
	return d, nil
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
