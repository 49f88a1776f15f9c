package rest

import (
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/criteria"
	"github.com/reten-io/reten/internal/eventfilter"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// Event filters (SPEC.md "Endpoints > Event filters"): camelCase bodies, the
// snake_case pagination of the snapshot list, read-only POST routes that
// answer 201. chi matches static segments (tables, generate-sql,
// validate-from-body, preview-from-body) before {id}.

// eventFilterHandlers maps the REST lines of tenancy.eventFilterMatrix to their handlers.
func (a *api) eventFilterHandlers() map[string]handler {
	return map[string]handler{
		"GET /event-criterias":                            a.listEventFilters,
		"POST /event-criterias":                           a.createEventFilter,
		"GET /event-criterias/tables":                     a.eventFilterTables,
		"GET /event-criterias/tables/{tableName}/columns": a.eventFilterColumns,
		"POST /event-criterias/generate-sql":              a.generateEventFilterSQL,
		"POST /event-criterias/validate-from-body":        a.validateEventFilter,
		"POST /event-criterias/preview-from-body":         a.previewEventFilterBody,
		"GET /event-criterias/{id}":                       a.getEventFilter,
		"PATCH /event-criterias/{id}":                     a.updateEventFilter,
		"DELETE /event-criterias/{id}":                    a.deleteEventFilter,
		"GET /event-criterias/{id}/sql":                   a.eventFilterSQL,
		"POST /event-criterias/{id}/preview":              a.previewEventFilter,
	}
}

// eventFilterBaseDTO are the fields of a filter in its detail and its list items.
type eventFilterBaseDTO struct {
	ID          uuid.UUID  `json:"id"`
	ProjectID   uuid.UUID  `json:"projectId"`
	Name        string     `json:"name"`
	Description *string    `json:"description"`
	IsActive    bool       `json:"isActive"`
	OwnerID     *uuid.UUID `json:"ownerId"`
	UpdatedBy   *uuid.UUID `json:"updatedBy"`
	CreatedAt   time.Time  `json:"createdAt"`
	UpdatedAt   time.Time  `json:"updatedAt"`
}

func eventFilterBase(f *ent.EventFilter) eventFilterBaseDTO {
	return eventFilterBaseDTO{ID: f.ID, ProjectID: f.ProjectID, Name: f.Name, Description: f.Description,
		IsActive: f.IsActive, OwnerID: f.OwnerID, UpdatedBy: f.UpdatedBy,
		CreatedAt: f.CreatedAt.UTC(), UpdatedAt: f.UpdatedAt.UTC()}
}

// eventFilterDTO is the event filter detail (SPEC.md "Event criteria").
type eventFilterDTO struct {
	eventFilterBaseDTO
	QueryBlocks []criteria.Block `json:"queryBlocks"`
}

func presentEventFilter(d *eventfilter.Detail) eventFilterDTO {
	out := eventFilterDTO{eventFilterBaseDTO: eventFilterBase(d.EventFilter), QueryBlocks: make([]criteria.Block, len(d.Blocks))}
	for i, b := range d.Blocks {
		out.QueryBlocks[i] = criteria.BlockJSON(b)
	}
	return out
}

// eventFilterItemDTO is a list item: the base fields and conditionCount.
type eventFilterItemDTO struct {
	eventFilterBaseDTO
	ConditionCount int `json:"conditionCount"`
}

func presentEventFilterItem(s eventfilter.Summary) eventFilterItemDTO {
	return eventFilterItemDTO{eventFilterBaseDTO: eventFilterBase(s.EventFilter), ConditionCount: s.ConditionCount}
}

func (a *api) listEventFilters(w http.ResponseWriter, r *http.Request) error {
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	l, err := a.EventFilters.List(r.Context(), r.URL.Query().Get("search"), p)
	if err != nil {
		return err
	}
	pages := (l.Total + p.PerPage - 1) / p.PerPage
	writeJSON(w, http.StatusOK, map[string]any{"data": presentAll(l.Items, presentEventFilterItem), "pagination": snakePagination{
		Page: p.Page, PerPage: p.PerPage, Total: l.Total, TotalPages: pages, HasNext: p.Page < pages, HasPrevious: p.Page > 1}})
	return nil
}

func (a *api) getEventFilter(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	d, err := a.EventFilters.Get(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentEventFilter(d))
	return nil
}

func (a *api) createEventFilter(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "name", "description", "queryBlocks")
	if err != nil {
		return err
	}
	var in eventfilter.CreateInput
	in.Name, _ = b.str("name", msgNameString)
	in.Description = b.optStr("description", msgDescriptionString)
	in.QueryBlocks, _ = queryBlocks(b)
	if err := b.err(); err != nil {
		return err
	}
	d, err := a.EventFilters.Create(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentEventFilter(d))
	return nil
}

