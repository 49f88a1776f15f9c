package criteria

import (
	"context"
	"errors"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/dataset"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// Messages of the SQL and preview parameters.
const (
	MsgLimitInteger = "limit must be an integer number"
	MsgLimitMin     = "limit must not be less than 1"
	MsgLimitMax     = "limit must not be greater than 100"
)

// Validation is the answer of the validate routes (validate-from-body):
// valid, or every issue with the path of its node.
type Validation struct {
	Valid  bool       `json:"valid"`
	Errors []qb.Issue `json:"errors"`
}

// Validate checks def against the tenant's catalog (404 when no dataset).
func Validate(ctx context.Context, ds Dataset, def qb.Definition, kind qb.Kind) (*Validation, error) {
	cat, _, err := ds.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	issues := qb.Validate(def, cat, kind)
	return &Validation{Valid: len(issues) == 0, Errors: append([]qb.Issue{}, issues...)}, nil
}

// Check is Validate as an error: nil, or the 400 of the issues.
func Check(ctx context.Context, ds Dataset, def qb.Definition, kind qb.Kind) error {
	v, err := Validate(ctx, ds, def, kind)
	if err != nil {
		return err
	}
	if !v.Valid {
		return Invalid(v.Errors)
	}
	return nil
}

// ParseFormat reads the `format` parameter ("" is parameterized).
func ParseFormat(s string) (qb.Format, error) {
	f, msg, ok := qb.ParseFormat(s)
	if !ok {
		return "", apperr.Validation(msg)
	}
	return f, nil
}

// SQL compiles an audience tree (event filters: a tree without
// compositions) into the documented BigQuery output, whatever engine holds
// the dataset: the routes show the SQL the retention engine runs.
func SQL(ctx context.Context, ds Dataset, tree qb.AudienceTree, kind qb.Kind, format qb.Format) (*qb.Compiled, error) {
	cat, d, err := ds.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	return compile(tree, cat, kind, qb.BigQuery, qb.Options{Format: format, Qualifier: dataset.Qualifier(d, dataset.EngineBigQuery)})
}

func compile(tree qb.AudienceTree, cat *qb.Catalog, kind qb.Kind, d qb.Dialect, opts qb.Options) (*qb.Compiled, error) {
	var c *qb.Compiled
	var err error
	if kind == qb.Audience {
		c, err = qb.CompileAudience(tree, cat, d, opts)
	} else {
		c, err = qb.Compile(tree.Definition, cat, kind, d, opts)
	}
	if err != nil {
		return nil, compileError(err)
	}
	return c, nil
}

// ParseLimit reads the preview `limit` (default 20, 1..100). raw is nil
// when the parameter is absent.
func ParseLimit(raw *int) (int, error) {
	switch {
	case raw == nil:
		return qb.DefaultPreviewLimit, nil
	case *raw < 1:
		return 0, apperr.Validation(MsgLimitMin)
	case *raw > qb.MaxPreviewLimit:
		return 0, apperr.Validation(MsgLimitMax)
	}
	return *raw, nil
}

// Preview runs the tree on the tenant's dataset (postgres or sqlite),
// read-only, bounded by limit rows and the preview timeout; a BigQuery
// dataset answers 422.
func Preview(ctx context.Context, ds Dataset, tree qb.AudienceTree, kind qb.Kind, limit int) (*qb.PreviewResult, error) {
	cat, _, err := ds.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	db, engine, qualifier, err := ds.Open(ctx)
	if err != nil {
		return nil, err
	}
	d, ok := qb.DialectFor(engine)
	if !ok || d == qb.BigQuery {
		return nil, apperr.Unprocessable(MsgPreviewUnsupported)
	}
	c, err := compile(tree, cat, kind, d, qb.Options{Qualifier: qualifier})
	if err != nil {
		return nil, err
	}
	res, err := qb.Preview(ctx, db, c, limit)
	if errors.Is(err, qb.ErrPreviewUnsupported) {
		return nil, apperr.Unprocessable(MsgPreviewUnsupported)
	}
	return res, dataset.QueryFailed(ctx, err)
}

// MsgPreviewUnsupported answers a preview on a dataset that cannot run it
// (the message internal/dataset gives for a BigQuery dataset).
const MsgPreviewUnsupported = dataset.MsgPreviewBigQuery
