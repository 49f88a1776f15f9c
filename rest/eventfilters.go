package rest

import (
	"net/http"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/criteria"
	"github.com/reten-io/reten/internal/eventfilter"
	"github.com/reten-io/reten/internal/paging"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// Event filters (SPEC.md "Endpoints > Event filters"): camelCase bodies, the
// snake_case pagination of the snapshot list, read-only POST routes that
// answer 201.

// eventFilterBaseDTO are the fields of a filter in its detail and its list items.
type eventFilterBaseDTO struct {
	ID          uuid.UUID  `json:"id"`
	ProjectID   uuid.UUID  `json:"projectId"`
	Name        string     `json:"name"`
	Description *string    `json:"description"`
	IsActive    bool       `json:"isActive"`
	OwnerID     *uuid.UUID `json:"ownerId"`
	UpdatedBy   *uuid.UUID `json:"updatedBy"`
	stamps
}

func eventFilterBase(f *ent.EventFilter) eventFilterBaseDTO {
	return eventFilterBaseDTO{ID: f.ID, ProjectID: f.ProjectID, Name: f.Name, Description: f.Description,
		IsActive: f.IsActive, OwnerID: f.OwnerID, UpdatedBy: f.UpdatedBy,
		stamps: stamps{f.CreatedAt.UTC(), f.UpdatedAt.UTC()}}
}

// eventFilterDTO is the event filter detail (SPEC.md "Event criteria").
type eventFilterDTO struct {
	eventFilterBaseDTO
	QueryBlocks []criteria.Block `json:"queryBlocks"`
}

func presentEventFilter(d *eventfilter.Detail) eventFilterDTO {
	return eventFilterDTO{eventFilterBaseDTO: eventFilterBase(d.EventFilter), QueryBlocks: presentAll(d.Blocks, criteria.BlockJSON)}
}

// eventFilterItemDTO is a list item: the base fields and conditionCount.
type eventFilterItemDTO struct {
	eventFilterBaseDTO
	ConditionCount int `json:"conditionCount"`
}

func presentEventFilterItem(s eventfilter.Summary) eventFilterItemDTO {
	return eventFilterItemDTO{eventFilterBaseDTO: eventFilterBase(s.EventFilter), ConditionCount: s.ConditionCount}
}

func (a *api) listEventFilters() handler {
	return snakePaged(func(r *http.Request, p paging.Page) (*paging.List[eventfilter.Summary], error) {
		return a.EventFilters.List(r.Context(), r.URL.Query().Get("search"), p)
	}, presentEventFilterItem)
}

var eventFilterBody = bodyOf(func(b *body) eventfilter.CreateInput {
	in := eventfilter.CreateInput{Name: b.str("name").OrZero(), Description: b.str("description").Ptr()}
	in.QueryBlocks, _ = b.jsonValue("queryBlocks")
	return in
}, "name", "description", "queryBlocks")

// eventFilterPatchBody is the PATCH of SPEC.md: name, description and
// queryBlocks as sent (the service decides what null means for each).
var eventFilterPatchBody = bodyOf(func(b *body) eventfilter.UpdateInput {
	in := eventfilter.UpdateInput{Name: b.str("name"), Description: b.str("description")}
	in.QueryBlocks, in.SetBlocks = b.jsonValue("queryBlocks")
	return in
}, "name", "description", "queryBlocks")

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

type efColumnsDTO struct {
	Table     string        `json:"table"`
	Columns   []efColumnDTO `json:"columns"`
	SemiJoins []semiJoinDTO `json:"semiJoins"`
}

func presentEFTable(t qb.Table) efTableDTO {
	return efTableDTO{Name: t.Name, Description: nullable(t.Description), Purpose: t.Purpose,
		DefaultTimeReferenceColumn: nullable(t.DefaultTimeReferenceColumn)}
}

func presentEFColumn(c qb.Column) efColumnDTO {
	return efColumnDTO{Name: c.Name, Type: string(c.Type), IsRepeated: c.Repeated, Description: nullable(c.Description),
		SubFields: presentAll(c.SubFields, presentEFColumn)}
}

func presentEFColumns(t *qb.Table) efColumnsDTO {
	return efColumnsDTO{Table: t.Name, Columns: presentAll(t.Columns, presentEFColumn), SemiJoins: presentAll(t.SemiJoins, presentSemiJoin)}
}
