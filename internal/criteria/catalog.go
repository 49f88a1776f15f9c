package criteria

import (
	"context"

	"github.com/reten-io/reten/internal/apperr"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// MsgTableNotFound is the 404 of a catalog table that does not exist.
const MsgTableNotFound = "Table not found"

// Tables is the catalog of the tenant's dataset (404 without one).
func Tables(ctx context.Context, ds Dataset) ([]qb.Table, error) {
	cat, _, err := ds.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	return cat.Tables, nil
}

// Table is the catalog table called name with its columns and semi-joins
// (404 MsgTableNotFound when the catalog has no such table).
func Table(ctx context.Context, ds Dataset, name string) (*qb.Table, error) {
	tables, err := Tables(ctx, ds)
	if err != nil {
		return nil, err
	}
	return FindTable(tables, name)
}

// FindTable is the table of tables called name (404 MsgTableNotFound when
// there is none).
func FindTable(tables []qb.Table, name string) (*qb.Table, error) {
	cat := qb.Catalog{Tables: tables}
	t, ok := cat.Table(name)
	if !ok {
		return nil, apperr.NotFound(MsgTableNotFound)
	}
	return t, nil
}
