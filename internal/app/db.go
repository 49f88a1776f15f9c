package app

import (
	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/database"
)

// DB is an open database with its ent client (internal/database opens and
// migrates it).
type DB = database.DB

// OpenDB opens DATABASE_URL (postgres://... or sqlite://PATH) with the
// default pool settings.
func OpenDB(url string, opts ...ent.Option) (*DB, error) {
	return database.Open(url, database.Defaults, opts...)
}
