package database

import (
	"context"
	stdsql "database/sql"
	"time"

	"entgo.io/ent/dialect"
)

// utcDriver binds every time.Time argument in UTC. SQLite keeps instants as
// text and compares them as text, so an instant bound in the server's zone
// would not compare with the ones stored in UTC (a cursor page, a "changed
// since" filter or a due-date sweep would then skip or repeat rows on a
// server not running in UTC). PostgreSQL compares timestamptz values and
// needs none of this.
type utcDriver struct{ dialect.Driver }

func (d utcDriver) Exec(ctx context.Context, query string, args, v any) error {
	return d.Driver.Exec(ctx, query, utcArgs(args), v)
}

func (d utcDriver) Query(ctx context.Context, query string, args, v any) error {
	return d.Driver.Query(ctx, query, utcArgs(args), v)
}

func (d utcDriver) Tx(ctx context.Context) (dialect.Tx, error) {
	tx, err := d.Driver.Tx(ctx)
	if err != nil {
		return nil, err
	}
	return utcTx{tx}, nil
}

// BeginTx keeps the transaction options of the wrapped driver (ent's
// client.BeginTx asks for it).
func (d utcDriver) BeginTx(ctx context.Context, opts *stdsql.TxOptions) (dialect.Tx, error) {
	tx, err := d.Driver.(interface {
		BeginTx(context.Context, *stdsql.TxOptions) (dialect.Tx, error)
	}).BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return utcTx{tx}, nil
}

type utcTx struct{ dialect.Tx }

func (t utcTx) Exec(ctx context.Context, query string, args, v any) error {
	return t.Tx.Exec(ctx, query, utcArgs(args), v)
}

func (t utcTx) Query(ctx context.Context, query string, args, v any) error {
	return t.Tx.Query(ctx, query, utcArgs(args), v)
}

// utcArgs returns args ([]any) with every time in UTC; args without a time
// are returned as they are.
func utcArgs(args any) any {
	list, ok := args.([]any)
	if !ok {
		return args
	}
	var out []any
	for i, a := range list {
		var t time.Time
		switch v := a.(type) {
		case time.Time:
			t = v
		case *time.Time:
			if v == nil {
				continue
			}
			t = *v
		default:
			continue
		}
		if t.Location() == time.UTC {
			continue
		}
		if out == nil {
			out = append([]any(nil), list...)
		}
		out[i] = t.UTC()
	}
	if out == nil {
		return args
	}
	return out
}

// contextExecQuerier is what ent's ExecContext/QueryContext (raw SQL through
// the client or a transaction) need of a driver.
type contextExecQuerier interface {
	ExecContext(ctx context.Context, query string, args ...any) (stdsql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*stdsql.Rows, error)
}

func (d utcDriver) ExecContext(ctx context.Context, query string, args ...any) (stdsql.Result, error) {
	return d.Driver.(contextExecQuerier).ExecContext(ctx, query, utcArgs(args).([]any)...)
}

func (d utcDriver) QueryContext(ctx context.Context, query string, args ...any) (*stdsql.Rows, error) {
	return d.Driver.(contextExecQuerier).QueryContext(ctx, query, utcArgs(args).([]any)...)
}

func (t utcTx) ExecContext(ctx context.Context, query string, args ...any) (stdsql.Result, error) {
	return t.Tx.(contextExecQuerier).ExecContext(ctx, query, utcArgs(args).([]any)...)
}

func (t utcTx) QueryContext(ctx context.Context, query string, args ...any) (*stdsql.Rows, error) {
	return t.Tx.(contextExecQuerier).QueryContext(ctx, query, utcArgs(args).([]any)...)
}
