package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/google/uuid"
)

// TenantDataset is the analytics store a tenant's audiences and event filters compile against.
type TenantDataset struct{ ent.Schema }

// Mixin of the TenantDataset.
func (TenantDataset) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the TenantDataset.
func (TenantDataset) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("engine").Comment("SQL dialect and driver of the dataset.").Annotations(datasetEngineDoc).Values("bigquery", "postgres", "sqlite"),
		// connection is the DSN or file path (or BigQuery credentials), encrypted by the service.
		field.Bytes("connection").Sensitive().Optional().
			Annotations(entgql.Skip()),
		field.String("schema_name").Comment("Schema (PostgreSQL) holding the tables; empty for the engine's default.").Optional(),
		field.String("bigquery_project").Comment("BigQuery project id; empty for other engines.").Optional(),
		field.String("bigquery_dataset").Comment("BigQuery dataset id; empty for other engines.").Optional(),
		// managed datasets are hosted by the service itself (the demo): their
		// engine, connection and schema are the service's to set, never the tenant's.
		field.Bool("managed").Default(false).
			Comment("Whether the service hosts this dataset itself (reten demo): its engine, connection and schema cannot be changed.").
			Annotations(entgql.Skip(entgql.SkipWhereInput, entgql.SkipMutationCreateInput, entgql.SkipMutationUpdateInput)),
	}
}

// Edges of the TenantDataset.
func (TenantDataset) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("tables", CatalogTable.Type).Comment("The catalog tables exposed to the query builder.").Ref("dataset"),
	}
}

// Indexes of the TenantDataset.
func (TenantDataset) Indexes() []ent.Index {
	return []ent.Index{
		// One dataset per tenant. StorageKey avoids clashing with the
		// TenantMixin's plain tenant_id index name.
		index.Fields("tenant_id").Unique().StorageKey("tenantdataset_tenant_id_unique"),
	}
}

// Annotations of the TenantDataset.
func (TenantDataset) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("The analytics store a tenant's audiences and event filters compile against (REST `/api/tenant-dataset`), with its catalog of tables."), entgql.RelayConnection()}
}

// CatalogTable is a table of the tenant dataset exposed to the query builder.
type CatalogTable struct{ ent.Schema }

// Mixin of the CatalogTable.
func (CatalogTable) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the CatalogTable.
func (CatalogTable) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("dataset_id", uuid.UUID{}).Comment("The dataset the table belongs to.").Immutable(),
		field.String("name").Comment("Table name in the dataset.").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.String("description").Comment("What the table holds; empty when none.").Optional(),
		field.Enum("purpose").Comment("What kind of rows the table holds.").Annotations(tablePurposeDoc).Values("EVENTS", "SUBJECTS", "PRODUCTS", "TRANSACTIONS", "OTHER").
			Default("OTHER"),
		field.String("default_time_reference_column").Comment("The column a time window uses when none is given (event tables); empty when none.").Optional(),
	}
}

// Edges of the CatalogTable.
func (CatalogTable) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("dataset", TenantDataset.Type).Comment("The dataset the table belongs to.").Field("dataset_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.From("columns", CatalogColumn.Type).Comment("The table's columns.").Ref("table"),
		edge.From("semi_joins", CatalogSemiJoin.Type).Comment("Relations from this table usable in a semiJoinPredicate.").Ref("from_table"),
	}
}

// Indexes of the CatalogTable.
func (CatalogTable) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("dataset_id", "name").Unique(),
	}
}

// Annotations of the CatalogTable.
func (CatalogTable) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A table of the tenant dataset exposed to the query builder (the catalog, REST `/api/tenant-dataset/catalog`)."), entgql.RelayConnection()}
}

// CatalogColumn is a column of a catalog table, or a sub-field of a RECORD column.
type CatalogColumn struct{ ent.Schema }

// Mixin of the CatalogColumn.
func (CatalogColumn) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the CatalogColumn.
func (CatalogColumn) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("table_id", uuid.UUID{}).Comment("The table the column belongs to.").Immutable(),
		field.UUID("parent_id", uuid.UUID{}).Comment("The RECORD column this sub-field belongs to; null for a top-level column.").Optional().Nillable().Immutable(),
		field.String("name").Comment("Column (or sub-field) name.").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.Enum("type").Comment("Data type; it decides which comparison operators the column accepts.").Annotations(columnTypeDoc).
			Values("STRING", "TIMESTAMP", "BOOLEAN", "FLOAT64", "INT64", "NUMERIC", "BIGNUMERIC", "RECORD"),
		field.Bool("is_repeated").Comment("Whether the column holds a list (a repeated record such as attributes or items).").Default(false),
		field.Bool("is_identity").Comment("Whether the column identifies the subject (audiences: at least one block must expose it).").Default(false),
		field.Bool("is_default_time_reference").Comment("Whether the column is the default time reference of a time window (audiences).").Default(false),
		field.String("description").Comment("What the column holds; empty when none.").Optional(),
		field.Int("sort_order").Comment("Position of the column in the table (ascending).").Default(0).
			Annotations(entgql.OrderField("SORT_ORDER")),
	}
}

// Edges of the CatalogColumn.
func (CatalogColumn) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("table", CatalogTable.Type).Comment("The table the column belongs to.").Field("table_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("parent", CatalogColumn.Type).Comment("The RECORD column this sub-field belongs to; null for a top-level column.").Field("parent_id").Unique().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.From("sub_fields", CatalogColumn.Type).Comment("The sub-fields of a RECORD column.").Ref("parent"),
	}
}

// Indexes of the CatalogColumn.
func (CatalogColumn) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("table_id", "parent_id", "name").Unique(),
		// NULL parent_id is distinct in unique indexes on both engines, so
		// top-level names need their own rule.
		index.Fields("table_id", "name").Unique().
			Annotations(entsql.IndexWhere("parent_id IS NULL")),
		index.Fields("parent_id"),
	}
}

// Annotations of the CatalogColumn.
func (CatalogColumn) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A column of a catalog table, or a sub-field of a RECORD column."), entgql.RelayConnection()}
}

// CatalogSemiJoin declares a relation from one catalog table to another
// (for example events to product properties) usable in semiJoinPredicate.
type CatalogSemiJoin struct{ ent.Schema }

// Mixin of the CatalogSemiJoin.
func (CatalogSemiJoin) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the CatalogSemiJoin.
func (CatalogSemiJoin) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("from_table_id", uuid.UUID{}).Comment("The table the relation starts from.").Immutable(),
		field.UUID("to_table_id", uuid.UUID{}).Comment("The related table."),
		field.String("name").Comment("Relation name, used as `semiJoin` in a semiJoinPredicate.").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		// on_keys is the join condition: a list of {"left": <from column>,
		// "right": <to column>} pairs. It is a plain map (not a struct declared
		// here) because a Go type from this package would create the import
		// cycle ent -> ent/schema -> ent/privacy -> ent.
		field.JSON("on_keys", []map[string]string{}).
			Annotations(entgql.Skip()),
	}
}

// Edges of the CatalogSemiJoin.
func (CatalogSemiJoin) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("from_table", CatalogTable.Type).Comment("The table the relation starts from.").Field("from_table_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("to_table", CatalogTable.Type).Comment("The related table.").Field("to_table_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the CatalogSemiJoin.
func (CatalogSemiJoin) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("from_table_id", "name").Unique(),
		index.Fields("to_table_id"),
	}
}

// Annotations of the CatalogSemiJoin.
func (CatalogSemiJoin) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A relation from one catalog table to another (for example events to product properties), usable in an event filter's semiJoinPredicate."), entgql.RelayConnection()}
}

// EventFilter (event criteria) is a project's saved query-builder definition over events.
type EventFilter struct{ ent.Schema }

// Mixin of the EventFilter.
func (EventFilter) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}, ProjectMixin{}, ArchiveMixin{}}
}

// Fields of the EventFilter.
func (EventFilter) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").Comment("Event filter name.").NotEmpty().
			Annotations(entgql.OrderField("NAME")),
		field.String("description").Comment("Free-text description; null when none.").Optional().Nillable(),
		field.Bool("is_active").Comment("Whether the event filter is active.").Default(true),
		field.UUID("owner_id", uuid.UUID{}).Comment("The user who created the event filter; null when created by the system.").Optional().Nillable(),
		field.UUID("updated_by", uuid.UUID{}).Comment("The user who last changed the event filter; null when never changed by a user.").Optional().Nillable(),
	}
}

// Edges of the EventFilter.
func (EventFilter) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("query_blocks", QueryBlock.Type).Comment("The definition's query blocks.").Ref("event_filter"),
	}
}

// Indexes of the EventFilter.
func (EventFilter) Indexes() []ent.Index {
	// The project's list, newest first; search reads the name.
	return []ent.Index{liveListIndex("tenant_id", "project_id", "created_at", "id", "name")}
}

// Annotations of the EventFilter.
func (EventFilter) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("An event filter (event criteria, REST `/api/event-criterias`): a project's saved query-builder definition over events, compiled to SQL. It projects events, not subjects."), entgql.RelayConnection()}
}
