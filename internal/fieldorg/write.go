package fieldorg

import (
	"context"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/txn"
)

// tenantWrite is a write of one record in the caller's tenant, inside the
// transaction that write runs.
type tenantWrite[T any] func(ctx context.Context, tx *ent.Client, tenantID uuid.UUID) (T, error)

// write runs the steps every single-record write takes, in their order: the
// caller's tenant (from the access its line admitted), the input's rules
// (check normalizes the input and returns one message per broken rule),
// then fn in one transaction.
func write[T any](ctx context.Context, client *ent.Client, check func() []string, fn tenantWrite[T]) (T, error) {
	var zero T
	tenantID, err := tenancy.Tenant(ctx)
	if err != nil {
		return zero, err
	}
	if msgs := check(); len(msgs) > 0 {
		return zero, apperr.Validation(msgs...)
	}
	return txn.Value(ctx, client, func(ctx context.Context, tx *ent.Client) (T, error) { return fn(ctx, tx, tenantID) })
}

// noRules is the check of a write whose input has no rules.
func noRules() []string { return nil }

// archive moves the live record of finds in the caller's tenant (404
// otherwise) into the trash as kind, labelled by label; it stays restorable
// with its links and assignments, and its unique values are free at once.
func archive[T any](ctx context.Context, client *ent.Client, id uuid.UUID, kind trashrecord.Kind,
	of func(ctx context.Context, c *ent.Client, tenantID, id uuid.UUID) (T, error), label func(T) string) error {
	_, err := write(ctx, client, noRules, func(ctx context.Context, tx *ent.Client, tenantID uuid.UUID) (T, error) {
		row, err := of(ctx, tx, tenantID, id)
		if err != nil {
			return row, err
		}
		return row, trash.Move(ctx, tx, trash.Record{Kind: kind, RecordID: id, Label: label(row)})
	})
	return err
}
