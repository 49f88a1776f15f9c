package app

import (
	"time"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/database"
)

// DB is an open database with its ent client (internal/database opens and
// migrates it).
type DB = database.DB

// OpenDB opens DATABASE_URL (postgres://... or sqlite://PATH) with the
// default statement timeout.
func OpenDB(url string, opts ...ent.Option) (*DB, error) {
	return openDB(url, DefaultDBStatementTimeout, opts...)
}

// openDB opens the database with the configured statement timeout.
func openDB(url string, statementTimeout time.Duration, opts ...ent.Option) (*DB, error) {
	return database.Open(url, statementTimeout, opts...)
}
