package rest_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"time"
)

// The baselines a request is measured against: the statements it runs,
// served by a minimal Go handler, and run one at a time.

// minimal serves the statements seen run by a minimal Go handler over db
// (one of the service's pools), their rows written as JSON: no
// authentication, no middleware. The statements are prepared once when
// prepared is true, else unprepared, as database/sql runs them.
func (c *costBench) minimal(db *sql.DB, seen []statement, prepared bool) *httptest.Server {
	stmts := make([]*sql.Stmt, len(seen)) // nil: unprepared
	for i, st := range seen {
		if prepared {
			stmt, err := db.Prepare(st.query)
			if err != nil {
				c.b.Fatal(err)
			}
			c.b.Cleanup(func() { _ = stmt.Close() })
			stmts[i] = stmt
		}
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
// (each prepared once, alternating), and returns the mean time of a run of
// each.
func (c *costBench) serial(db *sql.DB, seen []statement, n int) (bound, literal time.Duration) {
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
		lit := statement{query: inline(c.b, st.query, st.args)}
		b, l := prepare(st.query), prepare(lit.query)
		for i := range n + 1 { // the first run of each plans it
			x, y := run(b, st), run(l, lit)
			if i > 0 {
				bound, literal = bound+x/time.Duration(n), literal+y/time.Duration(n)
			}
		}
	}
	return bound, literal
}
