package dispatch

import (
	"context"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/dispatchprovider"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/viewer"
)

// ProviderConnection pages through the tenant's dispatch providers (GraphQL);
// it needs dispatch:view, as ListProviders does.
func (s *Service) ProviderConnection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.DispatchProviderOrder, where *ent.DispatchProviderWhereInput) (*ent.DispatchProviderConnection, error) {
	if err := auth.RequireCtx(ctx, auth.PermDispatchView); err != nil {
		return nil, err
	}
	return s.db(ctx).DispatchProvider.Query().Where(dispatchprovider.TenantID(viewer.FromContext(ctx).TenantID)).
		Paginate(ctx, after, first, before, last, ent.WithDispatchProviderOrder(orderBy), ent.WithDispatchProviderFilter(where.Filter))
}
