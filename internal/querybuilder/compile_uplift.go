package querybuilder

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Rows within windows, pushed down to the dataset: the uplift report
// (internal/uplift) asks, for many (identity, window) pairs at once,
// whether the identity has at least one row of a source table in its
// window. The pairs travel as a VALUES list of bound parameters, the
// dataset answers with the positions of the pairs that have a row, and no
// row of the dataset ever leaves it.

// WindowProbe asks whether Identity has a row whose date is in [From, To).
type WindowProbe struct {
	Identity string
	From, To time.Time
}

// MaxWindowProbes is the most probes one statement carries (three bound
// parameters each); RowsWithin splits longer lists.
const MaxWindowProbes = 1000

// CompileRowsWithin compiles the statement answering probes (at most
// MaxWindowProbes) on table, whose rows are dated by dateColumn (a
// TIMESTAMP of the catalog) and named by its identity column: it selects
// one integer per probe that has a row in its window, the probe's 0-based
// position in probes. A probe whose identity cannot be in the column (not
// an integer's text on an INT64 identity) is left out: it has no row. An
// empty query means that no probe can have one. PostgreSQL and SQLite only.
func CompileRowsWithin(cat *Catalog, d Dialect, qualifier, table, dateColumn string, probes []WindowProbe) (string, []any, error) {
	if len(probes) > MaxWindowProbes {
		return "", nil, fmt.Errorf("%w: %d probes (at most %d)", ErrInvalidOptions, len(probes), MaxWindowProbes)
	}
	ld, ok := d.(lifecycleDialect)
	if !ok || d.Name() == BigQuery.Name() {
		return "", nil, fmt.Errorf("%w: dialect %v", ErrInvalidOptions, d)
	}
	_, id, err := sourceIdentity(cat, table)
	if err != nil {
		return "", nil, err
	}
	t, _ := cat.Table(table)
	if c, ok := t.Column(dateColumn); !ok || c.Type != TypeTimestamp || c.Repeated {
		return "", nil, fmt.Errorf("%w: %q is not a TIMESTAMP column of %q", ErrInvalidOptions, dateColumn, table)
	}
	// The identity is compared in the column's own type (an index on it
	// serves the probe), as text when it is neither a string nor an integer.
	idType, idExpr := TypeString, "r."+d.quoteIdent(id.Name)
	switch id.Type {
	case TypeString:
	case TypeInt64:
		idType = TypeInt64
	default:
		idExpr = ld.text(idExpr)
	}
	var values []string
	var args []any
	for i, p := range probes {
		var ident any = p.Identity
		if idType == TypeInt64 {
			v, err := strconv.ParseInt(p.Identity, 10, 64)
			if err != nil || strconv.FormatInt(v, 10) != p.Identity {
				continue
			}
			ident = v
		}
		n := len(args)
		values = append(values, "("+strconv.Itoa(i)+", "+d.placeholder(n, idType)+", "+
			d.placeholder(n+1, TypeTimestamp)+", "+d.placeholder(n+2, TypeTimestamp)+")")
		args = append(args, ident, windowBound(d, p.From), windowBound(d, p.To))
	}
	if len(values) == 0 {
		return "", nil, nil
	}
	date := "r." + d.quoteIdent(dateColumn)
	query := "WITH probe (probe_position, probe_identity, probe_from, probe_to) AS (VALUES " + strings.Join(values, ", ") + ")\n" +
		"SELECT p.probe_position FROM probe AS p WHERE EXISTS (SELECT 1 FROM " + d.table(qualifier, table) + " AS r WHERE " +
		idExpr + " = p.probe_identity AND " + date + " >= p.probe_from AND " + date + " < p.probe_to)"
	return query, args, nil
}

// windowBound is the driver value of a window's bound. SQLite datasets
// keep instants at millisecond precision (the catalog's fixed-width text),
// so the bound is rounded up to the next millisecond: a row r (whole
// milliseconds) is at or after t exactly when it is at or after that.
func windowBound(d Dialect, t time.Time) any {
	t = t.UTC()
	if d.Name() == SQLite.Name() {
		if r := t.Truncate(time.Millisecond); !r.Equal(t) {
			t = r.Add(time.Millisecond)
		}
	}
	return d.arg(timestampValue(t))
}

// RowsWithin answers probes (any number, MaxWindowProbes per statement) on
// a postgres or sqlite dataset, each statement in a read-only transaction
// bounded by PreviewTimeout: out[i] reports whether probes[i].Identity has
// a row of table dated in its window (CompileRowsWithin). An error the
// dataset answered wraps ErrDataset.
func RowsWithin(ctx context.Context, db *sql.DB, d Dialect, qualifier string, cat *Catalog, table, dateColumn string,
	probes []WindowProbe) ([]bool, error) {
	out := make([]bool, len(probes))
	for start := 0; start < len(probes); start += MaxWindowProbes {
		chunk := probes[start:min(start+MaxWindowProbes, len(probes))]
		query, args, err := CompileRowsWithin(cat, d, qualifier, table, dateColumn, chunk)
		if err != nil {
			return nil, err
		}
		if query == "" {
			continue
		}
		err = readOnly(ctx, db, d.Name(), func(q querier) error {
			rs, err := q.QueryContext(ctx, query, args...)
			if err != nil {
				return fmt.Errorf("rows within: %w", err)
			}
			defer rs.Close()
			for rs.Next() {
				var i int64
				if err := rs.Scan(&i); err != nil {
					return fmt.Errorf("rows within: %w", err)
				}
				if i < 0 || int(i) >= len(chunk) {
					return fmt.Errorf("rows within: position %d out of range", i)
				}
				out[start+int(i)] = true
			}
			return rs.Err()
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
