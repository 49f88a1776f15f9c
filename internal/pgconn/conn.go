package pgconn

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sync/atomic"

	"github.com/reten-io/reten/internal/apperr"
)

// pqConn is what lib/pq's connection implements and database/sql uses.
type pqConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
	driver.NamedValueChecker
}

// pgConn closes its socket when the context of an operation ends while the
// operation runs: the blocked read returns at once, the connection reports
// itself invalid and database/sql discards it. An operation lasts until it
// returns, a result set until it is closed, a transaction until it commits
// or rolls back.
type pgConn struct {
	inner  pqConn
	sock   *boundedSocket
	closed atomic.Bool
}

var (
	_ pqConn                        = (*pgConn)(nil)
	_ driver.StmtExecContext        = (*pgStmt)(nil)
	_ driver.StmtQueryContext       = (*pgStmt)(nil)
	_ driver.RowsNextResultSet      = (*pgRows)(nil)
	_ driver.RowsColumnTypeLength   = (*pgRows)(nil)
	_ driver.RowsColumnTypeNullable = (*pgRows)(nil)
)

// watch closes the socket if ctx ends before the returned stop is called.
func (c *pgConn) watch(ctx context.Context) (stop func()) {
	if ctx.Done() == nil {
		return func() {}
	}
	after := context.AfterFunc(ctx, func() {
		c.closed.Store(true)
		_ = c.sock.Conn.Close()
	})
	return func() { after() }
}

// fail marks the errors of a database that is not answering, so that
// callers answer 503 (apperr.Normalize); any other error passes unchanged
// (database/sql compares some of them by identity).
func (c *pgConn) fail(ctx context.Context, err error) error {
	switch {
	case err == nil || err == io.EOF || err == driver.ErrSkip || err == driver.ErrRemoveArgument:
		return err
	case c.closed.Load():
		// Keep driver.ErrBadConn out of the chain: retrying on another
		// connection cannot help once the deadline has passed.
		if cause := context.Cause(ctx); cause != nil {
			return fmt.Errorf("%w: postgres connection closed when its context ended: %w (%v)", apperr.ErrUnavailable, cause, err)
		}
		return fmt.Errorf("%w: postgres connection closed when its transaction's context ended (%v)", apperr.ErrUnavailable, err)
	case unavailable(err):
		return fmt.Errorf("%w: postgres: %w", apperr.ErrUnavailable, err)
	}
	return err
}

func (c *pgConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *pgConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	stop := c.watch(ctx)
	defer stop()
	st, err := c.inner.PrepareContext(ctx, query)
	if err != nil {
		return nil, c.fail(ctx, err)
	}
	return &pgStmt{inner: st, c: c}, nil
}

func (c *pgConn) Close() error { return c.inner.Close() }

func (c *pgConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *pgConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	stop := c.watch(ctx)
	tx, err := c.inner.BeginTx(ctx, opts)
	if err != nil {
		stop()
		return nil, c.fail(ctx, err)
	}
	return &pgTx{inner: tx, c: c, ctx: ctx, stop: stop}, nil
}

func (c *pgConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	stop := c.watch(ctx)
	defer stop()
	res, err := c.inner.ExecContext(ctx, query, args)
	return res, c.fail(ctx, err)
}

func (c *pgConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	stop := c.watch(ctx)
	rows, err := c.inner.QueryContext(ctx, query, args)
	if err != nil {
		stop()
		return nil, c.fail(ctx, err)
	}
	return &pgRows{inner: rows, c: c, ctx: ctx, stop: stop}, nil
}

func (c *pgConn) Ping(ctx context.Context) error {
	stop := c.watch(ctx)
	defer stop()
	return c.fail(ctx, c.inner.Ping(ctx))
}

func (c *pgConn) ResetSession(ctx context.Context) error {
	if c.closed.Load() {
		return driver.ErrBadConn
	}
	return c.inner.ResetSession(ctx)
}

func (c *pgConn) IsValid() bool { return !c.closed.Load() && c.inner.IsValid() }

func (c *pgConn) CheckNamedValue(nv *driver.NamedValue) error { return c.inner.CheckNamedValue(nv) }

// pgTx keeps watching the context of BeginTx until the transaction ends.
type pgTx struct {
	inner driver.Tx
	c     *pgConn
	ctx   context.Context
	stop  func()
}

