package database

import (
	"container/list"
	"context"
	"database/sql"
	"errors"
	"strings"
	"sync"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
)

// DefaultPrepared is how many statement texts the PostgreSQL pool keeps
// prepared unless configured otherwise (the least recently used is closed
// first).
const DefaultPrepared = 256

// preparedDriver is the ent driver of the PostgreSQL pool: it runs every
// statement that has arguments as a prepared statement, kept by its text,
// so that each connection parses it once, PostgreSQL may reuse its plan,
// and a run costs one round trip (lib/pq sends an unprepared statement's
// Parse and its Bind in two). A statement without arguments (which may
// hold several) runs as a simple query, as before. Outside a transaction, a
// statement run under WithGenericPlans runs on the pages pool instead, whose
// connections let PostgreSQL keep a generic plan; every other one is planned
// for its arguments (pgconn.Limits.CustomPlans).
type preparedDriver struct {
	entsql.Conn
	db, pages        *sql.DB
	stmts, pageStmts *stmtCache
}

func newPreparedDriver(db, pages *sql.DB, max int) *preparedDriver {
	c, pc := newStmtCache(db, max), newStmtCache(pages, max)
	return &preparedDriver{Conn: entsql.Conn{ExecQuerier: preparing{db, c, pc, nil}}, db: db, pages: pages, stmts: c, pageStmts: pc}
}

func (d *preparedDriver) Dialect() string { return dialect.Postgres }

func (d *preparedDriver) Close() error {
	d.stmts.close()
	d.pageStmts.close()
	return errors.Join(d.pages.Close(), d.db.Close())
}

type genericPlansKey struct{}

// WithGenericPlans marks the statements run under ctx outside a transaction
// as ones whose best plan is the same for every argument: a list's first
// page asked for with nothing but its size (paging.KeepPlans, which both
// adapters call), with the loads of its edges. They run on the pages pool,
// whose connections plan a statement once for any arguments and keep the
// plan (pgconn.GenericPlans): planning takes longer than reading such a
// page (0.12 ms planning, 0.04 ms reading, BenchmarkGraphQLConnection), or
// a good part of it (0.3 ms planning, 5.7 ms reading and counting page 1
// of 50,000 activities, at BenchmarkListRequest's size).
func WithGenericPlans(ctx context.Context) context.Context {
	return context.WithValue(ctx, genericPlansKey{}, true)
}

// GenericPlans reports whether ctx is marked by WithGenericPlans.
func GenericPlans(ctx context.Context) bool {
	on, _ := ctx.Value(genericPlansKey{}).(bool)
	return on
}

func (d *preparedDriver) Tx(ctx context.Context) (dialect.Tx, error) { return d.BeginTx(ctx, nil) }

// BeginTx starts a transaction whose statements run prepared as well (on
// its connection, which prepares each text once).
func (d *preparedDriver) BeginTx(ctx context.Context, opts *sql.TxOptions) (dialect.Tx, error) {
	tx, err := d.db.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return preparedTx{&entsql.Tx{Conn: entsql.Conn{ExecQuerier: preparing{tx, d.stmts, nil, tx}}, Tx: tx}}, nil
}

// preparing runs statements through the cache: on the pool (tx nil; the
// pages pool's cache, pages, under WithGenericPlans), or in tx.
type preparing struct {
	direct entsql.ExecQuerier
	stmts  *stmtCache
	pages  *stmtCache // nil in a transaction
	tx     *sql.Tx
}

func (p preparing) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if len(args) == 0 {
		return p.direct.ExecContext(ctx, query)
	}
	st, args, done, err := p.stmt(ctx, query, args)
	if err != nil {
		return nil, err
	}
	defer done()
	return st.ExecContext(ctx, args...)
}

func (p preparing) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if len(args) == 0 {
		return p.direct.QueryContext(ctx, query)
	}
	st, args, done, err := p.stmt(ctx, query, args)
	if err != nil {
		return nil, err
	}
	defer done()
	return st.QueryContext(ctx, args...)
}

