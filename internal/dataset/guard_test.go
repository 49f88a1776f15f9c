package dataset_test

import (
	"context"
	"errors"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/reten-io/reten/ent/tenantdataset"
	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/secret"
	"github.com/reten-io/reten/internal/viewer"
)

func TestParseAllowlist(t *testing.T) {
	if _, err := dataset.ParseAllowlist(" /srv/datasets , db.internal:5432/analytics,[::1]:6543,, warehouse:5432 "); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"relative/dir", "db.internal", "db.internal:0", "db.internal:70000", ":5432", "db:5432/", "db:port"} {
		_, err := dataset.ParseAllowlist(bad)
		want := `RETEN_DATASET_ALLOW: "` + bad + `" is neither an absolute directory nor host:port[/database]`
		if err == nil || err.Error() != want {
			t.Errorf("ParseAllowlist(%q) = %v, want %q", bad, err, want)
		}
	}
}

func guard(t *testing.T, own, spec string) *dataset.Guard {
	t.Helper()
	a, err := dataset.ParseAllowlist(spec)
	if err != nil {
		t.Fatal(err)
	}
	g, err := dataset.NewGuard(a, own)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGuardPostgres(t *testing.T) {
	g := guard(t, "postgres://svc:pw@127.0.0.1:5432/reten?sslmode=disable&search_path=app",
		"127.0.0.1:5432,warehouse.internal:6543/analytics")
	cases := []struct{ conn, msg string }{
		{"postgres://x@127.0.0.1:5432/reten", dataset.MsgOwnDatabase},
		{"postgresql://x@LOCALHOST/reten?sslmode=disable", dataset.MsgOwnDatabase},
		{"postgres://x@127.0.0.1:5432/other", ""},
		{"postgres://x:pw@warehouse.internal:6543/analytics?sslmode=require&connect_timeout=3", ""},
		{"postgres://x@warehouse.internal:6543/other", dataset.MsgPostgresNotAllowed},
		{"postgres://x@warehouse.internal:5432/analytics", dataset.MsgPostgresNotAllowed},
		{"postgres://x@evil.example:5432/reten", dataset.MsgPostgresNotAllowed},
		{"postgres://x@127.0.0.1:5432/other?host=/var/run/postgresql", dataset.MsgConnectionParams},
		{"postgres://x@127.0.0.1:5432/other?dbname=reten", dataset.MsgConnectionParams},
		{"postgres://x@127.0.0.1:5432/other?sslrootcert=/etc/shadow", dataset.MsgConnectionParams},
		{"postgres://x@127.0.0.1:5432/other?service=svc", dataset.MsgConnectionParams},
		{"postgres://x@127.0.0.1,10.0.0.1:5432/other", dataset.MsgConnectionPostgres},
		{"postgres://x@127.0.0.1:5432", dataset.MsgConnectionPostgres},
		{"mysql://x@127.0.0.1:5432/other", dataset.MsgConnectionPostgres},
	}
	for _, c := range cases {
		conn, msg := g.Postgres(context.Background(), c.conn)
		if msg != c.msg || (msg == "") != (conn != nil) {
			t.Errorf("Postgres(%q) = %v, %q; want %q", c.conn, conn != nil, msg, c.msg)
		}
	}
	// Nothing is allowed without an entry.
	empty := guard(t, "sqlite:///var/lib/reten/reten.db", "")
	if _, msg := empty.Postgres(context.Background(), "postgres://x@127.0.0.1:5432/other"); msg != dataset.MsgPostgresNotAllowed {
		t.Errorf("empty allowlist: %q", msg)
	}
}

func TestGuardSQLite(t *testing.T) {
	root := t.TempDir()
	dirs := map[string]string{}
	for _, d := range []string{"data", "allowed", "outside", "real"} {
		dirs[d] = filepath.Join(root, d)
		if err := os.Mkdir(dirs[d], 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ownFile := filepath.Join(dirs["data"], "reten.db")
	for _, f := range []string{ownFile, filepath.Join(dirs["outside"], "x.db"), filepath.Join(dirs["allowed"], "tenant.db")} {
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	link := func(name, target string) string {
		p := filepath.Join(dirs["allowed"], name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	aliasDir := filepath.Join(root, "alias")
	if err := os.Symlink(dirs["real"], aliasDir); err != nil {
		t.Fatal(err)
	}
	// The allowlist names the service's directory too: it stays refused.
	g := guard(t, "sqlite://"+ownFile, dirs["allowed"]+","+dirs["data"]+","+aliasDir)
	cases := []struct{ path, want, msg string }{
		{filepath.Join(dirs["allowed"], "tenant.db"), filepath.Join(dirs["allowed"], "tenant.db"), ""},
		{filepath.Join(dirs["allowed"], "new.db"), filepath.Join(dirs["allowed"], "new.db"), ""},
		{filepath.Join(dirs["real"], "t.db"), filepath.Join(dirs["real"], "t.db"), ""},
		{ownFile, "", dataset.MsgOwnDatabase},
		{ownFile + "-wal", "", dataset.MsgOwnDatabase},
		{filepath.Join(dirs["data"], "demo-1234.db"), "", dataset.MsgOwnDatabase},
		{link("own.db", ownFile), "", dataset.MsgOwnDatabase},
		{link("data", dirs["data"]) + "/reten.db", "", dataset.MsgOwnDatabase},
		{link("escape.db", filepath.Join(dirs["outside"], "x.db")), "", dataset.MsgSQLiteNotAllowed},
		{filepath.Join(dirs["allowed"], "..", "outside", "x.db"), "", dataset.MsgSQLiteNotAllowed},
		{filepath.Join(dirs["allowed"], "missing", "x.db"), "", dataset.MsgSQLiteNotAllowed},
		{dirs["allowed"], "", dataset.MsgSQLiteNotAllowed},
		{"/etc/passwd", "", dataset.MsgSQLiteNotAllowed},
	}
	for _, c := range cases {
		got, msg := g.SQLite(c.path)
		if got != c.want || msg != c.msg {
			t.Errorf("SQLite(%q) = %q, %q; want %q, %q", c.path, got, msg, c.want, c.msg)
		}
	}
}

// proxy forwards 127.0.0.1:<port> to target (another name of the same
// server); while frozen is set it holds every byte, as a stopped server
// whose sockets stay open.
func proxy(t *testing.T, target string, frozen *atomic.Bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { _ = ln.Close(); frozen.Store(false); wg.Wait() })
	pipe := func(dst, src net.Conn) {
		defer wg.Done()
		defer dst.Close()
		defer src.Close()
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			for frozen.Load() {
				time.Sleep(10 * time.Millisecond)
			}
			if n > 0 {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					return
				}
			}
			if err != nil {
				return
			}
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				_ = c.Close()
				continue
			}
			wg.Add(2)
			go pipe(up, c)
			go pipe(c, up)
		}
	}()
	return ln.Addr().String()
}

// TestFrozenDatasetDoesNotHoldARequest: a tenant's PostgreSQL that stops
// answering ends a query with its context, and the pool recovers.
func TestFrozenDatasetDoesNotHoldARequest(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		return // PostgreSQL only, like apptest.Each's postgres run
	}
	target := mustURL(t, apptest.DatasetDatabase(t))
	var frozen atomic.Bool
	via := proxy(t, target.Host, &frozen)
	env := apptest.NewWith(t, "postgres", apptest.AllowDatasets(t, via))
	acme := env.Bootstrap("Acme")
	ctx, s := admin(acme.TenantID), svc(env)
	conn := *target
	conn.Host = via
	mustSet(t, ctx, s, dataset.ConfigInput{Engine: "postgres", Connection: ptr(conn.String()), SchemaName: "public"})
	db, _, _, err := s.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	frozen.Store(true)
	done := make(chan error, 1)
	go func() {
		qctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		_, err := db.ExecContext(qctx, `SELECT 1`)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("query on a frozen dataset: %v, want its deadline", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a query on a frozen dataset has not returned after 10s")
	}
	frozen.Store(false)
	if _, err := db.ExecContext(context.Background(), `SELECT 1`); err != nil {
		t.Fatalf("after the freeze: %v", err)
	}
}

// TestOwnDatabaseRefusedWhenOpened: a name the write-time check cannot tell
// from another server (a proxy), and a configuration stored before the
// guard existed, are both refused when the pool opens.
func TestOwnDatabaseRefusedWhenOpened(t *testing.T) {
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		return // PostgreSQL only, like apptest.Each's postgres run
	}
	var via string
	env := apptest.NewWith(t, "postgres", func(c *app.Config) {
		via = proxy(t, mustURL(t, c.DatabaseURL).Host, &atomic.Bool{})
		apptest.AllowDatasets(t, via)(c)
	})
	acme := env.Bootstrap("Acme")
	ctx, s := admin(acme.TenantID), svc(env)
	u := mustURL(t, env.App.Config.DatabaseURL)
	u.Host, u.RawQuery = via, "sslmode=disable"
	mustSet(t, ctx, s, dataset.ConfigInput{Engine: "postgres", Connection: ptr(u.String()), SchemaName: "public"})
	_, _, _, err := s.Open(ctx)
	dbtest.ExpectError(t, err, 400, dataset.MsgOwnDatabase)

	// A row written before the guard: the service's own URL, sealed as Set would.
	beta := env.Bootstrap("Beta")
	id := uuid.New()
	legacy := mustURL(t, env.App.Config.DatabaseURL)
	legacy.RawQuery = "sslmode=disable"
	sealed, err := secret.New(env.App.Config.SecretsKey).Seal(id, []byte(legacy.String()))
	if err != nil {
		t.Fatal(err)
	}
	sys := viewer.SystemContext(context.Background())
	env.App.DB.Client.TenantDataset.Create().SetID(id).SetTenantID(beta.TenantID).SetEngine(tenantdataset.EnginePostgres).
		SetConnection(sealed).SetSchemaName("public").ExecX(sys)
	_, _, _, err = s.Open(admin(beta.TenantID))
	dbtest.ExpectError(t, err, 400, dataset.MsgOwnDatabase)
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestHostedReaderReadsOnlyItsSchema: previews of a hosted PostgreSQL
// dataset run as a role that can read its schema and nothing else.
func TestHostedReaderReadsOnlyItsSchema(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		apptest.DemoDataset(t, env, acme.TenantID, smallDemo())
		ctx, s := admin(acme.TenantID), svc(env)
		d, err := s.Get(ctx)
		if err != nil || !d.Managed {
			t.Fatalf("hosted dataset %+v, %v", d, err)
		}
		db, _, qualifier, err := s.Open(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n := countEvents(t, db, qualifier); n != smallDemo().Events {
			t.Fatalf("%d events", n)
		}
		if _, err := db.Exec(`DELETE FROM events`); err == nil {
			t.Fatal("a write through the hosted dataset succeeded")
		}
		if env.App.DB.Dialect != "postgres" {
			// The service's tables are not in the dataset file.
			if _, err := db.Exec(`SELECT count(*) FROM users`); err == nil || !strings.Contains(err.Error(), "no such table") {
				t.Fatalf("users through the dataset: %v", err)
			}
			return
		}
		var role string
		if err := db.QueryRow(`SELECT current_user`).Scan(&role); err != nil || role != dataset.ReaderRole(acme.TenantID) {
			t.Fatalf("previews run as %q (%v)", role, err)
		}
		var svcSchema string
		if err := env.App.DB.SQL.QueryRow(`SELECT current_schema()`).Scan(&svcSchema); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			`SELECT count(*) FROM "` + svcSchema + `".users`,
			`SELECT count(*) FROM pg_shadow`,
			`SELECT count(*) FROM pg_authid`,
		} {
			_, err := db.Exec(q)
			var pqErr *pq.Error
			if !errors.As(err, &pqErr) || pqErr.Code != "42501" {
				t.Errorf("%s: %v, want permission denied", q, err)
			}
		}
		if _, err := db.Exec(`CREATE TABLE "` + qualifier + `".x (id int)`); err == nil {
			t.Fatal("the reader created a table")
		}
	})
}
