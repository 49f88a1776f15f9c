package generator

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/reten-io/reten/ent"
)

// column is a column of a multi-row insert, with its PostgreSQL type.
type column struct{ name, pgType string }

// sqliteParams bounds the parameters of one SQLite statement (its limit
// is 32,766).
const sqliteParams = 30_000

// insert writes rows (one value per column, in order) into table with as
// few statements as the dialect allows: one per call on PostgreSQL (every
// column sent as one array and unnested, a short statement that plans in
// no time whatever the rows), multi-row VALUES lists on SQLite. suffix
// follows the statement (ON CONFLICT ..., RETURNING ...); scan, when not
// nil, reads each returned row.
func (g *Service) insert(ctx context.Context, tx *ent.Client, table string, cols []column, rows [][]any, suffix string,
	scan func(*stdsql.Rows) error) error {
	if len(rows) == 0 {
		return nil
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	run := func(q string, args []any) error {
		if scan == nil {
			_, err := tx.ExecContext(ctx, q, args...)
			return err
		}
		rs, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rs.Close()
		for rs.Next() {
			if err := scan(rs); err != nil {
				return err
			}
		}
		return rs.Err()
	}
	if g.postgres() {
		q, args := unnestInsert(table, names, cols, rows)
		if err := run(q+" "+suffix, args); err != nil {
			return fmt.Errorf("insert %s: %w", table, err)
		}
		return nil
	}
	per := max(1, sqliteParams/len(cols))
	for start := 0; start < len(rows); start += per {
		b := sql.Dialect(g.dialect).Insert(table).Columns(names...)
		for _, r := range rows[start:min(start+per, len(rows))] {
			vs := make([]any, len(r))
			for i, v := range r {
				vs[i] = sqliteValue(v)
			}
			b.Values(vs...)
		}
		q, args := b.Query()
		if err := run(q+" "+suffix, args); err != nil {
			return fmt.Errorf("insert %s: %w", table, err)
		}
	}
	return nil
}

// unnestInsert is the PostgreSQL statement of insert: a column whose rows
// all hold one value is sent once, as a parameter; every other column is
// one array parameter, unnested.
func unnestInsert(table string, names []string, cols []column, rows [][]any) (string, []any) {
	var args []any
	var arrays, aliases []string
	sel := make([]string, len(cols))
	for i, c := range cols {
		vals := make([]stdsql.NullString, len(rows))
		same, valid := true, true
		for j, r := range rows {
			vals[j] = text(r[i])
			same = same && vals[j] == vals[0]
			valid = valid && vals[j].Valid
		}
		if same && vals[0].Valid {
			args = append(args, vals[0].String)
			sel[i] = fmt.Sprintf("$%d::%s", len(args), c.pgType)
			continue
		}
		if valid { // a plain text array: no per-element reflection
			strs := make([]string, len(vals))
			for j, v := range vals {
				strs[j] = v.String
			}
			args = append(args, pq.StringArray(strs))
		} else {
			args = append(args, pq.GenericArray{A: vals})
		}
		alias := fmt.Sprintf("c%d", i)
		arrays, aliases = append(arrays, fmt.Sprintf("$%d::%s[]", len(args), c.pgType)), append(aliases, alias)
		sel[i] = "u." + alias
	}
	q := "INSERT INTO " + table + " (" + strings.Join(names, ", ") + ") SELECT " + strings.Join(sel, ", ")
	if len(arrays) > 0 {
		q += " FROM unnest(" + strings.Join(arrays, ", ") + ") AS u(" + strings.Join(aliases, ", ") + ")"
	}
	return q, args
}

// text is a value as PostgreSQL reads it in an array element.
func text(v any) stdsql.NullString {
	switch v := v.(type) {
	case nil:
		return stdsql.NullString{}
	case string:
		return stdsql.NullString{String: v, Valid: true}
	case *string:
		if v == nil {
			return stdsql.NullString{}
		}
		return text(*v)
	case uuid.UUID:
		return text(v.String())
	case *uuid.UUID:
		if v == nil {
			return stdsql.NullString{}
		}
		return text(v.String())
	case time.Time:
		return text(v.UTC().Format(time.RFC3339Nano))
	case *time.Time:
		if v == nil {
			return stdsql.NullString{}
		}
		return text(*v)
	case int:
		return text(strconv.Itoa(v))
	case map[string]any:
		if v == nil {
			return stdsql.NullString{}
		}
		b, _ := json.Marshal(v) // a map of strings: never fails
		return text(string(b))
	}
	panic(fmt.Sprintf("generator: no text form for %T", v))
}

// sqliteValue is a value as the SQLite driver stores it (times in UTC, like
// ent writes them; JSON as text; typed nils as NULL).
func sqliteValue(v any) any {
	switch v := v.(type) {
	case *string:
		if v == nil {
			return nil
		}
		return *v
	case *uuid.UUID:
		if v == nil {
			return nil
		}
		return *v
	case time.Time:
		return v.UTC()
	case *time.Time:
		if v == nil {
			return nil
		}
		return v.UTC()
	case map[string]any:
		if v == nil {
			return nil
		}
		b, _ := json.Marshal(v)
		return string(b)
	}
	return v
}
