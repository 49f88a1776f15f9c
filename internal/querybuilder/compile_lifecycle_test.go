package querybuilder

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	mrand "math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/reten-io/reten/internal/lifecycle"
	"github.com/reten-io/reten/internal/testpg"
)

// lifecycleCatalog is a small dataset: subjects, orders with a nullable
// channel and amount, and visits with only an instant.
func lifecycleCatalog() *Catalog {
	return &Catalog{Tables: []Table{
		{Name: "subjects", Purpose: PurposeSubjects, Columns: []Column{{Name: "commerce_id", Type: TypeString, IsIdentity: true}}},
		{Name: "orders", Purpose: PurposeTransactions, Columns: []Column{
			{Name: "order_id", Type: TypeString}, {Name: "commerce_id", Type: TypeString, IsIdentity: true},
			{Name: "channel", Type: TypeString}, {Name: "amount", Type: TypeFloat64}, {Name: "ordered_at", Type: TypeTimestamp}}},
		{Name: "visits", Purpose: PurposeEvents, Columns: []Column{
			{Name: "commerce_id", Type: TypeString, IsIdentity: true}, {Name: "visited_at", Type: TypeTimestamp}}},
	}}
}

// lifecycleData is a random dataset at the instant asOf, with rows close to
// whole days before it (the boundaries the rules care about).
type lifecycleData struct {
	asOf     time.Time
	subjects []string
	orders   [][]any // order_id, commerce_id, channel, amount, ordered_at
	visits   [][]any // commerce_id, visited_at
}

func randomLifecycleData(r *mrand.Rand) lifecycleData {
	d := lifecycleData{asOf: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)}
	jitter := []time.Duration{0, 0, time.Millisecond, -time.Millisecond, time.Second, -time.Second, 7 * time.Hour}
	at := func() time.Time {
		return d.asOf.Add(-time.Duration(r.IntN(130))*lifecycle.Day + jitter[r.IntN(len(jitter))])
	}
	for c := range 30 {
		id := fmt.Sprintf("c%02d", c)
		if c < 26 {
			d.subjects = append(d.subjects, id)
		}
		for k := range r.IntN(7) {
			var channel, amount any
			if r.IntN(4) > 0 {
				channel = []string{"app", "web", "field"}[r.IntN(3)]
			}
			if r.IntN(5) > 0 {
				amount = float64(r.IntN(12)) * 0.25
			}
			d.orders = append(d.orders, []any{fmt.Sprintf("o%s-%d", id, k%4), id, channel, amount, at()})
		}
		for range r.IntN(3) {
			d.visits = append(d.visits, []any{id, at()})
		}
	}
	return d
}

func ip(i int) *int { return &i }

func maybe(r *mrand.Rand, n int) *int {
	if r.IntN(3) == 0 {
		return nil
	}
	return ip(r.IntN(n))
}

