// Package database opens the service's database (PostgreSQL through
// internal/pgconn, or an embedded SQLite file) with its ent client, and
// applies the versioned migrations. The service (internal/app) and the
// service-level tests (internal/dbtest) open it the same way.
package database

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	_ "modernc.org/sqlite" // pure-Go SQLite driver ("sqlite")

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/migrate/migrations"
	_ "github.com/reten-io/reten/ent/runtime" // schema hooks and privacy policies
	"github.com/reten-io/reten/internal/pgconn"
	"github.com/reten-io/reten/internal/txn"
)

// The PostgreSQL pool: at most PoolSize connections, each closed after
// PoolIdleTime unused; with prepared statements, a pages pool of at most
// PagePoolSize more (see WithGenericPlans).
const (
	PoolSize     = 20
	PagePoolSize = 10
	PoolIdleTime = 5 * time.Minute
)

// DefaultStatementTimeout is how long the server runs a statement of the
// service's pool before cancelling it, unless configured otherwise.
const DefaultStatementTimeout = 30 * time.Second

// DB is an open database with its ent client.
type DB struct {
	Client *ent.Client
	SQL    *sql.DB
	// Pages is the pool of the statements run under WithGenericPlans (nil
	// without prepared statements or on SQLite).
	Pages *sql.DB
	// Driver is the ent driver under Client (PostgreSQL: preparing its
	// statements, see Settings.Prepared).
	Driver  dialect.Driver
	Dialect string
	path    string // SQLite file
	url     string // PostgreSQL: migrations open a pool of their own
}

// Close closes the client and the pool.
func (d *DB) Close() error { return d.Client.Close() }

// IsPostgres reports whether url names a PostgreSQL database.
func IsPostgres(url string) bool {
	return strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://")
}

// Settings are the PostgreSQL pool's: every statement is bounded by
// StatementTimeout on the server, and the Prepared statement texts used
// last are kept prepared (0: none is).
type Settings struct {
	StatementTimeout time.Duration
	Prepared         int
}

// Defaults are the settings of a pool configured with nothing.
var Defaults = Settings{StatementTimeout: DefaultStatementTimeout, Prepared: DefaultPrepared}

// Open opens url (postgres://... or sqlite://PATH); on PostgreSQL every
// statement of the pool is bounded by set.StatementTimeout on the server and
// no operation waits on the server past its context or that timeout plus a
// grace (internal/pgconn).
func Open(url string, set Settings, opts ...ent.Option) (*DB, error) {
	var (
		db  *sql.DB
		err error
		d   string
	)
	if IsPostgres(url) {
		d = dialect.Postgres
		db, err = pgconn.Open(url, pgconn.ServiceLimits(set.StatementTimeout))
		if err == nil {
			sizePool(db, PoolSize)
		}
	} else {
		d = dialect.SQLite
		path := SQLitePath(url)
		if dir := filepath.Dir(path); dir != "." {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, fmt.Errorf("create database directory: %w", err)
			}
		}
		// WAL for concurrent readers, a busy timeout instead of immediate
		// SQLITE_BUSY, and BEGIN IMMEDIATE so write transactions never deadlock.
		dsn := "file:" + path + "?_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)" +
			"&_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)&_txlock=immediate"
		db, err = sql.Open("sqlite", dsn)
	}
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	var (
		drv   dialect.Driver
		pages *sql.DB
	)
	switch {
	case d == dialect.SQLite:
		drv = utcDriver{entsql.OpenDB(d, db)}
	case set.Prepared > 0:
		lim := pgconn.ServiceLimits(set.StatementTimeout)
		lim.Plans = pgconn.GenericPlans
		if pages, err = pgconn.Open(url, lim); err != nil {
			_ = db.Close()
			return nil, fmt.Errorf("open database: %w", err)
		}
		sizePool(pages, PagePoolSize)
		drv = newPreparedDriver(db, pages, set.Prepared)
	default:
		drv = entsql.OpenDB(d, db)
	}
	out := &DB{SQL: db, Pages: pages, Driver: drv, Dialect: d, path: SQLitePath(url), url: url}
	out.Client = NewClient(drv, opts...)
	return out, nil
}

// sizePool lets db open n connections and keep every one idle (a list
// request holds two at once): a lower cap would close connections between
// two bursts and open them again, each with a new server process and its
// statements to prepare again. Idle ones close after PoolIdleTime.
func sizePool(db *sql.DB, n int) {
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	db.SetConnMaxIdleTime(PoolIdleTime)
}

// NewClient is the ent client of the service over drv (DB.Driver, or a
// driver wrapping it): entities a service returns from its transaction
// still load their edges (txn.Driver).
func NewClient(drv dialect.Driver, opts ...ent.Option) *ent.Client {
	return ent.NewClient(append([]ent.Option{ent.Driver(txn.Driver(drv))}, opts...)...)
}

// SQLitePath is the file of a sqlite://PATH[?...] URL.
func SQLitePath(url string) string {
	p := strings.TrimPrefix(url, "sqlite://")
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	return p
}

// Migrate applies the pending versioned migrations of the dialect.
func (d *DB) Migrate(ctx context.Context) (applied int, err error) {
	sub, err := fs.Sub(migrations.FS, map[string]string{dialect.Postgres: "postgres", dialect.SQLite: "sqlite"}[d.Dialect])
	if err != nil {
		return 0, err
	}
	gd, opts, db := goose.DialectSQLite3, []goose.ProviderOption(nil), d.SQL
	if d.Dialect == dialect.SQLite {
		// Processes sharing the file (serve and bootstrap started together) take turns.
		unlock, err := lockFile(d.path + ".lock")
		if err != nil {
			return 0, err
		}
		defer unlock()
	}
	if d.Dialect == dialect.Postgres {
		// Replicas starting together take turns: an advisory lock serialises them.
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return 0, err
		}
		gd, opts = goose.DialectPostgres, append(opts, goose.WithSessionLocker(locker))
		// A migration may rewrite a large table: its statements run without
		// the service's statement timeout, bounded by ctx only.
		if db, err = pgconn.Open(d.url, pgconn.Limits{}); err != nil {
			return 0, fmt.Errorf("migrations: %w", err)
		}
		defer db.Close()
	}
	p, err := goose.NewProvider(gd, db, sub, opts...)
	if err != nil {
		return 0, fmt.Errorf("migrations: %w", err)
	}
	res, err := p.Up(ctx)
	if err != nil {
		return 0, fmt.Errorf("apply migrations: %w", err)
	}
	return len(res), nil
}

// lockFile takes an exclusive advisory lock on path (created if needed) and
// returns its release.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("migration lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("migration lock: %w", err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		_ = f.Close()
	}, nil
}
