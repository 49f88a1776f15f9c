package demo

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	qb "github.com/reten-io/reten/internal/querybuilder"
)

// TimestampFormat is the sqlite text form of TIMESTAMP values (UTC, fixed
// width, so text order is time order), as querybuilder.Catalog prescribes.
const TimestampFormat = "2006-01-02T15:04:05.000Z"

// Bind-parameter ceilings of one statement: SQLITE_MAX_VARIABLE_NUMBER and
// the PostgreSQL protocol's 16-bit parameter count.
const (
	sqliteMaxParams   = 32766
	postgresMaxParams = 65535
)

// writer issues the DDL and the inserts of one dialect inside one transaction.
type writer struct {
	dialect, schema string
	tx              *sql.Tx
}

func newWriter(dialect, schema string) (*writer, error) {
	switch dialect {
	case DialectPostgres:
		if schema == "" || len(schema) > 63 || strings.ContainsRune(schema, 0) {
			return nil, fmt.Errorf("demo: postgres schema must be 1 to 63 bytes without NUL, got %q", schema)
		}
	case DialectSQLite, "sqlite3":
		if schema != "" {
			return nil, fmt.Errorf("demo: sqlite datasets live in their own file and take no schema, got %q", schema)
		}
		dialect = DialectSQLite
	default:
		return nil, fmt.Errorf("demo: unknown dialect %q (want %q or %q)", dialect, DialectPostgres, DialectSQLite)
	}
	return &writer{dialect: dialect, schema: schema}, nil
}

// quote quotes an identifier for both dialects (standard double quotes).
func quote(id string) string { return `"` + strings.ReplaceAll(id, `"`, `""`) + `"` }

// table is the physical (quoted, schema-qualified on postgres) table name.
func (w *writer) table(name string) string {
	if w.dialect == DialectPostgres {
		return quote(w.schema) + "." + quote(name)
	}
	return quote(name)
}

func (w *writer) exec(ctx context.Context, query string, args ...any) error {
	if _, err := w.tx.ExecContext(ctx, query, args...); err != nil {
		return fmt.Errorf("demo: %s: %w", abbrev(query), err)
	}
	return nil
}

// abbrev shortens a statement for error messages (inserts are huge).
func abbrev(q string) string {
	if len(q) > 80 {
		q = q[:80] + "..."
	}
	return q
}

