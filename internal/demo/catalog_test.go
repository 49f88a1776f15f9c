package demo

import (
	"strings"
	"testing"

	qb "github.com/reten-io/reten/internal/querybuilder"
)

func TestCatalogShape(t *testing.T) {
	cat := Catalog()
	purposes := map[string]string{TableCommerces: "SUBJECTS", TableEvents: "EVENTS", TableProductProperties: "PRODUCTS", TableTransactions: "TRANSACTIONS"}
	if len(cat.Tables) != len(purposes) {
		t.Fatalf("%d tables, want %d", len(cat.Tables), len(purposes))
	}
	for _, tab := range cat.Tables {
		if purposes[tab.Name] != tab.Purpose {
			t.Errorf("%s: purpose %q, want %q", tab.Name, tab.Purpose, purposes[tab.Name])
		}
		if strings.TrimSpace(tab.Description) == "" {
			t.Errorf("%s: no description", tab.Name)
		}
		names := map[string]bool{}
		var identity, defaultTime, timestamps int
		for _, c := range tab.Columns {
			if names[c.Name] {
				t.Errorf("%s.%s: duplicate column", tab.Name, c.Name)
			}
			names[c.Name] = true
			if strings.TrimSpace(c.Description) == "" {
				t.Errorf("%s.%s: no description", tab.Name, c.Name)
			}
			if c.Type == qb.TypeTimestamp {
				timestamps++
			}
			if c.IsIdentity {
				identity++
				if c.Name != "commerce_id" || c.Type != qb.TypeString {
					t.Errorf("%s.%s: unexpected identity column", tab.Name, c.Name)
				}
			}
			if c.IsDefaultTimeReference {
				defaultTime++
				if c.Name != tab.DefaultTimeReferenceColumn || c.Type != qb.TypeTimestamp {
					t.Errorf("%s.%s: default time flag off the table's TIMESTAMP default time reference column", tab.Name, c.Name)
				}
			}
			if (c.Type == qb.TypeRecord) != (len(c.SubFields) > 0) || c.Type == qb.TypeRecord && !c.Repeated {
				t.Errorf("%s.%s: RECORD columns are repeated and have sub-fields, others have none", tab.Name, c.Name)
			}
			for _, s := range c.SubFields {
				if s.Type == qb.TypeRecord || s.Repeated || strings.TrimSpace(s.Description) == "" {
					t.Errorf("%s.%s.%s: sub-fields are described scalars", tab.Name, c.Name, s.Name)
				}
			}
		}
		if timestamps > 0 {
			if c, ok := tab.Column(tab.DefaultTimeReferenceColumn); !ok || c.Type != qb.TypeTimestamp {
				t.Errorf("%s: default time reference %q is not a TIMESTAMP column", tab.Name, tab.DefaultTimeReferenceColumn)
			}
		}
		if _, subject := tab.Column("commerce_id"); subject && (identity != 1 || defaultTime != 1) {
			t.Errorf("%s: %d identity and %d default time columns, want 1 and 1", tab.Name, identity, defaultTime)
		}
	}

	events, _ := cat.Table(TableEvents)
	for name, subs := range map[string][]string{"attributes": {"key", "value"}, "items": {"product_id", "quantity", "price"}} {
		c, ok := events.Column(name)
		if !ok || c.Type != qb.TypeRecord {
			t.Fatalf("events.%s is not a RECORD column", name)
		}
		for _, s := range subs {
			if _, ok := c.SubField(s); !ok {
				t.Errorf("events.%s has no sub-field %s", name, s)
			}
		}
	}
	sj, ok := events.SemiJoin(SemiJoinProducts)
	if !ok || len(sj.On) != 1 {
		t.Fatalf("events has no single-key semi-join %q", SemiJoinProducts)
	}
	to, ok := cat.Table(sj.ToTable)
	if !ok || to.Purpose != "PRODUCTS" {
		t.Fatalf("semi-join target %q is not the products table", sj.ToTable)
	}
	rec, sub, _ := strings.Cut(sj.On[0].Left, ".")
	left, ok := events.Column(rec)
	var leftField *qb.Column
	if ok {
		leftField, ok = left.SubField(sub)
	}
	right, ok2 := to.Column(sj.On[0].Right)
	if !ok || !ok2 || leftField.Type != right.Type {
		t.Errorf("semi-join keys %+v do not resolve to columns of one type", sj.On[0])
	}

	// Each call is a fresh value: a caller's edits do not leak.
	cat.Tables[0].Columns[0].Name = "changed"
	if Catalog().Tables[0].Columns[0].Name != "commerce_id" {
		t.Error("Catalog shares state between calls")
	}
}

func TestCatalogMatchesPhysicalColumns(t *testing.T) {
	// Independent of the DDL code: querybuilder.Catalog's conventions as
	// information_schema.data_type (postgres) and declared type (sqlite).
	physical := map[string]map[qb.FieldType]string{
		DialectPostgres: {qb.TypeString: "text", qb.TypeTimestamp: "timestamp with time zone", qb.TypeBoolean: "boolean",
			qb.TypeInt64: "bigint", qb.TypeFloat64: "double precision", qb.TypeNumeric: "numeric", qb.TypeRecord: "jsonb"},
		DialectSQLite: {qb.TypeString: "TEXT", qb.TypeTimestamp: "TEXT", qb.TypeBoolean: "INTEGER",
			qb.TypeInt64: "INTEGER", qb.TypeFloat64: "REAL", qb.TypeNumeric: "REAL", qb.TypeRecord: "TEXT"},
	}
	each(t, func(t *testing.T, fresh func() *target) {
		tg := fresh()
		tg.mustCreate(t, Options{Now: fixedNow, Commerces: 5, Products: 5, Events: 50, Transactions: 5})
		for _, tab := range Catalog().Tables {
			query := "SELECT name, type FROM pragma_table_info(?)"
			args := []any{tab.Name}
			if tg.dialect == DialectPostgres {
				query = "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2"
				args = []any{tg.schema, tab.Name}
			}
			rows, err := tg.db.Query(query, args...)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for rows.Next() {
				var name, typ string
				if err := rows.Scan(&name, &typ); err != nil {
					t.Fatal(err)
				}
				got[name] = typ
			}
			_ = rows.Close()
			if len(got) != len(tab.Columns) {
				t.Errorf("%s: %d physical columns, %d in the catalog: %v", tab.Name, len(got), len(tab.Columns), got)
			}
			for _, c := range tab.Columns {
				if want := physical[tg.dialect][c.Type]; got[c.Name] != want {
					t.Errorf("%s.%s (%s): physical type %q, want %q", tab.Name, c.Name, c.Type, got[c.Name], want)
				}
			}
		}
	})
}