func randomRules(r *mrand.Rand) lifecycle.Rules {
	methods := []lifecycle.Method{lifecycle.Count, lifecycle.NUnique, lifecycle.Sum, lifecycle.ActiveWeeks}
	source := func(m lifecycle.Method) lifecycle.Source {
		s := lifecycle.Source{Table: "orders", DateColumn: "ordered_at", Columns: []string{"order_id"}}
		switch {
		case m == lifecycle.Sum:
			s.Columns = []string{"amount"}
		case m == lifecycle.NUnique && r.IntN(2) == 0:
			s.Columns = []string{"channel", "amount"}
		case m != lifecycle.NUnique && r.IntN(3) == 0:
			s = lifecycle.Source{Table: "visits", DateColumn: "visited_at"}
		}
		return s
	}
	codes := []string{"a", "b", "c", "d"}
	var rr lifecycle.Rules
	rr.Activation.Method = methods[r.IntN(4)]
	rr.Activation.Source, rr.Activation.Active = source(rr.Activation.Method), r.IntN(6) > 0
	for i := range r.IntN(4) {
		rr.Activation.Moments = append(rr.Activation.Moments, lifecycle.Moment{StatusCode: "m_" + codes[i],
			MinActions: maybe(r, 4), WindowDays: maybe(r, 60), TimeWindow: maybe(r, 100), Priority: r.IntN(3), Active: r.IntN(5) > 0})
	}
	rr.Engagement.Method = methods[r.IntN(4)]
	rr.Engagement.Source, rr.Engagement.Active = source(rr.Engagement.Method), r.IntN(6) > 0
	rr.Engagement.WindowDays, rr.Engagement.MinLifetime = 1+r.IntN(90), r.IntN(5)
	for i := range r.IntN(4) {
		rr.Engagement.Levels = append(rr.Engagement.Levels, lifecycle.Level{StatusCode: "l_" + codes[i],
			MinThreshold: r.IntN(4), MaxThreshold: maybe(r, 6), Order: r.IntN(3), Active: r.IntN(5) > 0})
	}
	rr.Resurrection.Source, rr.Resurrection.Active = source(lifecycle.Count), r.IntN(6) > 0
	for i := range r.IntN(4) {
		rr.Resurrection.Thresholds = append(rr.Resurrection.Thresholds, lifecycle.Threshold{StatusCode: "r_" + codes[i],
			ThresholdDays: r.IntN(70), Order: r.IntN(2), Active: r.IntN(5) > 0})
	}
	return rr
}

// rowsOf are one identity's rows of a source, as lifecycle.Evaluate reads them.
func (d lifecycleData) rowsOf(src lifecycle.Source, id string) []lifecycle.Row {
	var out []lifecycle.Row
	if src.Table == "visits" {
		for _, v := range d.visits {
			if v[0] == id {
				out = append(out, lifecycle.Row{At: v[1].(time.Time)})
			}
		}
		return out
	}
	index := map[string]int{"order_id": 0, "channel": 2, "amount": 3}
	for _, o := range d.orders {
		if o[1] != id {
			continue
		}
		row := lifecycle.Row{At: o[4].(time.Time)}
		for _, col := range src.Columns {
			row.Values = append(row.Values, o[index[col]])
		}
		out = append(out, row)
	}
	return out
}

func (d lifecycleData) load(t *testing.T, dl Dialect, db *sql.DB) {
	t.Helper()
	data := map[string][][]any{"orders": d.orders, "visits": d.visits}
	for _, s := range d.subjects {
		data["subjects"] = append(data["subjects"], []any{s})
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}()
	for _, table := range lifecycleCatalog().Tables {
		if _, err := tx.Exec("DROP TABLE IF EXISTS " + table.Name); err != nil {
			t.Fatal(err)
		}
		createTable(t, dl, tx, table, data[table.Name])
	}
}

// lifecycleDatabases are an empty SQLite database and, when
// TEST_DATABASE_URL is set, a PostgreSQL schema of its own.
func lifecycleDatabases(t *testing.T) []execDB {
	t.Helper()
	dbs := []execDB{{dialect: SQLite, db: TempSQLite(t)}}
	if testpg.URL() == "" {
		return dbs
	}
	schema, dsn := testpg.Create(t, "lc_")
	pg, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pg.Close() })
	return append(dbs, execDB{dialect: Postgres, db: pg, qualifier: schema})
}

// classified runs the statement and renders each identity's row.
func classified(t *testing.T, db *sql.DB, c *Compiled) map[string]string {
	t.Helper()
	rows, err := db.Query(c.Query, c.Args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, c.Query)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		vals, err := ScanValues(rows, len(c.Columns))
		if err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprint(vals[0])] = renderState(vals[1:])
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// renderState prints stage, code and metrics alike from SQL and from Go.
func renderState(vals []any) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		switch x := v.(type) {
		case nil:
			parts[i] = "-"
		case []byte:
			parts[i] = renderNumber(string(x))
		case string:
			parts[i] = renderNumber(x)
		default:
			parts[i] = renderNumber(fmt.Sprint(x))
		}
	}
	return strings.Join(parts, " ")
}

