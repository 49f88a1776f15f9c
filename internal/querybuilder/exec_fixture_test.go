package querybuilder

import (
	"database/sql"
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/reten-io/reten/internal/testpg"
)

// execDB is the fixture dataset loaded in one engine.
type execDB struct {
	dialect   Dialect
	db        *sql.DB
	qualifier string // the schema on postgres
}

// fixture is a small dataset following the catalog's physical conventions.
// Timestamps are relative to now, at least two hours away from any whole
// number of days, so IN_THE_LAST windows (evaluated by the database a few
// seconds later) select the same rows in every query.
type fixture struct {
	now    time.Time
	tables map[string][][]any // rows in catalog column order
}

// weirdName is a commerce name that needs escaping in every dialect.
const weirdName = "Bodega O'Brien \\ \"Sur\"\n2"

func newFixture() *fixture {
	f := &fixture{now: time.Now().UTC().Truncate(time.Millisecond), tables: map[string][][]any{}}
	r := mrand.New(mrand.NewPCG(7, 11))
	at := func(days int) time.Time {
		h := 2 + r.IntN(20)
		return f.now.Add(-time.Duration(days)*24*time.Hour - time.Duration(h)*time.Hour - time.Duration(r.IntN(50))*time.Minute)
	}
	cities := []any{"Lima", "Quito", "Bogota"}
	segments := []string{"pharmacy", "bakery", "grocery", "restaurant"}
	for i := 1; i <= 12; i++ {
		city := cities[i%3]
		if i == 12 {
			city = nil
		}
		name := any(fmt.Sprintf("Commerce %d", i))
		if i == 5 {
			name = weirdName
		}
		f.add("commerces", fmt.Sprintf("c%02d", i), name, city, segments[i%4], at(20*i), i%3 != 0, fmt.Sprintf("%d.25", i*750))
	}
	for i := 1; i <= 8; i++ {
		brand := "Zeta"
		if i%2 == 1 {
			brand = "Acme"
		}
		f.add("product_properties", fmt.Sprintf("p%d", i), fmt.Sprintf("Product %d", i), []string{"dairy", "snacks", "beverages"}[i%3],
			brand, fmt.Sprintf("%d.99", i+2), i%2 == 0, at(100*i))
	}
	names := []string{"app_open", "view_item", "add_to_cart", "purchase", "order_canceled", "visit_registered"}
	platforms := []string{"android", "ios", "web", "backend", "sales_app"}
	for c := 1; c <= 12; c++ {
		for k := 0; k < 30; k++ {
			name := names[r.IntN(len(names))]
			platform := platforms[r.IntN(len(platforms))]
			var session any
			if platform != "backend" && platform != "sales_app" {
				session = fmt.Sprintf("%s-%03d", []string{"abc", "xyz", "test"}[r.IntN(3)], r.IntN(1000))
			}
			var value, quantity any
			items := []map[string]any{}
			if name != "app_open" && name != "visit_registered" {
				total, units := 0.0, int64(0)
				for n := 0; n < 1+r.IntN(3); n++ {
					q, price := int64(r.IntN(13)), float64(r.IntN(2000))/100+0.5
					if k%4 == 0 {
						price = float64(1 + r.IntN(20)) // marshals without fraction
					}
					items = append(items, map[string]any{"product_id": fmt.Sprintf("p%d", 1+r.IntN(8)), "quantity": q, "price": price})
					total += float64(q) * price
					units += q
				}
				value, quantity = float64(int64(total*100))/100, units
			}
			attrs := []map[string]any{}
			if r.IntN(4) > 0 {
				attrs = append(attrs, map[string]any{"key": "utm_source", "value": []string{"google", "meta", "tiktok", "email"}[r.IntN(4)]})
			}
			if r.IntN(2) == 0 {
				attrs = append(attrs, map[string]any{"key": "screen", "value": []string{"home", "cart", "search"}[r.IntN(3)]})
			}
			f.add("events", fmt.Sprintf("ev_c%02d_%02d", c, k), fmt.Sprintf("c%02d", c), name, at(r.IntN(420)), platform, session, value, quantity, attrs, items)
		}
		for k := 0; k < 5; k++ {
			f.add("transactions", fmt.Sprintf("tx_c%02d_%d", c, k), fmt.Sprintf("c%02d", c), fmt.Sprintf("%d.%02d", r.IntN(2000), r.IntN(100)),
				[]string{"USD", "PEN"}[r.IntN(2)], []string{"completed", "pending", "canceled", "refunded"}[r.IntN(4)], at(r.IntN(500)), int64(1+r.IntN(9)))
		}
	}
	for k := 0; k < 40; k++ {
		f.add("page_views", fmt.Sprintf("c%02d", 1+r.IntN(14)), fmt.Sprintf("p%d", 1+r.IntN(8)), at(r.IntN(60)), []map[string]any{})
	}
	for k := 0; k < 6; k++ {
		var odd any = fmt.Sprintf("odd %d", k)
		if k == 2 {
			odd = nil
		}
		f.add("ledger", fmt.Sprintf("l%d", k), fmt.Sprintf("%d.5", k*60), at(30*k), odd)
	}
	return f
}

func (f *fixture) add(table string, row ...any) { f.tables[table] = append(f.tables[table], row) }

