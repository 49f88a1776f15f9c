// Package testpg gives tests throwaway schemas on the test PostgreSQL
// (TEST_DATABASE_URL). It links database/sql and lib/pq only, so that the
// tests of any package (the query builder's and the demo generator's
// included) may use it without linking ent or the services.
package testpg

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	_ "github.com/lib/pq" // the "postgres" driver of sql.Open
)

// URL is the test PostgreSQL (TEST_DATABASE_URL); "" turns the PostgreSQL
// runs off.
func URL() string { return os.Getenv("TEST_DATABASE_URL") }

// Schema opens dsn and names a fresh schema (prefix and 16 random hex
// digits) that is dropped, with everything in it, when the test ends, and
// the handle closed; the schema itself is not created (see Create).
func Schema(t testing.TB, dsn, prefix string) (*sql.DB, string) {
	t.Helper()
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatalf("open postgres: %v", err)
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	schema := prefix + hex.EncodeToString(b)
	t.Cleanup(func() {
		if _, err := db.Exec(`DROP SCHEMA IF EXISTS "` + schema + `" CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
		_ = db.Close()
	})
	return db, schema
}

// Create creates a Schema on the test PostgreSQL and returns its name and a
// URL whose search_path selects it.
func Create(t testing.TB, prefix string) (schema, dsn string) {
	t.Helper()
	db, schema := Schema(t, URL(), prefix)
	if _, err := db.Exec(`CREATE SCHEMA "` + schema + `"`); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	u, err := url.Parse(URL())
	if err != nil {
		t.Fatalf("parse TEST_DATABASE_URL: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return schema, u.String()
}
