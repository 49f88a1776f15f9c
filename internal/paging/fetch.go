package paging

import (
	"cmp"
	"context"
	stdsql "database/sql"
	"fmt"

	entgo "entgo.io/ent"
	"entgo.io/ent/dialect/sql"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/database"
)

// Sort is the order of a list: columns compared in turn, all ascending or
// all descending. The last column is unique (the id), so that ties keep one
// order and every offset names one row.
type Sort struct {
	columns []string
	desc    bool
}

// Asc orders by columns, ascending.
func Asc(columns ...string) Sort { return Sort{columns: columns} }

// Desc orders by columns, descending.
func Desc(columns ...string) Sort { return Sort{columns: columns, desc: true} }

// Query is what Fetch needs of an ent query builder; every generated
// <Type>Query has these methods. Q is the builder, T the entity it returns
// and S its select builder (unused).
type Query[Q, T, S any] interface {
	Clone() Q
	Count(context.Context) (int, error)
	Limit(int) Q
	All(context.Context) ([]T, error)
	Modify(...func(*sql.Selector)) S
}

// Row is what Fetch needs of an entity: the value of a column a modifier
// added to its statement; every generated entity has it.
type Row interface {
	Value(name string) (entgo.Value, error)
}

// totalColumn is the column of a page's statement that holds the list's
// exact total.
const totalColumn = "list_total"

// Fetch returns page p of q's rows in order sort, with the exact number of
// q's rows. q holds the list's filters and eager loads but no order, offset
// or limit of its own; Fetch adds them to q.
//
// The page and the total are one statement: each row carries the total as
// a column (a subquery PostgreSQL runs once, an InitPlan), so a list costs
// one round trip, not two. An empty first page means no rows; an empty
// later page (past the end) is counted on its own.
//
// A deep page costs about what the first one does: the page's first row is
// found by a subquery that skips p.Offset() rows reading only their sort
// columns (an index on the list's equality filters followed by the sort
// columns makes it an index-only scan), and the page is read from that row
// on through the same index. A plain OFFSET would read every skipped row
// from the table. Skipping rows costs about what counting them does, so
// while the pool is quiet a later page and its count run side by side as
// two statements (see beside), and the request waits for the slower one
// rather than for both.
func Fetch[Q Query[Q, T, S], T Row, S any](ctx context.Context, q Q, sort Sort, p Page) (*List[T], error) {
	if p.Offset() == 0 {
		return fetchWithTotal(ctx, q, q, sort, p)
	}
	if beside(ctx) {
		return fetchBeside(ctx, q, sort, p)
	}
	return fetchWithTotal(ctx, q, q.Clone(), sort, p)
}

// fetchWithTotal reads page p of q with the total in its statement; count
// (q's clone, taken before; unused on a first page) counts a later page
// found empty.
func fetchWithTotal[Q Query[Q, T, S], T Row, S any](ctx context.Context, q, count Q, sort Sort, p Page) (*List[T], error) {
	q.Modify(func(s *sql.Selector) {
		total := sql.Dialect(s.Dialect()).Select(sql.Count("*")).From(s.Table()).FromSelect(s)
		s.AppendSelectExprAs(total, totalColumn)
		sort.from(p.Offset())(s)
	})
	items, err := q.Limit(p.PerPage).All(ctx)
	if err != nil {
		return nil, err
	}
	l := &List[T]{Items: items, Page: p}
	switch {
	case len(items) > 0:
		l.Total, err = totalOf(items[0])
	case p.Offset() > 0:
		l.Total, err = count.Count(ctx)
	}
	if err != nil {
		return nil, err
	}
	return l, nil
}

// totalOf reads the total a page's row carries.
func totalOf(row Row) (int, error) {
	v, err := row.Value(totalColumn)
	if err != nil {
		return 0, err
	}
	n, ok := v.(int64)
	if !ok {
		return 0, fmt.Errorf("paging: %s is %T, want int64", totalColumn, v)
	}
	return int(n), nil
}

