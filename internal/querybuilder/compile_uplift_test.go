package querybuilder

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// upliftCatalog has a source named by a text identity and one named by an
// integer identity.
func upliftCatalog() *Catalog {
	return &Catalog{Tables: []Table{
		{Name: "visits", Purpose: PurposeEvents, Columns: []Column{
			{Name: "commerce_id", Type: TypeString, IsIdentity: true}, {Name: "visited_at", Type: TypeTimestamp}, {Name: "note", Type: TypeString}}},
		{Name: "orders", Purpose: PurposeTransactions, Columns: []Column{
			{Name: "shop", Type: TypeInt64, IsIdentity: true}, {Name: "ordered_at", Type: TypeTimestamp}}},
		{Name: "anonymous", Purpose: PurposeOther, Columns: []Column{{Name: "at", Type: TypeTimestamp}}},
	}}
}

// TestCompileRowsWithinText: the statement of two probes in each dialect
// (the integer identity that is no integer's text left out).
func TestCompileRowsWithinText(t *testing.T) {
	t0 := time.Date(2026, 4, 1, 10, 0, 0, 500_000, time.UTC)
	probes := []WindowProbe{{"7", t0, t0.Add(time.Hour)}, {"x7", t0, t0.Add(time.Hour)}, {"8", t0, t0.Add(time.Hour)}}
	for _, tc := range []struct {
		d    Dialect
		want string
		args []any
	}{
		{Postgres, `WITH probe (probe_position, probe_identity, probe_from, probe_to) AS (VALUES (0, $1::bigint, $2::timestamptz, $3::timestamptz), (2, $4::bigint, $5::timestamptz, $6::timestamptz))
SELECT p.probe_position FROM probe AS p WHERE EXISTS (SELECT 1 FROM "ds"."orders" AS r WHERE r."shop" = p.probe_identity AND r."ordered_at" >= p.probe_from AND r."ordered_at" < p.probe_to)`,
			[]any{int64(7), t0, t0.Add(time.Hour), int64(8), t0, t0.Add(time.Hour)}},
		{SQLite, `WITH probe (probe_position, probe_identity, probe_from, probe_to) AS (VALUES (0, ?1, ?2, ?3), (2, ?4, ?5, ?6))
SELECT p.probe_position FROM probe AS p WHERE EXISTS (SELECT 1 FROM "orders" AS r WHERE r."shop" = p.probe_identity AND r."ordered_at" >= p.probe_from AND r."ordered_at" < p.probe_to)`,
			// Rounded up to the millisecond: SQLite datasets keep milliseconds.
			[]any{int64(7), "2026-04-01T10:00:00.001Z", "2026-04-01T11:00:00.001Z", int64(8), "2026-04-01T10:00:00.001Z", "2026-04-01T11:00:00.001Z"}},
	} {
		q, args, err := CompileRowsWithin(upliftCatalog(), tc.d, "ds", "orders", "ordered_at", probes)
		if err != nil {
			t.Fatal(err)
		}
		if q != tc.want || fmt.Sprint(args) != fmt.Sprint(tc.args) {
			t.Errorf("%s:\n%s\n%v\nwant\n%s\n%v", tc.d.Name(), q, args, tc.want, tc.args)
		}
	}
	if q, args, err := CompileRowsWithin(upliftCatalog(), SQLite, "", "orders", "ordered_at", probes[1:2]); q != "" || args != nil || err != nil {
		t.Errorf("no probe can match: %q %v %v", q, args, err)
	}
	for _, bad := range []struct {
		d           Dialect
		table, date string
		n           int
	}{
		{BigQuery, "visits", "visited_at", 1}, {SQLite, "nope", "visited_at", 1}, {SQLite, "anonymous", "at", 1},
		{SQLite, "visits", "note", 1}, {SQLite, "visits", "missing", 1}, {SQLite, "visits", "visited_at", MaxWindowProbes + 1},
	} {
		_, _, err := CompileRowsWithin(upliftCatalog(), bad.d, "", bad.table, bad.date, make([]WindowProbe, bad.n))
		if !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("%s %s.%s (%d probes): %v, want ErrInvalidOptions", bad.d.Name(), bad.table, bad.date, bad.n, err)
		}
	}
}

