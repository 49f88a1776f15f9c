package rest

import (
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/trash"
)

// trashHandlers maps the REST lines of tenancy.trashMatrix to their handlers.
func (a *api) trashHandlers() map[string]handler {
	return map[string]handler{
		"GET /trash":               a.listTrash,
		"GET /trash/settings":      a.getTrashSettings,
		"PATCH /trash/settings":    a.updateTrashSettings,
		"GET /trash/{id}":          a.getTrash,
		"POST /trash/{id}/restore": a.restoreTrash,
		"DELETE /trash/{id}":       a.purgeTrash,
	}
}

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

func (a *api) listTrash(w http.ResponseWriter, r *http.Request) error {
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	l, err := a.Trash.List(r.Context(), trash.Filter{Kind: r.URL.Query().Get("kind")}, p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentPage(l, presentTrash))
	return nil
}

func (a *api) getTrash(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	rec, err := a.Trash.Get(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentTrash(rec))
	return nil
}

func (a *api) restoreTrash(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	rec, err := a.Trash.Restore(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentTrash(rec))
	return nil
}

func (a *api) purgeTrash(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	if err := a.Trash.Purge(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *api) getTrashSettings(w http.ResponseWriter, r *http.Request) error {
	s, err := a.Trash.Settings(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, trashSettingsDTO{RetentionDays: s.RetentionDays})
	return nil
}

func (a *api) updateTrashSettings(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "retention_days")
	if err != nil {
		return err
	}
	days, _ := dispatchInt(b, "retention_days", trash.MsgRetentionInt)
	if err := b.err(); err != nil {
		return err
	}
	s, err := a.Trash.UpdateSettings(r.Context(), trash.SettingsInput{RetentionDays: days})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, trashSettingsDTO{RetentionDays: s.RetentionDays})
	return nil
}