// fetchBeside reads page p of q and its count as two statements at once,
// on two pooled connections. The count's error wins.
func fetchBeside[Q Query[Q, T, S], T, S any](ctx context.Context, q Q, sort Sort, p Page) (*List[T], error) {
	count := q.Clone()
	q.Modify(sort.from(p.Offset()))
	var total int
	done := make(chan error, 1)
	go func() {
		var err error
		total, err = count.Count(ctx)
		done <- err
	}()
	items, err := q.Limit(p.PerPage).All(ctx)
	if err := cmp.Or(<-done, err); err != nil {
		return nil, err
	}
	return &List[T]{Items: items, Total: total, Page: p}, nil
}

// from orders a list statement by the sort and starts it at its offset-th
// row. It runs as a modifier, after ent has applied every predicate (the
// caller's filters and the data layer's tenant, project and archive ones),
// so the subquery that finds the offset row filters exactly as the list
// does. Past the last row the subquery yields NULL and the page is empty.
func (o Sort) from(offset int) func(*sql.Selector) {
	return func(s *sql.Selector) {
		if offset > 0 {
			row := sql.Dialect(s.Dialect()).Select(s.Columns(o.columns...)...).From(s.Table()).FromSelect(s)
			o.orderBy(row)
			row.Offset(offset).Limit(1)
			op := " >= "
			if o.desc {
				op = " <= "
			}
			s.Where(sql.P(func(b *sql.Builder) {
				b.WriteString("(")
				for i, c := range s.Columns(o.columns...) {
					if i > 0 {
						b.Comma()
					}
					b.WriteString(c)
				}
				b.WriteString(")" + op + "(").Join(row).WriteString(")")
			}))
		}
		o.orderBy(s)
	}
}

func (o Sort) orderBy(s *sql.Selector) {
	for _, c := range s.Columns(o.columns...) {
		if o.desc {
			c += " DESC"
		}
		s.OrderBy(c)
	}
}

// KeepPlans is the context a page of a list is read under, in either
// adapter. A first page asked for with nothing but its size (firstOnly: no
// cursor, offset, filter or order; the adapter says which of its requests
// are) keeps PostgreSQL's plans (database.WithGenericPlans): its
// statements name only the owner (the tenant, the project, the path's
// record) and an index that starts with the owner reads them in order for
// any owner, with the plan made for the arguments or for any
// (TestConnectionPagesReadInOrder, TestListFirstPagesKeepPlans). Any other
// page is planned for its arguments: PostgreSQL's plan for any cursor may
// read the tenant's index and drop the other projects' rows
// (BenchmarkGraphQLConnection saw 210 dropped for 26 kept), a filter's for
// any value may not suit a skewed one, and each offset is a statement of
// its own.
func KeepPlans(ctx context.Context, firstOnly bool) context.Context {
	if !firstOnly {
		return ctx
	}
	return database.WithGenericPlans(ctx)
}

// beside reports whether a list may take a second connection to count
// beside its page: outside a transaction (whose one connection cannot serve
// two statements at once) while the pool is quiet (see quiet). When the
// pool is busy a second connection per request only adds work for a
// database that has none to spare (BenchmarkListRequest, 8 clients: 0.77
// and 0.74 of pgbench in turn, 0.76 and 0.71 side by side, runs
// interleaved).
func beside(ctx context.Context) bool {
	return ent.TxFromContext(ctx) == nil && ent.FromContext(ctx) == nil && quiet(ctx)
}

// QuietConnections is how many connections the pool may have in use for a
// list to take a second one: below it the database is taken to have time
// to spare for the count beside the page.
const QuietConnections = 2

type poolKey struct{}

// pools are the pools a request's lists read from.
type pools struct{ db, pages *stdsql.DB }

// WithPool gives the lists read under ctx the pools they read from, whose
// load decides whether a later page is counted beside it (see beside): db,
// and pages for the statements run under database.WithGenericPlans (nil
// when there is no such pool). The service's HTTP handler sets it on every
// request.
func WithPool(ctx context.Context, db, pages *stdsql.DB) context.Context {
	return context.WithValue(ctx, poolKey{}, pools{db, pages})
}

// quiet reports whether the pool ctx's list reads from (WithPool) has
// fewer than QuietConnections connections in use; false without a pool.
func quiet(ctx context.Context) bool {
	p, _ := ctx.Value(poolKey{}).(pools)
	db := p.db
	if p.pages != nil && database.GenericPlans(ctx) {
		db = p.pages
	}
	return db != nil && db.Stats().InUse < QuietConnections
}