// ts is a time relative to the fixture's now, as an ISO 8601 string for
// definitions, and as the literal a hand-written query compares with.
func (f *fixture) ts(days int) (iso string, lit map[string]string) {
	t := f.now.Add(-time.Duration(days) * 24 * time.Hour)
	return isoTimestamp(t), map[string]string{"sqlite": "'" + sqliteTimestamp(t) + "'", "postgres": "'" + isoTimestamp(t) + "'::timestamptz"}
}

// physicalType is the column type of the catalog's physical conventions.
func physicalType(d Dialect, c Column) string {
	if c.Type == TypeRecord || c.Repeated {
		if d == Postgres {
			return "jsonb"
		}
		return "TEXT"
	}
	if d == Postgres {
		return pgTypes[c.Type]
	}
	return map[FieldType]string{TypeString: "TEXT", TypeTimestamp: "TEXT", TypeBoolean: "INTEGER", TypeInt64: "INTEGER",
		TypeFloat64: "REAL", TypeNumeric: "REAL", TypeBigNumeric: "REAL"}[c.Type]
}

// physicalValue converts a fixture value to what the engine stores.
func physicalValue(d Dialect, c Column, v any) any {
	if v == nil {
		return nil
	}
	if c.Type == TypeRecord || c.Repeated {
		b, _ := json.Marshal(v)
		return string(b)
	}
	switch x := v.(type) {
	case time.Time:
		if d == SQLite {
			return sqliteTimestamp(x)
		}
	case bool:
		if d == SQLite {
			return map[bool]int64{false: 0, true: 1}[x]
		}
	case string:
		if d == SQLite && (c.Type == TypeNumeric || c.Type == TypeBigNumeric) {
			var f float64
			_, _ = fmt.Sscan(x, &f)
			return f
		}
	}
	return v
}

// load creates the fixture tables in db (names quoted like the compiler).
func (f *fixture) load(t testing.TB, d Dialect, db *sql.DB) {
	t.Helper()
	for _, table := range testCatalog().Tables {
		createTable(t, d, db, table, f.tables[table.Name])
	}
}

// createTable creates a catalog table in the physical conventions of d and
// inserts rows (values in column order).
func createTable(t testing.TB, d Dialect, db interface {
	Exec(string, ...any) (sql.Result, error)
}, table Table, rows [][]any) {
	t.Helper()
	cols := make([]string, len(table.Columns))
	marks := make([]string, len(table.Columns))
	for i, c := range table.Columns {
		cols[i] = d.quoteIdent(c.Name) + " " + physicalType(d, c)
		marks[i] = d.placeholder(i, TypeString)
		if d == Postgres {
			marks[i] = fmt.Sprintf("$%d", i+1)
		}
	}
	if _, err := db.Exec("CREATE TABLE " + d.quoteIdent(table.Name) + " (" + strings.Join(cols, ", ") + ")"); err != nil {
		t.Fatalf("create %s: %v", table.Name, err)
	}
	insert := "INSERT INTO " + d.quoteIdent(table.Name) + " VALUES (" + strings.Join(marks, ", ") + ")"
	for _, row := range rows {
		args := make([]any, len(row))
		for i, v := range row {
			args[i] = physicalValue(d, table.Columns[i], v)
		}
		if _, err := db.Exec(insert, args...); err != nil {
			t.Fatalf("insert into %s: %v", table.Name, err)
		}
	}
}

// execDatabases loads the fixture in SQLite and, when TEST_DATABASE_URL is
// set, in a PostgreSQL schema of its own (dropped at cleanup). Hand-written
// queries on PostgreSQL find the tables through search_path.
func execDatabases(t *testing.T, f *fixture) []execDB {
	t.Helper()
	lite := TempSQLite(t)
	f.load(t, SQLite, lite)
	dbs := []execDB{{dialect: SQLite, db: lite}}
	if testpg.URL() == "" {
		return dbs
	}
	schema, dsn := testpg.Create(t, "qb_")
	pg, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pg.Close() })
	f.load(t, Postgres, pg)
	return append(dbs, execDB{dialect: Postgres, db: pg, qualifier: schema})
}

// TempSQLite opens a new SQLite database in the test's temporary directory,
// closed when the test ends (the external tests use it too).
func TempSQLite(t testing.TB) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "dataset.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// rowSet runs a query and returns its rows as sorted, comparable strings.
func rowSet(t *testing.T, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	return RowSet(t, db, " | ", comparable, query, args...)
}

// RowSet runs a query and returns its rows as sorted lines, every value
// rendered by format and joined by sep (the external tests use it too).
func RowSet(t *testing.T, db *sql.DB, sep string, format func(any) string, query string, args ...any) []string {
	t.Helper()
	rows, err := db.Query(query, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, query)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals, err := ScanValues(rows, len(cols))
		if err != nil {
			t.Fatal(err)
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = format(v)
		}
		out = append(out, strings.Join(parts, sep))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// comparable renders a value so that two queries computing the same thing
// on one engine compare equal (floats to 9 significant digits).
func comparable(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return comparable(string(x))
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case int64:
		return fmt.Sprintf("%.9g", float64(x))
	case float64:
		return fmt.Sprintf("%.9g", x)
	case string:
		var f float64
		if _, err := fmt.Sscan(x, &f); err == nil && strings.Trim(x, "0123456789.-") == "" {
			return fmt.Sprintf("%.9g", f)
		}
		return x
	}
	return fmt.Sprint(v)
}
