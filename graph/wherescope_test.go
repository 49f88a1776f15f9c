package graph_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/tenant"
)

// whereScopeSetup is Acme with its main project P1 and a second project P2;
// Acme's admin is also a member of the tenant Beta.
type whereScopeSetup struct {
	acme       apptest.Tenant
	beta       uuid.UUID
	p1, p2     uuid.UUID
	admin      apptest.Headers // Acme's admin, no project
	key        apptest.Headers // an Acme key bound to P1
	shop       string          // a commerce (tenant-wide)
	secretRoot string          // the name of P2's root audience
}

func newWhereScopeSetup(t *testing.T, env *apptest.Env) whereScopeSetup {
	t.Helper()
	s := whereScopeSetup{acme: env.Bootstrap("Acme"), secretRoot: "Raíz secreta"}
	s.p1 = s.acme.ProjectID
	s.p2 = newProject(t, env, s.acme.TenantID, "Ventas")
	if err := env.App.DB.Client.Audience.UpdateOneID(rootAudience(t, env, s.p2)).SetName(s.secretRoot).Exec(sysCtx()); err != nil {
		t.Fatalf("rename P2's root audience: %v", err)
	}
	beta, err := tenant.Bootstrap(sysCtx(), env.App.DB.Client, tenant.BootstrapInput{Tenant: "Beta", Email: s.acme.Email, Password: apptest.Password})
	if err != nil {
		t.Fatal(err)
	}
	s.beta = beta.TenantID
	s.admin = apptest.JWT(env.Login(s.acme.Email), s.acme.TenantID, uuid.Nil)
	plain, _ := env.CreateKey(s.acme.TenantID, s.acme.UserID, s.p1, auth.PermProjectView, auth.PermAudienceView,
		auth.PermCommerceView, auth.PermActivityView)
	s.key = apptest.Key(plain)
	s.shop = str(t, gqlOK(t, env, s.admin, `mutation { createCommerce(input: {name: "Shop"}) { id } }`, nil), "createCommerce", "id")
	return s
}

// activity creates an activity of the shop in project p.
func (s whereScopeSetup) activity(t *testing.T, env *apptest.Env, p uuid.UUID, title string) {
	t.Helper()
	gqlOK(t, env, s.admin.With("x-project-id", p.String()), `mutation($in: CreateActivityInput!) { createActivity(input: $in) { id } }`,
		M{"in": M{"commerceID": s.shop, "type": "TASK", "channel": "PUSH", "scheduledAt": "2030-05-01T10:00:00Z", "title": title}})
}

// count runs `{ <field>(where: $w) { totalCount } }` and returns the count.
func count(t *testing.T, env *apptest.Env, h apptest.Headers, field, whereType string, w M) float64 {
	t.Helper()
	q := `query($w: ` + whereType + `) { ` + field + `(where: $w) { totalCount } }`
	return get(t, gqlOK(t, env, h, q, M{"w": w}), field, "totalCount").(float64)
}

