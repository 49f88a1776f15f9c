package database

import (
	"context"
	"database/sql"
	"os"
	"reflect"
	"testing"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
)

// TestColumnTypesReadOnce: the rows of a PostgreSQL query, on the pool and
// in a transaction, give the same column types for every row (read once),
// and ent's scan of a column that is no field reads each row's value with
// them; each result set of a text of several statements has its own.
func TestColumnTypesReadOnce(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return
	}
	db := openPrepared(t, 8)
	drv := db.Driver.(*preparedDriver)
	ctx := context.Background()
	dtx, err := drv.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = dtx.Rollback() }()
	for name, q := range map[string]dialect.ExecQuerier{"pool": drv, "transaction": dtx} {
		var rows entsql.Rows
		if err := q.Query(ctx, `SELECT g, 'n' || g FROM generate_series(1, $1::int) g`, []any{3}, &rows); err != nil {
			t.Fatal(err)
		}
		var got []any
		var first []*sql.ColumnType
		for rows.Next() {
			types, err := rows.ColumnTypes()
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = types
			} else if &types[0] != &first[0] {
				t.Fatalf("%s: the column types of row %d were read again", name, len(got)/2+1)
			}
			n, s := entsql.ScanTypeOf(&rows, 0), entsql.ScanTypeOf(&rows, 1)
			if err := rows.Scan(n, s); err != nil {
				t.Fatal(err)
			}
			var v entsql.SelectValues
			v.Set("n", n)
			v.Set("s", s)
			gn, _ := v.Get("n")
			gs, _ := v.Get("s")
			got = append(got, gn, gs)
		}
		_ = rows.Close()
		if want := []any{int64(1), "n1", int64(2), "n2", int64(3), "n3"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %v, want %v", name, got, want)
		}
	}
	// A text of two statements gives two result sets, each with its types.
	var rows entsql.Rows
	if err := drv.Query(ctx, `SELECT 1; SELECT 'one'`, []any{}, &rows); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rows.Close() }()
	var names []string
	for set := true; set; set = rows.NextResultSet() {
		for rows.Next() {
			types, err := rows.ColumnTypes()
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, types[0].DatabaseTypeName())
		}
	}
	if want := []string{"INT4", "TEXT"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("result sets' column types %v, want %v", names, want)
	}
}
