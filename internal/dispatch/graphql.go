package dispatch

import (
	"context"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/dispatchprovider"
	"github.com/reten-io/reten/internal/tenancy"
)

// ProviderConnection pages through the tenant's dispatch providers (GraphQL).
func (s *Service) ProviderConnection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.DispatchProviderOrder, where *ent.DispatchProviderWhereInput) (*ent.DispatchProviderConnection, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	return s.db(ctx).DispatchProvider.Query().Where(dispatchprovider.TenantID(tid)).
		Paginate(ctx, after, first, before, last, ent.WithDispatchProviderOrder(orderBy), ent.WithDispatchProviderFilter(where.Filter))
}
