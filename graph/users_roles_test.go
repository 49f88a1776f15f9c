package graph_test

import (
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
)

// TestUsersConnectionRolesHaveNoNPlusOne: the users page with each user's
// roles costs the same statements for 2 users as for 20, and each user's
// roles are those of the active tenant only.
func TestUsersConnectionRolesHaveNoNPlusOne(t *testing.T) {
	eachCounting(t, func(t *testing.T, env *apptest.Env, statements *atomic.Int64) {
		acme, beta := env.Bootstrap("Acme"), env.Bootstrap("Beta")
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		// One user in both tenants, with other roles in Beta.
		shared := env.CreateUser(acme.TenantID, "shared", auth.RoleViewer)
		env.CreateUser(beta.TenantID, "beta-only", auth.RoleAdmin)
		if _, err := env.App.DB.Client.Membership.Create().SetTenantID(beta.TenantID).SetUserID(shared.ID).
			SetRoles([]string{auth.RoleAdmin}).Save(sysCtx()); err != nil {
			t.Fatal(err)
		}
		list := func(want int) (int64, map[string][]string) {
			t.Helper()
			statements.Store(0)
			var out struct {
				Data struct {
					Users struct {
						Edges []struct {
							Node struct {
								Username string
								Roles    []string
							}
						}
					}
				}
				Errors []any
			}
			env.GraphQL(`{ users(first: 50) { edges { node { username roles } } } }`, nil, h).JSON(t, &out)
			n := statements.Load()
			roles := map[string][]string{}
			for _, e := range out.Data.Users.Edges {
				roles[e.Node.Username] = e.Node.Roles
			}
			if len(out.Errors) != 0 || len(roles) != want {
				t.Fatalf("users: %d listed, want %d; errors %v", len(roles), want, out.Errors)
			}
			return n, roles
		}
		two, roles := list(2)
		for name, r := range roles {
			if want := []string{auth.RoleSuperAdmin}; name == "shared" && !slices.Equal(r, []string{auth.RoleViewer}) ||
				name != "shared" && !slices.Equal(r, want) {
				t.Fatalf("roles of %s: %v (all: %v)", name, r, roles)
			}
		}
		for i := range 18 {
			env.CreateUser(acme.TenantID, fmt.Sprintf("op%02d", i), auth.RoleOperator)
		}
		twenty, roles := list(20)
		t.Logf("%d statements for 2 users, %d for 20", two, twenty)
		if two != twenty {
			t.Fatalf("statements: %d for 2 users, %d for 20", two, twenty)
		}
		if !slices.Equal(roles["op07"], []string{auth.RoleOperator}) || !slices.Equal(roles["shared"], []string{auth.RoleViewer}) {
			t.Fatalf("roles: %v", roles)
		}
	})
}
