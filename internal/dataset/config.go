package dataset

import (
	"context"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/tenantdataset"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// MaxConnectionLength bounds a connection string or file path.
const MaxConnectionLength = 4096

// Messages of the dataset configuration rules.
const (
	MsgConnectionEmpty      = "connection should not be empty"
	MsgConnectionTooLong    = "connection must be shorter than or equal to 4096 characters"
	MsgConnectionPostgres   = "connection must be a postgres:// or postgresql:// URL with a host and a database"
	MsgConnectionSQLite     = "connection must be a file path without '?', '#' or '%'"
	MsgSchemaNameEmpty      = "schema_name should not be empty"
	MsgSchemaNameIdentifier = "schema_name must be a valid SQL identifier: a letter or underscore, then letters, digits or underscores, at most 63 characters"
	MsgSchemaNameEngine     = "schema_name is only accepted with engine postgres"
	MsgSchemaNameSystem     = "schema_name must not name a system schema (information_schema, or a name starting with pg_)"
	MsgProjectEmpty         = "bigquery_project should not be empty"
	MsgProjectInvalid       = "bigquery_project must be a BigQuery project id: 6 to 30 lowercase letters, digits or hyphens, starting with a letter (optionally prefixed by a domain and a colon)"
	MsgProjectEngine        = "bigquery_project is only accepted with engine bigquery"
	MsgDatasetEmpty         = "bigquery_dataset should not be empty"
	MsgDatasetInvalid       = "bigquery_dataset must be a BigQuery dataset id: letters, digits or underscores, at most 1024 characters"
	MsgDatasetEngine        = "bigquery_dataset is only accepted with engine bigquery"
)

// MsgEngine is the message of an unknown engine.
var MsgEngine = EnumMessage("engine", Engines)

var (
	// schemaIdent is a PostgreSQL identifier that needs no quoting care
	// (63 bytes is PostgreSQL's identifier limit).
	schemaIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,62}$`)
	// bigqueryProjectID follows Google Cloud project ids, with the legacy
	// domain-scoped form "example.com:my-project".
	bigqueryProjectID    = regexp.MustCompile(`^([a-z0-9][a-z0-9.-]*[a-z0-9]:)?[a-z][a-z0-9-]{4,28}[a-z0-9]$`)
	bigqueryDatasetChars = regexp.MustCompile(`^[A-Za-z0-9_]+$`)
)

// ConfigInput is the body of PUT /api/tenant-dataset: the whole
// configuration is replaced, except the connection, which is kept when
// omitted (nil) and the engine is unchanged.
type ConfigInput struct {
	// Engine is bigquery, postgres or sqlite.
	Engine string
	// Connection is write-only: a postgres:// URL (postgres), the dataset
	// file path (sqlite) or optional credentials (bigquery).
	Connection *string
	// SchemaName is the PostgreSQL schema holding the tables (postgres only).
	SchemaName string
	// BigqueryProject and BigqueryDataset qualify the tables (bigquery only).
	BigqueryProject string
	BigqueryDataset string
}

// validate returns the broken rules of in for a tenant whose current
// dataset is cur (nil when none).
func (in *ConfigInput) validate(cur *ent.TenantDataset) []string {
	in.SchemaName = strings.TrimSpace(in.SchemaName)
	in.BigqueryProject = strings.TrimSpace(in.BigqueryProject)
	in.BigqueryDataset = strings.TrimSpace(in.BigqueryDataset)
	if !slices.Contains(Engines, in.Engine) {
		return []string{MsgEngine}
	}
	var msgs []string
	// A stored connection is kept only for the engine it was given for.
	kept := cur != nil && HasConnection(cur) && string(cur.Engine) == in.Engine
	conn := ""
	if in.Connection != nil {
		conn = strings.TrimSpace(*in.Connection)
		in.Connection = &conn
	}
	switch {
	case utf8.RuneCountInString(conn) > MaxConnectionLength:
		msgs = append(msgs, MsgConnectionTooLong)
	case conn == "" && in.Engine != EngineBigQuery && (in.Connection != nil || !kept):
		msgs = append(msgs, MsgConnectionEmpty)
	case conn != "" && in.Engine == EnginePostgres && !postgresURL(conn):
		msgs = append(msgs, MsgConnectionPostgres)
	case conn != "" && in.Engine == EngineSQLite && strings.ContainsAny(conn, "?#%"):
		msgs = append(msgs, MsgConnectionSQLite)
	}
	switch {
	case in.Engine != EnginePostgres && in.SchemaName != "":
		msgs = append(msgs, MsgSchemaNameEngine)
	case in.Engine == EnginePostgres && in.SchemaName == "":
		msgs = append(msgs, MsgSchemaNameEmpty)
	case in.Engine == EnginePostgres && !schemaIdent.MatchString(in.SchemaName):
		msgs = append(msgs, MsgSchemaNameIdentifier)
	case in.Engine == EnginePostgres && systemName(in.SchemaName):
		msgs = append(msgs, MsgSchemaNameSystem)
	}
	msgs = append(msgs, bigqueryRule(in.Engine, in.BigqueryProject, bigqueryProjectID.MatchString, MsgProjectEngine, MsgProjectEmpty, MsgProjectInvalid)...)
	return append(msgs, bigqueryRule(in.Engine, in.BigqueryDataset, bigqueryDataset, MsgDatasetEngine, MsgDatasetEmpty, MsgDatasetInvalid)...)
}

// bigqueryDataset accepts a BigQuery dataset id (at most 1024 characters).
func bigqueryDataset(s string) bool { return len(s) <= 1024 && bigqueryDatasetChars.MatchString(s) }

// bigqueryRule checks a field that bigquery requires and others refuse.
func bigqueryRule(engine, v string, valid func(string) bool, otherEngine, empty, invalid string) []string {
	switch {
	case engine != EngineBigQuery && v != "":
		return []string{otherEngine}
	case engine == EngineBigQuery && v == "":
		return []string{empty}
	case engine == EngineBigQuery && !valid(v):
		return []string{invalid}
	}
	return nil
}

// postgresURL accepts the URL form lib/pq reads, with a host and a database.
func postgresURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") && u.Hostname() != "" &&
		strings.Trim(u.Path, "/") != ""
}

// systemName reports whether a schema or table name is one of the engines'
// own: PostgreSQL reserves the pg_ prefix and information_schema, SQLite
// the sqlite_ prefix and the pragma_ table-valued functions.
func systemName(name string) bool {
	n := strings.ToLower(name)
	return n == "information_schema" || strings.HasPrefix(n, "pg_") || strings.HasPrefix(n, "sqlite_") ||
		strings.HasPrefix(n, "pragma_")
}

// Get returns the tenant's dataset configuration; 404
// MsgNotConfigured when the tenant has none. The connection stays sealed:
// present HasConnection instead.
func (s *Service) Get(ctx context.Context) (*ent.TenantDataset, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	return s.find(ctx, s.db(ctx), tid)
}

// Set creates or replaces the tenant's dataset configuration
// and reports whether it was created. The catalog is kept;
// the result is loaded with it (see GetCatalog). A postgres or sqlite
// connection must pass the Guard; a hosted dataset (Host) keeps its
// location (MsgManaged).
func (s *Service) Set(ctx context.Context, in ConfigInput) (*ent.TenantDataset, bool, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, false, err
	}
	return s.put(ctx, tid, in, false)
}

// put creates or replaces the dataset of tenant tid; hosted marks a
// dataset the service keeps itself (Host), which skips the Guard.
func (s *Service) put(ctx context.Context, tid uuid.UUID, in ConfigInput, hosted bool) (*ent.TenantDataset, bool, error) {
	var (
		out     *ent.TenantDataset
		created bool
	)
	put := func(ctx context.Context, tx *ent.Client) error {
		cur, err := s.find(ctx, tx, tid)
		if err != nil && !NotConfigured(err) {
			return err
		}
		msgs := in.validate(cur)
		if cur != nil && cur.Managed && !hosted {
			if !sameLocation(cur, in) {
				return apperr.Validation(MsgManaged)
			}
			out, err = s.loadCatalog(ctx, tx, tid)
			return err
		}
		if len(msgs) > 0 {
			return apperr.Validation(msgs...)
		}
		if !hosted {
			switch msg, err := s.checkConnection(ctx, in, cur); {
			case err != nil:
				return err
			case msg != "":
				return apperr.Validation(msg)
			}
		}
		created = cur == nil
		id := uuid.New()
		if cur != nil {
			id = cur.ID
		}
		var sealed []byte
		if in.Connection != nil && *in.Connection != "" {
			if sealed, err = s.box.Seal(id, []byte(*in.Connection)); err != nil {
				return err
			}
		}
		if created {
			err = tx.TenantDataset.Create().SetID(id).SetTenantID(tid).SetEngine(tenantdataset.Engine(in.Engine)).
				SetConnection(sealed).SetSchemaName(in.SchemaName).SetBigqueryProject(in.BigqueryProject).
				SetBigqueryDataset(in.BigqueryDataset).SetManaged(hosted).Exec(ctx)
		} else {
			u := tx.TenantDataset.UpdateOne(cur).SetEngine(tenantdataset.Engine(in.Engine)).SetSchemaName(in.SchemaName).
				SetBigqueryProject(in.BigqueryProject).SetBigqueryDataset(in.BigqueryDataset).SetManaged(hosted)
			switch {
			case sealed != nil:
				u.SetConnection(sealed)
			case in.Connection != nil || string(cur.Engine) != in.Engine:
				// Emptied (bigquery credentials), or given for another engine.
				u.ClearConnection()
			}
			err = u.Exec(ctx)
		}
		if err != nil {
			return err
		}
		// With its catalog: GraphQL serves the edges of the result.
		out, err = s.loadCatalog(ctx, tx, tid)
		return err
	}
	err := txn.Run(ctx, s.client, put)
	if err != nil && created && ent.IsConstraintError(err) {
		// Another request created the dataset meanwhile: replace it.
		err = txn.Run(ctx, s.client, put)
	}
	if err != nil {
		return nil, false, err
	}
	return out, created, nil
}

// sameLocation reports whether in keeps the engine, connection, schema and
// BigQuery fields of d (a normalized input).
func sameLocation(d *ent.TenantDataset, in ConfigInput) bool {
	return string(d.Engine) == in.Engine && in.Connection == nil && d.SchemaName == in.SchemaName &&
		d.BigqueryProject == in.BigqueryProject && d.BigqueryDataset == in.BigqueryDataset
}

// checkConnection runs the Guard on the connection in leaves in effect (the
// one it gives, or the stored one it keeps) and returns its refusal.
func (s *Service) checkConnection(ctx context.Context, in ConfigInput, cur *ent.TenantDataset) (string, error) {
	if in.Engine == EngineBigQuery {
		return "", nil
	}
	conn := ""
	switch {
	case in.Connection != nil:
		conn = *in.Connection
	case cur != nil && string(cur.Engine) == in.Engine && HasConnection(cur):
		var err error
		if conn, err = s.connection(cur); err != nil {
			return "", err
		}
	}
	if in.Engine == EnginePostgres {
		_, msg := s.guard.Postgres(ctx, conn)
		return msg, nil
	}
	_, msg := s.guard.SQLite(conn)
	return msg, nil
}
