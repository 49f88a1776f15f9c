package rest

import (
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
	stamps
}

func audienceBase(a *ent.Audience) audienceBaseDTO {
	return audienceBaseDTO{ID: a.ID, ProjectID: a.ProjectID, Name: a.Name, Description: a.Description,
		IsActive: a.IsActive, IsRoot: a.IsRoot, OwnerID: a.OwnerID, UpdatedBy: a.UpdatedBy,
		stamps: stamps{a.CreatedAt.UTC(), a.UpdatedAt.UTC()}}
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
	return audienceDTO{audienceBaseDTO: audienceBase(d.Audience), QueryBlocks: presentAll(d.Edges.QueryBlocks, criteria.BlockJSON),
		Compositions: presentAll(d.Edges.Compositions, func(c *ent.AudienceComposition) compositionDTO {
			return compositionDTO{ID: c.ID, OperandCriteriaID: c.OperandAudienceID,
				OperandCriteriaName: d.OperandNames[c.OperandAudienceID], SetOperator: c.SetOperator.String()}
		})}
}

// audienceItemDTO is a list item: the base fields and conditionCount.
type audienceItemDTO struct {
	audienceBaseDTO
	ConditionCount int `json:"conditionCount"`
}

func presentAudienceItem(s audience.Summary) audienceItemDTO {
	return audienceItemDTO{audienceBaseDTO: audienceBase(s.Audience), ConditionCount: s.ConditionCount}
}

// compositions reads the compositions member into the service's inputs,
// recording one problem per broken rule of their shape; present is false
// when the body has none.
func compositions(b *body) (comps []audience.CompositionInput, present bool) {
	v, ok := b.jsonValue("compositions")
	if !ok {
		return nil, false
	}
	comps, err := audience.DecodeCompositions(v)
	if e, ok := apperr.As(err); ok {
		for _, m := range e.Messages {
			b.fail("compositions", m)
		}
	}
	return comps, true
}

// readDefinition reads queryBlocks and compositions.
func readDefinition(b *body) audience.DefinitionInput {
	var in audience.DefinitionInput
	in.QueryBlocks, _ = b.jsonValue("queryBlocks")
	in.Compositions, _ = compositions(b)
	return in
}

var definitionBody = bodyOf(readDefinition, "queryBlocks", "compositions")

var audienceBody = bodyOf(func(b *body) audience.CreateInput {
	in := audience.CreateInput{Name: b.str("name").OrZero(), Description: b.str("description").Ptr()}
	d := readDefinition(b)
	in.QueryBlocks, in.Compositions = d.QueryBlocks, d.Compositions
	return in
}, "name", "description", "queryBlocks", "compositions")

// audiencePatchBody is the PATCH of the event filters plus compositions:
// queryBlocks and compositions, each when sent, replace the stored ones;
// confirm_default_root confirms such an edit of the root audience.
var audiencePatchBody = bodyOf(func(b *body) audience.UpdateInput {
	in := audience.UpdateInput{Name: b.str("name"), Description: b.str("description"),
		ConfirmDefaultRoot: b.boolean("confirm_default_root").OrZero()}
	in.QueryBlocks, in.SetBlocks = b.jsonValue("queryBlocks")
	in.Compositions, in.SetCompositions = compositions(b)
	return in
}, "name", "description", "queryBlocks", "compositions", "confirm_default_root")

// changeBody is the definition of preview-change: the membership change a
// PATCH with the same queryBlocks and compositions would cause.
var changeBody = bodyOf(func(b *body) audience.ChangeInput {
	var in audience.ChangeInput
	in.QueryBlocks, in.SetBlocks = b.jsonValue("queryBlocks")
	in.Compositions, in.SetCompositions = compositions(b)
	return in
}, "queryBlocks", "compositions")

// Catalog views: audience columns carry isIdentity and
// isDefaultTimeReference; semi-joins serve event filters only.

type audienceTableDTO struct {
	Name                       string  `json:"name"`
	Description                *string `json:"description"`
	Purpose                    string  `json:"purpose"`
	DefaultTimeReferenceColumn *string `json:"defaultTimeReferenceColumn"`
	IdentityColumn             *string `json:"identityColumn"`
}

type audienceColumnsDTO struct {
	Table   string             `json:"table"`
	Columns []catalogColumnDTO `json:"columns"`
}

func presentAudienceTable(t qb.Table) audienceTableDTO {
	out := audienceTableDTO{Name: t.Name, Description: nullable(t.Description), Purpose: t.Purpose}
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

func presentAudienceColumns(t *qb.Table) audienceColumnsDTO {
	return audienceColumnsDTO{Table: t.Name, Columns: presentAll(t.Columns, presentCatalogColumn)}
}
