package resulttype_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/resulttype"
	"github.com/reten-io/reten/internal/viewer"
)

// expectInactive asserts the 422 of code, a result type that is not active
// in tenant.
func expectInactive(t *testing.T, svc *resulttype.Service, code string, tenant uuid.UUID) {
	t.Helper()
	_, err := svc.Active(viewer.SystemContext(context.Background()), tenant, code)
	dbtest.ExpectError(t, err, 422, "El tipo de resultado seleccionado no está activo.")
}

// TestActive covers the lookup the result submission uses.
func TestActive(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		a, b := db.Tenant(t, "Acme"), db.Tenant(t, "Beta")
		admin := a.Admin()
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
		expectInactive(t, svc, "no_interest", a.TenantID)
		expectInactive(t, svc, "unknown", a.TenantID)
		expectInactive(t, svc, "", a.TenantID)
		expectInactive(t, svc, "SUCCESS", a.TenantID)
		// Tenant B is untouched by A's configuration.
		if c, err := svc.Active(sys, b.TenantID, "no_interest"); err != nil || !c.IsDefault {
			t.Fatalf("B no_interest = %+v, %v", c, err)
		}
		if resulttype.MsgInactive != "El tipo de resultado seleccionado no está activo." {
			t.Fatal("SPEC.md message changed")
		}
	})
}
