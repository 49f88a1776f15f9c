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
type Service struct{ client *ent.Client }

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client} }

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }
