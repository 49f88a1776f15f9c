package graph

import (
	"github.com/reten-io/reten/ent/catalogcolumn"
	"github.com/reten-io/reten/ent/catalogtable"
	"github.com/reten-io/reten/graph/model"
	"github.com/reten-io/reten/internal/criteria"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// Messages of the event filter operations' own argument rules.
const (
	efMsgPreviewSource = "previewEventFilter needs exactly one of id and queryBlocks"
)

// presentEFSQL presents IEventCriteriaSql: params and types only in the
// parameterized format (empty maps when it has no value).
func presentEFSQL(c *qb.Compiled, err error) (*model.EventFilterSQL, error) {
	if err != nil {
		return nil, err
	}
	out := &model.EventFilterSQL{Format: model.SQLFormat(c.Format), Query: c.Query, FinalCteName: c.FinalCteName, SubjectColumn: c.SubjectColumn}
	out.Params, out.Types = sqlBindings(c)
	return out, nil
}

func presentEFValidation(arg qbArg, v *criteria.Validation, err error) (*model.EventFilterValidation, error) {
	if err != nil {
		return nil, arg.err(err)
	}
	return &model.EventFilterValidation{Valid: v.Valid, Errors: mapAll(arg.issues(v.Errors), func(is qb.Issue) *model.EventFilterValidationError {
		return &model.EventFilterValidationError{Path: is.Path, Message: is.Message}
	})}, nil
}

func presentEFPreview(p *qb.PreviewResult, err error) (*model.EventFilterPreview, error) {
	if err != nil {
		return nil, err
	}
	return &model.EventFilterPreview{Columns: p.Columns, Rows: p.Rows, RowCount: p.RowCount, ElapsedMs: int(p.ElapsedMs)}, nil
}

// efOrNull presents an empty catalog string as null.
func efOrNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func presentEFTable(t qb.Table) *model.EventFilterCatalogTable {
	return &model.EventFilterCatalogTable{Name: t.Name, Description: efOrNull(t.Description), Purpose: catalogtable.Purpose(t.Purpose),
		DefaultTimeReferenceColumn: efOrNull(t.DefaultTimeReferenceColumn)}
}

func presentEFColumn(c qb.Column) *model.EventFilterCatalogColumn {
	return &model.EventFilterCatalogColumn{Name: c.Name, Type: catalogcolumn.Type(c.Type), IsRepeated: c.Repeated,
		Description: efOrNull(c.Description), SubFields: mapAll(c.SubFields, presentEFColumn)}
}

func presentEFColumns(t *qb.Table, err error) (*model.EventFilterColumns, error) {
	if err != nil {
		return nil, err
	}
	return &model.EventFilterColumns{Table: t.Name, Columns: mapAll(t.Columns, presentEFColumn),
		SemiJoins: mapAll(t.SemiJoins, func(sj qb.SemiJoin) *model.EventFilterSemiJoin {
			return &model.EventFilterSemiJoin{Name: sj.Name, ToTable: sj.ToTable, On: mapAll(sj.On, func(k qb.JoinKey) *model.EventFilterJoinKey {
				return &model.EventFilterJoinKey{Left: k.Left, Right: k.Right}
			})}
		})}, nil
}

// sqlBindings are the params and types of compiled criteria SQL as GraphQL
// maps: set (possibly empty) in the parameterized format, nil in the literal one.
func sqlBindings(c *qb.Compiled) (params, types map[string]any) {
	if c.Format != qb.Parameterized {
		return nil, nil
	}
	params, types = make(map[string]any, len(c.Params)), make(map[string]any, len(c.Types))
	for k, v := range c.Params {
		params[k] = v
	}
	for k, v := range c.Types {
		types[k] = v
	}
	return params, types
}