// stmt is the prepared statement of query, bound to the transaction if any,
// and the arguments to run it with; done releases it (after the call: a
// result set keeps what it needs). On the pages pool, equal uuid arguments
// are bound once (bindOnce), unless PostgreSQL refuses that text.
func (p preparing) stmt(ctx context.Context, query string, args []any) (*sql.Stmt, []any, func(), error) {
	c := p.stmts
	if p.pages != nil && GenericPlans(ctx) {
		c = p.pages
		if once, kept, ok := bindOnce(query, args); ok && !c.unbindable(query) {
			e, err := c.get(ctx, once)
			if err == nil {
				return e.stmt, kept, func() { c.release(e) }, nil
			}
			if !untyped(err) {
				return nil, nil, nil, err
			}
			c.refuse(query)
		}
	}
	e, err := c.get(ctx, query)
	if err != nil {
		return nil, nil, nil, err
	}
	done := func() { c.release(e) }
	if p.tx == nil {
		return e.stmt, args, done, nil
	}
	st := p.tx.StmtContext(ctx, e.stmt)
	return st, args, func() { _ = st.Close(); done() }, nil
}

// untyped reports whether PostgreSQL refused a statement's text (SQLSTATE
// class 42: syntax error or access rule violation, which holds the
// inconsistent or undefined types of a placeholder bound to two columns).
func untyped(err error) bool {
	var pg interface{ SQLState() string }
	return errors.As(err, &pg) && strings.HasPrefix(pg.SQLState(), "42")
}

// stmtCache keeps prepared statements by text, the most recently used
// first. An evicted statement is closed once no call uses it.
type stmtCache struct {
	db      *sql.DB
	max     int
	mu      sync.Mutex
	lru     *list.List // of *prepared
	byQuery map[string]*list.Element
	refused map[string]bool // texts whose bindOnce rewrite failed to prepare (at most max)
}

func newStmtCache(db *sql.DB, max int) *stmtCache {
	return &stmtCache{db: db, max: max, lru: list.New(), byQuery: map[string]*list.Element{}, refused: map[string]bool{}}
}

// unbindable reports whether query's bindOnce rewrite failed to prepare.
func (c *stmtCache) unbindable(query string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.refused[query]
}

// refuse remembers that query's bindOnce rewrite failed to prepare (and
// forgets every other when it remembers max).
func (c *stmtCache) refuse(query string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.refused) >= c.max {
		clear(c.refused)
	}
	c.refused[query] = true
}

type prepared struct {
	query   string
	stmt    *sql.Stmt
	users   int
	evicted bool
}

func (c *stmtCache) get(ctx context.Context, query string) (*prepared, error) {
	c.mu.Lock()
	if el, ok := c.byQuery[query]; ok {
		c.lru.MoveToFront(el)
		e := el.Value.(*prepared)
		e.users++
		c.mu.Unlock()
		return e, nil
	}
	c.mu.Unlock()
	st, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byQuery[query]; ok { // prepared meanwhile by another call
		_ = st.Close()
		c.lru.MoveToFront(el)
		e := el.Value.(*prepared)
		e.users++
		return e, nil
	}
	e := &prepared{query: query, stmt: st, users: 1}
	c.byQuery[query] = c.lru.PushFront(e)
	for c.lru.Len() > c.max {
		old := c.lru.Remove(c.lru.Back()).(*prepared)
		delete(c.byQuery, old.query)
		old.evicted = true
		if old.users == 0 {
			_ = old.stmt.Close()
		}
	}
	return e, nil
}

func (c *stmtCache) release(e *prepared) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.users--
	if e.evicted && e.users == 0 {
		_ = e.stmt.Close()
	}
}

// close closes every kept statement.
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for el := c.lru.Front(); el != nil; el = el.Next() {
		_ = el.Value.(*prepared).stmt.Close()
	}
	c.lru.Init()
	clear(c.byQuery)
}
