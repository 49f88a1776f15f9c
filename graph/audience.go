package graph

import (
	"github.com/reten-io/reten/ent/catalogcolumn"
	"github.com/reten-io/reten/ent/catalogtable"
	"github.com/reten-io/reten/graph/model"
	"github.com/reten-io/reten/internal/audience"
	"github.com/reten-io/reten/internal/criteria"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// Messages of the audience operations' own argument rules.
const (
	auMsgPreviewSource = "previewAudience needs exactly one of id and queryBlocks (compositions go with queryBlocks)"
)

// auCompositions maps composition inputs to the service's; nil (not sent)
// stays nil, [] stays empty.
func auCompositions(in []*model.AudienceCompositionInput) []audience.CompositionInput {
	if in == nil {
		return nil
	}
	out := make([]audience.CompositionInput, len(in))
	for i, c := range in {
		out[i] = audience.CompositionInput{OperandID: c.OperandAudienceID, SetOperator: string(c.SetOperator)}
	}
	return out
}

// auDefinition maps queryBlocks and compositions arguments to a definition
// input, and the argument whose paths translate the service's messages.
func auDefinition(blocks []*model.QueryBlockInput, comps []*model.AudienceCompositionInput) (audience.DefinitionInput, qbArg, error) {
	arg, err := qbBlocks(blocks)
	return audience.DefinitionInput{QueryBlocks: arg.blocks, Compositions: auCompositions(comps)}, arg, err
}

// presentAudienceSQL presents the SQL of an audience: params and types only
// in the parameterized format (empty maps when it has no value).
func presentAudienceSQL(c *qb.Compiled, err error) (*model.AudienceSQL, error) {
	if err != nil {
		return nil, err
	}
	out := &model.AudienceSQL{Format: model.SQLFormat(c.Format), Query: c.Query, FinalCteName: c.FinalCteName}
	if c.SubjectColumn != nil {
		out.SubjectColumn = *c.SubjectColumn
	}
	out.Params, out.Types = sqlBindings(c)
	return out, nil
}

func presentAudienceValidation(arg qbArg, v *criteria.Validation, err error) (*model.AudienceValidation, error) {
	if err != nil {
		return nil, arg.err(err)
	}
	return &model.AudienceValidation{Valid: v.Valid, Errors: mapAll(arg.issues(v.Errors), func(is qb.Issue) *model.AudienceValidationError {
		return &model.AudienceValidationError{Path: is.Path, Message: is.Message}
	})}, nil
}

func presentAudiencePreview(p *qb.PreviewResult, err error) (*model.AudiencePreview, error) {
	if err != nil {
		return nil, err
	}
	out := &model.AudiencePreview{Columns: p.Columns, Rows: p.Rows, RowCount: p.RowCount, ElapsedMs: int(p.ElapsedMs)}
	if p.SubjectCount != nil {
		out.SubjectCount = int(*p.SubjectCount)
	}
	return out, nil
}

func presentMembership(m *qb.Membership, err error) (*model.AudienceMembershipChange, error) {
	if err != nil {
		return nil, err
	}
	return &model.AudienceMembershipChange{Before: int(m.Before), After: int(m.After), Entering: int(m.Entering), Leaving: int(m.Leaving)}, nil
}

func presentAudienceTable(t qb.Table) *model.AudienceCatalogTable {
	out := &model.AudienceCatalogTable{Name: t.Name, Description: efOrNull(t.Description), Purpose: catalogtable.Purpose(t.Purpose)}
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

func presentAudienceColumn(c qb.Column) *model.AudienceCatalogColumn {
	return &model.AudienceCatalogColumn{Name: c.Name, Type: catalogcolumn.Type(c.Type), IsRepeated: c.Repeated, IsIdentity: c.IsIdentity,
		IsDefaultTimeReference: c.IsDefaultTimeReference, Description: efOrNull(c.Description),
		SubFields: mapAll(c.SubFields, presentAudienceColumn)}
}

func presentAudienceColumns(t *qb.Table, err error) (*model.AudienceColumns, error) {
	if err != nil {
		return nil, err
	}
	return &model.AudienceColumns{Table: t.Name, Columns: mapAll(t.Columns, presentAudienceColumn)}, nil
}
