package dataset_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/hook"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/demo"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/tenancy"
)

const typeEnum = "must be one of the following values: STRING, TIMESTAMP, BOOLEAN, FLOAT64, INT64, NUMERIC, BIGNUMERIC, RECORD"

// catalogCases breaks one rule (or a few) per case, starting from the demo catalog.
var catalogCases = []struct {
	name   string
	change func(c *qb.Catalog)
	msgs   []string
}{
	{"empty and bad names", func(c *qb.Catalog) {
		c.Tables[0].Name = " "
		c.Tables[1].Columns[0].Name = "event id"
		c.Tables[1].Columns[1].Name = "1st"
		c.Tables[2].Columns[1].Name = strings.Repeat("x", 129)
	}, []string{
		"tables[0].name should not be empty",
		"tables[1].columns[0].name must be a valid SQL identifier: a letter or underscore, then letters, digits or underscores, at most 128 characters",
		"tables[1].columns[1].name " + identMsg,
		"tables[2].columns[1].name " + identMsg,
	}},
	{"duplicate table and column names (case-insensitive)", func(c *qb.Catalog) {
		c.Tables[3].Name = "Events"
		c.Tables[0].Columns[2].Name = "COMMERCE_ID"
	}, []string{
		`tables[3].name must be unique: "Events" is already declared`,
		`tables[0].columns[2].name must be unique: "COMMERCE_ID" is already declared`,
	}},
	{"purpose and type enums", func(c *qb.Catalog) {
		c.Tables[1].Purpose = "LOGS"
		c.Tables[1].Columns[2].Type = "VARCHAR"
	}, []string{
		"tables[1].purpose must be one of the following values: EVENTS, SUBJECTS, PRODUCTS, TRANSACTIONS, OTHER",
		"tables[1].columns[2].type " + typeEnum,
	}},
	{"no columns", func(c *qb.Catalog) { c.Tables[2].Columns, c.Tables[2].DefaultTimeReferenceColumn = nil, "" },
		[]string{
			// the events' semi-join now points at a missing column
			"tables[1].semi_joins[0].on[0].right must name a column of product_properties that is neither RECORD nor repeated",
			"tables[2].columns should not be empty"}},
	{"record rules", func(c *qb.Catalog) {
		items := &c.Tables[1].Columns[9]
		items.Repeated = false
		attrs := &c.Tables[1].Columns[8]
		attrs.SubFields = nil
		c.Tables[1].Columns[2].SubFields = []qb.Column{{Name: "x", Type: qb.TypeString}}
	}, []string{
		"tables[1].columns[2].sub_fields must be empty unless type is RECORD",
		"tables[1].columns[8].sub_fields should not be empty for a RECORD column",
		"tables[1].columns[9].is_repeated must be true for a RECORD column",
	}},
	{"sub-field rules", func(c *qb.Catalog) {
		f := c.Tables[1].Columns[9].SubFields
		f[0].Type = qb.TypeRecord
		f[0].SubFields = []qb.Column{{Name: "deep", Type: qb.TypeString}}
		f[1].Repeated, f[1].IsIdentity, f[1].IsDefaultTimeReference = true, true, true
		f[2].Name = "Product_ID"
		f[2].Type = "MONEY"
	}, []string{
		"tables[1].columns[9].sub_fields[0].type must not be RECORD: records do not nest",
		"tables[1].columns[9].sub_fields[1].is_repeated must be false for a sub-field",
		"tables[1].columns[9].sub_fields[1].is_identity must be false for a sub-field",
		"tables[1].columns[9].sub_fields[1].is_default_time_reference must be false for a sub-field",
		`tables[1].columns[9].sub_fields[2].name must be unique: "Product_ID" is already declared`,
		"tables[1].columns[9].sub_fields[2].type " + typeEnum,
		// the semi-join key items.product_id now names a RECORD sub-field
		"tables[1].semi_joins[0].on[0].left must name a column of events that is neither RECORD nor repeated, or a sub-field of one of its RECORD columns (record.subField)",
	}},
	{"identity and default time flags", func(c *qb.Catalog) {
		cols := c.Tables[1].Columns
		cols[0].IsIdentity = true             // a second identity
		cols[2].IsDefaultTimeReference = true // not a TIMESTAMP
		cols[8].IsIdentity = true             // a RECORD
		cols[4].Repeated, cols[4].IsIdentity = true, false
		c.Tables[0].Columns[6].Repeated = true // created_at: the default time column, now repeated
		c.Tables[3].DefaultTimeReferenceColumn = "amount"
	}, []string{
		"tables[0].columns[6].is_default_time_reference requires a TIMESTAMP column that is not repeated",
		"tables[0].default_time_reference_column must name a TIMESTAMP column of the table that is not repeated",
		"tables[1].columns[1].is_identity must be false: a table has at most one identity column",
		"tables[1].columns[2].is_default_time_reference requires a TIMESTAMP column that is not repeated",
		"tables[1].columns[3].is_default_time_reference must be false: a table has at most one default time reference column",
		"tables[1].columns[8].is_identity requires a column that is neither RECORD nor repeated",
		"tables[3].default_time_reference_column must name a TIMESTAMP column of the table that is not repeated",
	}},
	{"unknown default time column", func(c *qb.Catalog) { c.Tables[2].DefaultTimeReferenceColumn = "nope" },
		[]string{"tables[2].default_time_reference_column must name a TIMESTAMP column of the table that is not repeated"}},
	{"semi-join rules", func(c *qb.Catalog) {
		events := &c.Tables[1]
		events.SemiJoins = append(events.SemiJoins,
			qb.SemiJoin{Name: "Products", ToTable: "nowhere", On: []qb.JoinKey{{Left: "x", Right: "y"}}},
			qb.SemiJoin{Name: "", ToTable: "commerces"},
			qb.SemiJoin{Name: "mixed", ToTable: "product_properties", On: []qb.JoinKey{
				{Left: "items.product_id", Right: "product_id"}, {Left: "attributes.value", Right: "name"},
				{Left: "value", Right: "launched_at"}, {Left: "items", Right: "nope"}, {Left: "items.nope", Right: "price"},
			}},
		)
	}, []string{
		`tables[1].semi_joins[1].name must be unique: "Products" is already declared`,
		"tables[1].semi_joins[1].to_table must name a table of the catalog",
		"tables[1].semi_joins[1].on[0].left must name a column of events that is neither RECORD nor repeated, or a sub-field of one of its RECORD columns (record.subField)",
		"tables[1].semi_joins[2].name should not be empty",
		"tables[1].semi_joins[2].on should not be empty",
		"tables[1].semi_joins[3].on[1].left must use the same RECORD column as the other keys of the semi-join",
		"tables[1].semi_joins[3].on[2]: value (FLOAT64) and launched_at (TIMESTAMP) cannot be compared",
		"tables[1].semi_joins[3].on[3].left must name a column of events that is neither RECORD nor repeated, or a sub-field of one of its RECORD columns (record.subField)",
		"tables[1].semi_joins[3].on[3].right must name a column of product_properties that is neither RECORD nor repeated",
		"tables[1].semi_joins[3].on[4].left must name a column of events that is neither RECORD nor repeated, or a sub-field of one of its RECORD columns (record.subField)",
	}},
}

