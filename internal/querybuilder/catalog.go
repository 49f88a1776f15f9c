// Package querybuilder holds the query-block AST of audiences and event
// filters, the tenant catalog it is checked against, the validator (fail
// closed, errors point at the offending node) and the SQL compiler with its
// dialects: bigquery (the documented output), postgres and sqlite (used to
// execute previews on a tenant dataset).
package querybuilder

// FieldType is a CatalogFieldTypeEnum value, plus Record for repeated-record
// columns (attributes, items) whose SubFields carry the scalar types.
type FieldType string

// Catalog field types (SPEC.md CatalogFieldTypeEnum) and the record type.
const (
	TypeString     FieldType = "STRING"
	TypeTimestamp  FieldType = "TIMESTAMP"
	TypeBoolean    FieldType = "BOOLEAN"
	TypeFloat64    FieldType = "FLOAT64"
	TypeInt64      FieldType = "INT64"
	TypeNumeric    FieldType = "NUMERIC"
	TypeBigNumeric FieldType = "BIGNUMERIC"
	TypeRecord     FieldType = "RECORD"
)

// Catalog describes the tables of a tenant dataset that the query builder may
// reference. Identifiers in compiled SQL come only from here.
//
// Physical conventions the postgres and sqlite dialects rely on (the demo
// dataset follows them; a tenant's own dataset must too):
//   - postgres: TIMESTAMP columns are timestamptz, BOOLEAN boolean, INT64
//     bigint, FLOAT64 double precision, NUMERIC/BIGNUMERIC numeric, STRING
//     text; a repeated RECORD column is a jsonb array of objects whose keys
//     are the sub-field names.
//   - sqlite: TIMESTAMP columns are TEXT in UTC, fixed width
//     "YYYY-MM-DDTHH:MM:SS.SSSZ" (so text order is time order), BOOLEAN is
//     INTEGER 0/1, INT64 INTEGER, FLOAT64/NUMERIC/BIGNUMERIC REAL, STRING
//     TEXT; a repeated RECORD column is TEXT holding a JSON array of objects.
//   - both: a repeated RECORD column is never NULL (an empty array means no
//     element); JSON numbers inside records may be written without a
//     fraction (1.0 as 1), so compiled SQL casts sub-fields to their type;
//     sqlite timestamps have millisecond precision, postgres microsecond.
//   - location: on postgres the dataset lives in its own schema (names are
//     schema-qualified); on sqlite in a separate database file (plain names).
type Catalog struct {
	Tables []Table
}

// Table purposes.
const (
	PurposeEvents       = "EVENTS"
	PurposeSubjects     = "SUBJECTS"
	PurposeProducts     = "PRODUCTS"
	PurposeTransactions = "TRANSACTIONS"
	PurposeOther        = "OTHER"
)

// Table is one table of the dataset.
type Table struct {
	Name        string
	Description string
	// Purpose is EVENTS, SUBJECTS, PRODUCTS, TRANSACTIONS or OTHER.
	Purpose string
	// DefaultTimeReferenceColumn is the column a time window uses when its
	// reference is not given ("" when the table has none).
	DefaultTimeReferenceColumn string
	Columns                    []Column
	SemiJoins                  []SemiJoin
}

// Column is a top-level column, or a sub-field of a RECORD column.
type Column struct {
	Name        string
	Description string
	Type        FieldType
	// Repeated marks an array column (always true for RECORD columns).
	Repeated bool
	// IsIdentity marks the audience subject column (for example the commerce
	// id of the events table); audiences must expose it in a block.
	IsIdentity bool
	// IsDefaultTimeReference marks the audience default time column.
	IsDefaultTimeReference bool
	// SubFields are the scalar fields of a RECORD column.
	SubFields []Column
}

// SemiJoin declares a relation from a table (the events) to a related table
// (the product properties) usable by semiJoinPredicate in event filters.
type SemiJoin struct {
	// Name is the value of semiJoinPredicate.semiJoin.
	Name string
	// ToTable is the related table's name.
	ToTable string
	// On pairs a column of the from table (Left; "record.subfield" reaches a
	// sub-field of a repeated RECORD column) with a column of ToTable (Right).
	On []JoinKey
}

// JoinKey is one equality of a semi-join condition.
type JoinKey struct {
	Left  string
	Right string
}

// Table returns the catalog table called name.
func (c *Catalog) Table(name string) (*Table, bool) {
	return named(c.Tables, name, func(t *Table) string { return t.Name })
}

// Column returns the top-level column called name.
func (t *Table) Column(name string) (*Column, bool) {
	return named(t.Columns, name, func(c *Column) string { return c.Name })
}

// SubField returns the sub-field called name of a RECORD column.
func (c *Column) SubField(name string) (*Column, bool) {
	return named(c.SubFields, name, func(c *Column) string { return c.Name })
}

// SemiJoin returns the semi-join called name.
func (t *Table) SemiJoin(name string) (*SemiJoin, bool) {
	return named(t.SemiJoins, name, func(s *SemiJoin) string { return s.Name })
}

// named returns the first element of items whose name (nameOf) is name.
func named[T any](items []T, name string, nameOf func(*T) string) (*T, bool) {
	for i := range items {
		if nameOf(&items[i]) == name {
			return &items[i], true
		}
	}
	return nil, false
}