func renderNumber(s string) string {
	var f float64
	if _, err := fmt.Sscan(s, &f); err != nil {
		return s
	}
	return fmt.Sprint(math.Round(f*1e6) / 1e6)
}

func expected(rules lifecycle.Rules, d lifecycleData, id string) string {
	return stateOf(rules, lifecycle.Rows{
		Activation:   d.rowsOf(rules.Activation.Source, id),
		Engagement:   d.rowsOf(rules.Engagement.Source, id),
		Resurrection: d.rowsOf(rules.Resurrection.Source, id),
	}, d.asOf)
}

// stateOf renders the Go evaluation like a statement row.
func stateOf(rules lifecycle.Rules, rows lifecycle.Rows, asOf time.Time) string {
	st := lifecycle.Evaluate(rules, rows, asOf)
	vals := []any{nil, nil, st.Metrics.Lifetime, nil, st.Metrics.Engagement}
	if st.Code != "" {
		vals[0], vals[1] = st.Stage, st.Code
	}
	if st.Metrics.DaysSinceLast != nil {
		vals[3] = *st.Metrics.DaysSinceLast
	}
	for _, m := range st.Metrics.Activation {
		vals = append(vals, *m.Value)
	}
	return renderState(vals)
}

// TestLifecycleStatementMatchesTheRules executes the classification
// statement of random rules over random datasets in both engines and
// compares every identity with the plain-Go evaluation of the rules.
func TestLifecycleStatementMatchesTheRules(t *testing.T) {
	r := mrand.New(mrand.NewPCG(16, 3))
	dbs := lifecycleDatabases(t)
	for round := range 40 {
		d, rules := randomLifecycleData(r), randomRules(r)
		for _, e := range dbs {
			d.load(t, e.dialect, e.db)
			c, err := CompileLifecycle(Lifecycle{Rules: rules, AsOf: d.asOf}, lifecycleCatalog(), e.dialect, Options{Qualifier: e.qualifier})
			if err != nil {
				t.Fatal(err)
			}
			got := classified(t, e.db, c)
			if len(got) != len(d.subjects) {
				t.Fatalf("round %d %s: %d rows, want %d", round, e.dialect.Name(), len(got), len(d.subjects))
			}
			for _, id := range d.subjects {
				if want := expected(rules, d, id); got[id] != want {
					t.Fatalf("round %d %s %s: got %q, want %q\nrules %+v\n%s", round, e.dialect.Name(), id, got[id], want, rules, c.Query)
				}
			}
			if round%5 == 0 {
				explainsLikeTheStatement(t, e, d, rules, got)
			}
		}
	}
}

// TestLifecycleGolden keeps the BigQuery statement of the default rules over
// the SUBJECTS table byte for byte, with its parameters.
func TestLifecycleGolden(t *testing.T) {
	var rules lifecycle.Rules
	orders := lifecycle.Source{Table: "orders", DateColumn: "ordered_at", Columns: []string{"order_id"}}
	rules.Activation.Source, rules.Activation.Active, rules.Activation.Method = orders, true, lifecycle.NUnique
	rules.Activation.Moments = []lifecycle.Moment{
		{StatusCode: "activated", MinActions: ip(2), WindowDays: ip(60), TimeWindow: ip(90), Priority: 1, Active: true},
		{StatusCode: "new", MinActions: ip(1), WindowDays: ip(30), Priority: 2, Active: true},
	}
	rules.Engagement.Source, rules.Engagement.Active, rules.Engagement.Method = orders, true, lifecycle.NUnique
	rules.Engagement.WindowDays, rules.Engagement.MinLifetime = 90, 3
	rules.Engagement.Levels = []lifecycle.Level{
		{StatusCode: "low_engagement", MaxThreshold: ip(2), Order: 1, Active: true},
		{StatusCode: "high_engagement", MinThreshold: 3, Order: 2, Active: true},
	}
	rules.Resurrection.Source, rules.Resurrection.Active = orders, true
	rules.Resurrection.Thresholds = []lifecycle.Threshold{
		{StatusCode: "at_risk", ThresholdDays: 30, Order: 1, Active: true},
		{StatusCode: "churned", ThresholdDays: 90, Order: 2, Active: true},
	}
	c, err := CompileLifecycle(Lifecycle{Rules: rules, AsOf: time.Date(2026, 3, 2, 12, 30, 0, 500e6, time.UTC)},
		lifecycleCatalog(), BigQuery, Options{Qualifier: "acme-prod.retail"})
	if err != nil {
		t.Fatal(err)
	}
	meta, _ := json.MarshalIndent(map[string]any{"params": c.Params, "types": c.Types, "columns": c.Columns}, "", "  ")
	checkGolden(t, "testdata/lifecycle/defaults.bigquery.sql", []byte(c.Query+"\n"))
	checkGolden(t, "testdata/lifecycle/defaults.bigquery.params.json", append(meta, '\n'))
}

