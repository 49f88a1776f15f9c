package rest_test

import (
	"testing"

	"github.com/google/uuid"
	"github.com/reten-io/reten/ent/routeoperator"
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/viewer"
)

func TestTrashRestore(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme, beta := env.Bootstrap("Acme"), env.Bootstrap("Beta")
		fa := newTrashFix(t, env, acme)
		c := env.App.DB.Client
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)

		// A route with an operator link: the link stays through archive and restore.
		route := fa.route("R1")
		op, err := c.Operator.Create().SetTenantID(acme.TenantID).SetName("Ana").SetType("SALESMAN").Save(fa.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.RouteOperator.Create().SetTenantID(acme.TenantID).SetRouteID(route.ID).SetOperatorID(op.ID).Exec(fa.ctx); err != nil {
			t.Fatal(err)
		}
		rec := fa.archiveRoute(route)

		// Another tenant cannot restore it.
		apptest.ExpectError(t, env.Do("POST", "/api/trash/"+rec.ID.String()+"/restore", nil,
			apptest.JWT(env.Login(beta.Email), beta.TenantID, uuid.Nil)), 404, "Trash record not found")

		res := env.Do("POST", "/api/trash/"+rec.ID.String()+"/restore", nil, h)
		if res.Status != 200 {
			t.Fatalf("restore: %d %s", res.Status, res.Body)
		}
		sameJSON(t, res.Body, trashJSON(rec))
		back, err := c.Route.Get(fa.ctx, route.ID)
		if err != nil || back.ArchivedAt != nil || back.Code != "R1" {
			t.Fatalf("restored route = %+v, %v", back, err)
		}
		if n, _ := c.RouteOperator.Query().Where(routeoperator.RouteID(route.ID)).Count(fa.ctx); n != 1 {
			t.Fatalf("route links after restore = %d", n)
		}
		if n, _ := c.TrashRecord.Query().Count(fa.ctx); n != 0 {
			t.Fatalf("trash entries after restore = %d", n)
		}
		apptest.ExpectError(t, env.Do("GET", "/api/trash/"+rec.ID.String(), nil, h), 404, "Trash record not found")
		apptest.ExpectError(t, env.Do("POST", "/api/trash/"+rec.ID.String()+"/restore", nil, h), 404, "Trash record not found")
		apptest.ExpectError(t, env.Do("POST", "/api/trash/x/restore", nil, h), 400, "Validation failed (uuid is expected)")

		// Archive R1 again, create another R1 meanwhile: restoring conflicts.
		rec = fa.archiveRoute(back)
		other := fa.route("R1")
		apptest.ExpectError(t, env.Do("POST", "/api/trash/"+rec.ID.String()+"/restore", nil, h), 409,
			"Cannot restore: another record now uses the same unique value")
		// Nothing changed: the entry stays, the route stays archived.
		if _, err := c.TrashRecord.Get(fa.ctx, rec.ID); err != nil {
			t.Fatalf("trash entry after conflict: %v", err)
		}
		still, err := c.Route.Get(viewer.WithArchived(fa.ctx), route.ID)
		if err != nil || still.ArchivedAt == nil {
			t.Fatalf("route after conflict = %+v, %v", still, err)
		}
		// Once the other R1 is renamed, the restore succeeds.
		if err := c.Route.UpdateOne(other).SetCode("R2").Exec(fa.ctx); err != nil {
			t.Fatal(err)
		}
		if res := env.Do("POST", "/api/trash/"+rec.ID.String()+"/restore", nil, h); res.Status != 200 {
			t.Fatalf("restore after rename: %d %s", res.Status, res.Body)
		}
	})
}

