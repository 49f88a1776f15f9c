package dataset

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/catalogcolumn"
	"github.com/reten-io/reten/ent/catalogsemijoin"
	"github.com/reten-io/reten/ent/catalogtable"
	"github.com/reten-io/reten/ent/tenantdataset"
	"github.com/reten-io/reten/internal/apperr"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// bulkChunk bounds the rows of one INSERT (SQLite's bind-parameter ceiling).
const bulkChunk = 500

// withCatalog loads the dataset with its catalog in catalog order: tables
// by name, their top-level columns by sort order with their sub-fields, and
// their semi-joins by name with the related table. The entity's edges are
// what GraphQL serves (tables, columns, subFields, semiJoins, toTable).
func withCatalog(q *ent.TenantDatasetQuery) *ent.TenantDatasetQuery {
	return q.WithTables(func(t *ent.CatalogTableQuery) {
		t.Order(catalogtable.ByName()).
			WithColumns(func(c *ent.CatalogColumnQuery) {
				c.Where(catalogcolumn.ParentIDIsNil()).Order(catalogcolumn.BySortOrder(), catalogcolumn.ByName()).
					WithSubFields(func(f *ent.CatalogColumnQuery) {
						f.Order(catalogcolumn.BySortOrder(), catalogcolumn.ByName())
					})
			}).
			WithSemiJoins(func(j *ent.CatalogSemiJoinQuery) {
				j.Order(catalogsemijoin.ByName()).WithToTable()
			})
	})
}

// loadCatalog returns the tenant's dataset with its catalog edges loaded.
func (s *Service) loadCatalog(ctx context.Context, c *ent.Client, tenantID uuid.UUID) (*ent.TenantDataset, error) {
	d, err := withCatalog(c.TenantDataset.Query().Where(tenantdataset.TenantID(tenantID))).Only(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, MsgNotConfigured, "")
	}
	return d, nil
}

// GetCatalog returns the tenant's dataset with its catalog;
// 404 MsgNotConfigured when the tenant has none. ToCatalog presents it.
func (s *Service) GetCatalog(ctx context.Context) (*ent.TenantDataset, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	return s.loadCatalog(ctx, s.db(ctx), tid)
}

// Catalog returns the catalog of the viewer's tenant as the query builder
// takes it, with the dataset row (engine and qualifiers). It checks no
// permission: the event filter and audience services that call it check
// their own. 404 MsgNotConfigured when the tenant has no dataset.
func (s *Service) Catalog(ctx context.Context) (*qb.Catalog, *ent.TenantDataset, error) {
	tid, ok := viewer.TenantID(ctx)
	if !ok {
		return nil, nil, apperr.NotFound(MsgNotConfigured)
	}
	d, err := s.loadCatalog(ctx, s.db(ctx), tid)
	if err != nil {
		return nil, nil, err
	}
	return ToCatalog(d), d, nil
}

// SetCatalog validates cat and replaces the tenant's catalog with it in one
// transaction: the old tables, columns and semi-joins go,
// the new ones get fresh ids. An invalid catalog writes nothing. Names are
// trimmed and an empty purpose becomes OTHER (in cat itself). It returns the
// dataset with the new catalog loaded.
func (s *Service) SetCatalog(ctx context.Context, cat qb.Catalog) (*ent.TenantDataset, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	normalize(&cat)
	var out *ent.TenantDataset
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		d, err := s.find(ctx, tx, tid)
		if err != nil {
			return err
		}
		if msgs := validateCatalog(&cat); len(msgs) > 0 {
			return apperr.Validation(msgs...)
		}
		if err := replaceCatalog(ctx, tx, d, &cat); err != nil {
			return err
		}
		out, err = s.loadCatalog(ctx, tx, tid)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// replaceCatalog deletes d's catalog rows and inserts cat's.
func replaceCatalog(ctx context.Context, tx *ent.Client, d *ent.TenantDataset, cat *qb.Catalog) error {
	ofDataset := catalogtable.DatasetID(d.ID)
	if _, err := tx.CatalogSemiJoin.Delete().Where(catalogsemijoin.HasFromTableWith(ofDataset)).Exec(ctx); err != nil {
		return fmt.Errorf("delete semi-joins: %w", err)
	}
	// Sub-fields first: their parent rows are deleted in the next statement.
	if _, err := tx.CatalogColumn.Delete().Where(catalogcolumn.HasTableWith(ofDataset), catalogcolumn.ParentIDNotNil()).Exec(ctx); err != nil {
		return fmt.Errorf("delete sub-fields: %w", err)
	}
	if _, err := tx.CatalogColumn.Delete().Where(catalogcolumn.HasTableWith(ofDataset)).Exec(ctx); err != nil {
		return fmt.Errorf("delete columns: %w", err)
	}
	if _, err := tx.CatalogTable.Delete().Where(ofDataset).Exec(ctx); err != nil {
		return fmt.Errorf("delete tables: %w", err)
	}

	tableIDs := make(map[string]uuid.UUID, len(cat.Tables))
	var tables []*ent.CatalogTableCreate
	var columns, subFields []*ent.CatalogColumnCreate
	for _, t := range cat.Tables {
		tid := uuid.New()
		tableIDs[t.Name] = tid
		tables = append(tables, tx.CatalogTable.Create().SetID(tid).SetTenantID(d.TenantID).SetDatasetID(d.ID).
			SetName(t.Name).SetDescription(t.Description).SetPurpose(catalogtable.Purpose(t.Purpose)).
			SetDefaultTimeReferenceColumn(t.DefaultTimeReferenceColumn))
		for i, c := range t.Columns {
			cid := uuid.New()
			columns = append(columns, columnCreate(tx, d.TenantID, tid, nil, cid, i, c))
			for j, f := range c.SubFields {
				subFields = append(subFields, columnCreate(tx, d.TenantID, tid, &cid, uuid.New(), j, f))
			}
		}
	}
	var semiJoins []*ent.CatalogSemiJoinCreate
	for _, t := range cat.Tables {
		for _, sj := range t.SemiJoins {
			on := make([]map[string]string, len(sj.On))
			for i, k := range sj.On {
				on[i] = map[string]string{"left": k.Left, "right": k.Right}
			}
			semiJoins = append(semiJoins, tx.CatalogSemiJoin.Create().SetTenantID(d.TenantID).
				SetFromTableID(tableIDs[t.Name]).SetToTableID(tableIDs[sj.ToTable]).SetName(sj.Name).SetOnKeys(on))
		}
	}
	if err := inChunks(tables, func(b []*ent.CatalogTableCreate) error { return tx.CatalogTable.CreateBulk(b...).Exec(ctx) }); err != nil {
		return fmt.Errorf("insert tables: %w", err)
	}
	// Parents before their sub-fields (the parent_id foreign key).
	for _, cs := range [][]*ent.CatalogColumnCreate{columns, subFields} {
		if err := inChunks(cs, func(b []*ent.CatalogColumnCreate) error { return tx.CatalogColumn.CreateBulk(b...).Exec(ctx) }); err != nil {
			return fmt.Errorf("insert columns: %w", err)
		}
	}
	if err := inChunks(semiJoins, func(b []*ent.CatalogSemiJoinCreate) error { return tx.CatalogSemiJoin.CreateBulk(b...).Exec(ctx) }); err != nil {
		return fmt.Errorf("insert semi-joins: %w", err)
	}
	return nil
}

func columnCreate(tx *ent.Client, tenantID, tableID uuid.UUID, parent *uuid.UUID, id uuid.UUID, order int, c qb.Column) *ent.CatalogColumnCreate {
	return tx.CatalogColumn.Create().SetID(id).SetTenantID(tenantID).SetTableID(tableID).SetNillableParentID(parent).
		SetName(c.Name).SetType(catalogcolumn.Type(c.Type)).SetIsRepeated(c.Repeated).SetIsIdentity(c.IsIdentity).
		SetIsDefaultTimeReference(c.IsDefaultTimeReference).SetDescription(c.Description).SetSortOrder(order)
}

// inChunks calls insert on successive slices of at most bulkChunk rows.
func inChunks[T any](rows []T, insert func([]T) error) error {
	for len(rows) > 0 {
		n := min(len(rows), bulkChunk)
		if err := insert(rows[:n]); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}

// ToCatalog converts a dataset loaded with its catalog (GetCatalog,
// SetCatalog) to the query builder's catalog, in the same order (empty
// lists stay nil, as in a catalog written by hand).
func ToCatalog(d *ent.TenantDataset) *qb.Catalog {
	cat := &qb.Catalog{Tables: make([]qb.Table, 0, len(d.Edges.Tables))}
	for _, t := range d.Edges.Tables {
		out := qb.Table{Name: t.Name, Description: t.Description, Purpose: string(t.Purpose),
			DefaultTimeReferenceColumn: t.DefaultTimeReferenceColumn}
		for _, c := range t.Edges.Columns {
			col := toColumn(c)
			for _, f := range c.Edges.SubFields {
				col.SubFields = append(col.SubFields, toColumn(f))
			}
			out.Columns = append(out.Columns, col)
		}
		for _, sj := range t.Edges.SemiJoins {
			j := qb.SemiJoin{Name: sj.Name, On: JoinKeys(sj)}
			if sj.Edges.ToTable != nil {
				j.ToTable = sj.Edges.ToTable.Name
			}
			out.SemiJoins = append(out.SemiJoins, j)
		}
		cat.Tables = append(cat.Tables, out)
	}
	return cat
}

func toColumn(c *ent.CatalogColumn) qb.Column {
	return qb.Column{Name: c.Name, Description: c.Description, Type: qb.FieldType(c.Type), Repeated: c.IsRepeated,
		IsIdentity: c.IsIdentity, IsDefaultTimeReference: c.IsDefaultTimeReference}
}

// JoinKeys returns the condition of a stored semi-join.
func JoinKeys(sj *ent.CatalogSemiJoin) []qb.JoinKey {
	keys := make([]qb.JoinKey, len(sj.OnKeys))
	for i, k := range sj.OnKeys {
		keys[i] = qb.JoinKey{Left: k["left"], Right: k["right"]}
	}
	return keys
}

// Tables returns the tables of d in catalog order: the loaded edge (GetCatalog,
// SetCatalog, Set) or a query. GraphQL resolves the catalog edges with these.
func (s *Service) Tables(ctx context.Context, d *ent.TenantDataset) ([]*ent.CatalogTable, error) {
	if ts, err := d.Edges.TablesOrErr(); err == nil {
		return ts, nil
	}
	return s.db(ctx).CatalogTable.Query().Where(catalogtable.DatasetID(d.ID)).Order(catalogtable.ByName()).All(ctx)
}

// Columns returns the top-level columns of t in catalog order (sub-fields
// hang off their RECORD column).
func (s *Service) Columns(ctx context.Context, t *ent.CatalogTable) ([]*ent.CatalogColumn, error) {
	if cs, err := t.Edges.ColumnsOrErr(); err == nil {
		return cs, nil
	}
	return s.db(ctx).CatalogColumn.Query().Where(catalogcolumn.TableID(t.ID), catalogcolumn.ParentIDIsNil()).
		Order(catalogcolumn.BySortOrder(), catalogcolumn.ByName()).All(ctx)
}

// SubFields returns the sub-fields of a RECORD column in catalog order.
func (s *Service) SubFields(ctx context.Context, c *ent.CatalogColumn) ([]*ent.CatalogColumn, error) {
	if fs, err := c.Edges.SubFieldsOrErr(); err == nil {
		return fs, nil
	}
	return s.db(ctx).CatalogColumn.Query().Where(catalogcolumn.ParentID(c.ID)).
		Order(catalogcolumn.BySortOrder(), catalogcolumn.ByName()).All(ctx)
}

// SemiJoins returns the semi-joins of t by name.
func (s *Service) SemiJoins(ctx context.Context, t *ent.CatalogTable) ([]*ent.CatalogSemiJoin, error) {
	if js, err := t.Edges.SemiJoinsOrErr(); err == nil {
		return js, nil
	}
	return s.db(ctx).CatalogSemiJoin.Query().Where(catalogsemijoin.FromTableID(t.ID)).Order(catalogsemijoin.ByName()).All(ctx)
}