// TestLifecyclePopulationIsTheAudience classifies only the identities of an
// audience (commerces with an app order), with the audience's parameters
// numbered before the instant's.
func TestLifecyclePopulationIsTheAudience(t *testing.T) {
	r := mrand.New(mrand.NewPCG(5, 8))
	d, rules := randomLifecycleData(r), randomRules(r)
	app := decodeDef(t, blocks(qb{table: "orders", items: []string{ci("orders", "commerce_id", "")},
		where: pr("orders", "channel", "EQUALS", "app")}))
	want := map[string]bool{}
	for _, o := range d.orders {
		if o[2] == "app" {
			want[o[1].(string)] = true
		}
	}
	for _, e := range lifecycleDatabases(t) {
		d.load(t, e.dialect, e.db)
		c, err := CompileLifecycle(Lifecycle{Rules: rules, AsOf: d.asOf, Population: &AudienceTree{Definition: app}},
			lifecycleCatalog(), e.dialect, Options{Qualifier: e.qualifier})
		if err != nil {
			t.Fatal(err)
		}
		got := classified(t, e.db, c)
		if len(got) != len(want) || len(c.Args) != 2 {
			t.Fatalf("%s: %d identities (want %d), args %v", e.dialect.Name(), len(got), len(want), c.Args)
		}
		for id := range want {
			if exp := expected(rules, d, id); got[id] != exp {
				t.Fatalf("%s %s: got %q, want %q", e.dialect.Name(), id, got[id], exp)
			}
		}
	}
}

// explainsLikeTheStatement reads each commerce's rows back from the
// dataset and evaluates them in Go: the same state and metrics as the
// statement's row; a commerce over the row limit is refused.
func explainsLikeTheStatement(t *testing.T, e execDB, d lifecycleData, rules lifecycle.Rules, got map[string]string) {
	t.Helper()
	for _, id := range d.subjects {
		rows, err := LifecycleRows(context.Background(), e.db, e.dialect, e.qualifier, lifecycleCatalog(), rules, id, d.asOf, 100)
		if err != nil {
			t.Fatal(err)
		}
		if want := stateOf(rules, rows, d.asOf); got[id] != want {
			t.Fatalf("%s %s: statement %q, rows read back %q", e.dialect.Name(), id, got[id], want)
		}
	}
	if _, err := LifecycleRows(context.Background(), e.db, e.dialect, e.qualifier, lifecycleCatalog(), rules,
		busiest(d), d.asOf, 1); !errors.Is(err, ErrTooManyRows) {
		t.Fatalf("%s: a commerce over the limit: %v", e.dialect.Name(), err)
	}
}

// busiest is the identity with the most orders.
func busiest(d lifecycleData) string {
	n := map[string]int{}
	best := ""
	for _, o := range d.orders {
		id := o[1].(string)
		if n[id]++; n[id] > n[best] {
			best = id
		}
	}
	return best
}
