// Package snapshot stores and serves commerce lifecycle snapshots: the
// retention state of each commerce under each AGC, written by the external
// engine (single and batch upserts) and read by integrators.
package snapshot

import (
	"context"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/txn"
)

// Service reads and writes the snapshots of the viewer's tenant.
type Service struct {
	client  *ent.Client
	dialect string // the guarded upsert statement is built for it
}

// NewService returns a Service over client, whose driver speaks dialect
// (entgo.io/ent/dialect.Postgres or SQLite).
func NewService(client *ent.Client, dialect string) *Service {
	return &Service{client: client, dialect: dialect}
}

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }
