package criteria

import (
	"context"
	"errors"

	"github.com/reten-io/reten/internal/apperr"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// JoinDTO merges the messages of the caller's own DTO rules (msgs) with
// those of the shape errors errs, in that order, into one 400 listing every
// broken rule; the first error that is not a 400 passes through instead.
func JoinDTO(msgs []string, errs ...error) error {
	for _, err := range errs {
		if err == nil {
			continue
		}
		var e *apperr.Error
		if !errors.As(err, &e) || e.Kind != apperr.KindInvalid {
			return err
		}
		msgs = append(msgs, e.Messages...)
	}
	if len(msgs) == 0 {
		return nil
	}
	return apperr.Validation(msgs...)
}

// DecodeForValidation decodes the blocks of a validate-from-body request:
// err is the 400 of a body that is not a definition at all (queryBlocks
// missing, not an array, or empty); issues are the shape issues of one
// that is, to answer valid=false once the dataset is known to exist (err is
// then the dataset's).
func DecodeForValidation(ctx context.Context, ds Dataset, blocks any) (def qb.Definition, issues []qb.Issue, err error) {
	if list, ok := blocks.([]any); !ok || len(list) == 0 {
		_, err := Decode(blocks)
		return qb.Definition{}, nil, err
	}
	def, issues = qb.DecodeBlocksValue(blocks, Path)
	if len(issues) > 0 {
		// The dataset must exist even when the shape alone decides.
		if _, _, err := ds.Catalog(ctx); err != nil {
			return def, nil, err
		}
	}
	return def, issues, nil
}
