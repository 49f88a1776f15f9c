package querybuilder

import (
	"errors"
	"testing"
)

// testCatalog is the catalog of the test dataset: the demo-like tables plus
// a few oddities (a semi-join on a scalar key, BIGNUMERIC, a table without
// time reference, identifiers that need escaping).
func testCatalog() *Catalog {
	return &Catalog{Tables: []Table{
		{
			Name: "commerces", Purpose: "SUBJECTS", DefaultTimeReferenceColumn: "created_at",
			Columns: []Column{
				{Name: "commerce_id", Type: TypeString, IsIdentity: true},
				{Name: "name", Type: TypeString},
				{Name: "city", Type: TypeString},
				{Name: "segment", Type: TypeString},
				{Name: "created_at", Type: TypeTimestamp, IsDefaultTimeReference: true},
				{Name: "is_active", Type: TypeBoolean},
				{Name: "credit_limit", Type: TypeNumeric},
			},
		},
		{
			Name: "events", Purpose: "EVENTS", DefaultTimeReferenceColumn: "event_timestamp",
			Columns: []Column{
				{Name: "event_id", Type: TypeString},
				{Name: "commerce_id", Type: TypeString, IsIdentity: true},
				{Name: "event_name", Type: TypeString},
				{Name: "event_timestamp", Type: TypeTimestamp, IsDefaultTimeReference: true},
				{Name: "platform", Type: TypeString},
				{Name: "session_id", Type: TypeString},
				{Name: "value", Type: TypeFloat64},
				{Name: "quantity", Type: TypeInt64},
				{Name: "attributes", Type: TypeRecord, Repeated: true, SubFields: []Column{
					{Name: "key", Type: TypeString},
					{Name: "value", Type: TypeString},
				}},
				{Name: "items", Type: TypeRecord, Repeated: true, SubFields: []Column{
					{Name: "product_id", Type: TypeString},
					{Name: "quantity", Type: TypeInt64},
					{Name: "price", Type: TypeFloat64},
				}},
			},
			SemiJoins: []SemiJoin{{Name: "products", ToTable: "product_properties", On: []JoinKey{{Left: "items.product_id", Right: "product_id"}}}},
		},
		{
			Name: "product_properties", Purpose: "PRODUCTS", DefaultTimeReferenceColumn: "launched_at",
			Columns: []Column{
				{Name: "product_id", Type: TypeString},
				{Name: "name", Type: TypeString},
				{Name: "category", Type: TypeString},
				{Name: "brand", Type: TypeString},
				{Name: "price", Type: TypeNumeric},
				{Name: "is_private_label", Type: TypeBoolean},
				{Name: "launched_at", Type: TypeTimestamp},
			},
		},
		{
			Name: "transactions", Purpose: "TRANSACTIONS", DefaultTimeReferenceColumn: "transacted_at",
			Columns: []Column{
				{Name: "transaction_id", Type: TypeString},
				{Name: "commerce_id", Type: TypeString, IsIdentity: true},
				{Name: "amount", Type: TypeNumeric},
				{Name: "currency", Type: TypeString},
				{Name: "status", Type: TypeString},
				{Name: "transacted_at", Type: TypeTimestamp, IsDefaultTimeReference: true},
				{Name: "items_count", Type: TypeInt64},
			},
		},
		{
			Name: "page_views", Purpose: "EVENTS", DefaultTimeReferenceColumn: "viewed_at",
			Columns: []Column{
				{Name: "commerce_id", Type: TypeString},
				{Name: "product_id", Type: TypeString},
				{Name: "viewed_at", Type: TypeTimestamp},
				{Name: "tags", Type: TypeString, Repeated: true},
			},
			SemiJoins: []SemiJoin{{Name: "viewed_product", ToTable: "product_properties", On: []JoinKey{{Left: "product_id", Right: "product_id"}}}},
		},
		{
			Name: "ledger", Purpose: "OTHER",
			Columns: []Column{
				{Name: "entry_id", Type: TypeString},
				{Name: "balance", Type: TypeBigNumeric},
				{Name: "booked_at", Type: TypeTimestamp},
				{Name: "odd`name\"col", Type: TypeString},
			},
		},
	}}
}

// decodeDef decodes a queryBlocks array, failing the test on any issue.
func decodeDef(t testing.TB, js string) Definition {
	t.Helper()
	def, issues := DecodeBlocks([]byte(js), RootPath)
	if len(issues) > 0 {
		t.Fatalf("decode: %v", issues)
	}
	return def
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }
