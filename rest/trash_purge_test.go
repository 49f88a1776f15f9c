package rest_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/viewer"
)

func TestTrashPurge(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme, beta := env.Bootstrap("Acme"), env.Bootstrap("Beta")
		fa := newTrashFix(t, env, acme)
		c := env.App.DB.Client
		all := viewer.WithArchived(fa.ctx)
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)

		route := fa.route("R1")
		op, err := c.Operator.Create().SetTenantID(acme.TenantID).SetName("Ana").SetType("SALESMAN").Save(fa.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.RouteOperator.Create().SetTenantID(acme.TenantID).SetRouteID(route.ID).SetOperatorID(op.ID).Exec(fa.ctx); err != nil {
			t.Fatal(err)
		}
		rec := fa.archiveRoute(route)

		// Only super_admin holds trash:purge.
		env.CreateUser(acme.TenantID, "adam", auth.RoleAdmin)
		apptest.ExpectError(t, env.Do("DELETE", "/api/trash/"+rec.ID.String(), nil,
			apptest.JWT(env.Login("adam"), acme.TenantID, uuid.Nil)), 403, "Required permissions: trash:purge")
		apptest.ExpectError(t, env.Do("DELETE", "/api/trash/"+rec.ID.String(), nil,
			apptest.JWT(env.Login(beta.Email), beta.TenantID, uuid.Nil)), 404, "Trash record not found")
		apptest.ExpectError(t, env.Do("DELETE", "/api/trash/nope", nil, h), 400, "Validation failed (uuid is expected)")

		res := env.Do("DELETE", "/api/trash/"+rec.ID.String(), nil, h)
		if res.Status != 204 || len(res.Body) != 0 {
			t.Fatalf("purge: %d %s", res.Status, res.Body)
		}
		if _, err := c.Route.Get(all, route.ID); !ent.IsNotFound(err) {
			t.Fatalf("purged route still stored: %v", err)
		}
		if n, _ := c.RouteOperator.Query().Count(fa.ctx); n != 0 {
			t.Fatalf("route links after purge = %d (no cascade)", n)
		}
		if n, _ := c.TrashRecord.Query().Count(fa.ctx); n != 0 {
			t.Fatalf("trash entries after purge = %d", n)
		}
		apptest.ExpectError(t, env.Do("DELETE", "/api/trash/"+rec.ID.String(), nil, h), 404, "Trash record not found")

		// An AGC purge removes its pillars.
		agcID, agcRec := fa.archived(trash.KindAGC)
		if res := env.Do("DELETE", "/api/trash/"+agcRec.ID.String(), nil, h); res.Status != 204 {
			t.Fatalf("purge AGC: %d %s", res.Status, res.Body)
		}
		if n, _ := c.ActivationConfig.Query().Count(all); n != 0 {
			t.Fatalf("pillars after AGC %s purge = %d", agcID, n)
		}

		// A commerce with activities cannot be deleted for good: 409, nothing changes.
		com := fa.commerce("Bodega")
		if err := c.Activity.Create().SetTenantID(acme.TenantID).SetProjectID(acme.ProjectID).SetCommerceID(com.ID).
			SetType("TASK").SetChannel("SALESMAN").SetScheduledAt(time.Now()).Exec(fa.ctx); err != nil {
			t.Fatal(err)
		}
		crec := fa.archiveCommerce(com)
		apptest.ExpectError(t, env.Do("DELETE", "/api/trash/"+crec.ID.String(), nil, h), 409,
			"Cannot delete permanently: other records still reference this record")
		if _, err := c.TrashRecord.Get(fa.ctx, crec.ID); err != nil {
			t.Fatalf("entry after refused purge: %v", err)
		}
		if _, err := c.Commerce.Get(all, com.ID); err != nil {
			t.Fatalf("commerce after refused purge: %v", err)
		}
	})
}