const identMsg = "must be a valid SQL identifier: a letter or underscore, then letters, digits or underscores, at most 128 characters"

func TestCatalogRules(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		ctx, s := admin(acme.TenantID), svc(env)
		_, err := s.SetCatalog(ctx, demo.Catalog())
		dbtest.ExpectError(t, err, 404, dataset.MsgNotConfigured)
		mustSet(t, ctx, s, bigquery())
		for _, c := range catalogCases {
			t.Run(c.name, func(t *testing.T) {
				cat := demo.Catalog()
				c.change(&cat)
				_, err := s.SetCatalog(ctx, cat)
				dbtest.ExpectError(t, err, 400, c.msgs...)
			})
		}
		// Nothing was written; numeric key types compare across kinds.
		if d, err := s.GetCatalog(ctx); err != nil || len(d.Edges.Tables) != 0 {
			t.Fatalf("catalog after rejected writes: %v %v", d, err)
		}
		cat := demo.Catalog()
		cat.Tables[1].SemiJoins = append(cat.Tables[1].SemiJoins, qb.SemiJoin{Name: "by_quantity", ToTable: "product_properties",
			On: []qb.JoinKey{{Left: "items.quantity", Right: "price"}}})
		if _, err := s.SetCatalog(ctx, cat); err != nil {
			t.Fatalf("INT64 against NUMERIC: %v", err)
		}
	})
}

