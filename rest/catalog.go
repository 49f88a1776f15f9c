package rest

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/catalog"
)

// Messages of catalog body decoding.
const (
	msgCatCodeString     = "code must be a string"
	msgCatLabelString    = "label must be a string"
	msgCatIsActiveBool   = "is_active must be a boolean value"
	msgCatItemsArray     = "items must be an array"
	msgCatItemObjectFmt  = "items.%d must be an object"
	msgCatItemUnknownFmt = "items.%d.property %s should not exist"
)

// catalogHandlers maps the REST lines of tenancy.catalogMatrix to their handlers.
func (a *api) catalogHandlers() map[string]handler {
	return map[string]handler{
		"GET /activity-reason-configs":          a.listReasonConfigs,
		"GET /activity-reason-configs/defaults": a.reasonDefaults,
		"POST /activity-reason-configs":         a.createReasonConfig,
		"POST /activity-reason-configs/bulk":    a.bulkCreateReasonConfigs,
		"PATCH /activity-reason-configs/{id}":   a.updateReasonConfig,
		"DELETE /activity-reason-configs/{id}":  a.deactivateReasonConfig,
		"GET /retention-status-configs":         a.listStatusConfigs,
		"GET /retention-status-configs/{id}":    a.getStatusConfig,
		"POST /retention-status-configs":        a.createStatusConfig,
		"PATCH /retention-status-configs/{id}":  a.updateStatusConfig,
		"DELETE /retention-status-configs/{id}": a.deactivateStatusConfig,
	}
}

// reasonConfigDTO is the SPEC.md activity reason config shape.
type reasonConfigDTO struct {
	ID        uuid.UUID `json:"id"`
	Code      string    `json:"code"`
	Label     string    `json:"label"`
	IsActive  bool      `json:"isActive"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

func presentReasonConfig(r *ent.ActivityReasonConfig) reasonConfigDTO {
	return reasonConfigDTO{ID: r.ID, Code: r.Code, Label: r.Label, IsActive: r.IsActive, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

// statusConfigDTO is the designed retention status config shape.
type statusConfigDTO struct {
	ID          uuid.UUID `json:"id"`
	Code        string    `json:"code"`
	Label       string    `json:"label"`
	Stage       string    `json:"stage"`
	Description *string   `json:"description"`
	IsActive    bool      `json:"isActive"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

func presentStatusConfig(r *ent.RetentionStatusConfig) statusConfigDTO {
	var desc *string
	if r.Description != "" {
		desc = &r.Description
	}
	return statusConfigDTO{ID: r.ID, Code: r.Code, Label: r.Label, Stage: string(r.Stage), Description: desc,
		IsActive: r.IsActive, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

func presentAll[S, T any](items []S, present func(S) T) []T {
	out := make([]T, len(items))
	for i, it := range items {
		out[i] = present(it)
	}
	return out
}

// ---- activity reason configs ----

func (a *api) listReasonConfigs(w http.ResponseWriter, r *http.Request) error {
	items, err := a.Catalog.ListReasons(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentAll(items, presentReasonConfig))
	return nil
}

func (a *api) reasonDefaults(w http.ResponseWriter, r *http.Request) error {
	defs, err := a.Catalog.ReasonDefaults(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, defs)
	return nil
}

func (a *api) createReasonConfig(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "code", "label")
	if err != nil {
		return err
	}
	var in catalog.ReasonInput
	in.Code, _ = b.str("code", msgCatCodeString)
	in.Label, _ = b.str("label", msgCatLabelString)
	if err := b.err(); err != nil {
		return err
	}
	c, err := a.Catalog.CreateReason(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentReasonConfig(c))
	return nil
}

func (a *api) bulkCreateReasonConfigs(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "items")
	if err != nil {
		return err
	}
	var raws []json.RawMessage
	if raw, ok := b.fields["items"]; ok && string(raw) != "null" {
		if json.Unmarshal(raw, &raws) != nil {
			b.fail(msgCatItemsArray)
		}
	}
	items := make([]catalog.ReasonInput, len(raws))
	for i, raw := range raws {
		ib := &body{fields: map[string]json.RawMessage{}}
		if err := json.Unmarshal(raw, &ib.fields); err != nil || ib.fields == nil {
			b.fail(fmt.Sprintf(msgCatItemObjectFmt, i))
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(ib.fields)) {
			if name != "code" && name != "label" {
				b.fail(fmt.Sprintf(msgCatItemUnknownFmt, i, name))
			}
		}
		items[i].Code, _ = ib.str("code", msgCatCodeString)
		items[i].Label, _ = ib.str("label", msgCatLabelString)
		for _, m := range ib.msgs {
			b.fail(fmt.Sprintf("items.%d.%s", i, m))
		}
	}
	if err := b.err(); err != nil {
		return err
	}
	created, err := a.Catalog.BulkCreateReasons(r.Context(), items)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentAll(created, presentReasonConfig))
	return nil
}

func (a *api) updateReasonConfig(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "label", "is_active")
	if err != nil {
		return err
	}
	var in catalog.ReasonPatch
	in.Label = b.optStr("label", msgCatLabelString)
	in.IsActive = b.boolean("is_active", msgCatIsActiveBool)
	if err := b.err(); err != nil {
		return err
	}
	c, err := a.Catalog.UpdateReason(r.Context(), id, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentReasonConfig(c))
	return nil
}

func (a *api) deactivateReasonConfig(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	if _, err := a.Catalog.DeactivateReason(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// ---- retention status configs ----

func (a *api) listStatusConfigs(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	f := catalog.StatusFilter{Stage: q.Get("stage")}
	switch q.Get("is_active") {
	case "":
	case "true":
		t := true
		f.IsActive = &t
	case "false":
		f.IsActive = new(bool)
	default:
		return apperr.Validation(msgCatIsActiveBool)
	}
	items, err := a.Catalog.ListStatuses(r.Context(), f)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentAll(items, presentStatusConfig))
	return nil
}

func (a *api) getStatusConfig(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	c, err := a.Catalog.GetStatus(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentStatusConfig(c))
	return nil
}

func (a *api) createStatusConfig(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "code", "label", "stage", "description")
	if err != nil {
		return err
	}
	var in catalog.StatusInput
	in.Code, _ = b.str("code", msgCatCodeString)
	in.Label, _ = b.str("label", msgCatLabelString)
	in.Stage, _ = b.str("stage", catalog.MsgStageValues)
	in.Description = b.optStr("description", msgDescriptionString)
	if err := b.err(); err != nil {
		return err
	}
	c, err := a.Catalog.CreateStatus(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentStatusConfig(c))
	return nil
}

func (a *api) updateStatusConfig(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "label", "stage", "description", "is_active")
	if err != nil {
		return err
	}
	var in catalog.StatusPatch
	in.Label = b.optStr("label", msgCatLabelString)
	in.Stage = b.optStr("stage", catalog.MsgStageValues)
	in.Description = b.optStr("description", msgDescriptionString)
	in.IsActive = b.boolean("is_active", msgCatIsActiveBool)
	if err := b.err(); err != nil {
		return err
	}
	c, err := a.Catalog.UpdateStatus(r.Context(), id, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentStatusConfig(c))
	return nil
}

func (a *api) deactivateStatusConfig(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	if _, err := a.Catalog.DeactivateStatus(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
