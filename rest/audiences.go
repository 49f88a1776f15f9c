package rest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/audience"
	"github.com/reten-io/reten/internal/criteria"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// Audiences (SPEC.md "Audience criteria" and "Endpoints > Audiences"):
// camelCase bodies, the {data, meta} pagination of the other camelCase
// lists, read-only POST routes that answer 201 like the event filter ones.
// chi matches static segments (tables, generate-sql, validate-from-body,
// preview-from-body) before {id}.

// audienceHandlers maps the REST lines of tenancy.audienceMatrix to their handlers.
func (a *api) audienceHandlers() map[string]handler {
	return map[string]handler{
		"GET /audience-criterias":                            a.listAudiences,
		"POST /audience-criterias":                           a.createAudience,
		"GET /audience-criterias/tables":                     a.audienceTables,
		"GET /audience-criterias/tables/{tableName}/columns": a.audienceColumns,
		"POST /audience-criterias/generate-sql":              a.generateAudienceSQL,
		"POST /audience-criterias/validate-from-body":        a.validateAudience,
		"POST /audience-criterias/preview-from-body":         a.previewAudienceBody,
		"GET /audience-criterias/{id}":                       a.getAudience,
		"PATCH /audience-criterias/{id}":                     a.updateAudience,
		"DELETE /audience-criterias/{id}":                    a.deleteAudience,
		"GET /audience-criterias/{id}/sql":                   a.audienceSQL,
		"POST /audience-criterias/{id}/preview":              a.previewAudience,
		"POST /audience-criterias/{id}/preview-change":       a.previewAudienceChange,
	}
}

// audienceBaseDTO are the fields of an audience in its detail and its list items.
type audienceBaseDTO struct {
	ID          uuid.UUID  `json:"id"`
	ProjectID   uuid.UUID  `json:"projectId"`
	Name        string     `json:"name"`
	Description *string    `json:"description"`
	IsActive    bool       `json:"isActive"`
	IsRoot      bool       `json:"isRoot"`
	OwnerID     *uuid.UUID `json:"ownerId"`
	UpdatedBy   *uuid.UUID `json:"updatedBy"`
	CreatedAt   time.Time  `json:"createdAt"`
	UpdatedAt   time.Time  `json:"updatedAt"`
}

func audienceBase(a *ent.Audience) audienceBaseDTO {
	return audienceBaseDTO{ID: a.ID, ProjectID: a.ProjectID, Name: a.Name, Description: a.Description,
		IsActive: a.IsActive, IsRoot: a.IsRoot, OwnerID: a.OwnerID, UpdatedBy: a.UpdatedBy,
		CreatedAt: a.CreatedAt.UTC(), UpdatedAt: a.UpdatedAt.UTC()}
}

// audienceDTO is the audience criteria detail (SPEC.md "Audience criteria").
type audienceDTO struct {
	audienceBaseDTO
	QueryBlocks  []criteria.Block `json:"queryBlocks"`
	Compositions []compositionDTO `json:"compositions"`
}

type compositionDTO struct {
	ID                  uuid.UUID `json:"id"`
	OperandCriteriaID   uuid.UUID `json:"operandCriteriaId"`
	OperandCriteriaName string    `json:"operandCriteriaName"`
	SetOperator         string    `json:"setOperator"`
}

func presentAudience(d *audience.Detail) audienceDTO {
	out := audienceDTO{audienceBaseDTO: audienceBase(d.Audience),
		QueryBlocks: make([]criteria.Block, len(d.Edges.QueryBlocks)), Compositions: make([]compositionDTO, len(d.Edges.Compositions))}
	for i, b := range d.Edges.QueryBlocks {
		out.QueryBlocks[i] = criteria.BlockJSON(b)
	}
	for i, c := range d.Edges.Compositions {
		out.Compositions[i] = compositionDTO{ID: c.ID, OperandCriteriaID: c.OperandAudienceID,
			OperandCriteriaName: d.OperandNames[c.OperandAudienceID], SetOperator: c.SetOperator.String()}
	}
	return out
}

// audienceItemDTO is a list item: the base fields and conditionCount.
type audienceItemDTO struct {
	audienceBaseDTO
	ConditionCount int `json:"conditionCount"`
}

func presentAudienceItem(s audience.Summary) audienceItemDTO {
	return audienceItemDTO{audienceBaseDTO: audienceBase(s.Audience), ConditionCount: s.ConditionCount}
}

// compositions parses the compositions member of a body into the service's
// inputs, adding one message per broken rule to b; present is false when
// the body has none.
func compositions(b *body) (comps []audience.CompositionInput, present bool) {
	raw, ok := b.fields["compositions"]
	if !ok {
		return nil, false
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	_ = dec.Decode(&v) // the body parsed: raw is valid JSON
	comps, err := audience.DecodeCompositions(v)
	if e, ok := apperr.As(err); ok {
		for _, m := range e.Messages {
			b.fail(m)
		}
	}
	return comps, true
}

// definitionInput reads queryBlocks and compositions of a body.
func definitionInput(b *body) audience.DefinitionInput {
	var in audience.DefinitionInput
	in.QueryBlocks, _ = queryBlocks(b)
	in.Compositions, _ = compositions(b)
	return in
}

func (a *api) listAudiences(w http.ResponseWriter, r *http.Request) error {
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	l, err := a.Audiences.List(r.Context(), r.URL.Query().Get("search"), p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentPage(l, presentAudienceItem))
	return nil
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

func (a *api) createAudience(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "name", "description", "queryBlocks", "compositions")
	if err != nil {
		return err
	}
	var in audience.CreateInput
	in.Name, _ = b.str("name", msgNameString)
	in.Description = b.optStr("description", msgDescriptionString)
	in.QueryBlocks, _ = queryBlocks(b)
	in.Compositions, _ = compositions(b)
	if err := b.err(); err != nil {
		return err
	}
	d, err := a.Audiences.Create(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentAudience(d))
	return nil
}

// updateAudience is the PATCH of the event filters plus compositions: name,
// if sent, neither empty nor null; description null clears it; queryBlocks
// and compositions, each when sent, replace the stored ones.
func (a *api) updateAudience(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "name", "description", "queryBlocks", "compositions")
	if err != nil {
		return err
	}
	var in audience.UpdateInput
	if b.has("name") {
		name, ok := b.str("name", msgNameString)
		if ok {
			in.Name = &name
		} else if string(b.fields["name"]) == "null" {
			b.fail(audience.MsgNameEmpty)
		}
	}
	if b.has("description") {
		if string(b.fields["description"]) == "null" {
			in.ClearDescription = true
		} else {
			in.Description = b.optStr("description", msgDescriptionString)
		}
	}
	in.QueryBlocks, in.SetBlocks = queryBlocks(b)
	in.Compositions, in.SetCompositions = compositions(b)
	if err := b.err(); err != nil {
		return err
	}
	d, err := a.Audiences.Update(r.Context(), id, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentAudience(d))
	return nil
}

