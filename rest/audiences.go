package rest

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/audience"
)

// audienceDTO is the audience criteria detail (SPEC.md "Audience criteria").
type audienceDTO struct {
	ID           uuid.UUID        `json:"id"`
	ProjectID    uuid.UUID        `json:"projectId"`
	Name         string           `json:"name"`
	Description  *string          `json:"description"`
	IsActive     bool             `json:"isActive"`
	IsRoot       bool             `json:"isRoot"`
	OwnerID      *uuid.UUID       `json:"ownerId"`
	UpdatedBy    *uuid.UUID       `json:"updatedBy"`
	CreatedAt    time.Time        `json:"createdAt"`
	UpdatedAt    time.Time        `json:"updatedAt"`
	QueryBlocks  []queryBlockDTO  `json:"queryBlocks"`
	Compositions []compositionDTO `json:"compositions"`
}

// queryBlockDTO is a query block; its clauses are the stored JSON documents.
type queryBlockDTO struct {
	ID          uuid.UUID       `json:"id"`
	Order       int             `json:"order"`
	SetOperator *string         `json:"setOperator"`
	From        json.RawMessage `json:"from"`
	Select      json.RawMessage `json:"select"`
	TimeWindow  json.RawMessage `json:"timeWindow"`
	Where       json.RawMessage `json:"where"`
	GroupBy     json.RawMessage `json:"groupBy"`
	Having      json.RawMessage `json:"having"`
}

type compositionDTO struct {
	ID                  uuid.UUID `json:"id"`
	OperandCriteriaID   uuid.UUID `json:"operandCriteriaId"`
	OperandCriteriaName string    `json:"operandCriteriaName"`
	SetOperator         string    `json:"setOperator"`
}

func presentQueryBlock(b *ent.QueryBlock) queryBlockDTO {
	dto := queryBlockDTO{ID: b.ID, Order: b.Order, From: b.FromClause, Select: b.SelectClause,
		TimeWindow: nullJSON(b.TimeWindow), Where: nullJSON(b.WhereClause), GroupBy: nullJSON(b.GroupBy),
		Having: nullJSON(b.Having)}
	if b.SetOperator != nil {
		op := b.SetOperator.String()
		dto.SetOperator = &op
	}
	return dto
}

func nullJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

func (a *api) getAudience(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	d, err := a.Audiences.Get(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentAudience(d))
	return nil
}

func presentAudience(d *audience.Detail) audienceDTO {
	out := audienceDTO{ID: d.ID, ProjectID: d.ProjectID, Name: d.Name, Description: d.Description,
		IsActive: d.IsActive, IsRoot: d.IsRoot, OwnerID: d.OwnerID, UpdatedBy: d.UpdatedBy,
		CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt,
		QueryBlocks: []queryBlockDTO{}, Compositions: []compositionDTO{}}
	for _, b := range d.Edges.QueryBlocks {
		out.QueryBlocks = append(out.QueryBlocks, presentQueryBlock(b))
	}
	for _, c := range d.Edges.Compositions {
		out.Compositions = append(out.Compositions, compositionDTO{ID: c.ID, OperandCriteriaID: c.OperandAudienceID,
			OperandCriteriaName: d.OperandNames[c.OperandAudienceID], SetOperator: c.SetOperator.String()})
	}
	return out
}