// TestRowsWithin executes the probes on both engines: a window is
// [From, To) (a row at From is inside, one at To is not), identities
// compare exactly (quotes included; an integer identity by value), and a
// list longer than one statement is answered whole, in order.
func TestRowsWithin(t *testing.T) {
	t0 := time.Date(2026, 4, 1, 10, 0, 0, 0, time.UTC)
	w := 30 * 24 * time.Hour
	ms := time.Millisecond
	visits := [][]any{
		{"a", t0, nil},             // at From: inside
		{"b", t0.Add(w), nil},      // at To: outside
		{"b", t0.Add(-ms), nil},    // just before: outside
		{"c", t0.Add(w - ms), nil}, // just before To: inside
		{"O'Brien \"x\"", t0.Add(24 * time.Hour), nil},
		{"d", t0, nil},                            // before a From 0.5 ms later
		{"e", t0.Add(ms), nil},                    // after it
		{"A", t0.Add(-365 * 24 * time.Hour), nil}, // case matters; long before
	}
	orders := [][]any{{int64(42), t0.Add(time.Hour)}}
	for _, e := range lifecycleDatabases(t) {
		createTable(t, e.dialect, e.db, upliftCatalog().Tables[0], visits)
		createTable(t, e.dialect, e.db, upliftCatalog().Tables[1], orders)
		win := func(id string, from time.Time) WindowProbe {
			return WindowProbe{Identity: id, From: from, To: from.Add(w)}
		}
		half := t0.Add(500 * time.Microsecond)
		probes := []WindowProbe{win("a", t0), win("b", t0), win("c", t0), win("O'Brien \"x\"", t0), win("O'Brien", t0),
			win("d", half), win("e", half), win("A", t0), win("a", t0.Add(ms)), win("zzz", t0), win("' OR 1=1 --", t0)}
		want := []bool{true, false, true, true, false, false, true, false, false, false, false}
		got, err := RowsWithin(context.Background(), e.db, e.dialect, e.qualifier, upliftCatalog(), "visits", "visited_at", probes)
		if err != nil {
			t.Fatalf("%s: %v", e.dialect.Name(), err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", e.dialect.Name(), got, want)
		}
		got, err = RowsWithin(context.Background(), e.db, e.dialect, e.qualifier, upliftCatalog(), "orders", "ordered_at",
			[]WindowProbe{win("42", t0), win("042", t0), win("x", t0), win("42", t0.Add(2*time.Hour)), win("43", t0)})
		if err != nil {
			t.Fatalf("%s: %v", e.dialect.Name(), err)
		}
		if want := []bool{true, false, false, false, false}; !slices.Equal(got, want) {
			t.Errorf("%s orders: %v, want %v", e.dialect.Name(), got, want)
		}
		// 2,500 probes: three statements, answered in order.
		var many []WindowProbe
		var wantMany []bool
		for i := range 2500 {
			from := t0.Add(time.Duration(i%3-1) * time.Hour) // ending at, starting at, and after the row of "a"
			many = append(many, WindowProbe{Identity: "a", From: from, To: from.Add(time.Hour)})
			wantMany = append(wantMany, i%3 == 1)
		}
		got, err = RowsWithin(context.Background(), e.db, e.dialect, e.qualifier, upliftCatalog(), "visits", "visited_at", many)
		if err != nil {
			t.Fatalf("%s: %v", e.dialect.Name(), err)
		}
		if !slices.Equal(got, wantMany) {
			t.Errorf("%s: the long list is answered wrongly", e.dialect.Name())
		}
		if _, err := RowsWithin(context.Background(), e.db, e.dialect, e.qualifier, missingTable(), "gone", "at", probes[:1]); !errors.Is(err, ErrDataset) {
			t.Errorf("%s: a table the dataset lacks: %v, want ErrDataset", e.dialect.Name(), err)
		}
	}
}

// missingTable is a catalog naming a table the dataset does not have.
func missingTable() *Catalog {
	return &Catalog{Tables: []Table{{Name: "gone", Columns: []Column{{Name: "id", Type: TypeString, IsIdentity: true}, {Name: "at", Type: TypeTimestamp}}}}}
}
