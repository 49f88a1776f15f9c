package apperr

import "context"

// existQuery is an ent query: it can tell whether it finds a row.
type existQuery interface {
	Exist(ctx context.Context) (bool, error)
}

// ConflictIfExists answers 409 msg when q finds a row: a uniqueness rule
// checked before the write, so that the client reads the rule's message
// rather than the unique index's. An error of the query is returned as is.
func ConflictIfExists(ctx context.Context, q existQuery, msg string) error {
	taken, err := q.Exist(ctx)
	switch {
	case err != nil:
		return err
	case taken:
		return Conflict(msg)
	}
	return nil
}