func (a *api) deleteAudience(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	if err := a.Audiences.Delete(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// generateAudienceSQL answers 201 with the SQL of a sent definition; name
// and description are not part of its body.
func (a *api) generateAudienceSQL(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "queryBlocks", "compositions", "format")
	if err != nil {
		return err
	}
	format, _ := b.str("format", qb.Formats.Message("format"))
	in := definitionInput(b)
	if err := b.err(); err != nil {
		return err
	}
	c, err := a.Audiences.GenerateSQL(r.Context(), in, format)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentSQL(c))
	return nil
}

func (a *api) audienceSQL(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	c, err := a.Audiences.SQL(r.Context(), id, r.URL.Query().Get("format"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentSQL(c))
	return nil
}

func (a *api) validateAudience(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "queryBlocks", "compositions")
	if err != nil {
		return err
	}
	in := definitionInput(b)
	if err := b.err(); err != nil {
		return err
	}
	v, err := a.Audiences.Validate(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, v)
	return nil
}

func (a *api) previewAudienceBody(w http.ResponseWriter, r *http.Request) error {
	limit, err := previewLimit(r)
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "queryBlocks", "compositions")
	if err != nil {
		return err
	}
	in := definitionInput(b)
	if err := b.err(); err != nil {
		return err
	}
	res, err := a.Audiences.PreviewBody(r.Context(), in, limit)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, res)
	return nil
}

// previewAudience runs a stored audience; its body, if any, must be empty.
func (a *api) previewAudience(w http.ResponseWriter, r *http.Request) error {
	return previewStored(w, r, a.Audiences.Preview)
}

// previewAudienceChange reports the membership change a PATCH with the same
// queryBlocks and compositions would cause, before it is sent.
func (a *api) previewAudienceChange(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "queryBlocks", "compositions")
	if err != nil {
		return err
	}
	var in audience.ChangeInput
	in.QueryBlocks, in.SetBlocks = queryBlocks(b)
	in.Compositions, in.SetCompositions = compositions(b)
	if err := b.err(); err != nil {
		return err
	}
	m, err := a.Audiences.MembershipChange(r.Context(), id, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, m)
	return nil
}

// Catalog views: audience columns carry isIdentity and
// isDefaultTimeReference; semi-joins serve event filters only.

type audienceTableDTO struct {
	Name                       string  `json:"name"`
	Description                *string `json:"description"`
	Purpose                    string  `json:"purpose"`
	DefaultTimeReferenceColumn *string `json:"defaultTimeReferenceColumn"`
	IdentityColumn             *string `json:"identityColumn"`
}

type audienceColumnDTO struct {
	Name                   string              `json:"name"`
	Type                   string              `json:"type"`
	IsRepeated             bool                `json:"isRepeated"`
	IsIdentity             bool                `json:"isIdentity"`
	IsDefaultTimeReference bool                `json:"isDefaultTimeReference"`
	Description            *string             `json:"description"`
	SubFields              []audienceColumnDTO `json:"subFields"`
}

type audienceColumnsDTO struct {
	Table   string              `json:"table"`
	Columns []audienceColumnDTO `json:"columns"`
}

func presentAudienceTable(t qb.Table) audienceTableDTO {
	out := audienceTableDTO{Name: t.Name, Description: orNil(t.Description), Purpose: t.Purpose}
	for _, c := range t.Columns {
		if c.IsDefaultTimeReference && out.DefaultTimeReferenceColumn == nil {
			out.DefaultTimeReferenceColumn = &c.Name
		}
		if c.IsIdentity && out.IdentityColumn == nil {
			out.IdentityColumn = &c.Name
		}
	}
	return out
}

func presentAudienceColumn(c qb.Column) audienceColumnDTO {
	return audienceColumnDTO{Name: c.Name, Type: string(c.Type), IsRepeated: c.Repeated, IsIdentity: c.IsIdentity,
		IsDefaultTimeReference: c.IsDefaultTimeReference, Description: orNil(c.Description),
		SubFields: presentAll(c.SubFields, presentAudienceColumn)}
}

func (a *api) audienceTables(w http.ResponseWriter, r *http.Request) error {
	tables, err := a.Audiences.Tables(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentAll(tables, presentAudienceTable))
	return nil
}

func (a *api) audienceColumns(w http.ResponseWriter, r *http.Request) error {
	t, err := a.Audiences.Columns(r.Context(), urlParam(r, "tableName"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, audienceColumnsDTO{Table: t.Name, Columns: presentAll(t.Columns, presentAudienceColumn)})
	return nil
}
