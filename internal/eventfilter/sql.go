package eventfilter

import (
	"context"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/criteria"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/tenancy"
)

// SQL, validation and preview: every operation needs a tenant dataset (404
// without one). The SQL is always the BigQuery
// output SPEC.md documents (IEventCriteriaSql); previews run the postgres or
// sqlite compilation on the dataset.

// stored runs the SQL operations on stored filters (no compositions).
func (s *Service) stored() criteria.Stored {
	return criteria.Stored{DS: s.ds, Kind: qb.EventFilter, Tree: s.storedTree}
}

// SQL compiles a stored filter (GET /api/event-criterias/:id/sql). The
// format is checked first (400), then the filter is found (404), then its
// definition is validated against the current catalog before compiling: a
// catalog that changed since the filter was saved answers 400 with the
// issues.
func (s *Service) SQL(ctx context.Context, id uuid.UUID, format string) (*qb.Compiled, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	return s.stored().SQL(ctx, tid, pid, id, format)
}

// GenerateSQL compiles a definition sent in the body (POST generate-sql);
// nothing is stored. An invalid format and a malformed definition are
// reported together; the catalog rules come after them.
func (s *Service) GenerateSQL(ctx context.Context, blocks any, format string) (*qb.Compiled, error) {
	if _, _, err := tenancy.Project(ctx); err != nil {
		return nil, err
	}
	f, ferr := criteria.ParseFormat(format)
	def, err := criteria.Decode(blocks)
	if err := criteria.JoinDTO(criteria.InvalidMessages(ferr), err); err != nil {
		return nil, err
	}
	return criteria.SQL(ctx, s.ds, qb.AudienceTree{Definition: def}, qb.EventFilter, f)
}

// ValidateBody checks a definition sent in the body against the catalog
// (POST validate-from-body) and answers {valid, errors}: a definition that
// breaks rules is a valid request with valid=false and one error per issue
// (path and message). Only a body that is not a definition at all
// (queryBlocks missing, not an array, or empty) is a 400.
func (s *Service) ValidateBody(ctx context.Context, blocks any) (*criteria.Validation, error) {
	if _, _, err := tenancy.Project(ctx); err != nil {
		return nil, err
	}
	def, issues, err := criteria.DecodeForValidation(ctx, s.ds, blocks)
	switch {
	case err != nil:
		return nil, err
	case len(issues) > 0:
		return &criteria.Validation{Valid: false, Errors: issues}, nil
	}
	return criteria.Validate(ctx, s.ds, def, qb.EventFilter)
}

// PreviewBody runs a definition sent in the body on the tenant's dataset
// (POST preview-from-body): at most limit rows (1..100, checked by the
// adapters with criteria.ParseLimit), read-only, bounded by the preview
// timeout; a BigQuery dataset answers 422.
func (s *Service) PreviewBody(ctx context.Context, blocks any, limit int) (*qb.PreviewResult, error) {
	if _, _, err := tenancy.Project(ctx); err != nil {
		return nil, err
	}
	def, err := criteria.Decode(blocks)
	if err != nil {
		return nil, err
	}
	return criteria.Preview(ctx, s.ds, qb.AudienceTree{Definition: def}, qb.EventFilter, limit)
}

// Preview runs a stored filter on the tenant's dataset (POST :id/preview),
// validating its definition first, like PreviewBody.
func (s *Service) Preview(ctx context.Context, id uuid.UUID, limit int) (*qb.PreviewResult, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	return s.stored().Preview(ctx, tid, pid, id, limit)
}