func TestTrashRestoreNeedsTheKindsDeletePermission(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		fa := newTrashFix(t, env, acme)
		c := env.App.DB.Client
		kinds := map[trashrecord.Kind]string{
			trash.KindCommerce: "commerce:delete", trash.KindOperator: "operator:delete", trash.KindRoute: "route:delete",
			trash.KindSupervisor: "supervisor:delete", trash.KindAudience: "audience-criteria:delete",
			trash.KindAGC: "activity-generation-config:delete", trash.KindEventFilter: "event-criteria:delete",
		}
		// Only trash:restore is on the matrix line: without it, 403 at once.
		env.CreateUser(acme.TenantID, "fede", auth.RoleFDE)
		fde := apptest.JWT(env.Login("fede"), acme.TenantID, uuid.Nil)
		for kind, perm := range kinds {
			t.Run(string(kind), func(t *testing.T) {
				id, rec := fa.archived(kind)
				path := "/api/trash/" + rec.ID.String() + "/restore"
				apptest.ExpectError(t, env.Do("POST", path, nil, fde), 403, "Required permissions: trash:restore")
				only, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermTrashRestore)
				apptest.ExpectError(t, env.Do("POST", path, nil, apptest.Key(only)), 403, "Required permissions: "+perm)
				if _, err := c.TrashRecord.Get(fa.ctx, rec.ID); err != nil {
					t.Fatalf("entry gone after a refused restore: %v", err)
				}
				both, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermTrashRestore, perm)
				res := env.Do("POST", path, nil, apptest.Key(both))
				if res.Status != 200 {
					t.Fatalf("restore %s: %d %s", kind, res.Status, res.Body)
				}
				if got := trash.DeletePermission(kind); got != perm {
					t.Fatalf("DeletePermission(%s) = %q", kind, got)
				}
				live := func(n int, err error) {
					t.Helper()
					if err != nil || n != 1 {
						t.Fatalf("%s not live after restore: %d %v", kind, n, err)
					}
				}
				switch kind {
				case trash.KindCommerce:
					live(c.Commerce.Query().Count(fa.ctx))
				case trash.KindOperator:
					live(c.Operator.Query().Count(fa.ctx))
				case trash.KindRoute:
					live(c.Route.Query().Count(fa.ctx))
				case trash.KindSupervisor:
					live(c.Supervisor.Query().Count(fa.ctx))
				case trash.KindEventFilter:
					live(c.EventFilter.Query().Count(fa.ctx))
				case trash.KindAudience:
					_, err := c.Audience.Get(fa.ctx, id)
					live(1, err)
				case trash.KindAGC:
					live(c.ActivityGenerationConfig.Query().Count(fa.ctx))
					live(c.ActivationConfig.Query().Count(fa.ctx))
					live(c.EngagementConfig.Query().Count(fa.ctx))
					live(c.ResurrectionConfig.Query().Count(fa.ctx))
				}
			})
		}
	})
}

// TestRestoreConflictsOfEveryKind: deleting through the API frees a unique
// value; when it is taken meanwhile, restoring answers 409 and changes nothing.
func TestRestoreConflictsOfEveryKind(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		cases := []struct {
			name, path string
			body       map[string]any
		}{
			{"commerce external id", "/api/commerces", map[string]any{"name": "Kiosko", "external_id": "C-1"}},
			{"operator email", "/api/operators", map[string]any{"type": "SALESMAN", "name": "Ana", "email": "ana@acme.test"}},
			{"operator type and external id", "/api/operators", map[string]any{"type": "CALLCENTER", "name": "Bo", "external_id": "OP-9"}},
			{"supervisor email", "/api/supervisors", map[string]any{"name": "Sara", "email": "sara@acme.test"}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				res := env.Do("POST", c.path, c.body, h)
				if res.Status != 201 {
					t.Fatalf("create: %d %s", res.Status, res.Body)
				}
				id := res.Map(t)["id"].(string)
				if res := env.Do("DELETE", c.path+"/"+id, nil, h); res.Status != 204 {
					t.Fatalf("delete: %d %s", res.Status, res.Body)
				}
				// The freed value is taken by a new record.
				if res := env.Do("POST", c.path, c.body, h); res.Status != 201 {
					t.Fatalf("re-create: %d %s", res.Status, res.Body)
				}
				rec, err := env.App.DB.Client.TrashRecord.Query().Where(trashrecord.RecordID(uuid.MustParse(id))).Only(sys)
				if err != nil {
					t.Fatal(err)
				}
				apptest.ExpectError(t, env.Do("POST", "/api/trash/"+rec.ID.String()+"/restore", nil, h), 409,
					"Cannot restore: another record now uses the same unique value")
				// Still archived, still in the trash.
				if res := env.Do("GET", c.path+"/"+id, nil, h); res.Status != 404 {
					t.Fatalf("restored despite the conflict: %d %s", res.Status, res.Body)
				}
				if res := env.Do("GET", "/api/trash/"+rec.ID.String(), nil, h); res.Status != 200 {
					t.Fatalf("trash record after the conflict: %d %s", res.Status, res.Body)
				}
			})
		}
	})
}
