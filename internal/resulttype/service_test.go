package resulttype_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/resulttype"
	"github.com/reten-io/reten/internal/viewer"
)

// TestActive covers the lookup the result submission uses.
func TestActive(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		a, b := db.Tenant(t, "Acme"), db.Tenant(t, "Beta")
		admin := viewer.NewContext(context.Background(), &viewer.Viewer{TenantID: a.TenantID, UserID: a.UserID,
			Roles: []string{auth.RoleSuperAdmin}, Permissions: auth.PermissionsOf([]string{auth.RoleSuperAdmin})})
		svc := resulttype.NewService(db.Client)
		off, neg, yes := false, resulttype.Negative, true
		if _, err := svc.Put(admin, resulttype.Input{Code: "no_interest", IsActive: &off, Polarity: &neg, RequiresFutureScheduledAt: &yes}); err != nil {
			t.Fatal(err)
		}
		on := true
		if _, err := svc.Put(admin, resulttype.Input{Code: "other", IsActive: &on, Polarity: &neg, RequiresFutureScheduledAt: &yes}); err != nil {
			t.Fatal(err)
		}
		sys := viewer.SystemContext(context.Background())
		// A default type: the catalog default.
		c, err := svc.Active(sys, a.TenantID, "rescheduled")
		if err != nil || !c.IsDefault || c.Polarity != resulttype.Positive || !c.RequiresFutureScheduledAt || c.Label != "Reagendado" {
			t.Fatalf("Active(rescheduled) = %+v, %v", c, err)
		}
		// A configured type: the tenant's configuration.
		c, err = svc.Active(sys, a.TenantID, "other")
		if err != nil || c.IsDefault || !c.RequiresFutureScheduledAt || c.UpdatedAt == nil {
			t.Fatalf("Active(other) = %+v, %v", c, err)
		}
		expect422 := func(code string, tenant uuid.UUID) {
			t.Helper()
			_, err := svc.Active(sys, tenant, code)
			if e, ok := apperr.As(err); !ok || e.Status() != 422 || e.Message() != "El tipo de resultado seleccionado no está activo." {
				t.Fatalf("Active(%s) err = %v", code, err)
			}
		}
		expect422("no_interest", a.TenantID)
		expect422("unknown", a.TenantID)
		expect422("", a.TenantID)
		expect422("SUCCESS", a.TenantID)
		// Tenant B is untouched by A's configuration.
		if c, err := svc.Active(sys, b.TenantID, "no_interest"); err != nil || !c.IsDefault {
			t.Fatalf("B no_interest = %+v, %v", c, err)
		}
		if resulttype.MsgInactive != "El tipo de resultado seleccionado no está activo." {
			t.Fatal("SPEC.md message changed")
		}
	})
}