// updateEventFilter is the PATCH of SPEC.md: name, if sent, neither empty
// nor null; description null clears it; queryBlocks, if sent, replaces
// every block.
func (a *api) updateEventFilter(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "name", "description", "queryBlocks")
	if err != nil {
		return err
	}
	var in eventfilter.UpdateInput
	if b.has("name") {
		name, ok := b.str("name", msgNameString)
		if ok {
			in.Name = &name
		} else if string(b.fields["name"]) == "null" {
			b.fail(eventfilter.MsgNameEmpty)
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
	if err := b.err(); err != nil {
		return err
	}
	d, err := a.EventFilters.Update(r.Context(), id, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentEventFilter(d))
	return nil
}

func (a *api) deleteEventFilter(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	if err := a.EventFilters.Delete(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// generateEventFilterSQL answers 201 with IEventCriteriaSql; name and
// description are not part of its body (400 "property name should not exist").
func (a *api) generateEventFilterSQL(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "queryBlocks", "format")
	if err != nil {
		return err
	}
	format, _ := b.str("format", qb.Formats.Message("format"))
	blocks, _ := queryBlocks(b)
	if err := b.err(); err != nil {
		return err
	}
	c, err := a.EventFilters.GenerateSQL(r.Context(), blocks, format)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentSQL(c))
	return nil
}

func (a *api) eventFilterSQL(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	c, err := a.EventFilters.SQL(r.Context(), id, r.URL.Query().Get("format"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentSQL(c))
	return nil
}

func (a *api) validateEventFilter(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "queryBlocks")
	if err != nil {
		return err
	}
	blocks, _ := queryBlocks(b)
	if err := b.err(); err != nil {
		return err
	}
	v, err := a.EventFilters.ValidateBody(r.Context(), blocks)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, v)
	return nil
}

func (a *api) previewEventFilterBody(w http.ResponseWriter, r *http.Request) error {
	limit, err := previewLimit(r)
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "queryBlocks")
	if err != nil {
		return err
	}
	blocks, _ := queryBlocks(b)
	if err := b.err(); err != nil {
		return err
	}
	res, err := a.EventFilters.PreviewBody(r.Context(), blocks, limit)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, res)
	return nil
}

// previewEventFilter runs a stored filter; its body, if any, must be empty.
func (a *api) previewEventFilter(w http.ResponseWriter, r *http.Request) error {
	return previewStored(w, r, a.EventFilters.Preview)
}

// Catalog views: event filter columns carry no audience flags.

type efTableDTO struct {
	Name                       string  `json:"name"`
	Description                *string `json:"description"`
	Purpose                    string  `json:"purpose"`
	DefaultTimeReferenceColumn *string `json:"defaultTimeReferenceColumn"`
}

type efColumnDTO struct {
	Name        string        `json:"name"`
	Type        string        `json:"type"`
	IsRepeated  bool          `json:"isRepeated"`
	Description *string       `json:"description"`
	SubFields   []efColumnDTO `json:"subFields"`
}

type efSemiJoinDTO struct {
	Name    string         `json:"name"`
	ToTable string         `json:"toTable"`
	On      []efJoinKeyDTO `json:"on"`
}

type efJoinKeyDTO struct {
	Left  string `json:"left"`
	Right string `json:"right"`
}

type efColumnsDTO struct {
	Table     string          `json:"table"`
	Columns   []efColumnDTO   `json:"columns"`
	SemiJoins []efSemiJoinDTO `json:"semiJoins"`
}

// orNil presents an empty catalog string as null.
func orNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func presentEFTable(t qb.Table) efTableDTO {
	return efTableDTO{Name: t.Name, Description: orNil(t.Description), Purpose: t.Purpose,
		DefaultTimeReferenceColumn: orNil(t.DefaultTimeReferenceColumn)}
}

func presentEFColumn(c qb.Column) efColumnDTO {
	return efColumnDTO{Name: c.Name, Type: string(c.Type), IsRepeated: c.Repeated, Description: orNil(c.Description),
		SubFields: presentAll(c.SubFields, presentEFColumn)}
}

func presentEFSemiJoin(sj qb.SemiJoin) efSemiJoinDTO {
	return efSemiJoinDTO{Name: sj.Name, ToTable: sj.ToTable,
		On: presentAll(sj.On, func(k qb.JoinKey) efJoinKeyDTO { return efJoinKeyDTO{Left: k.Left, Right: k.Right} })}
}

func (a *api) eventFilterTables(w http.ResponseWriter, r *http.Request) error {
	tables, err := a.EventFilters.Tables(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentAll(tables, presentEFTable))
	return nil
}

func (a *api) eventFilterColumns(w http.ResponseWriter, r *http.Request) error {
	t, err := a.EventFilters.Columns(r.Context(), urlParam(r, "tableName"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, efColumnsDTO{Table: t.Name, Columns: presentAll(t.Columns, presentEFColumn),
		SemiJoins: presentAll(t.SemiJoins, presentEFSemiJoin)})
	return nil
}
