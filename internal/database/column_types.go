package database

import (
	"context"
	"database/sql"

	entsql "entgo.io/ent/dialect/sql"
)

// columnTypes is a PostgreSQL result set that reads its column types once.
// ent scans a column that is none of the entity's fields (a page's total, a
// joined name: paging.Fetch, the activities' commerce names) with the type
// the driver reports for it, and asks for the types of every column again
// for each row and each such column (sql.ScanTypeOf), a slice of new
// ColumnTypes each time: 1,700 of the 3,800 allocations of a page of 25
// activities. PostgreSQL's types are the same for every row of a result
// set (SQLite's may differ, so its rows are left alone).
type columnTypes struct {
	entsql.ColumnScanner
	types []*sql.ColumnType
	err   error
	read  bool
}

func (r *columnTypes) ColumnTypes() ([]*sql.ColumnType, error) {
	if !r.read {
		r.types, r.err = r.ColumnScanner.ColumnTypes()
		r.read = true
	}
	return r.types, r.err
}

func (r *columnTypes) NextResultSet() bool {
	r.read = false
	return r.ColumnScanner.NextResultSet()
}

// keepColumnTypes makes the rows a query scanned into v (an *entsql.Rows)
// read their column types once; err is the query's, returned as is.
func keepColumnTypes(v any, err error) error {
	if rows, ok := v.(*entsql.Rows); ok && err == nil {
		rows.ColumnScanner = &columnTypes{ColumnScanner: rows.ColumnScanner}
	}
	return err
}

// Query runs query as entsql.Conn does (see columnTypes).
func (d *preparedDriver) Query(ctx context.Context, query string, args, v any) error {
	return keepColumnTypes(v, d.Conn.Query(ctx, query, args, v))
}

// preparedTx is a transaction of the PostgreSQL pool (see columnTypes).
type preparedTx struct{ *entsql.Tx }

func (t preparedTx) Query(ctx context.Context, query string, args, v any) error {
	return keepColumnTypes(v, t.Tx.Query(ctx, query, args, v))
}
