// Package demo generates the demo tenant's sample dataset: commerces,
// behavioural events with attributes and items, product properties and
// transactions over the last year, generated from a fixed seed so that the
// same seed and the same reference time always yield the same rows.
//
// The tables follow the physical conventions of querybuilder.Catalog
// exactly, so the postgres and sqlite dialects of the query builder can run
// previews on them; Catalog returns their catalog.
//
// Where the tables live:
//   - postgres: in a schema of their own (created when missing) of the
//     service's database; the compiler references them as "schema"."table".
//   - sqlite: in a separate SQLite file that the caller opens (one file per
//     dataset, for example next to the service's file), so table names stay
//     plain and the compiler references them unqualified.
package demo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Dialects accepted by Create. "sqlite3" (the ent dialect name) is accepted
// as an alias of "sqlite".
const (
	DialectPostgres = "postgres"
	DialectSQLite   = "sqlite"
)

// Defaults used for zero Options fields.
const (
	DefaultSeed         uint64 = 20240917
	DefaultCommerces           = 500
	DefaultProducts            = 200
	DefaultEvents              = 40000
	DefaultTransactions        = 3000
)

// ErrExists is returned by Create when a demo table already exists and
// Options.Replace is false; nothing is changed then.
var ErrExists = errors.New("demo dataset tables already exist")

// Options tunes the generated dataset. Zero fields take the defaults.
type Options struct {
	// Seed of the generator (0: DefaultSeed).
	Seed uint64
	// Now is the reference time: events and transactions fall within
	// [Now-365d, Now] (zero: time.Now()).
	Now time.Time
	// Row counts (0: the defaults). Events and Transactions are exact.
	Commerces, Products, Events, Transactions int
	// Replace drops existing demo tables and recreates them instead of
	// failing with ErrExists.
	Replace bool
}

// Stats describes a created dataset.
type Stats struct {
	Dialect string
	// Schema is the postgres schema ("" on sqlite).
	Schema string
	Seed   uint64
	Now    time.Time
	// Tables in creation order.
	Tables []TableStats
	// Elapsed is the wall time of Create.
	Elapsed time.Duration
}

// TableStats is one created table.
type TableStats struct {
	Name string
	// Physical is the quoted name to use in SQL: "schema"."table" on
	// postgres, "table" on sqlite.
	Physical string
	Rows     int
}

// Rows returns the row count of the table called name (0 when absent).
func (s Stats) Rows(name string) int {
	for _, t := range s.Tables {
		if t.Name == name {
			return t.Rows
		}
	}
	return 0
}

// Create creates the demo tables in db and fills them, all in one
// transaction: on error nothing is left behind. dialect is "postgres" (the
// tables go into schema, created when missing) or "sqlite" (db is opened on
// the dataset's own file; schema must be empty). When any demo table exists
// it fails with ErrExists unless opts.Replace is set, which drops and
// recreates the demo tables (and only them).
func Create(ctx context.Context, db *sql.DB, dialect, schema string, opts Options) (Stats, error) {
	began := time.Now()
	d, err := newWriter(dialect, schema)
	if err != nil {
		return Stats{}, err
	}
	opts, err = withDefaults(opts)
	if err != nil {
		return Stats{}, err
	}
	data := generate(opts)

	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return Stats{}, fmt.Errorf("demo: begin: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	d.tx = tx
	if err := d.prepare(ctx, opts.Replace); err != nil {
		return Stats{}, err
	}
	stats := Stats{Dialect: d.dialect, Schema: d.schema, Seed: opts.Seed, Now: opts.Now}
	cat := Catalog()
	for i := range cat.Tables {
		t := &cat.Tables[i]
		rows := data[t.Name]
		if err := d.createTable(ctx, t); err != nil {
			return Stats{}, err
		}
		if err := d.insert(ctx, t, rows); err != nil {
			return Stats{}, err
		}
		if err := d.createIndexes(ctx, t.Name); err != nil {
			return Stats{}, err
		}
		stats.Tables = append(stats.Tables, TableStats{Name: t.Name, Physical: d.table(t.Name), Rows: len(rows)})
	}
	if err := tx.Commit(); err != nil {
		return Stats{}, fmt.Errorf("demo: commit: %w", err)
	}
	stats.Elapsed = time.Since(began)
	return stats, nil
}

// withDefaults fills zero fields and rejects negative counts.
func withDefaults(o Options) (Options, error) {
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	// Millisecond precision: the sqlite timestamp format has no more, and
	// both databases must hold the same instants.
	o.Now = o.Now.UTC().Truncate(time.Millisecond)
	counts := []struct {
		name string
		v    *int
		def  int
	}{
		{"Commerces", &o.Commerces, DefaultCommerces},
		{"Products", &o.Products, DefaultProducts},
		{"Events", &o.Events, DefaultEvents},
		{"Transactions", &o.Transactions, DefaultTransactions},
	}
	for _, c := range counts {
		switch {
		case *c.v < 0:
			return o, fmt.Errorf("demo: %s must not be negative, got %d", c.name, *c.v)
		case *c.v == 0:
			*c.v = c.def
		}
	}
	return o, nil
}
