package commerce_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/commerce"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/viewer"
)

// setup returns the service over db and a tenant ("Acme") acting in it.
func setup(t *testing.T, db *dbtest.DB) (*commerce.Service, dbtest.Tenant) {
	return commerce.NewService(db.Client), db.Tenant(t, "Acme")
}

// TestCommerceRules: name rules, external ids unique among the tenant's live
// commerces (trimmed; blank is none), blank optional texts stored as NULL
// and cleared by a blank update.
func TestCommerceRules(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		svc, acme := setup(t, db)
		admin := acme.Admin()
		_, err := svc.Create(admin, commerce.CreateInput{Name: "   "})
		dbtest.ExpectError(t, err, http.StatusBadRequest, commerce.MsgNameRequired)
		_, err = svc.Create(admin, commerce.CreateInput{Name: strings.Repeat("ñ", 256)})
		dbtest.ExpectError(t, err, http.StatusBadRequest, commerce.MsgNameTooLong)

		c, err := svc.Create(admin, commerce.CreateInput{Name: " Kiosko ", ExternalID: new(" C1 "), TaxID: new(" "),
			Segment: new(" retail ")})
		dbtest.NoError(t, err)
		if c.Name != "Kiosko" || *c.ExternalID != "C1" || c.TaxID != "" || c.Segment != "retail" || !c.IsActive {
			t.Fatalf("created = %+v", c)
		}
		if _, err := svc.Create(admin, commerce.CreateInput{Name: "No code", ExternalID: new("  ")}); err != nil {
			t.Fatalf("blank external id: %v", err)
		}
		_, err = svc.Create(admin, commerce.CreateInput{Name: "Again", ExternalID: new("C1")})
		dbtest.ExpectError(t, err, http.StatusConflict, fmt.Sprintf(commerce.MsgExternalIDTakenFmt, "C1"))
		other, err := svc.Create(admin, commerce.CreateInput{Name: "Other", ExternalID: new("C2")})
		dbtest.NoError(t, err)
		_, err = svc.Update(admin, other.ID, commerce.UpdateInput{ExternalID: new("C1")})
		dbtest.ExpectError(t, err, http.StatusConflict, fmt.Sprintf(commerce.MsgExternalIDTakenFmt, "C1"))
		_, err = svc.Update(admin, other.ID, commerce.UpdateInput{Name: new("")})
		dbtest.ExpectError(t, err, http.StatusBadRequest, commerce.MsgNameRequired)

		up, err := svc.Update(admin, c.ID, commerce.UpdateInput{Segment: new(" "), ExternalID: new(""), IsActive: new(false)})
		dbtest.NoError(t, err)
		if up.Segment != "" || up.ExternalID != nil || up.IsActive || up.Name != "Kiosko" {
			t.Fatalf("updated = %+v", up)
		}
		// Archived commerces free their external id at once.
		dbtest.NoError(t, svc.Delete(admin, other.ID))
		if _, err := svc.Create(admin, commerce.CreateInput{Name: "Reuse", ExternalID: new("C2")}); err != nil {
			t.Fatalf("reuse an archived commerce's external id: %v", err)
		}
	})
}

