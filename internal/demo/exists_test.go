package demo

import (
	"context"
	"errors"
	"maps"
	"os"
	"strings"
	"testing"
	"time"
)

func TestSameSeedSameRows(t *testing.T) {
	each(t, func(t *testing.T, fresh func() *target) {
		o := small()
		a, b := fresh(), fresh()
		a.mustCreate(t, o)
		b.mustCreate(t, o)
		first, second := checksums(a.dump(t)), checksums(b.dump(t))
		if len(first) != 4 || !maps.Equal(first, second) {
			t.Fatalf("same seed and Now, different tables:\n%v\n%v", first, second)
		}

		// The checksums do see the data: another seed or another Now changes every table.
		other := fresh()
		o2 := o
		o2.Seed = 8
		other.mustCreate(t, o2)
		later := fresh()
		o3 := o
		o3.Now = o.Now.Add(time.Hour)
		later.mustCreate(t, o3)
		for _, tg := range []*target{other, later} {
			sums := checksums(tg.dump(t))
			for name, sum := range sums {
				if sum == first[name] {
					t.Errorf("%s unchanged by another seed or Now", name)
				}
			}
		}
	})
}

func TestSameRowsOnEveryDatabase(t *testing.T) {
	o := small()
	want := checksums(expected(t, o))
	targets := []*target{newSQLite(t)}
	if os.Getenv("TEST_DATABASE_URL") != "" {
		targets = append(targets, newPostgres(t))
	}
	for _, tg := range targets {
		tg.mustCreate(t, o)
		if got := checksums(tg.dump(t)); !maps.Equal(got, want) {
			t.Errorf("%s rows differ from the generated rows:\n got %v\nwant %v", tg.dialect, got, want)
		}
	}
}

func TestExistingTables(t *testing.T) {
	each(t, func(t *testing.T, fresh func() *target) {
		tg := fresh()
		o := small()
		tg.mustCreate(t, o)
		before := checksums(tg.dump(t))

		_, err := tg.create(t, o)
		if !errors.Is(err, ErrExists) {
			t.Fatalf("second Create: %v, want ErrExists", err)
		}
		if after := checksums(tg.dump(t)); !maps.Equal(before, after) {
			t.Error("a failed Create changed the tables")
		}

		o2 := Options{Seed: 99, Now: fixedNow, Commerces: 20, Products: 15, Events: 700, Transactions: 50, Replace: true}
		st := tg.mustCreate(t, o2)
		if st.Rows(TableEvents) != 700 || st.Rows(TableCommerces) != 20 {
			t.Errorf("replace stats = %+v", st.Tables)
		}
		if got, want := checksums(tg.dump(t)), checksums(expected(t, o2)); !maps.Equal(got, want) {
			t.Errorf("after Replace the tables hold other rows than generated:\n got %v\nwant %v", got, want)
		}
	})
}

func TestOneExistingTableBlocksCreate(t *testing.T) {
	each(t, func(t *testing.T, fresh func() *target) {
		tg := fresh()
		if tg.dialect == DialectPostgres {
			if _, err := tg.db.Exec(`CREATE SCHEMA "` + tg.schema + `"`); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := tg.db.Exec("CREATE TABLE " + tg.table(TableTransactions) + " (x integer)"); err != nil {
			t.Fatal(err)
		}
		_, err := tg.create(t, small())
		if !errors.Is(err, ErrExists) || err.Error() != "demo dataset tables already exist: transactions" {
			t.Fatalf("Create over a foreign table: %v", err)
		}
		// Nothing was created: the check runs before any table is made.
		if n := tableCount(t, tg); n != 1 {
			t.Fatalf("%d tables after a refused Create, want 1", n)
		}

		o := small()
		o.Replace = true
		tg.mustCreate(t, o)
		if n := tableCount(t, tg); n != 4 {
			t.Fatalf("%d tables after Replace, want 4", n)
		}
		if n := tg.count(t, "SELECT count(*) FROM {transactions}"); n != 400 {
			t.Errorf("replaced transactions table holds %d rows", n)
		}
	})
}

func tableCount(t *testing.T, tg *target) int {
	t.Helper()
	if tg.dialect == DialectPostgres {
		return tg.count(t, "SELECT count(*) FROM information_schema.tables WHERE table_schema = ?", tg.schema)
	}
	return tg.count(t, "SELECT count(*) FROM sqlite_master WHERE type = 'table'")
}

func TestInvalidArguments(t *testing.T) {
	tg := newSQLite(t)
	cases := []struct {
		name, dialect, schema string
		opts                  Options
		want                  string
	}{
		{"unknown dialect", "mysql", "", small(), `demo: unknown dialect "mysql" (want "postgres" or "sqlite")`},
		{"postgres without schema", DialectPostgres, "", small(), `demo: postgres schema must be 1 to 63 bytes without NUL, got ""`},
		{"postgres schema too long", DialectPostgres, strings.Repeat("s", 64), small(), `demo: postgres schema must be 1 to 63 bytes without NUL, got "` + strings.Repeat("s", 64) + `"`},
		{"sqlite with schema", DialectSQLite, "demo", small(), `demo: sqlite datasets live in their own file and take no schema, got "demo"`},
		{"negative events", DialectSQLite, "", Options{Events: -1}, "demo: Events must not be negative, got -1"},
		{"negative commerces", "sqlite3", "", Options{Commerces: -5}, "demo: Commerces must not be negative, got -5"},
	}
	for _, c := range cases {
		_, err := Create(context.Background(), tg.db, c.dialect, c.schema, c.opts)
		if err == nil || errors.Is(err, ErrExists) {
			t.Errorf("%s: err = %v", c.name, err)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("%s: err = %q, want %q", c.name, err, c.want)
		}
	}
	if n := tableCount(t, tg); n != 0 {
		t.Errorf("%d tables after invalid calls", n)
	}
	// The ent dialect name is accepted too.
	st, err := Create(context.Background(), tg.db, "sqlite3", "", Options{Now: fixedNow, Commerces: 3, Products: 3, Events: 10, Transactions: 2})
	if err != nil || st.Dialect != DialectSQLite || st.Rows(TableEvents) != 10 {
		t.Errorf("sqlite3 alias: %+v, %v", st, err)
	}
}
