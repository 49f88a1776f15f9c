// Package agc manages activity generation configs (AGCs): their three
// lifecycle pillars (activation, engagement, resurrection) with moments,
// levels and thresholds, lifecycle reconciliation, status and config hashes.
package agc

import (
	"context"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/txn"
)

// Service manages the AGCs of the active project.
type Service struct{ client *ent.Client }

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client} }

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }
