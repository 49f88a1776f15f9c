package querybuilder

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/reten-io/reten/internal/lifecycle"
)

// ErrTooManyRows reports a commerce with more rows in a source than an
// explanation reads.
var ErrTooManyRows = errors.New("the commerce has more rows than an explanation reads")

// LifecycleRows reads one identity's rows before asOf in each pillar's
// source table (at most limit rows per source, ErrTooManyRows beyond), as
// lifecycle.Evaluate takes them: it explains one commerce with the rules'
// reference evaluation instead of the whole population's statement.
func LifecycleRows(ctx context.Context, db *sql.DB, d Dialect, qualifier string, cat *Catalog,
	r lifecycle.Rules, identity string, asOf time.Time, limit int) (lifecycle.Rows, error) {
	return lifecycleRows(ctx, db, d, qualifier, cat, r, identity, asOf, limit)
}

func lifecycleRows(ctx context.Context, db querier, d Dialect, qualifier string, cat *Catalog,
	r lifecycle.Rules, identity string, asOf time.Time, limit int) (lifecycle.Rows, error) {
	var out lifecycle.Rows
	read := map[string][]lifecycle.Row{}
	for _, p := range []struct {
		src  lifecycle.Source
		dest *[]lifecycle.Row
	}{{r.Activation.Source, &out.Activation}, {r.Engagement.Source, &out.Engagement}, {r.Resurrection.Source, &out.Resurrection}} {
		key := p.src.Table + "\x00" + p.src.DateColumn + "\x00" + strings.Join(p.src.Columns, "\x00")
		rows, ok := read[key]
		if !ok {
			var err error
			if rows, err = sourceRows(ctx, db, d, qualifier, cat, p.src, identity, asOf, limit); err != nil {
				return out, err
			}
			read[key] = rows
		}
		*p.dest = rows
	}
	return out, nil
}

func sourceRows(ctx context.Context, db querier, d Dialect, qualifier string, cat *Catalog, src lifecycle.Source,
	identity string, asOf time.Time, limit int) ([]lifecycle.Row, error) {
	t, id, err := sourceIdentity(cat, src.Table)
	if err != nil {
		return nil, err
	}
	cols := []string{d.quoteIdent(src.DateColumn)}
	numeric := make([]bool, len(src.Columns))
	for i, name := range src.Columns {
		cols = append(cols, d.quoteIdent(name))
		if c, ok := t.Column(name); ok {
			numeric[i] = IsNumeric(c.Type)
		}
	}
	idCond, idArg, ok := identityIs(d, id, identity, 0)
	if !ok {
		return nil, nil // an identity that is not a number has no row
	}
	query := "SELECT " + strings.Join(cols, ", ") + " FROM " + d.table(qualifier, src.Table) +
		" WHERE " + idCond + " AND " + d.quoteIdent(src.DateColumn) + " < " +
		d.placeholder(1, TypeTimestamp) + " ORDER BY 1 LIMIT " + strconv.Itoa(limit+1)
	rs, err := db.QueryContext(ctx, query, idArg, d.arg(timestampValue(asOf.UTC())))
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var out []lifecycle.Row
	for rs.Next() {
		if len(out) == limit {
			return nil, ErrTooManyRows
		}
		vals, err := ScanValues(rs, len(cols))
		if err != nil {
			return nil, err
		}
		at, err := instant(vals[0])
		if err != nil {
			return nil, err
		}
		row := lifecycle.Row{At: at, Values: vals[1:]}
		for i, v := range row.Values {
			row.Values[i] = plain(v, numeric[i])
		}
		out = append(out, row)
	}
	return out, rs.Err()
}

// identityIs is the condition "identity column id equals identity", bound
// as placeholder n, with its argument: the column compared in its own type
// (so an index serves it), as text when it is neither a string nor an
// integer. ok is false for an identity that is no integer's text on an
// integer column.
func identityIs(d Dialect, id *Column, identity string, n int) (cond string, arg any, ok bool) {
	expr, arg, typ := d.quoteIdent(id.Name), any(identity), TypeString
	switch id.Type {
	case TypeString:
	case TypeInt64:
		v, err := strconv.ParseInt(identity, 10, 64)
		if err != nil || strconv.FormatInt(v, 10) != identity {
			return "", nil, false // the statement compares the integer's text
		}
		arg, typ = v, TypeInt64
	default:
		expr = d.(lifecycleDialect).text(expr)
	}
	return expr + " = " + d.placeholder(n, typ), arg, true
}

// instant reads a timestamp as the engines return it (SQLite: the
// catalog's UTC text).
func instant(v any) (time.Time, error) {
	switch x := v.(type) {
	case time.Time:
		return x.UTC(), nil
	case string:
		return time.Parse(time.RFC3339Nano, x)
	case []byte:
		return time.Parse(time.RFC3339Nano, string(x))
	}
	return time.Time{}, fmt.Errorf("querybuilder: a timestamp of type %T", v)
}

// plain makes a value comparable and summable: a number as float64
// (numeric arrives as text on PostgreSQL), anything else as text.
func plain(v any, numeric bool) any {
	switch x := v.(type) {
	case nil:
		return nil
	case []byte:
		v = string(x)
	}
	if !numeric {
		if s, ok := v.(string); ok {
			return s
		}
		return fmt.Sprint(v)
	}
	switch x := v.(type) {
	case int64:
		return float64(x)
	case string:
		f, _ := strconv.ParseFloat(x, 64)
		return f
	}
	return v
}
