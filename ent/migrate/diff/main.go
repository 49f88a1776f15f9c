// Command diff writes the next versioned migration (goose format) for each
// dialect by replaying the committed migrations on a dev database and diffing
// them against the ent schema. It writes nothing when the schema is unchanged.
// Run it through `make migrations` (part of `make generate`).
package main

import (
	"context"
	"database/sql"
	"flag"
	"log"

	"ariga.io/atlas/sql/sqltool"
	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql/schema"
	_ "github.com/lib/pq"
	"modernc.org/sqlite"

	"github.com/reten-io/reten/ent/migrate"
)

func init() {
	// atlas opens SQLite dev databases through the "sqlite3" driver name;
	// serve it with the pure-Go driver (no cgo).
	sql.Register("sqlite3", &sqlite.Driver{})
}

func main() {
	name := flag.String("name", "changes", "migration name")
	pg := flag.String("pg", "", "URL of an empty PostgreSQL dev database")
	flag.Parse()
	if *pg == "" {
		log.Fatal("-pg is required")
	}
	ctx := context.Background()
	diff(ctx, "ent/migrate/migrations/sqlite", dialect.SQLite, "sqlite://reten-dev?mode=memory&_pragma=foreign_keys(1)", *name)
	diff(ctx, "ent/migrate/migrations/postgres", dialect.Postgres, *pg, *name)
}

func diff(ctx context.Context, path, d, devURL, name string) {
	dir, err := sqltool.NewGooseDir(path)
	if err != nil {
		log.Fatalf("%s: open migration dir: %v", d, err)
	}
	opts := []schema.MigrateOption{
		schema.WithDir(dir),
		schema.WithMigrationMode(schema.ModeReplay),
		schema.WithDialect(d),
		schema.WithFormatter(sqltool.GooseFormatter),
		schema.WithDropColumn(true),
		schema.WithDropIndex(true),
	}
	if err := migrate.NamedDiff(ctx, devURL, name, opts...); err != nil {
		log.Fatalf("%s: diff: %v", d, err)
	}
}
