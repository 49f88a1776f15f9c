package audience

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/criteria"
	"github.com/reten-io/reten/internal/dataset"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/tenancy"
)

// MsgTableNotFound is the 404 of the catalog columns route.
const MsgTableNotFound = criteria.MsgTableNotFound

// DefinitionInput is a definition sent in a body (generate-sql, validate,
// preview): QueryBlocks is the parsed JSON of the queryBlocks array;
// Compositions combine operand audiences of the project.
type DefinitionInput struct {
	QueryBlocks  any
	Compositions []CompositionInput
}

// SQL, validation and preview: every operation needs a tenant dataset (404
// without one). The SQL
// is always the BigQuery output SPEC.md documents, with subjectColumn the
// identity column; previews run the postgres or sqlite compilation on the
// dataset. Compositions are compiled in: the operand audiences are loaded
// from the project (recursively) and a cycle is a 400.

// issues lists what is wrong with def and comps as the definition of
// audience id (uuid.Nil when not stored): the catalog rules, then the
// compositions (operands, subject columns, cycles). 404 without a dataset.
func (s *Service) issues(ctx context.Context, tid, pid, id uuid.UUID, def qb.Definition, comps []CompositionInput) ([]qb.Issue, error) {
	cat, _, err := s.ds.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	tree, issues, err := newTrees(s.db(ctx), tid, pid).with(ctx, id, def, comps)
	if err != nil {
		return nil, err
	}
	if len(issues) > 0 {
		return append(qb.Validate(def, cat, qb.Audience), issues...), nil
	}
	return checkTree(tree, cat)
}

// check is issues as an error: nil, or the 400 of the issues.
func (s *Service) check(ctx context.Context, tid, pid, id uuid.UUID, def qb.Definition, comps []CompositionInput) error {
	issues, err := s.issues(ctx, tid, pid, id, def, comps)
	if err != nil {
		return err
	}
	if len(issues) > 0 {
		return invalid(issues)
	}
	return nil
}

// bodyTree decodes a sent definition and loads its operands (400 on a
// shape error or an operand that is not a live audience of the project).
func (s *Service) bodyTree(ctx context.Context, tid, pid uuid.UUID, in DefinitionInput, format error) (qb.AudienceTree, error) {
	def, err := criteria.Decode(in.QueryBlocks)
	if err := joinDTO(criteria.InvalidMessages(format), err, in.Compositions); err != nil {
		return qb.AudienceTree{}, err
	}
	tree, issues, err := newTrees(s.db(ctx), tid, pid).with(ctx, uuid.Nil, def, in.Compositions)
	if err == nil && len(issues) > 0 {
		err = invalid(issues)
	}
	return tree, err
}

// storedTree loads audience id of the project with its operands (404 when
// it is not a live audience of the project, 400 when an operand is gone).
func (s *Service) storedTree(ctx context.Context, tid, pid, id uuid.UUID) (qb.AudienceTree, error) {
	cur, err := s.get(ctx, s.db(ctx), tid, pid, id)
	if err != nil {
		return qb.AudienceTree{}, err
	}
	return s.treeOf(ctx, tid, pid, cur.Audience)
}

// treeOf is the tree of a loaded audience with its operands (400 when an
// operand is gone).
func (s *Service) treeOf(ctx context.Context, tid, pid uuid.UUID, a *ent.Audience) (qb.AudienceTree, error) {
	tree, issues, err := newTrees(s.db(ctx), tid, pid).stored(ctx, a)
	if err == nil && len(issues) > 0 {
		err = invalid(issues)
	}
	return tree, err
}

// stored runs the SQL operations on stored audiences.
func (s *Service) stored() criteria.Stored {
	return criteria.Stored{DS: s.ds, Kind: qb.Audience, Tree: s.storedTree}
}

// SQL compiles a stored audience with its compositions (GET
// /api/audience-criterias/:id/sql). The format is checked first (400), then
// the audience is found (404), then its definition is validated against the
// current catalog before compiling (400 with the issues).
func (s *Service) SQL(ctx context.Context, id uuid.UUID, format string) (*qb.Compiled, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	return s.stored().SQL(ctx, tid, pid, id, format)
}

// GenerateSQL compiles a definition sent in the body (POST generate-sql);
// nothing is stored. An invalid format and a malformed definition are
// reported together; the operands and the catalog rules come after them.
func (s *Service) GenerateSQL(ctx context.Context, in DefinitionInput, format string) (*qb.Compiled, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	f, ferr := criteria.ParseFormat(format)
	tree, err := s.bodyTree(ctx, tid, pid, in, ferr)
	if err != nil {
		return nil, err
	}
	return criteria.SQL(ctx, s.ds, tree, qb.Audience, f)
}

