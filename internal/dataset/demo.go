package dataset

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/user"
	"github.com/reten-io/reten/internal/demo"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/tenant"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// The demo tenant and its super_admin.
const (
	DemoTenant   = "Demo"
	DemoEmail    = "demo@reten.local"
	DemoUsername = "demo"
)

// DemoInput says how to seed the demo. Its dataset is hosted (Host) beside
// the service's database: on PostgreSQL the schema "demo_<short tenant id>"
// of that database, on SQLite the file "demo-<short tenant id>.db" beside
// its file.
type DemoInput struct {
	// Password of the demo user when it is created ("" generates one); an
	// existing demo user keeps its password.
	Password string
	// Replace drops and regenerates the demo tables; without it existing
	// tables are kept as they are.
	Replace bool
	// Options size and seed the generated data (zero: demo defaults).
	Options demo.Options
}

// DemoResult is what `reten demo` prints.
type DemoResult struct {
	TenantID  string `json:"tenantId"`
	ProjectID string `json:"projectId"`
	Email     string `json:"email"`
	// Password is set only when this run created the demo user.
	Password string `json:"password,omitempty"`
	Engine   string `json:"engine"`
	// Tables maps each demo table to its row count; Rows is their sum.
	Tables map[string]int `json:"tables"`
	Rows   int            `json:"rows"`
}

// Demo creates, idempotently, the demo tenant (tenant.Bootstrap) and its
// dataset of sample data in the service's own database, then stores the
// dataset configuration and the demo catalog. Running it again reuses the
// tenant, the user and (unless in.Replace) the generated tables.
func (s *Service) Demo(ctx context.Context, in DemoInput) (*DemoResult, error) {
	engine := s.ownEngine()
	if engine == "" {
		return nil, errors.New("demo: DATABASE_URL must start with postgres:// or sqlite://")
	}
	sys := viewer.SystemContext(ctx)
	existing, err := s.client.User.Query().Where(user.EmailKey(DemoEmail)).Exist(sys)
	if err != nil {
		return nil, fmt.Errorf("demo user: %w", err)
	}
	password := in.Password
	if password == "" {
		if password, err = randomPassword(); err != nil {
			return nil, err
		}
	}
	boot, err := tenant.Bootstrap(ctx, s.client, tenant.BootstrapInput{Tenant: DemoTenant, Email: DemoEmail,
		Password: password, Username: DemoUsername})
	if err != nil {
		return nil, err
	}
	if existing {
		password = "" // Bootstrap kept the user's password
	}
	short := strings.ReplaceAll(boot.TenantID.String(), "-", "")[:8]
	res := &DemoResult{TenantID: boot.TenantID.String(), ProjectID: boot.ProjectID.String(), Email: DemoEmail,
		Password: password, Engine: engine}

	var hosted Hosted
	db := s.host.DB
	if engine == EnginePostgres {
		hosted.Schema = "demo_" + short
	} else {
		hosted.File = filepath.Join(s.guard.ownDir, "demo-"+short+".db")
		if db, err = sql.Open("sqlite", "file:"+hosted.File+"?_pragma=busy_timeout(10000)"); err != nil {
			return nil, fmt.Errorf("demo: open dataset: %w", err)
		}
		defer db.Close()
	}
	if res.Tables, err = seed(ctx, db, engine, hosted.Schema, in); err != nil {
		return nil, err
	}
	for _, n := range res.Tables {
		res.Rows += n
	}
	// The demo acts as the tenant's super_admin and enters the catalog's
	// line, as a request to it would be admitted.
	admin, err := tenancy.EnterAsSuperAdmin(ctx, boot.UserID, boot.TenantID, uuid.Nil, "PUT /tenant-dataset/catalog")
	if err != nil {
		return nil, err
	}
	err = txn.Run(admin, s.client, func(ctx context.Context, _ *ent.Client) error {
		// After the tables: the reader role is granted the tables that exist.
		if err := s.Host(ctx, boot.TenantID, hosted); err != nil {
			return fmt.Errorf("demo: dataset configuration: %w", err)
		}
		if _, err := s.SetCatalog(ctx, demo.Catalog()); err != nil {
			return fmt.Errorf("demo: catalog: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// seed creates the demo tables (or keeps existing ones without Replace)
// and returns their row counts.
func seed(ctx context.Context, db *sql.DB, engine, schema string, in DemoInput) (map[string]int, error) {
	opts := in.Options
	opts.Replace = in.Replace
	st, err := demo.Create(ctx, db, engine, schema, opts)
	switch {
	case err == nil:
		out := map[string]int{}
		for _, t := range st.Tables {
			out[t.Name] = t.Rows
		}
		return out, nil
	case !errors.Is(err, demo.ErrExists):
		return nil, fmt.Errorf("demo: generate dataset: %w", err)
	}
	out := map[string]int{}
	for _, t := range demo.Catalog().Tables {
		name := quote(t.Name)
		if schema != "" {
			name = quote(schema) + "." + name
		}
		var n int
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM "+name).Scan(&n); err != nil {
			return nil, fmt.Errorf("demo: the demo dataset exists but cannot be read (run with --replace): %w", err)
		}
		out[t.Name] = n
	}
	return out, nil
}

// randomPassword is a 16-character password for a new demo user.
func randomPassword() (string, error) {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

func quote(id string) string { return `"` + strings.ReplaceAll(id, `"`, `""`) + `"` }