// prepare serialises concurrent creations, creates the schema, and checks
// for (or drops, when replace) existing demo tables.
func (w *writer) prepare(ctx context.Context, replace bool) error {
	names := []string{TableCommerces, TableEvents, TableProductProperties, TableTransactions}
	var query string
	args := []any{}
	if w.dialect == DialectPostgres {
		// Two creations of the same schema take turns instead of racing
		// between the existence check and CREATE TABLE.
		if err := w.exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('reten.demo:' || $1))`, w.schema); err != nil {
			return err
		}
		if err := w.exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+quote(w.schema)); err != nil {
			return err
		}
		query = `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name IN ($2, $3, $4, $5) ORDER BY table_name`
		args = append(args, w.schema)
	} else {
		query = `SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name IN (?, ?, ?, ?) ORDER BY name`
	}
	for _, n := range names {
		args = append(args, n)
	}
	rows, err := w.tx.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("demo: list existing tables: %w", err)
	}
	var existing []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			_ = rows.Close()
			return fmt.Errorf("demo: list existing tables: %w", err)
		}
		existing = append(existing, n)
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("demo: list existing tables: %w", err)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("demo: list existing tables: %w", err)
	}
	if len(existing) == 0 {
		return nil
	}
	if !replace {
		return fmt.Errorf("%w: %s", ErrExists, strings.Join(existing, ", "))
	}
	for _, n := range existing {
		if err := w.exec(ctx, "DROP TABLE "+w.table(n)); err != nil {
			return err
		}
	}
	return nil
}

// physicalType maps a catalog type to the column type of the dialect
// (querybuilder.Catalog's physical conventions).
func (w *writer) physicalType(t qb.FieldType) string {
	if w.dialect == DialectPostgres {
		return map[qb.FieldType]string{
			qb.TypeString: "text", qb.TypeTimestamp: "timestamptz", qb.TypeBoolean: "boolean",
			qb.TypeInt64: "bigint", qb.TypeFloat64: "double precision", qb.TypeNumeric: "numeric",
			qb.TypeBigNumeric: "numeric", qb.TypeRecord: "jsonb",
		}[t]
	}
	return map[qb.FieldType]string{
		qb.TypeString: "TEXT", qb.TypeTimestamp: "TEXT", qb.TypeBoolean: "INTEGER",
		qb.TypeInt64: "INTEGER", qb.TypeFloat64: "REAL", qb.TypeNumeric: "REAL",
		qb.TypeBigNumeric: "REAL", qb.TypeRecord: "TEXT",
	}[t]
}

// createTable creates t. The first column is the primary key. On sqlite the
// table is STRICT and CHECK constraints hold the text conventions
// (timestamp shape, 0/1 booleans, JSON arrays) that postgres types enforce.
func (w *writer) createTable(ctx context.Context, t *qb.Table) error {
	defs := make([]string, 0, len(t.Columns))
	for i, c := range t.Columns {
		col := quote(c.Name)
		def := col + " " + w.physicalType(c.Type)
		if !nullable[t.Name+"."+c.Name] {
			def += " NOT NULL"
		}
		if i == 0 {
			def += " PRIMARY KEY"
		}
		if w.dialect == DialectSQLite {
			switch c.Type {
			case qb.TypeTimestamp:
				def += " CHECK (" + col + " GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9].[0-9][0-9][0-9]Z')"
			case qb.TypeBoolean:
				def += " CHECK (" + col + " IN (0, 1))"
			case qb.TypeRecord:
				def += " CHECK (json_valid(" + col + ") AND json_type(" + col + ") = 'array')"
			}
		}
		defs = append(defs, def)
	}
	ddl := "CREATE TABLE " + w.table(t.Name) + " (\n  " + strings.Join(defs, ",\n  ") + "\n)"
	if w.dialect == DialectSQLite {
		ddl += " STRICT"
	}
	if err := w.exec(ctx, ddl); err != nil {
		return err
	}
	if w.dialect != DialectPostgres {
		return nil
	}
	// The catalog descriptions travel with the tables for whoever browses them.
	if err := w.exec(ctx, "COMMENT ON TABLE "+w.table(t.Name)+" IS "+literal(t.Description)); err != nil {
		return err
	}
	for _, c := range t.Columns {
		if err := w.exec(ctx, "COMMENT ON COLUMN "+w.table(t.Name)+"."+quote(c.Name)+" IS "+literal(c.Description)); err != nil {
			return err
		}
	}
	return nil
}

// literal is a standard SQL string literal (COMMENT takes no parameters).
func literal(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func (w *writer) createIndexes(ctx context.Context, table string) error {
	for _, cols := range indexes[table] {
		quoted := make([]string, len(cols))
		for i, c := range cols {
			quoted[i] = quote(c)
		}
		name := quote(table + "_" + strings.Join(cols, "_") + "_idx")
		if err := w.exec(ctx, "CREATE INDEX "+name+" ON "+w.table(table)+" ("+strings.Join(quoted, ", ")+")"); err != nil {
			return err
		}
	}
	return nil
}

// insert loads rows with multi-row INSERTs, as many rows per statement as
// the dialect's parameter ceiling allows.
func (w *writer) insert(ctx context.Context, t *qb.Table, rows [][]any) error {
	ncol := len(t.Columns)
	limit := sqliteMaxParams
	if w.dialect == DialectPostgres {
		limit = postgresMaxParams
	}
	perBatch := limit / ncol
	cols := make([]string, ncol)
	for i, c := range t.Columns {
		cols[i] = quote(c.Name)
	}
	head := "INSERT INTO " + w.table(t.Name) + " (" + strings.Join(cols, ", ") + ") VALUES "
	args := make([]any, 0, perBatch*ncol)
	for start := 0; start < len(rows); start += perBatch {
		batch := rows[start:min(start+perBatch, len(rows))]
		var sb strings.Builder
		sb.Grow(len(head) + len(batch)*ncol*8)
		sb.WriteString(head)
		args = args[:0]
		for r, row := range batch {
			if r > 0 {
				sb.WriteByte(',')
			}
			sb.WriteByte('(')
			for c, v := range row {
				if c > 0 {
					sb.WriteByte(',')
				}
				args = append(args, w.bind(v))
				if w.dialect == DialectPostgres {
					sb.WriteString("$" + strconv.Itoa(len(args)))
				} else {
					sb.WriteByte('?')
				}
			}
			sb.WriteByte(')')
		}
		if err := w.exec(ctx, sb.String(), args...); err != nil {
			return fmt.Errorf("insert into %s: %w", t.Name, err)
		}
	}
	return nil
}

// bind converts a generated value to the dialect's physical form.
func (w *writer) bind(v any) any {
	pg := w.dialect == DialectPostgres
	switch v := v.(type) {
	case time.Time:
		return v.UTC().Format(TimestampFormat) // postgres parses it into timestamptz
	case bool:
		if pg {
			return v
		}
		if v {
			return int64(1)
		}
		return int64(0)
	case money:
		if pg {
			return v.String() // exact decimal text into numeric
		}
		return v.Float()
	case jsonArray:
		return string(v)
	default:
		return v
	}
}