// TestWhereFiltersStayInTheProject: a key bound to P1 cannot learn about P2
// through edge filters: they answer as if P2's rows did
// not exist, as the edges themselves do; P1's rows still match.
func TestWhereFiltersStayInTheProject(t *testing.T) {
	each(t, newWhereScopeSetup, func(t *testing.T, env *apptest.Env, s whereScopeSetup) {
		projects := func(h apptest.Headers, w M) float64 { return count(t, env, h, "projects", "ProjectWhereInput", w) }
		commerces := func(h apptest.Headers, w M) float64 { return count(t, env, h, "commerces", "CommerceWhereInput", w) }

		// The exploit of the issue: P2's root audience through projects.
		if n := projects(s.key, M{"hasRootAudienceWith": L{M{"projectID": s.p2, "nameContains": "secreta"}}}); n != 0 {
			t.Fatalf("projects with P2's root audience, as a P1 key: %v, want 0", n)
		}
		if n := projects(s.key, M{"hasRootAudienceWith": L{M{"nameContains": "secreta"}}}); n != 0 {
			t.Fatalf("projects with a root audience named like P2's, as a P1 key: %v, want 0", n)
		}
		// The edge itself is null for P2, so the existence test agrees.
		if n := projects(s.key, M{"hasRootAudience": true}); n != 1 {
			t.Fatalf("projects with a root audience, as a P1 key: %v, want 1 (P1)", n)
		}
		if n := projects(s.key, M{"hasRootAudience": false}); n != 1 {
			t.Fatalf("projects without a root audience, as a P1 key: %v, want 1 (P2)", n)
		}
		// Positive: P1's own root audience matches; the tenant-wide admin sees P2's.
		if n := projects(s.key, M{"hasRootAudienceWith": L{M{"projectID": s.p1, "isRoot": true}}}); n != 1 {
			t.Fatalf("projects with P1's root audience, as a P1 key: %v, want 1", n)
		}
		if n := projects(s.admin, M{"hasRootAudienceWith": L{M{"nameContains": "secreta"}}}); n != 1 {
			t.Fatalf("projects with P2's root audience, as the admin without a project: %v, want 1", n)
		}

		// The second exploit: P2's activities through commerces (a tenant-wide entity).
		s.activity(t, env, s.p2, "Plan secreto")
		for name, w := range map[string]M{
			"issue":     {"hasActivitiesWith": L{M{"projectID": s.p2, "titleContains": "secreto"}}},
			"title":     {"hasActivitiesWith": L{M{"titleContains": "secreto"}}},
			"existence": {"hasActivities": true},
			"or":        {"or": L{M{"name": "nope"}, M{"hasActivitiesWith": L{M{"titleContains": "secreto"}}}}},
			"and":       {"and": L{M{"name": "Shop"}, M{"hasActivitiesWith": L{M{"titleContains": "secreto"}}}}},
			"not":       {"not": M{"hasActivities": false}},
			"inner not": {"hasActivitiesWith": L{M{"not": M{"titleContains": "zzz"}}}},
			"deep":      {"hasActivitiesWith": L{M{"hasCommerceWith": L{M{"hasActivitiesWith": L{M{"projectID": s.p2}}}}}}},
		} {
			t.Run(name, func(t *testing.T) {
				if n := commerces(s.key, w); n != 0 {
					t.Fatalf("commerces where %v, as a P1 key: %v, want 0", w, n)
				}
				// x-project-id narrows a JWT the same way.
				if n := commerces(s.admin.With("x-project-id", s.p1.String()), w); n != 0 {
					t.Fatalf("commerces where %v, as the admin in P1: %v, want 0", w, n)
				}
				// Without a project the admin reads every project's activities.
				if n := commerces(s.admin, w); n != 1 {
					t.Fatalf("commerces where %v, as the admin without a project: %v, want 1", w, n)
				}
			})
		}
		if n := commerces(s.key, M{"hasActivities": false}); n != 1 {
			t.Fatalf("commerces without activities, as a P1 key: %v, want 1", n)
		}

		// Positive: P1's own activities match.
		s.activity(t, env, s.p1, "Plan visible")
		for _, w := range []M{
			{"hasActivitiesWith": L{M{"projectID": s.p1, "titleContains": "visible"}}},
			{"hasActivities": true},
			{"not": M{"hasActivities": false}},
			{"hasActivitiesWith": L{M{"hasCommerceWith": L{M{"name": "Shop"}}}}},
		} {
			if n := commerces(s.key, w); n != 1 {
				t.Fatalf("commerces where %v, as a P1 key with a P1 activity: %v, want 1", w, n)
			}
		}
		if n := commerces(s.key, M{"hasActivitiesWith": L{M{"titleContains": "secreto"}}}); n != 0 {
			t.Fatalf("commerces with P2's activity title, as a P1 key with a P1 activity: %v, want 0", n)
		}
	})
}

// TestWhereFiltersStayInTheTenant: edge filters cannot reach another
// tenant's rows either (Acme's admin is also a member of Beta).
func TestWhereFiltersStayInTheTenant(t *testing.T) {
	each(t, newWhereScopeSetup, func(t *testing.T, env *apptest.Env, s whereScopeSetup) {
		users := func(w M) float64 { return count(t, env, s.admin, "users", "UserWhereInput", w) }
		if n := users(M{"hasMembershipsWith": L{M{"tenantID": s.beta}}}); n != 0 {
			t.Fatalf("Acme's users with a membership of Beta: %v, want 0", n)
		}
		if n := users(M{"hasMembershipsWith": L{M{"tenantIDNEQ": s.acme.TenantID}}}); n != 0 {
			t.Fatalf("Acme's users with a membership of another tenant: %v, want 0", n)
		}
		// Two edges deep: the caller's own keys, by their owner's memberships.
		keys := func(w M) float64 { return count(t, env, s.admin, "apiKeys", "APIKeyWhereInput", w) }
		if n := keys(M{"hasOwnerWith": L{M{"hasMembershipsWith": L{M{"tenantID": s.beta}}}}}); n != 0 {
			t.Fatalf("keys whose owner is a member of Beta: %v, want 0", n)
		}
		// Positive: the memberships of the active tenant match.
		if n := users(M{"hasMembershipsWith": L{M{"tenantID": s.acme.TenantID}}}); n != 1 {
			t.Fatalf("Acme's users with a membership of Acme: %v, want 1", n)
		}
		if n := keys(M{"hasOwnerWith": L{M{"hasMembershipsWith": L{M{"tenantID": s.acme.TenantID}}}}}); n != 1 {
			t.Fatalf("keys whose owner is a member of Acme: %v, want 1", n)
		}
	})
}

