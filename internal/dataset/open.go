package dataset

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"
	_ "modernc.org/sqlite" // pure-Go SQLite driver ("sqlite")

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/tenantdataset"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/pgconn"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/viewer"
)

// Pool bounds of a dataset handle: previews are short, few and read-only.
const (
	poolMaxOpen     = 4
	poolMaxIdle     = 2
	poolMaxIdleTime = 5 * time.Minute
)

// poolLimits bound every statement of a dataset pool and every wait on its
// server, so a frozen tenant database cannot hold a request.
var poolLimits = pgconn.Limits{Statement: qb.PreviewTimeout, IO: qb.PreviewTimeout + pgconn.ResponseGrace}

// EngineTimeout bounds the lifecycle engine's classification statement on a
// tenant's dataset: an aggregation over every source row, run in the
// background, streamed in chunks.
const EngineTimeout = 15 * time.Minute

// enginePoolLimits are the limits of the pools the engine runs on.
var enginePoolLimits = pgconn.Limits{Statement: EngineTimeout, IO: EngineTimeout + pgconn.ResponseGrace}

// poolKey names a cached handle: a dataset and its use (previews or the
// engine, whose statements are bounded differently).
type poolKey struct {
	dataset uuid.UUID
	engine  bool
}

// pool is an open handle on one version of a dataset's configuration.
type pool struct {
	updatedAt time.Time
	db        *sql.DB
	engine    string
	qualifier string
}

// Open returns a pooled handle on the viewer's tenant dataset for previews,
// with its engine (postgres or sqlite) and the table qualifier the compiler
// takes (the schema on postgres, "" on sqlite). Like Catalog it checks no
// permission (its callers do). A sqlite dataset opens read-only; a postgres
// one relies on the preview runner's read-only transaction. Handles are
// cached per dataset and reopened when its configuration changes (its
// updated_at moves), on every replica. 404 MsgNotConfigured without a
// dataset; 422 MsgPreviewBigQuery on a bigquery dataset; 422 MsgUnreachable
// when the dataset cannot be opened.
func (s *Service) Open(ctx context.Context) (*sql.DB, string, string, error) {
	return s.openFor(ctx, false)
}

// OpenEngine is Open for the lifecycle engine: a handle of its own whose
// statements may last EngineTimeout.
func (s *Service) OpenEngine(ctx context.Context) (*sql.DB, string, string, error) {
	if _, err := tenancy.From(ctx); err != nil {
		return nil, "", "", err
	}
	return s.openFor(ctx, true)
}

func (s *Service) openFor(ctx context.Context, engine bool) (*sql.DB, string, string, error) {
	tid, ok := viewer.TenantID(ctx)
	if !ok {
		return nil, "", "", apperr.NotFound(MsgNotConfigured)
	}
	d, err := s.find(ctx, s.db(ctx), tid)
	if err != nil {
		return nil, "", "", err
	}
	if d.Engine == tenantdataset.EngineBigquery {
		return nil, "", "", apperr.Unprocessable(MsgPreviewBigQuery)
	}
	k := poolKey{dataset: d.ID, engine: engine}
	if p := s.cached(k, d); p != nil {
		return p.db, p.engine, p.qualifier, nil
	}
	// Connect outside the lock: a slow dataset must not stall the others.
	limits := poolLimits
	if engine {
		limits = enginePoolLimits
	}
	p, err := s.open(ctx, d, limits)
	if err != nil {
		return nil, "", "", err
	}
	p = s.keep(k, p)
	return p.db, p.engine, p.qualifier, nil
}

// cached returns the handle of d's configuration (or of a newer one, when
// d was read before a concurrent change), if open; a handle of an older
// configuration is closed (in-flight previews finish).
func (s *Service) cached(k poolKey, d *ent.TenantDataset) *pool {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.pools[k]
	switch {
	case !ok:
		return nil
	case !p.updatedAt.Before(d.UpdatedAt):
		return p
	}
	_ = p.db.Close()
	delete(s.pools, k)
	return nil
}

// keep caches p for dataset id unless a request opened the same
// configuration meanwhile (then that one is kept and p closed).
func (s *Service) keep(k poolKey, p *pool) *pool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur, ok := s.pools[k]; ok {
		if !p.updatedAt.After(cur.updatedAt) {
			_ = p.db.Close()
			return cur
		}
		_ = cur.db.Close()
	}
	s.pools[k] = p
	return p
}

