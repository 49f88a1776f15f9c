package eventfilter

import (
	"context"

	"github.com/reten-io/reten/internal/criteria"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/tenancy"
)

// Tables lists the tables of the tenant's catalog that event filters may
// reference, in catalog order (404 without a dataset).
func (s *Service) Tables(ctx context.Context) ([]qb.Table, error) {
	if _, _, err := tenancy.Project(ctx); err != nil {
		return nil, err
	}
	return criteria.Tables(ctx, s.ds)
}

// Columns returns the catalog table called name with its columns and
// semi-joins; 404 "Table not found" when the catalog
// has no such table. Event filter adapters present the columns without the
// audience flags (isIdentity, isDefaultTimeReference).
func (s *Service) Columns(ctx context.Context, name string) (*qb.Table, error) {
	if _, _, err := tenancy.Project(ctx); err != nil {
		return nil, err
	}
	return criteria.Table(ctx, s.ds, name)
}
