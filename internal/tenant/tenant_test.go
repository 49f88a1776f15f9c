package tenant_test

import (
	"context"
	"testing"

	"github.com/reten-io/reten/ent/membership"
	"github.com/reten-io/reten/ent/project"
	"github.com/reten-io/reten/ent/user"
	"github.com/reten-io/reten/internal/dbtest"
	"github.com/reten-io/reten/internal/tenant"
	"github.com/reten-io/reten/internal/viewer"
)

func TestBootstrapIsIdempotent(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *dbtest.DB) {
		ctx := context.Background()
		sys := viewer.SystemContext(ctx)
		c := db.Client
		in := tenant.BootstrapInput{Tenant: "Acme", Email: "Admin@Acme.test", Password: "secret123"}
		first, err := tenant.Bootstrap(ctx, c, in)
		if err != nil {
			t.Fatal(err)
		}
		// Same tenant (any casing) and email: same ids, nothing new.
		again, err := tenant.Bootstrap(ctx, c, tenant.BootstrapInput{Tenant: "ACME", Email: "admin@acme.test", Password: "secret123"})
		if err != nil {
			t.Fatal(err)
		}
		if again != first {
			t.Fatalf("second bootstrap = %+v, want %+v", again, first)
		}
		if n := c.Tenant.Query().CountX(sys); n != 1 {
			t.Fatalf("tenants = %d", n)
		}
		if n := c.Project.Query().CountX(sys); n != 1 {
			t.Fatalf("projects = %d", n)
		}
		if n := c.User.Query().CountX(sys); n != 1 {
			t.Fatalf("users = %d", n)
		}
		p := c.Project.Query().Where(project.ID(first.ProjectID)).OnlyX(sys)
		if !p.IsMain || p.TenantID != first.TenantID || p.RootAudienceID == nil || p.Name != tenant.MainProjectName {
			t.Fatalf("main project = %+v", p)
		}
		root := c.Audience.GetX(sys, *p.RootAudienceID)
		if !root.IsRoot || root.ProjectID != p.ID {
			t.Fatalf("root audience = %+v", root)
		}
		u := c.User.Query().Where(user.ID(first.UserID)).OnlyX(sys)
		if u.Username != "Admin" || u.Email != "Admin@Acme.test" {
			t.Fatalf("user = %+v", u)
		}
		m := c.Membership.Query().Where(membership.UserID(u.ID)).OnlyX(sys)
		if len(m.Roles) != 1 || m.Roles[0] != "super_admin" || m.TenantID != first.TenantID {
			t.Fatalf("membership = %+v", m)
		}

		// The same user bootstrapped into a second tenant joins it; nothing is duplicated.
		beta, err := tenant.Bootstrap(ctx, c, tenant.BootstrapInput{Tenant: "Beta", Email: "admin@acme.test", Password: "secret123"})
		if err != nil {
			t.Fatal(err)
		}
		if beta.UserID != first.UserID || beta.TenantID == first.TenantID || beta.ProjectID == first.ProjectID {
			t.Fatalf("beta = %+v, first = %+v", beta, first)
		}
		if n := c.Membership.Query().Where(membership.UserID(u.ID)).CountX(sys); n != 2 {
			t.Fatalf("memberships = %d", n)
		}
	})
}

func TestBootstrapValidates(t *testing.T) {
	db := dbtest.Open(t, "sqlite")
	_, err := tenant.Bootstrap(context.Background(), db.Client, tenant.BootstrapInput{Email: "nope", Password: "short"})
	dbtest.ExpectError(t, err, 400, "--tenant is required", "--email must be an email address", "--password must be at least 8 characters")
}