func TestCatalogRoundTripAndConversion(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme, beta := env.Bootstrap("Acme"), env.Bootstrap("Beta")
		ctx, s := admin(acme.TenantID), svc(env)
		mustSet(t, ctx, s, bigquery())

		// Trimmed names and a defaulted purpose are stored normalized.
		in := demo.Catalog()
		in.Tables[0].Name, in.Tables[0].Purpose = " commerces ", ""
		d, err := s.SetCatalog(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		want := demo.Catalog()
		want.Tables[0].Purpose = qb.PurposeOther
		if got := dataset.ToCatalog(d); !reflect.DeepEqual(*got, want) {
			t.Fatalf("SetCatalog returned\n%+v\nwant\n%+v", *got, want)
		}
		// Catalog (for the compiler, no permission needed) and GetCatalog agree.
		cat, row, err := s.Catalog(as(acme.TenantID))
		if err != nil || !reflect.DeepEqual(*cat, want) || row.ID != d.ID || row.Engine != "bigquery" {
			t.Fatalf("Catalog() = %+v, %v", cat, err)
		}
		got, err := s.GetCatalog(as(acme.TenantID, auth.RoleViewer))
		if err != nil || !reflect.DeepEqual(*dataset.ToCatalog(got), want) {
			t.Fatalf("GetCatalog = %v", err)
		}
		// Stored rows: sub-fields hang off their record with their own order; on keys as pairs.
		events := got.Edges.Tables[1]
		items := events.Edges.Columns[9]
		if items.Name != "items" || items.ParentID != nil || len(items.Edges.SubFields) != 3 ||
			*items.Edges.SubFields[2].ParentID != items.ID || items.Edges.SubFields[2].SortOrder != 2 ||
			items.Edges.SubFields[2].TableID != events.ID {
			t.Fatalf("items = %+v", items)
		}
		sj := events.Edges.SemiJoins[0]
		if sj.Edges.ToTable.Name != "product_properties" || !reflect.DeepEqual(sj.OnKeys, []map[string]string{{"left": "items.product_id", "right": "product_id"}}) {
			t.Fatalf("semi-join = %+v", sj)
		}

		// Replaced whole: a smaller catalog leaves no row of the old one; [] clears.
		if _, err := s.SetCatalog(ctx, oneTable()); err != nil {
			t.Fatal(err)
		}
		sys := env.App.DB.Client
		if n := sys.CatalogColumn.Query().CountX(ctx); n != 1 {
			t.Fatalf("%d columns left, want 1", n)
		}
		if n := sys.CatalogSemiJoin.Query().CountX(ctx); n != 0 {
			t.Fatalf("%d semi-joins left", n)
		}
		if d, err := s.SetCatalog(ctx, qb.Catalog{}); err != nil || len(d.Edges.Tables) != 0 || sys.CatalogTable.Query().CountX(ctx) != 0 {
			t.Fatalf("clear: %v", err)
		}

		// Tenancy: Beta has no dataset; Catalog without a tenant is a 404 too.
		_, _, err = s.Catalog(as(beta.TenantID))
		dbtest.ExpectError(t, err, 404, dataset.MsgNotConfigured)
		_, _, err = s.Catalog(context.Background())
		dbtest.ExpectError(t, err, 404, dataset.MsgNotConfigured)
		_, err = s.GetCatalog(admin(beta.TenantID))
		dbtest.ExpectError(t, err, 404, dataset.MsgNotConfigured)
		_, err = tenancy.Enter(as(acme.TenantID, auth.RoleViewer), "PUT /tenant-dataset/catalog")
		dbtest.ExpectError(t, err, 403, "Required permissions: dataset:manage")
		_, err = tenancy.Enter(as(acme.TenantID, auth.RoleOperator), "GET /tenant-dataset/catalog")
		dbtest.ExpectError(t, err, 403, "Required permissions: dataset:view")
	})
}

// TestCatalogReplacementIsAtomic fails the last insert of a replacement
// (after the old rows are deleted and the new tables and columns written):
// the old catalog must survive whole.
func TestCatalogReplacementIsAtomic(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		ctx, s := admin(acme.TenantID), svc(env)
		mustSet(t, ctx, s, bigquery())
		if _, err := s.SetCatalog(ctx, demo.Catalog()); err != nil {
			t.Fatal(err)
		}
		failing := false
		env.App.DB.Client.CatalogSemiJoin.Use(func(next ent.Mutator) ent.Mutator {
			return hook.CatalogSemiJoinFunc(func(ctx context.Context, m *ent.CatalogSemiJoinMutation) (ent.Value, error) {
				if failing && m.Op().Is(ent.OpCreate) {
					return nil, errors.New("injected failure")
				}
				return next.Mutate(ctx, m)
			})
		})
		failing = true
		replacement := demo.Catalog()
		replacement.Tables = replacement.Tables[1:]
		replacement.Tables[0].Columns = replacement.Tables[0].Columns[:3]
		replacement.Tables[0].DefaultTimeReferenceColumn = ""
		replacement.Tables[0].SemiJoins[0].On[0].Left = "commerce_id"
		if _, err := s.SetCatalog(ctx, replacement); err == nil || !strings.Contains(err.Error(), "injected failure") {
			t.Fatalf("err = %v", err)
		}
		failing = false
		d, err := s.GetCatalog(ctx)
		if err != nil || !reflect.DeepEqual(*dataset.ToCatalog(d), demo.Catalog()) {
			t.Fatalf("the old catalog did not survive: %v", err)
		}
	})
}
