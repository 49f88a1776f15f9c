package catalog_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/catalog"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/viewer"
)

// TestActiveStatus covers the lookups the AGC pillar validation uses.
func TestActiveStatus(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		a, b := db.Tenant(t, "Acme"), db.Tenant(t, "Beta")
		c := db.Client
		aCtx := viewer.NewContext(context.Background(), &viewer.Viewer{TenantID: a.TenantID, UserID: a.UserID})
		bCtx := viewer.NewContext(context.Background(), &viewer.Viewer{TenantID: b.TenantID, UserID: b.UserID})
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
		expect400 := func(err error, msg string) {
			t.Helper()
			e, ok := apperr.As(err)
			if !ok || e.Status() != 400 || e.Message() != msg {
				t.Fatalf("err = %v, want 400 %q", err, msg)
			}
		}
		_, err := svc.ActiveStatus(aCtx, "lost")
		expect400(err, `Retention status config "lost" does not exist or is inactive`)
		_, err = svc.ActiveStatus(aCtx, "missing")
		expect400(err, `Retention status config "missing" does not exist or is inactive`)
		_, err = svc.ActiveStatusByID(aCtx, off.ID)
		expect400(err, `Retention status config "lost" does not exist or is inactive`)
		missing := uuid.New()
		_, err = svc.ActiveStatusByID(aCtx, missing)
		expect400(err, `Retention status config "`+missing.String()+`" does not exist or is inactive`)
		// Another tenant's config does not exist for the caller.
		_, err = svc.ActiveStatus(bCtx, "engaged")
		expect400(err, `Retention status config "engaged" does not exist or is inactive`)
		_, err = svc.ActiveStatusByID(bCtx, on.ID)
		expect400(err, `Retention status config "`+on.ID.String()+`" does not exist or is inactive`)
	})
}
