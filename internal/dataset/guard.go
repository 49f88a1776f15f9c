package dataset

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lib/pq"
)

// AllowSetting names the deployment setting that lists the dataset
// connections tenants may configure (README "Tenant datasets").
const AllowSetting = "RETEN_DATASET_ALLOW"

// Messages of the connection guard (400 on a write of the configuration;
// the same refusal when a stored connection is opened).
const (
	MsgPostgresNotAllowed = "connection is not allowed: its host, port and database must match an entry of " + AllowSetting
	MsgSQLiteNotAllowed   = "connection is not allowed: the file must lie inside a directory listed in " + AllowSetting
	MsgOwnDatabase        = "connection is not allowed: the service's own database is never a tenant dataset, whatever " + AllowSetting + " says"
	MsgConnectionParams   = "connection must not carry parameters other than sslmode and connect_timeout"
)

// tenantParams are the only URL parameters a tenant's postgres connection
// may carry: anything else could redirect it (host, service, passfile) or
// read files of the server (sslcert, sslkey, sslrootcert).
var tenantParams = map[string]bool{"sslmode": true, "connect_timeout": true}

// noPassfile is a password file path that cannot exist: lib/pq reads the
// service's ~/.pgpass when the passfile is empty.
var noPassfile = filepath.Join(os.DevNull, "none")

// resolveTimeout bounds the host name lookups of the own-database check.
const resolveTimeout = 2 * time.Second

// pgTarget is a PostgreSQL server and database.
type pgTarget struct {
	host, port, database string // database "" in an allowlist entry: any
}

// Allowlist is the parsed AllowSetting: PostgreSQL servers (host:port, and
// optionally /database) and SQLite directories (absolute paths) tenants may
// use. The zero value allows nothing.
type Allowlist struct {
	postgres []pgTarget
	dirs     []string
}

// ParseAllowlist reads a comma-separated AllowSetting value: each entry is
// an absolute directory (SQLite files inside it) or host:port[/database]
// ([v6 address]:port for IPv6).
func ParseAllowlist(spec string) (Allowlist, error) {
	var a Allowlist
	for _, raw := range strings.Split(spec, ",") {
		e := strings.TrimSpace(raw)
		switch {
		case e == "":
		case filepath.IsAbs(e):
			a.dirs = append(a.dirs, filepath.Clean(e))
		default:
			server, database, _ := strings.Cut(e, "/")
			host, port, err := net.SplitHostPort(server)
			if n, perr := strconv.Atoi(port); err != nil || host == "" || perr != nil || n < 1 || n > 65535 ||
				strings.Contains(e, "/") && database == "" {
				return Allowlist{}, fmt.Errorf("%s: %q is neither an absolute directory nor host:port[/database]", AllowSetting, e)
			}
			a.postgres = append(a.postgres, pgTarget{host: strings.ToLower(host), port: port, database: database})
		}
	}
	return a, nil
}

// Guard decides which connections a tenant may configure: those of the
// allowlist, never the service's own database (nor, on SQLite, anything in
// the directory of its file, where the hosted datasets live).
type Guard struct {
	allow Allowlist
	// ownPG is the service's PostgreSQL server and database (nil on SQLite);
	// ownDir the resolved directory of its SQLite file ("" on PostgreSQL).
	ownPG  *pgTarget
	ownDir string
}

// NewGuard returns the guard of a service whose own database is databaseURL.
func NewGuard(allow Allowlist, databaseURL string) (*Guard, error) {
	g := &Guard{allow: allow}
	switch {
	case strings.HasPrefix(databaseURL, "sqlite://"):
		path, _, _ := strings.Cut(strings.TrimPrefix(databaseURL, "sqlite://"), "?")
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, fmt.Errorf("dataset guard: %w", err)
		}
		if g.ownDir, _ = resolve(filepath.Dir(abs)); g.ownDir == "" {
			g.ownDir = filepath.Dir(abs) // not created yet: OpenDB creates it as it is
		}
	case databaseURL != "":
		cfg, err := pq.NewConfig(databaseURL)
		if err != nil {
			return nil, fmt.Errorf("dataset guard: service database: %w", err)
		}
		g.ownPG = &pgTarget{host: strings.ToLower(cfg.Host), port: strconv.Itoa(int(cfg.Port)), database: cfg.Database}
	}
	return g, nil
}

