package dataset_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/lib/pq"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/demo"
	"github.com/reten-io/reten/internal/testpg"
)

// sqliteDemo writes a small demo dataset into a new file and returns its path.
func sqliteDemo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dataset.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := demo.Create(context.Background(), db, demo.DialectSQLite, "", smallDemo()); err != nil {
		t.Fatal(err)
	}
	return path
}

// countEvents counts the demo events through an Open handle.
func countEvents(t *testing.T, db *sql.DB, qualifier string) int {
	t.Helper()
	table := `"events"`
	if qualifier != "" {
		table = `"` + qualifier + `".` + table
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatalf("query through Open: %v", err)
	}
	return n
}

func TestOpenSQLite(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		ctx, s := admin(acme.TenantID), svc(env)
		_, _, _, err := s.Open(ctx)
		dbtest.ExpectError(t, err, 404, dataset.MsgNotConfigured)

		path := sqliteDemo(t)
		mustSet(t, ctx, s, dataset.ConfigInput{Engine: "sqlite", Connection: &path})
		db, engine, qualifier, err := s.Open(as(acme.TenantID)) // no permission needed: callers check theirs
		if err != nil || engine != "sqlite" || qualifier != "" {
			t.Fatalf("Open = %v %q %q", err, engine, qualifier)
		}
		if n := countEvents(t, db, ""); n != smallDemo().Events {
			t.Fatalf("%d events, want %d", n, smallDemo().Events)
		}
		// Read-only: writes fail, the file keeps its rows.
		if _, err := db.Exec(`DELETE FROM events`); err == nil {
			t.Fatal("a write through the preview handle succeeded")
		}
		// Cached while the configuration is unchanged.
		again, _, _, err := s.Open(ctx)
		if err != nil || again != db {
			t.Fatalf("second Open: %v, same handle %v", err, again == db)
		}
		// A changed configuration reopens (and closes the old handle).
		other := sqliteDemo(t)
		mustSet(t, ctx, s, dataset.ConfigInput{Engine: "sqlite", Connection: &other})
		reopened, _, _, err := s.Open(ctx)
		if err != nil || reopened == db {
			t.Fatalf("Open after a change: %v, same handle %v", err, reopened == db)
		}
		if err := db.Ping(); err == nil {
			t.Fatal("the handle of the old configuration is still open")
		}
		if n := countEvents(t, reopened, ""); n != smallDemo().Events {
			t.Fatalf("%d events after reopening", n)
		}

		// A missing file is never created: 422.
		missing := filepath.Join(t.TempDir(), "missing.db")
		mustSet(t, ctx, s, dataset.ConfigInput{Engine: "sqlite", Connection: &missing})
		_, _, _, err = s.Open(ctx)
		dbtest.ExpectError(t, err, 422, dataset.MsgUnreachable)
		if _, err := os.Stat(missing); !os.IsNotExist(err) {
			t.Fatalf("Open created %s: %v", missing, err)
		}

		// BigQuery is compile-only.
		mustSet(t, ctx, s, bigquery())
		_, _, _, err = s.Open(ctx)
		dbtest.ExpectError(t, err, 422, "Preview is not available for BigQuery datasets: the service only compiles their SQL")

		// Another tenant, and a context without one.
		beta := env.Bootstrap("Beta")
		_, _, _, err = s.Open(admin(beta.TenantID))
		dbtest.ExpectError(t, err, 404, dataset.MsgNotConfigured)
		_, _, _, err = s.Open(context.Background())
		dbtest.ExpectError(t, err, 404, dataset.MsgNotConfigured)

		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if err := reopened.Ping(); err == nil {
			t.Fatal("Close left a handle open")
		}
	})
}

// TestOpenPostgres opens a demo schema of the test PostgreSQL (when
// TEST_DATABASE_URL is set, like apptest.Each's postgres run).
func TestOpenPostgres(t *testing.T) {
	if testpg.URL() != "" {
		t.Run("postgres", openPostgres)
	}
}

func openPostgres(t *testing.T) {
	env := apptest.NewWith(t, "postgres", apptest.AllowDatasets(t, "127.0.0.1:1/none"))
	base := apptest.DatasetDatabase(t) // the service's own database is never a dataset
	acme := env.Bootstrap("Acme")
	ctx, s := admin(acme.TenantID), svc(env)

	db, schema := testpg.Schema(t, base, "demo_open_")
	if _, err := demo.Create(context.Background(), db, demo.DialectPostgres, schema, smallDemo()); err != nil {
		t.Fatal(err)
	}
	mustSet(t, ctx, s, dataset.ConfigInput{Engine: "postgres", Connection: &base, SchemaName: schema})
	h, engine, qualifier, err := s.Open(ctx)
	if err != nil || engine != "postgres" || qualifier != schema {
		t.Fatalf("Open = %v %q %q", err, engine, qualifier)
	}
	if n := countEvents(t, h, qualifier); n != smallDemo().Events {
		t.Fatalf("%d events, want %d", n, smallDemo().Events)
	}
	// Unreachable server: 422 with nothing of the DSN in the message.
	bad := "postgres://nobody:secret@127.0.0.1:1/none?sslmode=disable&connect_timeout=2"
	mustSet(t, ctx, s, dataset.ConfigInput{Engine: "postgres", Connection: &bad, SchemaName: schema})
	_, _, _, err = s.Open(ctx)
	dbtest.ExpectError(t, err, 422, dataset.MsgUnreachable)
}
