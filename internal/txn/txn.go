// Package txn runs a function in one database transaction, so multi-row
// operations commit entirely or not at all.
package txn

import (
	"context"
	"errors"
	"fmt"

	"github.com/reten-io/reten/ent"
)

// Run executes fn inside a transaction of client and commits it when fn
// returns nil; any error (or panic) rolls it back. When ctx already carries a
// transaction client (ent.FromContext inside a GraphQL mutation, which
// entgql.Transactioner wraps), that client is reused.
func Run(ctx context.Context, client *ent.Client, fn func(ctx context.Context, tx *ent.Client) error) (err error) {
	if c := ent.FromContext(ctx); c != nil && ent.TxFromContext(ctx) != nil {
		return fn(ctx, c)
	}
	tx, err := client.Tx(ctx)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
	}()
	txc := tx.Client()
	if err := fn(ent.NewContext(ent.NewTxContext(ctx, tx), txc), txc); err != nil {
		if rerr := tx.Rollback(); rerr != nil {
			return errors.Join(err, rerr)
		}
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// Client returns the transaction client carried by ctx (a GraphQL mutation
// or an enclosing Run), or fallback. Services read and write through it so
// that everything one operation does shares its transaction.
func Client(ctx context.Context, fallback *ent.Client) *ent.Client {
	if c := ent.FromContext(ctx); c != nil {
		return c
	}
	return fallback
}

// Detached returns ctx without an enclosing transaction, for work that must
// commit item by item (batch upserts) even when called from a GraphQL
// mutation.
func Detached(ctx context.Context) context.Context {
	return ent.NewTxContext(ent.NewContext(ctx, nil), nil)
}
