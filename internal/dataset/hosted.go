package dataset

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apperr"
)

// MsgManaged answers a change of a hosted dataset's location.
const MsgManaged = "the dataset is managed by the service: its engine, connection, schema, BigQuery project and BigQuery dataset cannot be changed"

// readerStatementTimeout bounds every statement of a hosted dataset's reader
// role, whatever its session asks.
const readerStatementTimeout = "30s"

// Hosted is a dataset the service keeps for a tenant beside its own data
// (the demo): on PostgreSQL a schema of the service's database, read through
// a login role that may read only that schema; on SQLite a file of its own,
// opened read-only.
type Hosted struct {
	// Schema holds the tables (PostgreSQL).
	Schema string
	// File is the dataset file (SQLite).
	File string
}

// ReaderRole is the PostgreSQL role a hosted dataset of tenantID is read
// through.
func ReaderRole(tenantID uuid.UUID) string {
	return "reten_ds_" + strings.ReplaceAll(tenantID.String(), "-", "")
}

// Host makes h the tenant's dataset, managed by the service: tenants cannot
// change its location (MsgManaged). On PostgreSQL it first (re)creates the
// tenant's reader role: LOGIN, no other attribute, a new password, USAGE on
// the schema and SELECT on its tables only, read-only transactions and a
// statement timeout; the service's database user needs CREATEROLE for it.
// Run it again after the schema's tables are replaced. The catalog is kept.
func (s *Service) Host(ctx context.Context, tenantID uuid.UUID, h Hosted) error {
	in := ConfigInput{Engine: s.ownEngine()}
	switch in.Engine {
	case EnginePostgres:
		conn, err := s.provisionReader(ctx, tenantID, h.Schema)
		if err != nil {
			return err
		}
		in.Connection, in.SchemaName = &conn, h.Schema
	case EngineSQLite:
		in.Connection = &h.File
	default:
		return fmt.Errorf("dataset: the service database has no engine to host a dataset on")
	}
	if msgs := in.validate(nil); len(msgs) > 0 {
		return apperr.Validation(msgs...)
	}
	_, _, err := s.put(ctx, tenantID, in, true)
	return err
}

// ownEngine is the engine of the service's own database.
func (s *Service) ownEngine() string {
	switch {
	case s.guard.ownPG != nil:
		return EnginePostgres
	case s.guard.ownDir != "":
		return EngineSQLite
	}
	return ""
}

// provisionReader creates or updates the reader role of the tenant's hosted
// schema and returns the connection URL that logs in as it.
func (s *Service) provisionReader(ctx context.Context, tenantID uuid.UUID, schema string) (string, error) {
	if !schemaIdent.MatchString(schema) {
		return "", fmt.Errorf("dataset: hosted schema %q is not an identifier", schema)
	}
	role, password := ReaderRole(tenantID), make([]byte, 24)
	if _, err := rand.Read(password); err != nil {
		return "", err
	}
	pw := base64.RawURLEncoding.EncodeToString(password)
	conn, err := s.host.DB.Conn(ctx)
	if err != nil {
		return "", fmt.Errorf("dataset: reader role: %w", err)
	}
	defer conn.Close()
	var exists bool
	if err := conn.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1)`, role).Scan(&exists); err != nil {
		return "", fmt.Errorf("dataset: reader role: %w", err)
	}
	verb := "CREATE"
	if exists {
		verb = "ALTER"
	}
	r, sc := quote(role), quote(schema)
	stmts := []string{
		verb + " ROLE " + r + " WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS CONNECTION LIMIT 8 PASSWORD '" + pw + "'",
		"ALTER ROLE " + r + " SET search_path TO " + sc,
		"ALTER ROLE " + r + " SET default_transaction_read_only TO on",
		"ALTER ROLE " + r + " SET statement_timeout TO '" + readerStatementTimeout + "'",
		"GRANT USAGE ON SCHEMA " + sc + " TO " + r,
		"GRANT SELECT ON ALL TABLES IN SCHEMA " + sc + " TO " + r,
	}
	for _, q := range stmts {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return "", fmt.Errorf("dataset: reader role: %w", err)
		}
	}
	var db string
	if err := conn.QueryRowContext(ctx, `SELECT current_database()`).Scan(&db); err != nil {
		return "", fmt.Errorf("dataset: reader role: %w", err)
	}
	u, err := url.Parse(s.host.URL)
	if err != nil {
		return "", fmt.Errorf("dataset: service database URL: %w", err)
	}
	q := url.Values{}
	for _, k := range []string{"host", "port", "sslmode", "connect_timeout"} {
		if v := u.Query().Get(k); v != "" {
			q.Set(k, v)
		}
	}
	u.User, u.Path, u.RawQuery = url.UserPassword(role, pw), "/"+db, q.Encode()
	return u.String(), nil
}

// DropReader removes the reader role of a tenant's hosted dataset (after
// its schema is dropped); its open sessions are ended first.
func DropReader(ctx context.Context, db *sql.DB, tenantID uuid.UUID) error {
	role := ReaderRole(tenantID)
	if _, err := db.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1`, role); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "DROP ROLE IF EXISTS "+quote(role))
	return err
}
