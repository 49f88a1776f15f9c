package criteria

import (
	"context"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apperr"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// Stored runs the SQL operations on the stored criteria of one kind
// (audiences or event filters) of a project.
type Stored struct {
	DS   Dataset
	Kind qb.Kind
	// Tree rebuilds the stored definition, with its compositions, of the
	// owner id of the project (404 when it is not a live one).
	Tree func(ctx context.Context, tid, pid, id uuid.UUID) (qb.AudienceTree, error)
}

// SQL compiles stored criteria in format (GET .../:id/sql). The format is
// checked first (400), then the owner is found (404), then its definition
// is validated against the current catalog before compiling: a catalog
// that changed since it was saved answers 400 with the issues.
func (st Stored) SQL(ctx context.Context, tid, pid, id uuid.UUID, format string) (*qb.Compiled, error) {
	f, err := ParseFormat(format)
	if err != nil {
		return nil, err
	}
	tree, err := st.Tree(ctx, tid, pid, id)
	if err != nil {
		return nil, err
	}
	return SQL(ctx, st.DS, tree, st.Kind, f)
}

// Preview runs stored criteria on the tenant's dataset (POST
// .../:id/preview), validating their definition first: at most limit rows,
// read-only, bounded by the preview timeout; a BigQuery dataset answers 422.
func (st Stored) Preview(ctx context.Context, tid, pid, id uuid.UUID, limit int) (*qb.PreviewResult, error) {
	tree, err := st.Tree(ctx, tid, pid, id)
	if err != nil {
		return nil, err
	}
	return Preview(ctx, st.DS, tree, st.Kind, limit)
}

// InvalidMessages returns the messages of a 400 (nil for nil or another
// error), to report them with others (JoinDTO).
func InvalidMessages(err error) []string {
	if e, ok := apperr.As(err); ok && e.Kind == apperr.KindInvalid {
		return e.Messages
	}
	return nil
}
