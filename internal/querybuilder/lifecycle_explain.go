package querybuilder

import (
	"context"
	"database/sql"
	"errors"

	"github.com/reten-io/reten/internal/lifecycle"
)

// LifecycleExplain reads what explaining one identity at l.AsOf needs, in
// one read-only transaction bounded by PreviewTimeout (as Preview runs): its
// rows in each pillar's source table (as LifecycleRows reads them, at most
// limit per source, ErrTooManyRows beyond) and whether it belongs to the
// population of the classification statement (CompileLifecycle). An error
// the dataset answered wraps ErrDataset.
func LifecycleExplain(ctx context.Context, db *sql.DB, l Lifecycle, cat *Catalog, d Dialect, opts Options,
	identity string, limit int) (rows lifecycle.Rows, inPopulation bool, err error) {
	query, args, err := populationHas(l.Population, cat, d, opts, identity)
	if err != nil {
		return rows, false, err
	}
	err = readOnly(ctx, db, d.Name(), func(q querier) error {
		var err error
		if rows, err = lifecycleRows(ctx, q, d, opts.Qualifier, cat, l.Rules, identity, l.AsOf, limit); err != nil || query == "" {
			return err
		}
		var one int
		switch err = q.QueryRowContext(ctx, query, args...).Scan(&one); {
		case errors.Is(err, sql.ErrNoRows):
			return nil
		case err == nil:
			inPopulation = true
		}
		return err
	})
	return rows, inPopulation, err
}

// populationHas is the statement selecting one row when identity is in the
// classification statement's population: the identities of the audience
// pop restricted to that one (the dataset's planner pushes the condition
// into the audience where it can); with pop nil, the SUBJECTS table's
// identities. An empty query: no identity of the population can be it.
func populationHas(pop *AudienceTree, cat *Catalog, d Dialect, opts Options, identity string) (string, []any, error) {
	if pop == nil {
		table, _, err := subjectsIdentity(cat)
		if err != nil {
			return "", nil, err
		}
		t, _ := cat.Table(table)
		cond, arg, ok := identityIs(d, identityColumn(t), identity, 0)
		if !ok {
			return "", nil, nil
		}
		return "SELECT 1 FROM " + d.table(opts.Qualifier, table) + " WHERE " + cond + " LIMIT 1", []any{arg}, nil
	}
	c, err := CompileAudience(*pop, cat, d, opts)
	if err != nil {
		return "", nil, err
	}
	subject := d.(lifecycleDialect).text(d.quoteIdent(*c.SubjectColumn))
	return "WITH " + c.Query + "\nSELECT 1 FROM " + c.FinalCteName + " WHERE " + subject + " = " +
		d.placeholder(len(c.Params), TypeString) + " LIMIT 1", append(append([]any(nil), c.Args...), identity), nil
}