// TestWhereFiltersSkipArchivedRows: an archived (trashed) record is gone for
// filters too, as it is for the edge that points at it.
func TestWhereFiltersSkipArchivedRows(t *testing.T) {
	each(t, newWhereScopeSetup, func(t *testing.T, env *apptest.Env, s whereScopeSetup) {
		s.activity(t, env, s.p1, "Visita")
		ph := s.admin.With("x-project-id", s.p1.String())
		activities := func(w M) float64 { return count(t, env, ph, "activities", "ActivityWhereInput", w) }
		if n := activities(M{"hasCommerceWith": L{M{"name": "Shop"}}}); n != 1 {
			t.Fatalf("activities of Shop: %v, want 1", n)
		}
		gqlOK(t, env, s.admin, `mutation($id: ID!) { deleteCommerce(id: $id) }`, M{"id": s.shop})
		expectData(t, env.GraphQL(`{ activities { edges { node { title } } } }`, nil, ph),
			M{"activities": M{"edges": L{M{"node": M{"title": "Visita"}}}}})
		if n := activities(M{"hasCommerceWith": L{M{"name": "Shop"}}}); n != 0 {
			t.Fatalf("activities of the archived Shop: %v, want 0", n)
		}
		if n := activities(M{"hasCommerce": true}); n != 0 {
			t.Fatalf("activities with a (live) commerce: %v, want 0", n)
		}
	})
}

func TestTenantIsolation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		beta := env.Bootstrap("Beta")
		ah := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		bh := apptest.JWT(env.Login(beta.Email), beta.TenantID, uuid.Nil)
		acmeRoot := rootAudience(t, env, acme.ProjectID)

		t.Run("projects connection", func(t *testing.T) {
			q := `query($where: ProjectWhereInput) { projects(where: $where) { totalCount edges { node { id name } } } }`
			expectData(t, env.GraphQL(q, nil, bh), M{"projects": M{"totalCount": 1, "edges": L{
				M{"node": M{"id": beta.ProjectID.String(), "name": "Principal"}},
			}}})
			// Filters cannot widen the tenant.
			for _, where := range []M{{"id": acme.ProjectID.String()}, {"tenantID": acme.TenantID.String()}} {
				expectData(t, env.GraphQL(q, M{"where": where}, bh), M{"projects": M{"totalCount": 0, "edges": L{}}})
			}
		})

		t.Run("node", func(t *testing.T) {
			q := `query($id: ID!) { node(id: $id) { id ... on Project { name } } }`
			for _, id := range []uuid.UUID{acme.ProjectID, acmeRoot, acme.TenantID, acme.UserID} {
				expectBody(t, env.GraphQL(q, M{"id": id.String()}, bh), http.StatusOK, M{
					"data":   M{"node": nil},
					"errors": L{fieldError(L{"node"}, "Node not found", "NOT_FOUND", 404)},
				})
			}
		})

		t.Run("nodes", func(t *testing.T) {
			q := `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Project { name } } }`
			res := env.GraphQL(q, M{"ids": L{acme.ProjectID.String(), beta.ProjectID.String(), uuid.New().String()}}, bh)
			expectData(t, res, M{"nodes": L{nil, M{"id": beta.ProjectID.String(), "name": "Principal"}, nil}})
		})

		t.Run("updateProject", func(t *testing.T) {
			res := env.GraphQL(updateMutation, M{"id": acme.ProjectID.String(), "name": "Hackeado"}, bh)
			expectBody(t, res, http.StatusOK, M{"data": nil, "errors": L{
				fieldError(L{"updateProject"}, "El proyecto no existe.", "NOT_FOUND", 404),
			}})
			q := `query($id: ID!) { node(id: $id) { ... on Project { name } } }`
			expectData(t, env.GraphQL(q, M{"id": acme.ProjectID.String()}, ah), M{"node": M{"name": "Principal"}})
			// Beta may still take the name for its own project: names are unique per tenant.
			expectData(t, env.GraphQL(updateMutation, M{"id": beta.ProjectID.String(), "name": "Ventas"}, bh),
				M{"updateProject": M{"id": beta.ProjectID.String(), "name": "Ventas", "isMain": true}})
			newProject(t, env, acme.TenantID, "Ventas")
		})

		t.Run("foreign tenant header", func(t *testing.T) {
			res := env.GraphQL(`{ viewer { activeTenantID } }`, nil, bh.With("x-tenant-id", acme.TenantID.String()))
			expectBody(t, res, http.StatusForbidden, preError("You are not a member of this tenant", "FORBIDDEN", 403))
		})
	})
}
