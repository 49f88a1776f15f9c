package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/reten-io/reten/ent/tenant"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/viewer"
)

// TestSQLiteComparesInstantsInAnyServerZone: on a server whose zone is not
// UTC, an instant bound as a query argument still compares with the stored
// ones (SQLite compares the stored text), through ent's builders and raw SQL.
func TestSQLiteComparesInstantsInAnyServerZone(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	saved := time.Local
	time.Local = tokyo
	t.Cleanup(func() { time.Local = saved })

	env := apptest.New(t, "sqlite")
	ten := env.Bootstrap("Acme")
	ctx := viewer.SystemContext(context.Background())
	c := env.App.DB.Client
	created := c.Tenant.GetX(ctx, ten.TenantID).CreatedAt
	// 09:00 in Tokyo is 00:00 UTC: as text "...09:00..." sorts after
	// "...00:00..." whatever the instants are.
	just := created.In(tokyo).Add(-time.Second)
	if n := c.Tenant.Query().Where(tenant.ID(ten.TenantID), tenant.CreatedAtGT(just)).CountX(ctx); n != 1 {
		t.Fatalf("created_at > a second earlier (Tokyo): %d rows", n)
	}
	if n := c.Tenant.Query().Where(tenant.ID(ten.TenantID), tenant.CreatedAtLT(just)).CountX(ctx); n != 0 {
		t.Fatalf("created_at < a second earlier (Tokyo): %d rows", n)
	}
	later := created.In(tokyo).Add(time.Hour)
	rows, err := c.QueryContext(ctx, "SELECT count(*) FROM tenants WHERE id = ? AND created_at < ?", ten.TenantID, later)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var n int
	if !rows.Next() || rows.Scan(&n) != nil || n != 1 {
		t.Fatalf("raw SQL created_at < an hour later (Tokyo): %d rows", n)
	}
}
