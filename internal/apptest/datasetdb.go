package apptest

import (
	"database/sql"
	"errors"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/lib/pq"

	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/dataset"
)

// datasetDBSuffix names the database beside TEST_DATABASE_URL's that holds
// the datasets tenants configure themselves in tests: the service's own
// database is never allowed as one.
const datasetDBSuffix = "_datasets"

var (
	datasetDBOnce sync.Once
	datasetDBErr  error
)

// DatasetDatabase returns the URL of the PostgreSQL database the tests'
// tenants may use as a dataset (TEST_DATABASE_URL's database name +
// "_datasets", created when missing); "" without TEST_DATABASE_URL.
func DatasetDatabase(t testing.TB) string {
	t.Helper()
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		return ""
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parse TEST_DATABASE_URL: %v", err)
	}
	name := u.Path[1:] + datasetDBSuffix
	datasetDBOnce.Do(func() { datasetDBErr = createDatabase(base, name) })
	if datasetDBErr != nil {
		t.Fatalf("datasets database: %v", datasetDBErr)
	}
	u.Path = "/" + name
	q := u.Query()
	q.Del("search_path")
	u.RawQuery = q.Encode()
	return u.String()
}

// createDatabase creates the database name on base's server unless it exists.
func createDatabase(base, name string) error {
	db, err := sql.Open("postgres", base)
	if err != nil {
		return err
	}
	defer db.Close()
	var exists bool
	if err := db.QueryRow(`SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil || exists {
		return err
	}
	// Packages run in parallel: another one may create it first.
	var pqErr *pq.Error
	if _, err = db.Exec(`CREATE DATABASE "` + name + `"`); errors.As(err, &pqErr) && pqErr.Code == "42P04" {
		return nil
	}
	return err
}

// AllowDatasets is a configuration hook (NewWith, EachWith) that adds
// entries (AllowSetting syntax) to the tests' dataset allowlist.
func AllowDatasets(t testing.TB, entries ...string) func(*app.Config) {
	return func(c *app.Config) { c.DatasetAllow = datasetAllow(t, entries...) }
}

// datasetAllow is the allowlist of the tests: the temporary directory, the
// datasets database and entries.
func datasetAllow(t testing.TB, entries ...string) dataset.Allowlist {
	t.Helper()
	spec := strings.Join(append([]string{os.TempDir()}, entries...), ",")
	if ds := DatasetDatabase(t); ds != "" {
		u, _ := url.Parse(ds)
		port := u.Port()
		if port == "" {
			port = "5432"
		}
		spec += "," + u.Hostname() + ":" + port + u.Path
	}
	a, err := dataset.ParseAllowlist(spec)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
