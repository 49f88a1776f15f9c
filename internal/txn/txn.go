// Package txn is the one owner of database transactions: a service method
// that writes runs its writes in Run, so they commit entirely or not at all,
// whichever adapter (REST or GraphQL) called it.
package txn

import (
	"context"
	"errors"
	"fmt"

	"github.com/reten-io/reten/ent"
)

// Run executes fn inside a transaction of client and commits it when fn
// returns nil; any error (or panic) rolls it back. fn reads and writes
// through tx (or txn.Client(ctx, ...), which returns it). Inside another
// Run (a service method calling another one in its transaction) fn joins
// the enclosing transaction, which commits or rolls back as a whole: work
// that must commit step by step (per item, per chunk, before an outside
// call) runs each step in a Run of its own and is never called inside one.
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

// Client returns the transaction client of the Run enclosing ctx, or
// fallback outside one. Helpers shared by reads and writes take their client
// from it, so that inside a Run they read what the transaction wrote.
func Client(ctx context.Context, fallback *ent.Client) *ent.Client {
	if c := ent.FromContext(ctx); c != nil {
		return c
	}
	return fallback
}