func TestTrashSettings(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme, beta := env.Bootstrap("Acme"), env.Bootstrap("Beta")
		fa := newTrashFix(t, env, acme)
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		old := fa.archiveRoute(fa.route("R1"))

		res := env.Do("GET", "/api/trash/settings", nil, h)
		if res.Status != 200 {
			t.Fatalf("%d %s", res.Status, res.Body)
		}
		sameJSON(t, res.Body, map[string]any{"retentionDays": 30})

		cases := []struct {
			name string
			body any
			msg  any
		}{
			{"missing", map[string]any{}, []string{"retention_days should not be empty"}},
			{"null", map[string]any{"retention_days": nil}, []string{"retention_days should not be empty"}},
			{"zero", map[string]any{"retention_days": 0}, []string{"retention_days must not be less than 1"}},
			{"too many", map[string]any{"retention_days": 3651}, []string{"retention_days must not be greater than 3650"}},
			{"fraction", map[string]any{"retention_days": 1.5}, []string{"retention_days must be an integer number"}},
			{"string", map[string]any{"retention_days": "7"}, []string{"retention_days must be an integer number"}},
			{"camelCase", map[string]any{"retentionDays": 7}, []string{"property retentionDays should not exist"}},
			{"malformed", "{", "Malformed JSON body"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				apptest.ExpectError(t, env.Do("PATCH", "/api/trash/settings", c.body, h), 400, c.msg)
			})
		}

		for _, days := range []int{1, 3650, 7} {
			res = env.Do("PATCH", "/api/trash/settings", map[string]any{"retention_days": days}, h)
			if res.Status != 200 {
				t.Fatalf("%d %s", res.Status, res.Body)
			}
			sameJSON(t, res.Body, map[string]any{"retentionDays": days})
		}
		sameJSON(t, env.Do("GET", "/api/trash/settings", nil, h).Body, map[string]any{"retentionDays": 7})
		// Entries already in the trash follow the new window; new ones use it.
		got, err := env.App.DB.Client.TrashRecord.Get(fa.ctx, old.ID)
		if err != nil || !got.PurgeAfter.Equal(old.DeletedAt.AddDate(0, 0, 7)) {
			t.Fatalf("purgeAfter = %v, want %v (%v)", got.PurgeAfter, old.DeletedAt.AddDate(0, 0, 7), err)
		}
		fresh := fa.archiveRoute(fa.route("R2"))
		if !fresh.PurgeAfter.Equal(fresh.DeletedAt.AddDate(0, 0, 7)) {
			t.Fatalf("new entry purgeAfter = %v", fresh.PurgeAfter)
		}
		// Another tenant keeps the default.
		bh := apptest.JWT(env.Login(beta.Email), beta.TenantID, uuid.Nil)
		sameJSON(t, env.Do("GET", "/api/trash/settings", nil, bh).Body, map[string]any{"retentionDays": 30})

		// trash:manage-settings: super_admin and admin, not fde.
		env.CreateUser(acme.TenantID, "adam", auth.RoleAdmin)
		if res := env.Do("PATCH", "/api/trash/settings", map[string]any{"retention_days": 9}, apptest.JWT(env.Login("adam"), acme.TenantID, uuid.Nil)); res.Status != 200 {
			t.Fatalf("admin: %d %s", res.Status, res.Body)
		}
		env.CreateUser(acme.TenantID, "fede", auth.RoleFDE)
		fh := apptest.JWT(env.Login("fede"), acme.TenantID, uuid.Nil)
		apptest.ExpectError(t, env.Do("GET", "/api/trash/settings", nil, fh), 403, "Required permissions: trash:manage-settings")
		apptest.ExpectError(t, env.Do("PATCH", "/api/trash/settings", map[string]any{"retention_days": 0}, fh), 403, "Required permissions: trash:manage-settings")
	})
}

func TestTrashPurgeExpired(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme, beta := env.Bootstrap("Acme"), env.Bootstrap("Beta")
		c := env.App.DB.Client
		now := time.Now()
		var expired, kept []*ent.TrashRecord
		for i, ten := range []apptest.Tenant{acme, beta} {
			f := newTrashFix(t, env, ten)
			for j := range 12 {
				rec := f.archiveRoute(f.route(fmt.Sprintf("R%d-%d", i, j)))
				if j < 9 {
					if err := c.TrashRecord.UpdateOne(rec).SetPurgeAfter(now.Add(-time.Minute)).Exec(f.ctx); err != nil {
						t.Fatal(err)
					}
					expired = append(expired, rec)
				} else {
					kept = append(kept, rec)
				}
			}
		}
		// An expired commerce still referenced by an activity is kept (logged), never an error.
		fa := newTrashFix(t, env, acme)
		com := fa.commerce("Bodega")
		if err := c.Activity.Create().SetTenantID(acme.TenantID).SetProjectID(acme.ProjectID).SetCommerceID(com.ID).
			SetType("TASK").SetChannel("SALESMAN").SetScheduledAt(now).Exec(fa.ctx); err != nil {
			t.Fatal(err)
		}
		blocked := fa.archiveCommerce(com)
		if err := c.TrashRecord.UpdateOne(blocked).SetPurgeAfter(now.Add(-time.Hour)).Exec(fa.ctx); err != nil {
			t.Fatal(err)
		}

		// Several replicas purge at once: every record exactly once, no error.
		const replicas = 4
		var (
			wg     sync.WaitGroup
			counts [replicas]int
			errs   [replicas]error
		)
		for i := range replicas {
			wg.Add(1)
			go func() {
				defer wg.Done()
				counts[i], errs[i] = env.App.Trash.PurgeExpired(context.Background(), now)
			}()
		}
		wg.Wait()
		total := 0
		for i := range replicas {
			if errs[i] != nil {
				t.Fatalf("replica %d: %v", i, errs[i])
			}
			total += counts[i]
		}
		if total != len(expired) {
			t.Fatalf("purged %d records in total (%v), want %d", total, counts, len(expired))
		}
		all := viewer.WithArchived(viewer.SystemContext(context.Background()))
		for _, rec := range expired {
			if _, err := c.Route.Get(all, rec.RecordID); !ent.IsNotFound(err) {
				t.Fatalf("expired route %s still stored: %v", rec.Label, err)
			}
		}
		for _, rec := range append(kept, blocked) {
			if _, err := c.TrashRecord.Get(all, rec.ID); err != nil {
				t.Fatalf("entry %s within retention (or blocked) was purged: %v", rec.Label, err)
			}
		}
		if n, _ := c.TrashRecord.Query().Count(all); n != len(kept)+1 {
			t.Fatalf("trash entries left = %d, want %d", n, len(kept)+1)
		}
		// Nothing left to purge.
		if n, err := env.App.Trash.PurgeExpired(context.Background(), now); n != 0 || err != nil {
			t.Fatalf("second purge = %d, %v", n, err)
		}
		// RunPurger purges on start and stops with its context.
		if err := c.TrashRecord.UpdateOne(kept[0]).SetPurgeAfter(now.Add(-time.Second)).Exec(all); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { env.App.Trash.RunPurger(ctx, time.Hour); close(done) }()
		deadline := time.Now().Add(10 * time.Second)
		for {
			if _, err := c.TrashRecord.Get(all, kept[0].ID); ent.IsNotFound(err) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("RunPurger did not purge on start")
			}
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
		<-done
	})
}
