package txn

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync/atomic"

	"entgo.io/ent/dialect"
)

// Driver wraps the database driver of the ent client so that an entity a
// transaction loaded outlives it: once the transaction has ended, the
// entity's reads (its edges, which a GraphQL selection loads after the
// service returned) go through d, as ent's Unwrap would rebind it by hand.
// A service can therefore return what it wrote in Run. Writes through an
// ended transaction still fail.
func Driver(d dialect.Driver) dialect.Driver { return driver{d} }

type driver struct{ dialect.Driver }

func (d driver) Tx(ctx context.Context) (dialect.Tx, error) {
	tx, err := d.Driver.Tx(ctx)
	if err != nil {
		return nil, err
	}
	return &endingTx{Tx: tx, pool: d.Driver}, nil
}

// BeginTx keeps the transaction options of the wrapped driver.
func (d driver) BeginTx(ctx context.Context, opts *sql.TxOptions) (dialect.Tx, error) {
	b, ok := d.Driver.(interface {
		BeginTx(context.Context, *sql.TxOptions) (dialect.Tx, error)
	})
	if !ok {
		return nil, fmt.Errorf("driver %T does not support BeginTx", d.Driver)
	}
	tx, err := b.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &endingTx{Tx: tx, pool: d.Driver}, nil
}

// ExecContext and QueryContext serve raw SQL through the client.
func (d driver) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return execContext(d.Driver, ctx, query, args)
}

func (d driver) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return queryContext(d.Driver, ctx, query, args)
}

// endingTx is a transaction that remembers it has ended.
type endingTx struct {
	dialect.Tx
	pool  dialect.Driver
	ended atomic.Bool
}

func (t *endingTx) Commit() error {
	defer t.ended.Store(true)
	return t.Tx.Commit()
}

func (t *endingTx) Rollback() error {
	defer t.ended.Store(true)
	return t.Tx.Rollback()
}

// Query reads through the pool once the transaction has ended; anything
// else (an INSERT ... RETURNING is a query too) still meets the ended
// transaction and fails.
func (t *endingTx) Query(ctx context.Context, query string, args, v any) error {
	if t.ended.Load() && isSelect(query) {
		return t.pool.Query(ctx, query, args, v)
	}
	return t.Tx.Query(ctx, query, args, v)
}

// ExecContext and QueryContext serve raw SQL inside the transaction.
func (t *endingTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return execContext(t.Tx, ctx, query, args)
}

func (t *endingTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return queryContext(t.Tx, ctx, query, args)
}

func isSelect(query string) bool {
	q := strings.TrimLeft(query, " \t\r\n(")
	return len(q) >= 6 && strings.EqualFold(q[:6], "SELECT")
}

func execContext(x any, ctx context.Context, query string, args []any) (sql.Result, error) {
	e, ok := x.(interface {
		ExecContext(context.Context, string, ...any) (sql.Result, error)
	})
	if !ok {
		return nil, fmt.Errorf("%T does not support ExecContext", x)
	}
	return e.ExecContext(ctx, query, args...)
}

func queryContext(x any, ctx context.Context, query string, args []any) (*sql.Rows, error) {
	q, ok := x.(interface {
		QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	})
	if !ok {
		return nil, fmt.Errorf("%T does not support QueryContext", x)
	}
	return q.QueryContext(ctx, query, args...)
}
