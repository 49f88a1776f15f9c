// Package catalog manages the tenant catalogs of the activity lifecycle:
// retention status configs (the codes pillars and snapshots carry) and
// activity reason configs (with the constant platform defaults).
package catalog

import (
	"context"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/txn"
)

// Service manages the catalogs of the viewer's tenant.
type Service struct{ client *ent.Client }

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client} }

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }
