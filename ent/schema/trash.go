package schema

import (
	"encoding/json"
	"time"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/google/uuid"
)

// TrashRecord indexes one archived record so it can be listed, restored or purged.
type TrashRecord struct{ ent.Schema }

// Mixin of the TrashRecord.
func (TrashRecord) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the TrashRecord.
func (TrashRecord) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("kind").Comment("Kind of the archived record.").Annotations(trashKindDoc).
			Values(
				"AUDIENCE_CRITERIA",
				"COMMERCE",
				"OPERATOR",
				"ROUTE",
				"SUPERVISOR",
				"ACTIVITY_GENERATION_CONFIG",
				"EVENT_CRITERIA",
				"GENERATION_RULE",
			).
			Immutable(),
		// record_id is the id of the archived row in its own table (same id on restore).
		field.UUID("record_id", uuid.UUID{}).Comment("Id of the archived record (the same id on restore).").Immutable(),
		// project_id is set for project-owned kinds; a plain column, not an edge.
		field.UUID("project_id", uuid.UUID{}).Comment("The record's project for project-owned kinds; null otherwise.").Optional().Nillable().Immutable(),
		field.String("label").Comment("Display name of the record, captured at deletion."),
		// snapshot is the record as read at deletion time (display only; the row itself stays archived).
		field.JSON("snapshot", json.RawMessage{}).Optional().
			Annotations(entgql.Skip()),
		field.UUID("deleted_by", uuid.UUID{}).Comment("The user who deleted the record; null for the system.").Optional().Nillable().Immutable(),
		field.Time("deleted_at").Comment("When the record was deleted.").Default(time.Now).Immutable().
			Annotations(entgql.OrderField("DELETED_AT")),
		field.Time("purge_after").Comment("When the record is purged for good (deletedAt plus the tenant's retention window).").
			Annotations(entgql.OrderField("PURGE_AFTER")),
	}
}

// Indexes of the TrashRecord.
func (TrashRecord) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("kind", "record_id").Unique(),
		// The list, newest first: all or one kind.
		listIndex("tenant_id", "deleted_at", "id"),
		listIndex("tenant_id", "kind", "deleted_at", "id"),
		index.Fields("purge_after"),
	}
}

// Annotations of the TrashRecord.
func (TrashRecord) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("An archived (deleted) record in the trash (REST `/api/trash`): it can be restored, with the same id, until purgeAfter."), entgql.RelayConnection(), entgql.QueryField("trashRecords").Description("The trash of the active tenant (REST `GET /api/trash`): archived records that can still be restored.")}
}

// TrashSetting holds a tenant's trash retention window (one row per tenant).
type TrashSetting struct{ ent.Schema }

// Mixin of the TrashSetting.
func (TrashSetting) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, TenantMixin{}}
}

// Fields of the TrashSetting.
func (TrashSetting) Fields() []ent.Field {
	return []ent.Field{
		field.Int("retention_days").Comment("Days an archived record stays restorable before it is purged.").Default(30).Positive(),
	}
}

// Indexes of the TrashSetting.
func (TrashSetting) Indexes() []ent.Index {
	return []ent.Index{
		// StorageKey avoids clashing with the TenantMixin's plain tenant_id index name.
		index.Fields("tenant_id").Unique().StorageKey("trashsetting_tenant_id_unique"),
	}
}

// Annotations of the TrashSetting.
func (TrashSetting) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A tenant's trash retention window (one per tenant)."), entgql.RelayConnection()}
}
