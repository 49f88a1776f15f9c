package eventfilter

import (
	"context"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// Tables lists the tables of the tenant's catalog that event filters may
// reference, in catalog order (event-criteria:view; 404 without a dataset).
func (s *Service) Tables(ctx context.Context) ([]qb.Table, error) {
	if _, _, err := scope(ctx, auth.PermEventCriteriaView); err != nil {
		return nil, err
	}
	cat, _, err := s.ds.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	return cat.Tables, nil
}

// Columns returns the catalog table called name with its columns and
// semi-joins (event-criteria:view); 404 "Table not found" when the catalog
// has no such table. Event filter adapters present the columns without the
// audience flags (isIdentity, isDefaultTimeReference).
func (s *Service) Columns(ctx context.Context, name string) (*qb.Table, error) {
	if _, _, err := scope(ctx, auth.PermEventCriteriaView); err != nil {
		return nil, err
	}
	cat, _, err := s.ds.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	t, ok := cat.Table(name)
	if !ok {
		return nil, apperr.NotFound(MsgTableNotFound)
	}
	return t, nil
}
