package demo

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/testpg"
)

// fixedNow has sub-millisecond digits on purpose: Create truncates them.
var fixedNow = time.Date(2025, time.March, 14, 15, 9, 26, 535897932, time.UTC)

// small is the size most tests use, to keep them fast.
func small() Options {
	return Options{Seed: 7, Now: fixedNow, Commerces: 60, Products: 40, Events: 3000, Transactions: 400}
}

// target is one place a dataset can be created in.
type target struct {
	dialect, schema string
	db              *sql.DB
}

// each runs fn on SQLite and, when TEST_DATABASE_URL is set, on PostgreSQL;
// fresh returns a new empty target of that database each time it is called.
func each(t *testing.T, fn func(t *testing.T, fresh func() *target)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, func() *target { return newSQLite(t) }) })
	if testpg.URL() != "" {
		t.Run("postgres", func(t *testing.T) { fn(t, func() *target { return newPostgres(t) }) })
	}
}

// newSQLite opens a new dataset file, as the caller of Create does on sqlite.
func newSQLite(t *testing.T) *target {
	t.Helper()
	path := filepath.Join(t.TempDir(), fmt.Sprintf("dataset-%d.db", rand.Int64()))
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return &target{dialect: DialectSQLite, db: db}
}

// newPostgres returns a random schema (not yet created) in the test database.
func newPostgres(t *testing.T) *target {
	t.Helper()
	db, schema := testpg.Schema(t, testpg.URL(), "demo_test_")
	return &target{dialect: DialectPostgres, schema: schema, db: db}
}

func (tg *target) create(t *testing.T, o Options) (Stats, error) {
	t.Helper()
	return Create(context.Background(), tg.db, tg.dialect, tg.schema, o)
}

func (tg *target) mustCreate(t *testing.T, o Options) Stats {
	t.Helper()
	st, err := tg.create(t, o)
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	return st
}

// table is the physical name of a demo table.
func (tg *target) table(name string) string {
	if tg.dialect == DialectPostgres {
		return `"` + tg.schema + `"."` + name + `"`
	}
	return `"` + name + `"`
}

// q rewrites {table} placeholders and, on postgres, ? into $n.
func (tg *target) q(query string) string {
	for _, n := range []string{TableCommerces, TableEvents, TableProductProperties, TableTransactions} {
		query = strings.ReplaceAll(query, "{"+n+"}", tg.table(n))
	}
	if tg.dialect != DialectPostgres {
		return query
	}
	var sb strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			sb.WriteString("$" + strconv.Itoa(n))
			continue
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// count runs a SELECT count(*) query.
func (tg *target) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	if err := tg.db.QueryRow(tg.q(query), args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// ts is a timestamp query argument in the dialect's physical form.
func (tg *target) ts(v time.Time) any {
	if tg.dialect == DialectPostgres {
		return v
	}
	return v.UTC().Format(TimestampFormat)
}

// dump reads every demo table as sorted canonical lines, one per row.
func (tg *target) dump(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, tab := range Catalog().Tables {
		cols := make([]string, len(tab.Columns))
		for i, c := range tab.Columns {
			cols[i] = `"` + c.Name + `"`
		}
		rows, err := tg.db.Query("SELECT " + strings.Join(cols, ", ") + " FROM " + tg.table(tab.Name))
		if err != nil {
			t.Fatalf("dump %s: %v", tab.Name, err)
		}
		for rows.Next() {
			vals, err := qb.ScanValues(rows, len(cols))
			if err != nil {
				t.Fatalf("dump %s: %v", tab.Name, err)
			}
			out[tab.Name] = append(out[tab.Name], canonicalRow(t, tab, vals))
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("dump %s: %v", tab.Name, err)
		}
		_ = rows.Close()
		slices.Sort(out[tab.Name])
	}
	return out
}

// expected renders the rows the generator yields for o, the way dump does.
func expected(t *testing.T, o Options) map[string][]string {
	t.Helper()
	o, err := withDefaults(o)
	if err != nil {
		t.Fatal(err)
	}
	data := generate(o)
	out := map[string][]string{}
	for _, tab := range Catalog().Tables {
		for _, row := range data[tab.Name] {
			out[tab.Name] = append(out[tab.Name], canonicalRow(t, tab, row))
		}
		slices.Sort(out[tab.Name])
	}
	return out
}

// canonicalRow renders values read from either database, or generated in
// memory, identically when they denote the same data.
func canonicalRow(t *testing.T, tab qb.Table, vals []any) string {
	t.Helper()
	if len(vals) != len(tab.Columns) {
		t.Fatalf("%s: %d values for %d columns", tab.Name, len(vals), len(tab.Columns))
	}
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = canonical(t, tab.Name+"."+tab.Columns[i].Name, tab.Columns[i].Type, v)
	}
	return strings.Join(parts, "|")
}

func canonical(t *testing.T, col string, typ qb.FieldType, v any) string {
	t.Helper()
	if v == nil {
		return "NULL"
	}
	if b, ok := v.([]byte); ok {
		v = string(b)
	}
	bad := func() string { t.Fatalf("%s: unexpected %T %v for %s", col, v, v, typ); return "" }
	switch typ {
	case qb.TypeString:
		if s, ok := v.(string); ok {
			return strconv.Quote(s)
		}
	case qb.TypeTimestamp:
		switch v := v.(type) {
		case time.Time:
			return v.UTC().Format(TimestampFormat)
		case string:
			if p, err := time.Parse(TimestampFormat, v); err != nil || p.Format(TimestampFormat) != v {
				t.Fatalf("%s: %q is not in the fixed-width timestamp format", col, v)
			}
			return v
		}
	case qb.TypeBoolean:
		switch v := v.(type) {
		case bool:
			return strconv.FormatBool(v)
		case int64:
			if v == 0 || v == 1 {
				return strconv.FormatBool(v == 1)
			}
		}
	case qb.TypeInt64:
		if n, ok := v.(int64); ok {
			return strconv.FormatInt(n, 10)
		}
	case qb.TypeFloat64, qb.TypeNumeric:
		var f float64
		switch v := v.(type) {
		case float64:
			f = v
		case money:
			f = v.Float()
		case string:
			var err error
			if f, err = strconv.ParseFloat(v, 64); err != nil {
				return bad()
			}
		default:
			return bad()
		}
		return strconv.FormatFloat(f, 'f', -1, 64)
	case qb.TypeRecord:
		var s string
		switch v := v.(type) {
		case string:
			s = v
		case jsonArray:
			s = string(v)
		default:
			return bad()
		}
		var parsed []map[string]any
		if err := json.Unmarshal([]byte(s), &parsed); err != nil || parsed == nil {
			t.Fatalf("%s: %q is not a JSON array of objects: %v", col, s, err)
		}
		b, _ := json.Marshal(parsed) // map keys come out sorted
		return string(b)
	}
	return bad()
}

// checksums hashes each table's canonical rows.
func checksums(d map[string][]string) map[string]string {
	out := map[string]string{}
	for name, lines := range d {
		h := sha256.Sum256([]byte(strings.Join(lines, "\n")))
		out[name] = hex.EncodeToString(h[:8])
	}
	return out
}
