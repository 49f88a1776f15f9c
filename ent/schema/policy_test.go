package schema_test

import (
	"context"
	"errors"
	"testing"

	"entgo.io/ent/privacy"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/audience"
	"github.com/reten-io/reten/ent/project"
	"github.com/reten-io/reten/internal/apptest"
	projectsvc "github.com/reten-io/reten/internal/project"
	"github.com/reten-io/reten/internal/viewer"
)

// TestTenantFilterInTheDataLayer proves the second half of tenancy: even a
// query that forgets its tenant predicate, or names another tenant's id,
// sees only the viewer's tenant; without a viewer the data layer refuses.
func TestTenantFilterInTheDataLayer(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		c := env.App.DB.Client
		bg := context.Background()
		asAcme := viewer.NewContext(bg, &viewer.Viewer{UserID: acme.UserID, TenantID: acme.TenantID})

		// No viewer, no system context: denied.
		if _, err := c.Project.Query().All(bg); !errors.Is(err, privacy.Deny) {
			t.Fatalf("query without viewer: err = %v, want privacy deny", err)
		}
		// Unfiltered query: only the viewer's tenant.
		ps, err := c.Project.Query().All(asAcme)
		if err != nil || len(ps) != 1 || ps[0].ID != acme.ProjectID {
			t.Fatalf("projects = %v (%v)", ps, err)
		}
		// Another tenant's id is not found.
		if _, err := c.Project.Get(asAcme, beta.ProjectID); !ent.IsNotFound(err) {
			t.Fatalf("get another tenant's project: err = %v", err)
		}
		// Bulk update by id cannot reach another tenant.
		n, err := c.Project.Update().Where(project.ID(beta.ProjectID)).SetName("Hacked").SetNameKey("hacked").Save(asAcme)
		if err != nil || n != 0 {
			t.Fatalf("cross-tenant update touched %d rows (%v)", n, err)
		}
		// Bulk delete too.
		if n, err := c.Audience.Delete().Where(audience.ProjectID(beta.ProjectID)).Exec(asAcme); err != nil || n != 0 {
			t.Fatalf("cross-tenant delete removed %d rows (%v)", n, err)
		}
		// Create stamps the viewer's tenant, and refuses another one.
		if _, err := c.Project.Create().SetTenantID(beta.TenantID).SetName("X").SetNameKey("x").Save(asAcme); err == nil {
			t.Fatal("creating a row for another tenant succeeded")
		}
		p, err := projectsvc.Create(asAcme, c, acme.TenantID, "Ventas", false, uuid.Nil)
		if err != nil || p.TenantID != acme.TenantID {
			t.Fatalf("create in own tenant: %v %v", p, err)
		}
		// A project-owned row cannot point at another tenant's project.
		if _, err := c.Audience.Create().SetProjectID(beta.ProjectID).SetName("Sneaky").Save(asAcme); err == nil {
			t.Fatal("created an audience in another tenant's project")
		}
		// With another project active, an explicit project of the tenant is fine (a new project's root audience).
		inVentas := viewer.NewContext(bg, &viewer.Viewer{UserID: acme.UserID, TenantID: acme.TenantID, ProjectID: p.ID})
		if _, err := c.Audience.Create().SetProjectID(acme.ProjectID).SetName("Mine").Save(inVentas); err != nil {
			t.Fatalf("explicit project of the tenant: %v", err)
		}
		// Unset, the active project is stamped.
		a, err := c.Audience.Create().SetName("Stamped").Save(inVentas)
		if err != nil || a.ProjectID != p.ID || a.TenantID != acme.TenantID {
			t.Fatalf("stamped audience = %+v (%v)", a, err)
		}
		// An active project narrows project-owned rows further.
		inMain := viewer.NewContext(bg, &viewer.Viewer{UserID: acme.UserID, TenantID: acme.TenantID, ProjectID: acme.ProjectID})
		auds, err := c.Audience.Query().All(inMain)
		if err != nil || len(auds) != 2 || auds[0].ProjectID != acme.ProjectID || auds[1].ProjectID != acme.ProjectID {
			t.Fatalf("audiences in main project = %v (%v)", auds, err)
		}
		if all, _ := c.Audience.Query().Count(asAcme); all != 4 {
			t.Fatalf("audiences in tenant = %d, want 4 (two roots, two created above)", all)
		}
		// Users: a viewer sees themself and the members of the active tenant only.
		users, err := c.User.Query().All(asAcme)
		if err != nil || len(users) != 1 || users[0].ID != acme.UserID {
			t.Fatalf("users = %v (%v)", users, err)
		}
		// Tenants: only those the viewer belongs to.
		ts, err := c.Tenant.Query().All(asAcme)
		if err != nil || len(ts) != 1 || ts[0].ID != acme.TenantID {
			t.Fatalf("tenants = %v (%v)", ts, err)
		}
	})
}
