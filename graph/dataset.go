package graph

import (
	"github.com/reten-io/reten/graph/model"
	"github.com/reten-io/reten/internal/fields"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// catalogInput maps setTenantDatasetCatalog's input to the catalog the
// dataset service validates and stores.
func catalogInput(in model.TenantDatasetCatalogInput) qb.Catalog {
	cat := qb.Catalog{Tables: make([]qb.Table, len(in.Tables))}
	for i, t := range in.Tables {
		out := qb.Table{Name: t.Name, Description: deref(t.Description), DefaultTimeReferenceColumn: deref(t.DefaultTimeReferenceColumn),
			Purpose: deref(fields.EnumText(t.Purpose)), Columns: columnsInput(t.Columns)}
		for _, sj := range t.SemiJoins {
			j := qb.SemiJoin{Name: sj.Name, ToTable: sj.ToTable}
			for _, k := range sj.On {
				j.On = append(j.On, qb.JoinKey{Left: k.Left, Right: k.Right})
			}
			out.SemiJoins = append(out.SemiJoins, j)
		}
		cat.Tables[i] = out
	}
	return cat
}

func columnsInput(cols []*model.CatalogColumnInput) []qb.Column {
	var out []qb.Column
	for _, c := range cols {
		out = append(out, qb.Column{Name: c.Name, Type: qb.FieldType(c.Type), Description: deref(c.Description),
			Repeated: c.IsRepeated != nil && *c.IsRepeated, IsIdentity: c.IsIdentity != nil && *c.IsIdentity,
			IsDefaultTimeReference: c.IsDefaultTimeReference != nil && *c.IsDefaultTimeReference,
			SubFields:              columnsInput(c.SubFields)})
	}
	return out
}
