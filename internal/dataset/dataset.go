// Package dataset manages the tenant's dataset: where its analytics data
// lives (engine and connection) and the catalog of tables, columns, record
// sub-fields and semi-joins that audiences and event filters are checked
// against and compiled with. It hands the catalog to the query builder
// (Catalog) and opens pooled read-only handles for previews (Open).
//
// Connection strings are write-only: sealed at rest with internal/secret,
// bound to the dataset row, and never returned by any API.
package dataset

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"strings"
	"sync"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/tenantdataset"
	"github.com/reten-io/reten/internal/apperr"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/secret"
	"github.com/reten-io/reten/internal/txn"
)

// Engines of a tenant dataset.
const (
	// EngineBigQuery datasets are compile-only: the service writes their SQL
	// but never connects to them.
	EngineBigQuery = "bigquery"
	// EnginePostgres datasets live in a schema of a PostgreSQL database.
	EnginePostgres = "postgres"
	// EngineSQLite datasets are a SQLite file (the embedded default).
	EngineSQLite = "sqlite"
)

// Engines lists the dataset engines.
var Engines = []string{EngineBigQuery, EnginePostgres, EngineSQLite}

// Messages of the dataset rules that other packages answer too.
const (
	// MsgNotConfigured is the 404 of every dataset, SQL and preview
	// operation of a tenant without a dataset (SPEC.md: "404 (... or the
	// tenant has no dataset configured)").
	MsgNotConfigured = "Tenant dataset not configured"
	// MsgPreviewBigQuery is the 422 of a preview on a compile-only dataset.
	MsgPreviewBigQuery = "Preview is not available for BigQuery datasets: the service only compiles their SQL"
	// MsgUnreachable is the 422 of a preview whose dataset cannot be opened
	// (missing file, refused connection); the cause goes to the log only,
	// since driver errors may echo connection details.
	MsgUnreachable = "Tenant dataset could not be opened"
	// MsgQueryFailed is the 422 of a preview the dataset refused (a table
	// or column of the catalog it does not have, a permission, a timeout);
	// the cause goes to the log only.
	MsgQueryFailed = "The query failed on the tenant dataset: check that its catalog matches the dataset's tables"
)

// Service manages the dataset of the viewer's tenant.
type Service struct {
	client *ent.Client
	box    *secret.Box
	host   Host
	guard  *Guard

	mu    sync.Mutex
	pools map[poolKey]*pool // by dataset and use: see Open
	own   *pgIdentity       // the service database's identity, once read (see ownIdentity)
}

// Host is what the service knows of its own database and deployment.
type Host struct {
	// DB and URL are the service's own database (DATABASE_URL): tenants can
	// never reach it; hosted datasets (Host) live beside it.
	DB  *sql.DB
	URL string
	// Allow lists the connections tenants may configure (AllowSetting).
	Allow Allowlist
}

// NewService returns a Service; secretKey (32 bytes, app Config.SecretsKey)
// seals connection strings. A key of another length makes every write of a
// connection and every Open fail (never plaintext at rest).
func NewService(client *ent.Client, secretKey []byte, host Host) (*Service, error) {
	g, err := NewGuard(host.Allow, host.URL)
	if err != nil {
		return nil, err
	}
	return &Service{client: client, box: secret.New(secretKey), host: host, guard: g, pools: map[poolKey]*pool{}}, nil
}

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// HasConnection reports whether the dataset stores a connection (the
// connection itself is write-only).
func HasConnection(d *ent.TenantDataset) bool { return len(d.Connection) > 0 }

// QueryFailed answers an error of a preview: what the dataset's database
// said (querybuilder.ErrDataset) is the tenant's 422 (MsgQueryFailed),
// never a 500, unless the request itself was canceled; anything else
// passes through.
func QueryFailed(ctx context.Context, err error) error {
	if !errors.Is(err, qb.ErrDataset) || ctx.Err() != nil {
		return err
	}
	slog.WarnContext(ctx, "tenant dataset query failed", "err", err)
	return apperr.Unprocessable(MsgQueryFailed)
}

// NotConfigured reports whether err is the 404 of a tenant without a dataset.
func NotConfigured(err error) bool {
	e, ok := apperr.As(err)
	return ok && e.Kind == apperr.KindNotFound && len(e.Messages) == 1 && e.Messages[0] == MsgNotConfigured
}

// find loads the tenant's dataset row (404 MsgNotConfigured when none).
func (s *Service) find(ctx context.Context, c *ent.Client, tenantID uuid.UUID) (*ent.TenantDataset, error) {
	d, err := c.TenantDataset.Query().Where(tenantdataset.TenantID(tenantID)).Only(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, MsgNotConfigured, "")
	}
	return d, nil
}

// connection opens the sealed connection of d.
func (s *Service) connection(d *ent.TenantDataset) (string, error) {
	plain, err := s.box.Open(d.ID, d.Connection)
	if err != nil {
		return "", err
	}
	return string(plain), nil
}

// EnumMessage is the message of a value outside values at path.
func EnumMessage(path string, values []string) string {
	return path + " must be one of the following values: " + strings.Join(values, ", ")
}

// Qualifier is the table qualifier the query builder takes for d's tables
// in dialect: the schema on a PostgreSQL dataset, project.dataset on a
// BigQuery one (when both are set); "" otherwise.
func Qualifier(d *ent.TenantDataset, dialect string) string {
	switch {
	case dialect == EnginePostgres && d.Engine == tenantdataset.EnginePostgres:
		return d.SchemaName
	case dialect == EngineBigQuery && d.BigqueryProject != "" && d.BigqueryDataset != "":
		return d.BigqueryProject + "." + d.BigqueryDataset
	}
	return ""
}
