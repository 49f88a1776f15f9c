package querybuilder

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
)

// Preview limits.
const (
	// DefaultPreviewLimit is the number of sample rows when none is asked.
	DefaultPreviewLimit = 20
	// MaxPreviewLimit is the largest number of sample rows.
	MaxPreviewLimit = 100
	// PreviewTimeout bounds every preview statement.
	PreviewTimeout = 10 * time.Second
)

// ErrPreviewUnsupported: only postgres and sqlite datasets can be previewed
// (a bigquery dataset is compile-only).
var ErrPreviewUnsupported = errors.New("preview is only available on postgres and sqlite datasets")

// ErrDataset wraps every error the dataset's database answered while a
// preview ran (a missing table, a permission, a timeout): the dataset's
// problem, not the service's.
var ErrDataset = errors.New("dataset query failed")

// PreviewResult is a sample of what a compiled definition selects.
type PreviewResult struct {
	// Columns are the output column names, in select order.
	Columns []string `json:"columns"`
	// Rows hold JSON-friendly values: strings, numbers (exact decimals as
	// json.Number), booleans, timestamps as RFC 3339 UTC strings, or null.
	Rows [][]any `json:"rows"`
	// RowCount is the number of sample rows returned (at most the limit).
	RowCount int `json:"rowCount"`
	// ElapsedMs is the time the statements took.
	ElapsedMs int64 `json:"elapsedMs"`
	// SubjectCount is, for audiences, the number of distinct non-null
	// subjects the whole audience matches.
	SubjectCount *int64 `json:"subjectCount,omitempty"`
}

