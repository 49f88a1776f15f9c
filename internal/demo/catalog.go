package demo

import qb "github.com/reten-io/reten/internal/querybuilder"

// Table names of the demo dataset (plain on sqlite, inside the schema on postgres).
const (
	TableCommerces         = "commerces"
	TableEvents            = "events"
	TableProductProperties = "product_properties"
	TableTransactions      = "transactions"
)

// SemiJoinProducts is the semi-join from the events' items to the product properties.
const SemiJoinProducts = "products"

// Catalog returns the catalog of the demo dataset. Each call builds a fresh
// value, so callers may modify it (for example to store it as a tenant's
// catalog). Column order is the physical column order.
func Catalog() qb.Catalog {
	return qb.Catalog{Tables: []qb.Table{
		{
			Name:                       TableCommerces,
			Description:                "Commerces (shops, pharmacies, restaurants...) that buy from the distributor: the audience subjects.",
			Purpose:                    "SUBJECTS",
			DefaultTimeReferenceColumn: "created_at",
			Columns: []qb.Column{
				{Name: "commerce_id", Type: qb.TypeString, IsIdentity: true, Description: "Unique commerce identifier."},
				{Name: "external_id", Type: qb.TypeString, Description: "Identifier of the commerce in the distributor's ERP; null when not yet synchronised."},
				{Name: "name", Type: qb.TypeString, Description: "Commercial name of the commerce."},
				{Name: "city", Type: qb.TypeString, Description: "City where the commerce is located."},
				{Name: "segment", Type: qb.TypeString, Description: "Business segment: grocery, minimarket, pharmacy, bakery, liquor_store or restaurant."},
				{Name: "channel", Type: qb.TypeString, Description: "Sales channel: traditional, modern, horeca or wholesale."},
				{Name: "created_at", Type: qb.TypeTimestamp, IsDefaultTimeReference: true, Description: "When the commerce registered with the distributor."},
				{Name: "is_active", Type: qb.TypeBoolean, Description: "Whether the commerce account is currently active."},
				{Name: "credit_limit", Type: qb.TypeNumeric, Description: "Credit limit granted to the commerce, in USD."},
			},
		},
		{
			Name:                       TableEvents,
			Description:                "Behavioural events of the commerces in the ordering app, the web shop and the sales-rep tool.",
			Purpose:                    "EVENTS",
			DefaultTimeReferenceColumn: "event_timestamp",
			Columns: []qb.Column{
				{Name: "event_id", Type: qb.TypeString, Description: "Unique event identifier."},
				{Name: "commerce_id", Type: qb.TypeString, IsIdentity: true, Description: "Commerce that produced the event."},
				{Name: "event_name", Type: qb.TypeString, Description: "Event name: app_open, view_item, add_to_cart, purchase, order_canceled or visit_registered."},
				{Name: "event_timestamp", Type: qb.TypeTimestamp, IsDefaultTimeReference: true, Description: "When the event happened (UTC)."},
				{Name: "platform", Type: qb.TypeString, Description: "Where the event came from: android, ios, web, backend or sales_app."},
				{Name: "session_id", Type: qb.TypeString, Description: "App or web session of the event; null for backend and sales-rep events."},
				{Name: "value", Type: qb.TypeFloat64, Description: "Monetary value of the event's items in USD; null when the event carries no items."},
				{Name: "quantity", Type: qb.TypeInt64, Description: "Total units of the event's items; null when the event carries no items."},
				{Name: "attributes", Type: qb.TypeRecord, Repeated: true, Description: "Free key/value attributes of the event (utm_source, screen, payment_method...).",
					SubFields: []qb.Column{
						{Name: "key", Type: qb.TypeString, Description: "Attribute name."},
						{Name: "value", Type: qb.TypeString, Description: "Attribute value."},
					}},
				{Name: "items", Type: qb.TypeRecord, Repeated: true, Description: "Products involved in the event (viewed, added to the cart, purchased or canceled).",
					SubFields: []qb.Column{
						{Name: "product_id", Type: qb.TypeString, Description: "Product identifier (see product_properties)."},
						{Name: "quantity", Type: qb.TypeInt64, Description: "Units of the product."},
						{Name: "price", Type: qb.TypeFloat64, Description: "Unit price paid or shown, in USD."},
					}},
			},
			SemiJoins: []qb.SemiJoin{{
				Name:    SemiJoinProducts,
				ToTable: TableProductProperties,
				On:      []qb.JoinKey{{Left: "items.product_id", Right: "product_id"}},
			}},
		},
		{
			Name:                       TableProductProperties,
			Description:                "Catalogue of the products the distributor sells.",
			Purpose:                    "PRODUCTS",
			DefaultTimeReferenceColumn: "launched_at",
			Columns: []qb.Column{
				{Name: "product_id", Type: qb.TypeString, Description: "Unique product identifier."},
				{Name: "name", Type: qb.TypeString, Description: "Product name as shown in the app."},
				{Name: "category", Type: qb.TypeString, Description: "Product category: beverages, snacks, dairy, bakery, personal_care, home_cleaning, liquor or pantry."},
				{Name: "brand", Type: qb.TypeString, Description: "Brand of the product."},
				{Name: "price", Type: qb.TypeNumeric, Description: "List unit price in USD."},
				{Name: "is_private_label", Type: qb.TypeBoolean, Description: "Whether the product is the distributor's own brand."},
				{Name: "launched_at", Type: qb.TypeTimestamp, Description: "When the product was added to the catalogue."},
			},
		},
		{
			Name:                       TableTransactions,
			Description:                "Orders invoiced by the distributor's ERP, whatever the channel they were placed through.",
			Purpose:                    "TRANSACTIONS",
			DefaultTimeReferenceColumn: "transacted_at",
			Columns: []qb.Column{
				{Name: "transaction_id", Type: qb.TypeString, Description: "Unique transaction identifier."},
				{Name: "commerce_id", Type: qb.TypeString, IsIdentity: true, Description: "Commerce that placed the order."},
				{Name: "amount", Type: qb.TypeNumeric, Description: "Invoiced amount."},
				{Name: "currency", Type: qb.TypeString, Description: "ISO 4217 currency code of the amount."},
				{Name: "status", Type: qb.TypeString, Description: "Transaction status: completed, pending, canceled or refunded."},
				{Name: "transacted_at", Type: qb.TypeTimestamp, IsDefaultTimeReference: true, Description: "When the order was invoiced (UTC)."},
				{Name: "items_count", Type: qb.TypeInt64, Description: "Number of order lines."},
			},
		},
	}}
}

// nullable lists the columns that may hold NULL; every other column is NOT
// NULL (repeated records are never NULL: an empty array stands for none).
var nullable = map[string]bool{
	TableCommerces + ".external_id": true,
	TableEvents + ".session_id":     true,
	TableEvents + ".value":          true,
	TableEvents + ".quantity":       true,
}

// indexes are created after the rows are loaded; they serve previews, which
// filter by subject and time.
var indexes = map[string][][]string{
	TableEvents:       {{"commerce_id", "event_timestamp"}, {"event_name", "event_timestamp"}},
	TableTransactions: {{"commerce_id", "transacted_at"}},
}
