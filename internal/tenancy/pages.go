package tenancy

import (
	"context"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/paging"
)

// The reads of the caller's tenant's records every service makes: one
// record (Get), a page of a REST list (List) and a GraphQL connection
// (Connection, ProjectConnection). inTenant and inProject are the entity's
// scope predicate: the service's own, on top of the same filter the data
// layer adds, so that tenancy never rests on one of them alone.

// Get loads record id of the caller's tenant with of, the entity's look-up
// (its 404 when the tenant has no such record).
func Get[T any](ctx context.Context, c *ent.Client, id uuid.UUID,
	of func(ctx context.Context, c *ent.Client, tenantID, id uuid.UUID) (T, error)) (T, error) {
	tid, err := Tenant(ctx)
	if err != nil {
		var none T
		return none, err
	}
	return of(ctx, c, tid, id)
}

// listQuery is a generated ent query of one entity that paging.Fetch reads,
// narrowed with predicates P.
type listQuery[Q, P, T, S any] interface {
	paging.Query[Q, T, S]
	Where(...P) Q
}

// List returns page p of the records of q (its filters set) in the caller's
// tenant, in order sort (see paging.Fetch).
func List[Q listQuery[Q, P, T, S], P any, T paging.Row, S any](ctx context.Context, q Q, inTenant func(tenantID uuid.UUID) P,
	sort paging.Sort, p paging.Page) (*paging.List[T], error) {
	tid, err := Tenant(ctx)
	if err != nil {
		return nil, err
	}
	return paging.Fetch(ctx, q.Where(inTenant(tid)), sort, p)
}

// pagedQuery is a generated ent query of one entity: Where narrows it with
// predicates P, Paginate pages it as a GraphQL connection C with options O.
type pagedQuery[Q, P, O, C any] interface {
	Where(...P) Q
	Paginate(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int, opts ...O) (C, error)
}

// Connection pages through the records of q in the caller's tenant as a
// GraphQL connection.
func Connection[Q pagedQuery[Q, P, O, C], P, O, C any](ctx context.Context, q Q, inTenant func(tenantID uuid.UUID) P,
	after *ent.Cursor, first *int, before *ent.Cursor, last *int, opts ...O) (C, error) {
	tid, err := Tenant(ctx)
	if err != nil {
		var none C
		return none, err
	}
	return q.Where(inTenant(tid)).Paginate(ctx, after, first, before, last, opts...)
}

// ProjectConnection is Connection over the records of the caller's active
// project (see Project).
func ProjectConnection[Q pagedQuery[Q, P, O, C], P, O, C any](ctx context.Context, q Q, inProject func(tenantID, projectID uuid.UUID) P,
	after *ent.Cursor, first *int, before *ent.Cursor, last *int, opts ...O) (C, error) {
	tid, pid, err := Project(ctx)
	if err != nil {
		var none C
		return none, err
	}
	return q.Where(inProject(tid, pid)).Paginate(ctx, after, first, before, last, opts...)
}
