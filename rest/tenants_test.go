package rest_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/tenant"
)

func TestMyTenants(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		// The same user also belongs to Beta.
		beta, err := tenant.Bootstrap(sys, env.App.DB.Client, tenant.BootstrapInput{Tenant: "Beta", Email: acme.Email, Password: apptest.Password})
		if err != nil {
			t.Fatal(err)
		}
		env.Bootstrap("Gamma") // not the user's

		res := env.Do("GET", "/api/tenant/mine", nil, apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil))
		if res.Status != 200 {
			t.Fatalf("%d %s", res.Status, res.Body)
		}
		var got []struct {
			ID        uuid.UUID `json:"id"`
			Name      string    `json:"name"`
			TimeZone  string    `json:"timeZone"`
			DayCutoff string    `json:"dayCutoff"`
			IsActive  bool      `json:"isActive"`
			CreatedAt time.Time `json:"createdAt"`
		}
		res.JSON(t, &got)
		if len(got) != 2 || got[0].ID != acme.TenantID || got[0].Name != "Acme" || got[1].ID != beta.TenantID ||
			got[1].Name != "Beta" || got[0].TimeZone != "UTC" || got[0].DayCutoff != "23:59" || !got[0].IsActive ||
			got[0].CreatedAt.IsZero() {
			t.Fatalf("tenants = %s", res.Body)
		}

		// An API key sees only its own tenant.
		key, _ := env.CreateKey(beta.TenantID, acme.UserID, uuid.Nil, auth.PermProjectView)
		res = env.Do("GET", "/api/tenant/mine", nil, apptest.Key(key))
		res.JSON(t, &got)
		if res.Status != 200 || len(got) != 1 || got[0].ID != beta.TenantID {
			t.Fatalf("key tenants: %d %s", res.Status, res.Body)
		}
	})
}

func TestPlaygroundIsServed(t *testing.T) {
	env := apptest.New(t, "sqlite")
	res := env.Do("GET", "/playground/", nil, nil)
	if res.Status != 200 || res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("playground: %d %q", res.Status, res.Header.Get("Content-Type"))
	}
}
