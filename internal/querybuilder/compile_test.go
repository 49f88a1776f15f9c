package querybuilder

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

func audienceTree(t *testing.T, id, city string) *AudienceTree {
	return &AudienceTree{ID: id, Definition: decodeDef(t, blocks(au(where(pr("commerces", "city", "EQUALS", city)))))}
}

func TestCompositionCycles(t *testing.T) {
	cat := testCatalog()
	a, b, c := audienceTree(t, "A", "Lima"), audienceTree(t, "B", "Quito"), audienceTree(t, "C", "Bogota")
	a.Compositions = []Composition{{SetOperator: UnionAll, Operand: b}}
	b.Compositions = []Composition{{SetOperator: IntersectDistinct, Operand: c}}
	c.Compositions = []Composition{{SetOperator: UnionDistinct, Operand: a}}
	_, err := CompileAudience(*a, cat, BigQuery, Options{})
	if !errors.Is(err, ErrCompositionCycle) || err.Error() != "audience compositions form a cycle: A -> B -> C -> A" {
		t.Fatalf("cycle: %v", err)
	}
	self := audienceTree(t, "S", "Lima")
	self.Compositions = []Composition{{SetOperator: UnionAll, Operand: self}}
	if _, err := CompileAudience(*self, cat, SQLite, Options{}); !errors.Is(err, ErrCompositionCycle) {
		t.Fatalf("self reference: %v", err)
	}
	// A diamond (two paths to one operand) is not a cycle.
	d := audienceTree(t, "D", "Lima")
	x, y := audienceTree(t, "X", "Quito"), audienceTree(t, "Y", "Bogota")
	x.Compositions = []Composition{{SetOperator: UnionAll, Operand: d}}
	y.Compositions = []Composition{{SetOperator: UnionAll, Operand: d}}
	top := audienceTree(t, "T", "Lima")
	top.Compositions = []Composition{{SetOperator: UnionAll, Operand: x}, {SetOperator: IntersectDistinct, Operand: y}}
	compiled, err := CompileAudience(*top, cat, Postgres, Options{})
	if err != nil {
		t.Fatalf("diamond: %v", err)
	}
	if len(compiled.Args) != 5 || compiled.Args[4] != "Lima" || !strings.Contains(compiled.Query, "$5::text") {
		t.Errorf("diamond args %v", compiled.Args)
	}
	// A long chain is bounded.
	chain := audienceTree(t, "n0", "Lima")
	for i, cur := 1, chain; i <= maxOperands; i++ {
		next := audienceTree(t, fmt.Sprintf("n%d", i), "Lima")
		cur.Compositions = []Composition{{SetOperator: UnionAll, Operand: next}}
		cur = next
	}
	var verr *ValidationError
	if _, err := CompileAudience(*chain, cat, BigQuery, Options{}); !errors.As(err, &verr) ||
		verr.Issues[0].Message != "an audience may combine at most 64 audiences through its compositions" {
		t.Fatalf("long chain: %v", err)
	}
}

func TestCompositionErrors(t *testing.T) {
	cat := testCatalog()
	cat.Tables[5].Columns[0].IsIdentity = true // ledger.entry_id (STRING)
	cat.Tables[5].Columns[1].IsIdentity = true // ledger.balance (BIGNUMERIC), second identity of the table
	bad := &AudienceTree{ID: "bad", Definition: decodeDef(t, blocks(au(where(pr("commerces", "city", "EQUALS", 3)))))}
	numeric := &AudienceTree{ID: "num", Definition: decodeDef(t, blocks(qb{table: "ledger", items: []string{ci("ledger", "balance", "")}}))}
	nested := audienceTree(t, "nested", "Lima")
	nested.Compositions = []Composition{{SetOperator: UnionAll, Operand: bad}}
	cases := []struct {
		name string
		comp Composition
		want Issue
	}{
		{"invalid operand", Composition{SetOperator: UnionAll, Operand: bad},
			issue("compositions[0].operand.queryBlocks[0].where.value", "value must be a string")},
		{"nested invalid operand", Composition{SetOperator: UnionAll, Operand: nested},
			issue("compositions[0].operand.compositions[0].operand.queryBlocks[0].where.value", "value must be a string")},
		{"unknown set operator", Composition{SetOperator: "EXCEPT", Operand: bad},
			issue("compositions[0].setOperator", "setOperator must be one of the following values: UNION_DISTINCT, UNION_ALL, INTERSECT_DISTINCT")},
		{"missing operand", Composition{SetOperator: UnionAll},
			issue("compositions[0].operand", "operand should not be null or undefined")},
		{"incompatible subjects", Composition{SetOperator: IntersectDistinct, Operand: numeric},
			issue("compositions[0].operand", "the operand audience's subject column balance cannot be combined with this audience's subject column commerce_id (STRING)")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := audienceTree(t, "root", "Lima")
			root.Compositions = []Composition{c.comp}
			_, err := CompileAudience(*root, cat, BigQuery, Options{})
			var verr *ValidationError
			if !errors.As(err, &verr) || len(verr.Issues) != 1 || verr.Issues[0] != c.want {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
		})
	}
}

