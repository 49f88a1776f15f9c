package txn

import (
	"context"

	"github.com/reten-io/reten/ent"
)

// Value is Run for work that produces a value: fn's value once the
// transaction has committed, or the zero value and the error.
func Value[T any](ctx context.Context, client *ent.Client, fn func(ctx context.Context, tx *ent.Client) (T, error)) (T, error) {
	var out T
	err := Run(ctx, client, func(ctx context.Context, tx *ent.Client) (err error) {
		out, err = fn(ctx, tx)
		return err
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return out, nil
}