func (t *pgTx) Commit() error {
	defer t.stop()
	return t.c.fail(t.ctx, t.inner.Commit())
}

func (t *pgTx) Rollback() error {
	defer t.stop()
	return t.c.fail(t.ctx, t.inner.Rollback())
}

// pgStmt watches the context of each execution of a prepared statement.
type pgStmt struct {
	inner driver.Stmt
	c     *pgConn
}

func (s *pgStmt) Close() error  { return s.inner.Close() }
func (s *pgStmt) NumInput() int { return s.inner.NumInput() }

// Exec and Query complete driver.Stmt; database/sql calls the context forms.
func (s *pgStmt) Exec(args []driver.Value) (driver.Result, error) { return s.inner.Exec(args) }

func (s *pgStmt) Query(args []driver.Value) (driver.Rows, error) { return s.inner.Query(args) }

func (s *pgStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	stop := s.c.watch(ctx)
	defer stop()
	var res driver.Result
	var err error
	if ec, ok := s.inner.(driver.StmtExecContext); ok {
		res, err = ec.ExecContext(ctx, args)
	} else if vals, verr := plainValues(args); verr != nil {
		return nil, verr
	} else {
		res, err = s.inner.Exec(vals)
	}
	return res, s.c.fail(ctx, err)
}

func (s *pgStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	stop := s.c.watch(ctx)
	var rows driver.Rows
	var err error
	if qc, ok := s.inner.(driver.StmtQueryContext); ok {
		rows, err = qc.QueryContext(ctx, args)
	} else if vals, verr := plainValues(args); verr != nil {
		err = verr
	} else {
		rows, err = s.inner.Query(vals)
	}
	if err != nil {
		stop()
		return nil, s.c.fail(ctx, err)
	}
	return &pgRows{inner: rows, c: s.c, ctx: ctx, stop: stop}, nil
}

// plainValues is database/sql's fallback for statements without context
// methods: positional values only.
func plainValues(args []driver.NamedValue) ([]driver.Value, error) {
	vals := make([]driver.Value, len(args))
	for i, a := range args {
		if a.Name != "" {
			return nil, errors.New("postgres: driver does not support the use of Named Parameters")
		}
		vals[i] = a.Value
	}
	return vals, nil
}

// pgRows keeps watching the query's context until the rows are closed. It
// forwards the optional column-type interfaces of lib/pq's rows, answering
// what database/sql assumes when an implementation lacks one.
type pgRows struct {
	inner driver.Rows
	c     *pgConn
	ctx   context.Context
	stop  func()
}

func (r *pgRows) Columns() []string { return r.inner.Columns() }

func (r *pgRows) Close() error {
	defer r.stop()
	return r.c.fail(r.ctx, r.inner.Close())
}

func (r *pgRows) Next(dest []driver.Value) error { return r.c.fail(r.ctx, r.inner.Next(dest)) }

func (r *pgRows) HasNextResultSet() bool {
	n, ok := r.inner.(driver.RowsNextResultSet)
	return ok && n.HasNextResultSet()
}

func (r *pgRows) NextResultSet() error {
	if n, ok := r.inner.(driver.RowsNextResultSet); ok {
		return r.c.fail(r.ctx, n.NextResultSet())
	}
	return io.EOF
}

func (r *pgRows) ColumnTypeScanType(i int) reflect.Type {
	if t, ok := r.inner.(driver.RowsColumnTypeScanType); ok {
		return t.ColumnTypeScanType(i)
	}
	return reflect.TypeFor[any]()
}

func (r *pgRows) ColumnTypeDatabaseTypeName(i int) string {
	if t, ok := r.inner.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return t.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}

func (r *pgRows) ColumnTypeLength(i int) (int64, bool) {
	if t, ok := r.inner.(driver.RowsColumnTypeLength); ok {
		return t.ColumnTypeLength(i)
	}
	return 0, false
}

func (r *pgRows) ColumnTypeNullable(i int) (nullable, ok bool) {
	if t, ok := r.inner.(driver.RowsColumnTypeNullable); ok {
		return t.ColumnTypeNullable(i)
	}
	return false, false
}

func (r *pgRows) ColumnTypePrecisionScale(i int) (precision, scale int64, ok bool) {
	if t, ok := r.inner.(driver.RowsColumnTypePrecisionScale); ok {
		return t.ColumnTypePrecisionScale(i)
	}
	return 0, 0, false
}
