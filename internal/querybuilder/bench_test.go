package querybuilder

import (
	"fmt"
	"testing"
)

// benchDefinition is a 10-block event filter with 50 predicates: each block
// has five, mixing strings, numbers, timestamps, IN lists, a record
// predicate and a semi-join, and a time window.
func benchDefinition(t testing.TB) Definition {
	var bs []qb
	for i := 0; i < 10; i++ {
		b := ev(func(b *qb) {
			b.order = i
			b.time = tw("IN_THE_LAST", "unit", "DAYS", "value", 30+i)
			b.where = grp("AND",
				pr("events", "event_name", "IN", []string{"purchase", "add_to_cart", "view_item"}),
				grp("OR", pr("events", "quantity", "GREATER_THAN", i), pr("events", "event_timestamp", "BETWEEN", []string{"2024-01-01T00:00:00Z", "2024-06-30"})),
				record("attributes", grp("AND", fp("value", "CONTAINS", "goo"))),
				semi("events", "products", grp("AND", fp("category", "EQUALS", "dairy"))),
			)
		})
		if i > 0 {
			b.setOp = "UNION_ALL"
		}
		bs = append(bs, b)
	}
	def := decodeDef(t, blocks(bs...))
	if n := countPredicates(def); n != 50 {
		t.Fatalf("benchmark definition has %d predicates, want 50", n)
	}
	return def
}

func countPredicates(def Definition) int {
	n := 0
	for i := range def.Blocks {
		def.Blocks[i].Where.Walk(func(node *Node) bool {
			if node.Kind == PredicateNode {
				n++
			}
			return true
		})
	}
	return n
}

// benchLoop runs step over the benchmark definition and the test catalog
// b.N times, failing on its error.
func benchLoop(b *testing.B, step func(def Definition, cat *Catalog) error) {
	def := benchDefinition(b)
	cat := testCatalog()
	b.ReportAllocs()
	for b.Loop() {
		if err := step(def, cat); err != nil {
			b.Fatal(err)
		}
	}
}

// compileBQ compiles to parameterized BigQuery, as generate-sql does.
func compileBQ(def Definition, cat *Catalog) error {
	_, err := Compile(def, cat, EventFilter, BigQuery, Options{Qualifier: "p.d"})
	return err
}

// validateEF is Validate of an event filter with its issues as an error.
func validateEF(def Definition, cat *Catalog) error {
	if issues := Validate(def, cat, EventFilter); len(issues) > 0 {
		return fmt.Errorf("%v", issues)
	}
	return nil
}

// BenchmarkValidateCompile validates and compiles the 10-block, 50-predicate
// definition to parameterized BigQuery: one Compile call, which validates
// first (fail closed) and returns the issues as a *ValidationError, as
// generate-sql uses it.
func BenchmarkValidateCompile(b *testing.B) { benchLoop(b, compileBQ) }

// BenchmarkValidateThenCompile adds an explicit Validate before Compile
// (the definition is then validated twice).
func BenchmarkValidateThenCompile(b *testing.B) {
	benchLoop(b, func(def Definition, cat *Catalog) error {
		if err := validateEF(def, cat); err != nil {
			return err
		}
		return compileBQ(def, cat)
	})
}

// BenchmarkValidate is Validate alone.
func BenchmarkValidate(b *testing.B) { benchLoop(b, validateEF) }