func TestCompiledShape(t *testing.T) {
	cat := testCatalog()
	ef := decodeDef(t, blocks(ev(func(b *qb) {
		b.items = []string{ci("events", "commerce_id", "who"), ai("COUNT", `"*"`, "n")}
		b.groupBy = []string{ref("events", "commerce_id")}
		b.where = grp("AND", pr("events", "platform", "IN", []string{"ios", "web"}), pr("events", "event_timestamp", "GREATER_THAN", "2024-05-01T12:00:00.5+02:00"),
			pr("events", "quantity", "BETWEEN", []int{1, 9}), pr("events", "value", "LESS_THAN", 2.5))
		b.having = fp("n", "GREATER_THAN", 2)
	})))
	c, err := Compile(ef, cat, EventFilter, SQLite, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.SubjectColumn != nil || c.FinalCteName != FinalCteName || c.Format != Parameterized || c.Dialect != "sqlite" {
		t.Errorf("compiled: %+v", c)
	}
	if want := []OutputColumn{{"who", TypeString}, {"n", TypeInt64}}; !reflect.DeepEqual(c.Columns, want) {
		t.Errorf("columns %v", c.Columns)
	}
	wantArgs := []any{"ios", "web", "2024-05-01T10:00:00.500Z", int64(1), int64(9), 2.5, int64(2)}
	if !reflect.DeepEqual(c.Args, wantArgs) {
		t.Errorf("sqlite args %#v", c.Args)
	}
	wantParams := map[string]any{"p0": "ios", "p1": "web", "p2": "2024-05-01T10:00:00.5Z", "p3": int64(1), "p4": int64(9), "p5": 2.5, "p6": int64(2)}
	wantTypes := map[string]string{"p0": "STRING", "p1": "STRING", "p2": "TIMESTAMP", "p3": "INT64", "p4": "INT64", "p5": "FLOAT64", "p6": "INT64"}
	if !reflect.DeepEqual(c.Params, wantParams) || !reflect.DeepEqual(c.Types, wantTypes) {
		t.Errorf("params %v types %v", c.Params, c.Types)
	}
	for i := range wantArgs {
		if !strings.Contains(c.Query, fmt.Sprintf("?%d", i+1)) {
			t.Errorf("placeholder ?%d missing", i+1)
		}
	}
	pg, _ := Compile(ef, cat, EventFilter, Postgres, Options{Qualifier: "tenant_x"})
	if pg.Args[2] != time.Date(2024, 5, 1, 10, 0, 0, 500_000_000, time.UTC) || !strings.Contains(pg.Query, `"tenant_x"."events"`) ||
		!strings.Contains(pg.Query, "$3::timestamptz") || !strings.Contains(pg.Query, "$6::double precision") {
		t.Errorf("postgres: %v\n%s", pg.Args, pg.Query)
	}
	bq, _ := Compile(ef, cat, EventFilter, BigQuery, Options{Format: Literal})
	if bq.Params != nil || bq.Types != nil || bq.Args != nil || strings.Contains(bq.Query, "@p") {
		t.Errorf("literal format carries parameters: %+v", bq)
	}
	bqp, _ := Compile(ef, cat, EventFilter, BigQuery, Options{})
	if bqp.Args != nil || len(bqp.Params) != 7 {
		t.Errorf("bigquery parameterized: args %v params %v", bqp.Args, bqp.Params)
	}
	aud, err := Compile(decodeDef(t, blocks(au(func(b *qb) { b.items = []string{ci("commerces", "city", ""), ci("commerces", "commerce_id", "member")} }))),
		cat, Audience, BigQuery, Options{})
	if err != nil || aud.SubjectColumn == nil || *aud.SubjectColumn != "member" {
		t.Fatalf("audience subject: %v %v", aud, err)
	}
}

func TestLookups(t *testing.T) {
	for _, name := range []string{"bigquery", "postgres", "sqlite"} {
		if d, ok := DialectFor(name); !ok || d.Name() != name {
			t.Errorf("DialectFor(%s)", name)
		}
	}
	if _, ok := DialectFor("mysql"); ok {
		t.Error("mysql is not a dialect")
	}
	if f, _, ok := ParseFormat(""); !ok || f != Parameterized {
		t.Error("empty format")
	}
	if f, _, ok := ParseFormat("literal"); !ok || f != Literal {
		t.Error("literal format")
	}
	if _, msg, ok := ParseFormat("raw"); ok || msg != "format must be one of the following values: parameterized, literal" {
		t.Errorf("bad format: %q", msg)
	}
}

func TestDecimals(t *testing.T) {
	for in, want := range map[string]string{
		"0": "0", "-0": "0", "+1.50": "1.5", "007.100": "7.1", ".5": "0.5", "5.": "5", "1e3": "1000", "1.25E-2": "0.0125",
		"-12345678901234567890123456789.123456789": "-12345678901234567890123456789.123456789",
	} {
		if got, ok := parseDecimal(in, numericIntDigits, numericFracDigits); !ok || got != want {
			t.Errorf("parseDecimal(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", ".", "-", "1e", "1e1000", "1.2.3", "0x10", "1,5", "NaN", "1e+-2", "123456789012345678901234567890", "0.0000000001", " 1"} {
		if got, ok := parseDecimal(in, numericIntDigits, numericFracDigits); ok {
			t.Errorf("parseDecimal(%q) = %q, want rejection", in, got)
		}
	}
}

func TestInvalidOptions(t *testing.T) {
	def := decodeDef(t, blocks(ev(nil)))
	if _, err := Compile(def, testCatalog(), EventFilter, BigQuery, Options{Format: "raw"}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("bad format: %v", err)
	}
	if _, err := Compile(def, testCatalog(), EventFilter, nil, Options{}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("nil dialect: %v", err)
	}
	if _, err := CompileAudience(AudienceTree{Definition: def}, testCatalog(), nil, Options{}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("nil dialect (audience): %v", err)
	}
	if issues := Validate(def, testCatalog(), Kind(0)); len(issues) != 1 || issues[0].Message != "the definition kind must be an event filter or an audience" {
		t.Errorf("unknown kind: %v", issues)
	}
	if Audience.String() != "audience" || EventFilter.String() != "event filter" {
		t.Error("Kind.String")
	}
}
