package querybuilder

import (
	"context"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"testing"
)

// TestLifecycleExplainIsTheStatementsRow: for every identity of the
// dataset (and one it does not have), LifecycleExplain reads the rows whose
// evaluation is the statement's row, and says it is in the population
// exactly when the statement has a row for it: the SUBJECTS table without
// an audience, the audience's identities with one.
func TestLifecycleExplainIsTheStatementsRow(t *testing.T) {
	r := mrand.New(mrand.NewPCG(16, 9))
	d, rules := randomLifecycleData(r), randomRules(r)
	app := decodeDef(t, blocks(qb{table: "orders", items: []string{ci("orders", "commerce_id", "")},
		where: pr("orders", "channel", "EQUALS", "app")}))
	var idents []string
	for c := range 31 {
		idents = append(idents, fmt.Sprintf("c%02d", c)) // c26-c29: orders without a subject; c30: nothing
	}
	for _, e := range lifecycleDatabases(t) {
		d.load(t, e.dialect, e.db)
		for _, pop := range []*AudienceTree{nil, {Definition: app}} {
			l := Lifecycle{Rules: rules, AsOf: d.asOf, Population: pop}
			opts := Options{Qualifier: e.qualifier}
			c, err := CompileLifecycle(l, lifecycleCatalog(), e.dialect, opts)
			if err != nil {
				t.Fatal(err)
			}
			got := classified(t, e.db, c)
			in := 0
			for _, id := range idents {
				rows, member, err := LifecycleExplain(context.Background(), e.db, l, lifecycleCatalog(), e.dialect, opts, id, 100)
				if err != nil {
					t.Fatal(err)
				}
				row, ok := got[id]
				if member != ok {
					t.Fatalf("%s audience %v %s: in population %v, statement row %v", e.dialect.Name(), pop != nil, id, member, ok)
				}
				if member {
					in++
				}
				if want := expected(rules, d, id); stateOf(rules, rows, d.asOf) != want || (ok && row != want) {
					t.Fatalf("%s %s: rows read back %q, statement %q, want %q", e.dialect.Name(), id, stateOf(rules, rows, d.asOf), row, want)
				}
			}
			if in != len(got) || in == 0 || (pop != nil && in == len(d.subjects)) {
				t.Fatalf("%s audience %v: %d members, statement %d rows", e.dialect.Name(), pop != nil, in, len(got))
			}
		}
		_, _, err := LifecycleExplain(context.Background(), e.db, Lifecycle{Rules: rules, AsOf: d.asOf}, lifecycleCatalog(),
			e.dialect, Options{Qualifier: e.qualifier}, busiest(d), 1)
		if !errors.Is(err, ErrTooManyRows) {
			t.Fatalf("%s: a commerce over the limit: %v", e.dialect.Name(), err)
		}
	}
}
