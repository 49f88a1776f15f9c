package catalog_test

import (
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/catalog"
	"github.com/reten-io/reten/internal/dbtest"
)

// expectInactive asserts the 400 of a lookup of ref, a retention status
// config that does not exist or is inactive for the caller.
func expectInactive(t *testing.T, err error, ref string) {
	t.Helper()
	dbtest.ExpectError(t, err, 400, `Retention status config "`+ref+`" does not exist or is inactive`)
}

// TestActiveStatus covers the lookups the AGC pillar validation uses.
func TestActiveStatus(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		a, b := db.Tenant(t, "Acme"), db.Tenant(t, "Beta")
		c := db.Client
		aCtx, bCtx := a.InProject(uuid.Nil), b.InProject(uuid.Nil)
		on := c.RetentionStatusConfig.Create().SetTenantID(a.TenantID).SetCode("engaged").SetLabel("E").SetStage("ENGAGEMENT").SaveX(aCtx)
		off := c.RetentionStatusConfig.Create().SetTenantID(a.TenantID).SetCode("lost").SetLabel("L").SetStage("RESURRECTION").
			SetIsActive(false).SaveX(aCtx)
		svc := catalog.NewService(db.Client)

		if got, err := svc.ActiveStatus(aCtx, "engaged"); err != nil || got.ID != on.ID {
			t.Fatalf("ActiveStatus(engaged) = %v, %v", got, err)
		}
		if got, err := svc.ActiveStatusByID(aCtx, on.ID); err != nil || got.Code != "engaged" {
			t.Fatalf("ActiveStatusByID = %v, %v", got, err)
		}
		_, err := svc.ActiveStatus(aCtx, "lost")
		expectInactive(t, err, "lost")
		_, err = svc.ActiveStatus(aCtx, "missing")
		expectInactive(t, err, "missing")
		_, err = svc.ActiveStatusByID(aCtx, off.ID)
		expectInactive(t, err, "lost")
		missing := uuid.New()
		_, err = svc.ActiveStatusByID(aCtx, missing)
		expectInactive(t, err, missing.String())
		// Another tenant's config does not exist for the caller.
		_, err = svc.ActiveStatus(bCtx, "engaged")
		expectInactive(t, err, "engaged")
		_, err = svc.ActiveStatusByID(bCtx, on.ID)
		expectInactive(t, err, on.ID.String())
	})
}
