package rest

import (
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/trash"
)

// trashDTO is a trashed record (designed shape).
type trashDTO struct {
	ID         uuid.UUID  `json:"id"`
	Kind       string     `json:"kind"`
	RecordID   uuid.UUID  `json:"recordId"`
	ProjectID  *uuid.UUID `json:"projectId"`
	Label      string     `json:"label"`
	DeletedBy  *uuid.UUID `json:"deletedBy"`
	DeletedAt  time.Time  `json:"deletedAt"`
	PurgeAfter time.Time  `json:"purgeAfter"`
}

func presentTrash(r *ent.TrashRecord) trashDTO {
	return trashDTO{ID: r.ID, Kind: string(r.Kind), RecordID: r.RecordID, ProjectID: r.ProjectID, Label: r.Label,
		DeletedBy: r.DeletedBy, DeletedAt: r.DeletedAt, PurgeAfter: r.PurgeAfter}
}

type trashSettingsDTO struct {
	RetentionDays int `json:"retentionDays"`
}

func presentTrashSettings(s trash.Settings) trashSettingsDTO {
	return trashSettingsDTO{RetentionDays: s.RetentionDays}
}

func trashFilter(q *query) trash.Filter { return trash.Filter{Kind: q.Get("kind")} }

var trashSettingsBody = bodyOf(func(b *body) trash.SettingsInput {
	return trash.SettingsInput{RetentionDays: b.integer("retention_days").Ptr()}
}, "retention_days")