// Postgres checks a tenant's postgres:// connection and returns the
// configuration that reaches exactly that server and database (no
// environment default, service file or password file of the service
// applies). The returned message is a refusal ("" when allowed).
func (g *Guard) Postgres(ctx context.Context, conn string) (*pq.Config, string) {
	u, err := url.Parse(conn)
	if err != nil || u.Scheme != "postgres" && u.Scheme != "postgresql" || u.Hostname() == "" ||
		strings.Contains(u.Host, ",") || strings.Trim(u.Path, "/") == "" {
		return nil, MsgConnectionPostgres
	}
	for k := range u.Query() {
		if !tenantParams[k] {
			return nil, MsgConnectionParams
		}
	}
	t := pgTarget{host: strings.ToLower(u.Hostname()), port: u.Port(), database: strings.TrimPrefix(u.Path, "/")}
	if t.port == "" {
		t.port = "5432"
	}
	if g.ownPG != nil && t.database == g.ownPG.database && g.ownServer(ctx, t) {
		return nil, MsgOwnDatabase
	}
	allowed := false
	for _, e := range g.allow.postgres {
		allowed = allowed || e.host == t.host && e.port == t.port && (e.database == "" || e.database == t.database)
	}
	if !allowed {
		return nil, MsgPostgresNotAllowed
	}
	cfg, err := tenantConfig(u, t)
	if err != nil {
		return nil, MsgConnectionPostgres
	}
	return cfg, ""
}

// tenantConfig builds the lib/pq configuration of t from the URL's parts
// alone.
func tenantConfig(u *url.URL, t pgTarget) (*pq.Config, error) {
	kv := []string{"host=" + kvQuote(t.host), "port=" + t.port, "dbname=" + kvQuote(t.database),
		"user=" + kvQuote(u.User.Username())}
	if pw, ok := u.User.Password(); ok {
		kv = append(kv, "password="+kvQuote(pw))
	}
	for k, v := range u.Query() {
		kv = append(kv, k+"="+kvQuote(v[len(v)-1]))
	}
	cfg, err := pq.NewConfig(strings.Join(kv, " "))
	if err != nil {
		return nil, err
	}
	// What the service's environment would add: none of it is the tenant's.
	cfg.Passfile, cfg.Service, cfg.ServiceFile, cfg.Options = noPassfile, "", "", ""
	cfg.SSLCert, cfg.SSLKey, cfg.SSLRootCert, cfg.Multi = "", "", "", nil
	return &cfg, nil
}

// kvQuote quotes a value of a key=value connection string.
func kvQuote(v string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(v, `\`, `\\`), "'", `\'`) + "'"
}

// ownServer reports whether t names the server of the service's own
// database: the same port and a host that is the same name or resolves to
// a shared address (a socket directory counts as the loopback). The check
// at open time (ownIdentity) covers what names cannot tell.
func (g *Guard) ownServer(ctx context.Context, t pgTarget) bool {
	if t.port != g.ownPG.port {
		return false
	}
	if t.host == g.ownPG.host {
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, resolveTimeout)
	defer cancel()
	own := addresses(ctx, g.ownPG.host)
	for _, a := range addresses(ctx, t.host) {
		for _, b := range own {
			if a.Equal(b) {
				return true
			}
		}
	}
	return false
}

// addresses resolves host; a unix socket directory stands for the loopback
// addresses.
func addresses(ctx context.Context, host string) []net.IP {
	if strings.HasPrefix(host, "/") || strings.HasPrefix(host, "@") {
		host = "localhost"
	}
	if ip := net.ParseIP(host); ip != nil {
		return []net.IP{ip}
	}
	addrs, _ := net.DefaultResolver.LookupIPAddr(ctx, host)
	out := make([]net.IP, 0, len(addrs)+2)
	for _, a := range addrs {
		out = append(out, a.IP)
	}
	if host == "localhost" {
		out = append(out, net.IPv4(127, 0, 0, 1), net.IPv6loopback)
	}
	return out
}

// SQLite checks a tenant's SQLite file path and returns it resolved
// (absolute, symlinks followed): the path to open. The returned message is
// a refusal ("" when allowed).
func (g *Guard) SQLite(path string) (string, string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", MsgSQLiteNotAllowed
	}
	file, ok := resolve(abs)
	if !ok {
		return "", MsgSQLiteNotAllowed
	}
	if strings.ContainsAny(file, "?#%") {
		return "", MsgConnectionSQLite
	}
	if g.ownDir != "" && inside(file, g.ownDir) {
		return "", MsgOwnDatabase
	}
	for _, dir := range g.allow.dirs {
		if d, ok := resolve(dir); ok && inside(file, d) {
			return file, ""
		}
	}
	return "", MsgSQLiteNotAllowed
}

// resolve follows the symlinks of path; a missing file is resolved through
// its directory, which must exist (ok false otherwise).
func resolve(path string) (string, bool) {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r, true
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
		return filepath.Join(dir, filepath.Base(path)), true
	}
	return "", false
}

// inside reports whether path lies strictly inside dir.
func inside(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