// TestPrimaryAddress: the first active address becomes primary, a new
// primary replaces the previous one, deactivating the primary promotes the
// oldest active address, and an inactive address cannot be primary.
func TestPrimaryAddress(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		svc, acme := setup(t, db)
		admin := acme.Admin()
		c, err := svc.Create(admin, commerce.CreateInput{Name: "Kiosko"})
		dbtest.NoError(t, err)
		add := func(in commerce.AddressInput) uuid.UUID {
			a, err := svc.CreateAddress(admin, c.ID, in)
			dbtest.NoError(t, err)
			return a.ID
		}
		primaries := func() []string {
			var out []string
			got, err := svc.Get(admin, c.ID)
			dbtest.NoError(t, err)
			for _, a := range got.Edges.Addresses {
				if a.IsPrimary {
					out = append(out, a.AddressAlias)
				}
			}
			return out
		}
		expect := func(want string) {
			t.Helper()
			if got := primaries(); len(got) != 1 || got[0] != want {
				t.Fatalf("primary addresses = %v, want [%s]", got, want)
			}
		}
		_, err = svc.CreateAddress(admin, c.ID, commerce.AddressInput{Source: "ERP", IsPrimary: new(true), IsActive: new(false),
			AddressFields: commerce.AddressFields{Latitude: new(91.0)}})
		dbtest.ExpectError(t, err, http.StatusBadRequest, commerce.MsgSource, "latitude must not be greater than 90",
			commerce.MsgPrimaryInactive)

		home := add(commerce.AddressInput{Source: "RETEN", AddressFields: commerce.AddressFields{AddressAlias: new("home")}})
		expect("home")
		add(commerce.AddressInput{Source: "RETEN", AddressFields: commerce.AddressFields{AddressAlias: new("shop")}})
		expect("home")
		depot := add(commerce.AddressInput{Source: "INTEGRATION", IsPrimary: new(true),
			AddressFields: commerce.AddressFields{AddressAlias: new("depot")}})
		expect("depot")
		if _, err := svc.UpdateAddress(admin, c.ID, depot, commerce.AddressUpdate{IsActive: new(false)}); err != nil {
			t.Fatal(err)
		}
		expect("home")
		_, err = svc.SetPrimaryAddress(admin, c.ID, depot)
		dbtest.ExpectError(t, err, http.StatusBadRequest, commerce.MsgInactiveNoPrimary)
		_, err = svc.SetPrimaryAddress(admin, c.ID, uuid.New())
		dbtest.ExpectError(t, err, http.StatusNotFound, commerce.MsgAddressNotFound)
		if _, err := svc.SetPrimaryAddress(admin, c.ID, home); err != nil {
			t.Fatal(err)
		}
		expect("home")
	})
}

// TestTenancy: another tenant's commerce (and its children) is not found;
// a caller needs the permission of the operation.
func TestTenancy(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		svc, acme := setup(t, db)
		c, err := svc.Create(acme.Admin(), commerce.CreateInput{Name: "Kiosko", ExternalID: new("C1")})
		dbtest.NoError(t, err)
		beta := db.Tenant(t, "Beta").Admin()
		_, err = svc.Get(beta, c.ID)
		dbtest.ExpectError(t, err, http.StatusNotFound, commerce.MsgNotFound)
		_, err = svc.Update(beta, c.ID, commerce.UpdateInput{Name: new("Mine")})
		dbtest.ExpectError(t, err, http.StatusNotFound, commerce.MsgNotFound)
		_, err = svc.CreateAddress(beta, c.ID, commerce.AddressInput{Source: "RETEN"})
		dbtest.ExpectError(t, err, http.StatusNotFound, commerce.MsgNotFound)
		dbtest.ExpectError(t, svc.Delete(beta, c.ID), http.StatusNotFound, commerce.MsgNotFound)
		// The same external id is free in another tenant.
		if _, err := svc.Create(beta, commerce.CreateInput{Name: "Kiosko", ExternalID: new("C1")}); err != nil {
			t.Fatalf("another tenant's external id: %v", err)
		}

		// The operation's permission is its matrix line's: entering the line
		// applies it, as the guards do.
		_, err = tenancy.Enter(acme.As(auth.PermCommerceView), "POST /commerces")
		dbtest.ExpectError(t, err, http.StatusForbidden, "Required permissions: "+auth.PermCommerceManage)
		// A context no line was admitted to is refused, whatever its viewer holds.
		_, err = svc.Create(viewer.NewContext(context.Background(), viewer.FromContext(acme.Admin())), commerce.CreateInput{Name: "X"})
		dbtest.ExpectError(t, err, http.StatusInternalServerError, "Internal server error")
		if !errors.Is(err, tenancy.ErrNoAccess) {
			t.Fatalf("create without an admitted line: %v, want %v", err, tenancy.ErrNoAccess)
		}
		if _, err := svc.Get(acme.As(auth.PermCommerceView), c.ID); err != nil {
			t.Fatalf("get with exactly %s: %v", auth.PermCommerceView, err)
		}
		dbtest.NoError(t, svc.Delete(acme.As(auth.PermCommerceDelete), c.ID))
		_, err = svc.Get(acme.Admin(), c.ID)
		dbtest.ExpectError(t, err, http.StatusNotFound, commerce.MsgNotFound)
	})
}
