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
		// A default type: the catalog default (rescheduled requires a date, success does not).
		if r, err := svc.Active(sys, a.TenantID, "rescheduled"); err != nil || !r.RequiresFutureScheduledAt {
			t.Fatalf("Active(rescheduled) = %+v, %v", r, err)
		}
		if r, err := svc.Active(sys, a.TenantID, "success"); err != nil || r.RequiresFutureScheduledAt {
			t.Fatalf("Active(success) = %+v, %v", r, err)
		}
		// A configured type: the tenant's configuration (other requires none by default).
		if r, err := svc.Active(sys, a.TenantID, "other"); err != nil || !r.RequiresFutureScheduledAt {
			t.Fatalf("Active(other) = %+v, %v", r, err)
		}
		expectInactive(t, svc, "no_interest", a.TenantID)
		expectInactive(t, svc, "unknown", a.TenantID)
		expectInactive(t, svc, "", a.TenantID)
		expectInactive(t, svc, "SUCCESS", a.TenantID)
		// Tenant B is untouched by A's configuration.
		if r, err := svc.Active(sys, b.TenantID, "no_interest"); err != nil || r.RequiresFutureScheduledAt {
			t.Fatalf("B no_interest = %+v, %v", r, err)
		}
		if r, err := svc.Active(sys, b.TenantID, "other"); err != nil || r.RequiresFutureScheduledAt {
			t.Fatalf("B other = %+v, %v", r, err)
		}
		if resulttype.MsgInactive != "El tipo de resultado seleccionado no está activo." {
			t.Fatal("SPEC.md message changed")
		}
	})
}

// TestRuleOf: the rule of a code from a configuration read elsewhere.
func TestRuleOf(t *testing.T) {
	for _, c := range []struct {
		code       string
		configured *resulttype.Configured
		want       resulttype.Rule
		inactive   bool
	}{
		{"rescheduled", nil, resulttype.Rule{RequiresFutureScheduledAt: true}, false},
		{"success", nil, resulttype.Rule{}, false},
		{"success", &resulttype.Configured{IsActive: true, RequiresFutureScheduledAt: true}, resulttype.Rule{RequiresFutureScheduledAt: true}, false},
		{"rescheduled", &resulttype.Configured{IsActive: true}, resulttype.Rule{}, false},
		{"success", &resulttype.Configured{}, resulttype.Rule{}, true},
		{"unknown", nil, resulttype.Rule{}, true},
		{"unknown", &resulttype.Configured{IsActive: true}, resulttype.Rule{}, true},
	} {
		r, err := resulttype.RuleOf(c.code, c.configured)
		if c.inactive {
			dbtest.ExpectError(t, err, 422, resulttype.MsgInactive)
			continue
		}
		if err != nil || r != c.want {
			t.Errorf("RuleOf(%q, %+v) = %+v, %v; want %+v", c.code, c.configured, r, err, c.want)
		}
	}
}