// Preview runs `WITH <query> SELECT * FROM CTE_VALID_EVENTS LIMIT n` (and,
// for audiences, the count of distinct subjects) on a postgres or sqlite
// dataset, read-only and within PreviewTimeout. limit is clamped to
// 1..MaxPreviewLimit (0 means DefaultPreviewLimit). The compiled query
// must be parameterized or literal for the database's dialect.
func Preview(ctx context.Context, db *sql.DB, c *Compiled, limit int) (*PreviewResult, error) {
	if limit <= 0 {
		limit = DefaultPreviewLimit
	}
	limit = min(limit, MaxPreviewLimit)
	res := &PreviewResult{Rows: [][]any{}}
	start := time.Now()
	err := readOnly(ctx, db, c.Dialect, func(q querier) error {
		rows, err := q.QueryContext(ctx, "WITH "+c.Query+"\nSELECT * FROM "+c.FinalCteName+" LIMIT "+strconv.Itoa(limit), c.Args...)
		if err != nil {
			return fmt.Errorf("preview query: %w", err)
		}
		defer rows.Close()
		if res.Columns, err = rows.Columns(); err != nil {
			return fmt.Errorf("preview columns: %w", err)
		}
		for rows.Next() {
			vals, err := ScanValues(rows, len(res.Columns))
			if err != nil {
				return fmt.Errorf("preview scan: %w", err)
			}
			for i := range vals {
				vals[i] = jsonValue(vals[i], columnType(c, i))
			}
			res.Rows = append(res.Rows, vals)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("preview rows: %w", err)
		}
		if c.SubjectColumn == nil {
			return nil
		}
		var n int64
		subject := dialectOf(c).quoteIdent(*c.SubjectColumn)
		if err := q.QueryRowContext(ctx, "WITH "+c.Query+"\nSELECT COUNT(DISTINCT "+subject+") FROM "+c.FinalCteName, c.Args...).Scan(&n); err != nil {
			return fmt.Errorf("preview subject count: %w", err)
		}
		res.SubjectCount = &n
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.RowCount = len(res.Rows)
	res.ElapsedMs = time.Since(start).Milliseconds()
	return res, nil
}

// ScanValues scans the current row of rows, which has n columns, into one
// value per column (as the driver returns it).
func ScanValues(rows *sql.Rows, n int) ([]any, error) {
	vals := make([]any, n)
	ptrs := make([]any, n)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	return vals, rows.Scan(ptrs...)
}

// Membership is how an audience's subjects change when its definition is
// replaced.
type Membership struct {
	// Before and After count the distinct subjects of each version.
	Before int64 `json:"before"`
	After  int64 `json:"after"`
	// Entering are subjects of After that are not in Before; Leaving the reverse.
	Entering int64 `json:"entering"`
	Leaving  int64 `json:"leaving"`
}

// MembershipChange compiles both versions of an audience for the database's
// dialect d and counts, in one read-only statement, the subjects that enter
// and leave.
func MembershipChange(ctx context.Context, db *sql.DB, d Dialect, opts Options, cat *Catalog, before, after AudienceTree) (*Membership, error) {
	if d == BigQuery {
		return nil, ErrPreviewUnsupported
	}
	opts.Format = Parameterized
	b, err := compileAudience(before, cat, d, opts, "CTE_BEFORE", 0)
	if err != nil {
		return nil, err
	}
	a, err := compileAudience(after, cat, d, opts, "CTE_AFTER", len(b.Args))
	if err != nil {
		return nil, err
	}
	members := func(cte string, c *Compiled) string {
		col := d.quoteIdent(*c.SubjectColumn)
		return "SELECT DISTINCT " + col + " AS s FROM " + cte + " WHERE " + col + " IS NOT NULL"
	}
	query := "WITH " + b.Query + ",\n" + a.Query + ",\nMEMBERS_BEFORE AS (" + members("CTE_BEFORE", b) + "),\nMEMBERS_AFTER AS (" + members("CTE_AFTER", a) + ")\n" +
		"SELECT (SELECT COUNT(*) FROM MEMBERS_BEFORE), (SELECT COUNT(*) FROM MEMBERS_AFTER),\n" +
		"(SELECT COUNT(*) FROM MEMBERS_AFTER WHERE NOT EXISTS (SELECT 1 FROM MEMBERS_BEFORE WHERE MEMBERS_BEFORE.s = MEMBERS_AFTER.s)),\n" +
		"(SELECT COUNT(*) FROM MEMBERS_BEFORE WHERE NOT EXISTS (SELECT 1 FROM MEMBERS_AFTER WHERE MEMBERS_AFTER.s = MEMBERS_BEFORE.s))"
	m := &Membership{}
	err = readOnly(ctx, db, d.Name(), func(q querier) error {
		if err := q.QueryRowContext(ctx, query, append(b.Args, a.Args...)...).Scan(&m.Before, &m.After, &m.Entering, &m.Leaving); err != nil {
			return fmt.Errorf("membership change: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// readOnly runs fn in a read-only transaction bounded by PreviewTimeout:
// on postgres a READ ONLY transaction with a local statement_timeout; on
// sqlite a connection switched to query_only for the duration (the pragma
// is per connection, so it is reset before the connection returns to the
// pool, and the connection is discarded if the reset fails).
func readOnly(ctx context.Context, db *sql.DB, dialect string, fn func(querier) error) error {
	err := inReadOnly(ctx, db, dialect, fn)
	if err == nil || errors.Is(err, ErrPreviewUnsupported) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrDataset, err)
}

func inReadOnly(ctx context.Context, db *sql.DB, dialect string, fn func(querier) error) error {
	ctx, cancel := context.WithTimeout(ctx, PreviewTimeout)
	defer cancel()
	switch dialect {
	case "postgres":
		tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return fmt.Errorf("preview transaction: %w", err)
		}
		defer func() { _ = tx.Rollback() }()
		if _, err := tx.ExecContext(ctx, "SET LOCAL statement_timeout = "+strconv.FormatInt(PreviewTimeout.Milliseconds(), 10)); err != nil {
			return fmt.Errorf("preview timeout: %w", err)
		}
		return fn(tx)
	case "sqlite":
		conn, err := db.Conn(ctx)
		if err != nil {
			return fmt.Errorf("preview connection: %w", err)
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, "PRAGMA query_only = 1"); err != nil {
			return fmt.Errorf("preview query_only: %w", err)
		}
		defer func() {
			if _, err := conn.ExecContext(context.Background(), "PRAGMA query_only = 0"); err != nil {
				_ = conn.Raw(func(any) error { return driver.ErrBadConn })
			}
		}()
		tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return fmt.Errorf("preview transaction: %w", err)
		}
		defer func() { _ = tx.Rollback() }()
		return fn(tx)
	}
	return ErrPreviewUnsupported
}

func dialectOf(c *Compiled) Dialect {
	d, ok := DialectFor(c.Dialect)
	if !ok {
		return SQLite
	}
	return d
}

func columnType(c *Compiled, i int) FieldType {
	if i < len(c.Columns) {
		return c.Columns[i].Type
	}
	return ""
}

// jsonValue converts a scanned value to a JSON-friendly one, using the
// column's catalog type where drivers lose it (sqlite booleans are 0/1,
// postgres numerics arrive as text).
func jsonValue(v any, t FieldType) any {
	switch x := v.(type) {
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case []byte:
		return jsonValue(string(x), t)
	case string:
		if t == TypeTimestamp {
			if ts, err := time.Parse(time.RFC3339Nano, x); err == nil {
				return ts.UTC().Format(time.RFC3339Nano)
			}
		}
		if IsNumeric(t) {
			if _, err := strconv.ParseFloat(x, 64); err == nil {
				return json.Number(x)
			}
		}
		return x
	case int64:
		if t == TypeBoolean {
			return x != 0
		}
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
	}
	return v
}