// Validate checks a definition sent in the body (POST validate-from-body)
// and answers {valid, errors}: a definition that breaks rules (shape,
// catalog, compositions) is a valid request with valid=false and one error
// per issue (path and message). Only a body that is not a definition at all
// (queryBlocks missing, not an array, or empty; compositions malformed) is
// a 400.
func (s *Service) Validate(ctx context.Context, in DefinitionInput) (*criteria.Validation, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	def, issues, err := criteria.DecodeForValidation(ctx, s.ds, in.QueryBlocks)
	switch {
	case err != nil:
		return nil, err
	case len(issues) > 0:
		return &criteria.Validation{Valid: false, Errors: append(issues, compositionIssues(in.Compositions)...)}, nil
	}
	if issues, err = s.issues(ctx, tid, pid, uuid.Nil, def, in.Compositions); err != nil {
		return nil, err
	}
	return &criteria.Validation{Valid: len(issues) == 0, Errors: append([]qb.Issue{}, issues...)}, nil
}

// Preview runs a stored audience on the tenant's dataset (POST :id/preview):
// at most limit sample rows and the count of distinct subjects, read-only,
// bounded by the preview timeout; a BigQuery dataset answers 422.
func (s *Service) Preview(ctx context.Context, id uuid.UUID, limit int) (*qb.PreviewResult, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	return s.stored().Preview(ctx, tid, pid, id, limit)
}

// PreviewBody is Preview of a definition sent in the body (POST
// preview-from-body).
func (s *Service) PreviewBody(ctx context.Context, in DefinitionInput, limit int) (*qb.PreviewResult, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	tree, err := s.bodyTree(ctx, tid, pid, in, nil)
	if err != nil {
		return nil, err
	}
	return criteria.Preview(ctx, s.ds, tree, qb.Audience, limit)
}

// ChangeInput is a definition change being considered for a stored
// audience, with the PATCH semantics: blocks and compositions replace the
// stored ones only when set.
type ChangeInput struct {
	SetBlocks       bool
	QueryBlocks     any
	SetCompositions bool
	Compositions    []CompositionInput
}

// MembershipChange reports, before anything is saved, how the audience's
// subjects would change under in: the distinct subjects before and after,
// those entering and those leaving. An
// audience without a stored definition (a root audience not yet edited)
// has no subjects before.
func (s *Service) MembershipChange(ctx context.Context, id uuid.UUID, in ChangeInput) (*qb.Membership, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	def, shape := criteria.DecodeSent(in.SetBlocks, in.QueryBlocks)
	if err := joinDTO(nil, shape, in.Compositions); err != nil {
		return nil, err
	}
	cur, err := s.get(ctx, s.db(ctx), tid, pid, id)
	if err != nil {
		return nil, err
	}
	def, comps, err := s.checkChange(ctx, tid, pid, cur, in.SetBlocks, def, in.SetCompositions, in.Compositions)
	if err != nil {
		return nil, err
	}
	trees := newTrees(s.db(ctx), tid, pid)
	after, _, err := trees.with(ctx, id, def, comps)
	if err != nil {
		return nil, err
	}
	if len(cur.Edges.QueryBlocks) == 0 {
		res, err := criteria.Preview(ctx, s.ds, after, qb.Audience, 1)
		if err != nil {
			return nil, err
		}
		var n int64
		if res.SubjectCount != nil {
			n = *res.SubjectCount
		}
		return &qb.Membership{After: n, Entering: n}, nil
	}
	before, issues, err := trees.stored(ctx, cur.Audience)
	if err != nil {
		return nil, err
	}
	if len(issues) > 0 {
		return nil, invalid(issues)
	}
	cat, _, err := s.ds.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	db, engine, qualifier, err := s.ds.Open(ctx)
	if err != nil {
		return nil, err
	}
	d, ok := qb.DialectFor(engine)
	if !ok || d == qb.BigQuery {
		return nil, apperr.Unprocessable(criteria.MsgPreviewUnsupported)
	}
	m, err := qb.MembershipChange(ctx, db, d, qb.Options{Qualifier: qualifier}, cat, before, after)
	if errors.Is(err, qb.ErrPreviewUnsupported) {
		return nil, apperr.Unprocessable(criteria.MsgPreviewUnsupported)
	}
	if issues, cerr := compileIssues(err); cerr == nil && len(issues) > 0 {
		return nil, invalid(issues) // the stored definition no longer holds
	}
	return m, dataset.QueryFailed(ctx, err)
}

// Tables is the catalog of the tenant dataset as audiences see it:
// 404 without a dataset.
func (s *Service) Tables(ctx context.Context) ([]qb.Table, error) {
	if _, _, err := tenancy.Project(ctx); err != nil {
		return nil, err
	}
	return criteria.Tables(ctx, s.ds)
}

// Columns is one catalog table with its columns (404 MsgTableNotFound).
func (s *Service) Columns(ctx context.Context, table string) (*qb.Table, error) {
	tables, err := s.Tables(ctx)
	if err != nil {
		return nil, err
	}
	return criteria.FindTable(tables, table)
}
