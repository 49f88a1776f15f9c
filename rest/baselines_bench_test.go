package rest_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The baselines a request is measured against: the statements it runs,
// served by a minimal Go handler or by a handler that writes their rows as
// read, and run one at a time.

// minimal serves the statements seen run by a minimal Go handler over db
// (one of the service's pools), their rows written as JSON: no
// authentication, no middleware. The statements are prepared once when
// prepared is true, else unprepared, as database/sql runs them.
func (c *costBench) minimal(db *sql.DB, seen []statement, prepared bool) *httptest.Server {
	stmts := make([]*sql.Stmt, len(seen)) // nil: unprepared
	if prepared {
		stmts = c.prepare(db, seen)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var out [][][]any
		for i, st := range seen {
			rows, err := runRows(req.Context(), db, stmts[i], st)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			out = append(out, rows)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	}))
	c.b.Cleanup(srv.Close)
	return srv
}

// floor serves the statements seen, prepared once over db, by a handler
// that writes each row's columns as the driver read them (sql.RawBytes: no
// Go values, no JSON), about the least a Go HTTP server over database/sql
// and lib/pq spends on them. A statement that returns another number of
// rows than it did when prepared answers 500.
func (c *costBench) floor(db *sql.DB, seen []statement) *httptest.Server {
	stmts := c.prepare(db, seen)
	want := make([]int, len(seen))
	for i, st := range seen {
		rows, err := runRows(context.Background(), nil, stmts[i], st)
		if err != nil || len(rows) == 0 {
			c.b.Fatalf("%s: %d rows (%v)", st.query, len(rows), err)
		}
		want[i] = len(rows)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		buf := make([]byte, 0, 16<<10)
		for i, st := range seen {
			n, err := rawRows(req.Context(), stmts[i], st, &buf)
			if err == nil && n != want[i] {
				err = fmt.Errorf("%d rows, want %d", n, want[i])
			}
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(buf)))
		_, _ = w.Write(buf)
	}))
	c.b.Cleanup(srv.Close)
	return srv
}

// prepare prepares the statements seen on db, closed when the benchmark ends.
func (c *costBench) prepare(db *sql.DB, seen []statement) []*sql.Stmt {
	stmts := make([]*sql.Stmt, len(seen))
	for i, st := range seen {
		stmt, err := db.Prepare(st.query)
		if err != nil {
			c.b.Fatal(err)
		}
		c.b.Cleanup(func() { _ = stmt.Close() })
		stmts[i] = stmt
	}
	return stmts
}

// rawRows runs st, prepared as stmt, appends its columns as read to *buf
// (a comma after each) and returns how many rows it read.
func rawRows(ctx context.Context, stmt *sql.Stmt, st statement, buf *[]byte) (int, error) {
	rows, err := stmt.QueryContext(ctx, st.args...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	vals := make([]sql.RawBytes, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for ; rows.Next(); n++ {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		for _, v := range vals {
			*buf = append(append(*buf, v...), ',')
		}
	}
	return n, rows.Err()
}

// runRows runs st on db, or stmt (st prepared) when not nil, and returns
// its rows.
func runRows(ctx context.Context, db *sql.DB, stmt *sql.Stmt, st statement) ([][]any, error) {
	var rows *sql.Rows
	var err error
	if stmt != nil {
		rows, err = stmt.QueryContext(ctx, st.args...)
	} else {
		rows, err = db.QueryContext(ctx, st.query, st.args...)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		out = append(out, vals)
	}
	return out, rows.Err()
}

// serial runs the statements seen n times, one at a time, on one
// connection of db, bound as recorded and with their arguments written in
// (each prepared once, alternating, each first in turn), and returns the
// mean time of a run of each; when bound takes longer than boundSlack
// allows, also their plans as that connection runs them.
func (c *costBench) serial(db *sql.DB, seen []statement, n int) (bound, literal time.Duration, plans string) {
	c.b.Helper()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		c.b.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	var stmts []*sql.Stmt
	defer func() {
		for _, stmt := range stmts {
			_ = stmt.Close()
		}
	}()
	prepare := func(query string) *sql.Stmt {
		stmt, err := conn.PrepareContext(ctx, query)
		if err != nil {
			c.b.Fatal(err)
		}
		stmts = append(stmts, stmt)
		return stmt
	}
	run := func(stmt *sql.Stmt, st statement) time.Duration {
		start := time.Now()
		if rows, err := runRows(ctx, nil, stmt, st); err != nil || len(rows) == 0 {
			c.b.Fatalf("%s: %d rows (%v)", st.query, len(rows), err)
		}
		return time.Since(start)
	}
	for _, st := range seen {
		lit := written(c.b, st)
		b, l := prepare(st.query), prepare(lit.query)
		for i := range n + 1 { // the first run of each plans it
			var x, y time.Duration
			if i%2 == 0 { // each first in turn
				x, y = run(b, st), run(l, lit)
			} else {
				y, x = run(l, lit), run(b, st)
			}
			if i > 0 {
				bound, literal = bound+x/time.Duration(n), literal+y/time.Duration(n)
			}
		}
	}
	if float64(bound) > boundSlack*float64(literal) {
		for _, st := range seen {
			plans += "bound:\n" + c.executed(ctx, conn, st) + "\nwritten in:\n" + c.executed(ctx, conn, written(c.b, st)) + "\n"
		}
	}
	return bound, literal, plans
}

// boundSlack is how much longer the statements may run bound than with
// their arguments written in.
const boundSlack = 1.05

// written is st with its arguments written in.
func written(tb testing.TB, st statement) statement {
	return statement{query: inline(tb, st.query, st.args)}
}

// executed is the plan of st, prepared on conn, run there with its
// arguments (EXPLAIN ANALYZE EXECUTE of the statement conn keeps).
func (c *costBench) executed(ctx context.Context, conn *sql.Conn, st statement) string {
	c.b.Helper()
	var name string
	if err := conn.QueryRowContext(ctx, `SELECT name FROM pg_prepared_statements WHERE statement = $1`, st.query).Scan(&name); err != nil {
		c.b.Fatalf("%v: %s", err, st.query)
	}
	q := `(ANALYZE, BUFFERS) EXECUTE "` + name + `"`
	if len(st.args) > 0 {
		q += "(" + strings.Join(literals(c.b, st.query, st.args), ", ") + ")"
	}
	return strings.Join(explainLines(c.b, onConn{ctx, conn}, statement{query: q}), "\n")
}

// onConn runs queries on one connection.
type onConn struct {
	ctx  context.Context
	conn *sql.Conn
}

func (o onConn) Query(query string, args ...any) (*sql.Rows, error) {
	return o.conn.QueryContext(o.ctx, query, args...)
}