// open connects to d and checks that it answers. A tenant's own
// connection passes the Guard again (the allowlist may have changed, a
// symlink may have moved) and, on PostgreSQL, must not turn out to be the
// service's database whatever name reached it; a hosted one (Host) is
// opened as the service configured it.
func (s *Service) open(ctx context.Context, d *ent.TenantDataset, limits pgconn.Limits) (*pool, error) {
	conn, err := s.connection(d)
	if err != nil {
		return nil, fmt.Errorf("dataset: open connection: %w", err)
	}
	p := &pool{updatedAt: d.UpdatedAt, engine: string(d.Engine)}
	switch d.Engine {
	case tenantdataset.EnginePostgres:
		p.qualifier = Qualifier(d, EnginePostgres)
		cfg, err := s.postgresConfig(ctx, d, conn)
		if err != nil {
			return nil, err
		}
		c, err := pgconn.NewConnector(cfg, limits)
		if err != nil {
			return nil, fmt.Errorf("dataset: open: %w", err)
		}
		p.db = sql.OpenDB(c)
	case tenantdataset.EngineSqlite:
		if !d.Managed {
			var msg string
			if conn, msg = s.guard.SQLite(conn); msg != "" {
				return nil, apperr.Validation(msg)
			}
		}
		// mode=ro never creates the file; query_only refuses writes even
		// through a statement that would try.
		p.db, err = sql.Open("sqlite", "file:"+conn+"?mode=ro&_pragma=query_only(1)&_pragma=busy_timeout(5000)")
	default:
		return nil, fmt.Errorf("dataset: unknown engine %q", d.Engine)
	}
	if err != nil {
		return nil, fmt.Errorf("dataset: open: %w", err)
	}
	p.db.SetMaxOpenConns(poolMaxOpen)
	p.db.SetMaxIdleConns(poolMaxIdle)
	p.db.SetConnMaxIdleTime(poolMaxIdleTime)
	if err := p.db.PingContext(ctx); err != nil {
		_ = p.db.Close()
		slog.WarnContext(ctx, "tenant dataset unreachable", "tenant", d.TenantID, "engine", d.Engine, "err", err)
		return nil, apperr.Unprocessable(MsgUnreachable)
	}
	if d.Engine == tenantdataset.EnginePostgres && !d.Managed {
		if err := s.notOwn(ctx, p.db); err != nil {
			_ = p.db.Close()
			return nil, err
		}
	}
	return p, nil
}

// postgresConfig is the configuration of d's connection: as the service set
// it for a hosted dataset, through the Guard for a tenant's own.
func (s *Service) postgresConfig(ctx context.Context, d *ent.TenantDataset, conn string) (pq.Config, error) {
	if d.Managed {
		return pq.NewConfig(conn)
	}
	cfg, msg := s.guard.Postgres(ctx, conn)
	if msg != "" {
		return pq.Config{}, apperr.Validation(msg)
	}
	return *cfg, nil
}

// pgIdentity names a PostgreSQL database across every way of reaching it:
// the cluster's system identifier and the database name.
type pgIdentity struct{ system, database string }

func identityOf(ctx context.Context, db *sql.DB) (pgIdentity, error) {
	var id pgIdentity
	err := db.QueryRowContext(ctx, `SELECT system_identifier::text, current_database() FROM pg_control_system()`).
		Scan(&id.system, &id.database)
	return id, err
}

// notOwn refuses (MsgOwnDatabase) a tenant's pool that reached the
// service's own database.
func (s *Service) notOwn(ctx context.Context, db *sql.DB) error {
	own, err := s.ownIdentity(ctx)
	if err != nil {
		return err
	}
	if own == nil {
		return nil
	}
	got, err := identityOf(ctx, db)
	if err != nil {
		slog.WarnContext(ctx, "tenant dataset identity unreadable", "err", err)
		return apperr.Unprocessable(MsgUnreachable)
	}
	if got == *own {
		slog.WarnContext(ctx, "tenant dataset refused: it is the service database")
		return apperr.Validation(MsgOwnDatabase)
	}
	return nil
}

// ownIdentity is the identity of the service's database (nil when it is
// not PostgreSQL), read once.
func (s *Service) ownIdentity(ctx context.Context) (*pgIdentity, error) {
	if s.guard.ownPG == nil {
		return nil, nil
	}
	s.mu.Lock()
	own := s.own
	s.mu.Unlock()
	if own != nil {
		return own, nil
	}
	id, err := identityOf(ctx, s.host.DB)
	if err != nil {
		return nil, fmt.Errorf("dataset: service database identity: %w", err)
	}
	s.mu.Lock()
	s.own = &id
	s.mu.Unlock()
	return &id, nil
}

// Close closes every cached dataset handle.
func (s *Service) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for id, p := range s.pools {
		errs = append(errs, p.db.Close())
		delete(s.pools, id)
	}
	return errors.Join(errs...)
}
