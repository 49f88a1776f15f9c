package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activationconfig"
	"github.com/reten-io/reten/ent/engagementconfig"
	"github.com/reten-io/reten/ent/resurrectionconfig"
	"github.com/reten-io/reten/ent/routeoperator"
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// trashFix creates and archives records of one tenant directly with ent (the
// resource routes are written elsewhere), the way their DELETE does.
type trashFix struct {
	t   *testing.T
	env *apptest.Env
	ten apptest.Tenant
	ctx context.Context // the tenant's super_admin
}

func newTrashFix(t *testing.T, env *apptest.Env, ten apptest.Tenant) *trashFix {
	return &trashFix{t: t, env: env, ten: ten,
		ctx: viewer.NewContext(context.Background(), &viewer.Viewer{TenantID: ten.TenantID, UserID: ten.UserID})}
}

func (f *trashFix) client() *ent.Client { return f.env.App.DB.Client }

// archive marks the record archived with mark and writes its trash entry in
// one transaction, then returns the entry.
func (f *trashFix) archive(kind trashrecord.Kind, id uuid.UUID, label string, project *uuid.UUID,
	mark func(ctx context.Context, tx *ent.Client) error) *ent.TrashRecord {
	f.t.Helper()
	err := txn.Run(f.ctx, f.client(), func(ctx context.Context, tx *ent.Client) error {
		if err := mark(ctx, tx); err != nil {
			return err
		}
		return trash.Archive(ctx, tx, trash.Record{Kind: kind, RecordID: id, Label: label, ProjectID: project})
	})
	if err != nil {
		f.t.Fatalf("archive %s: %v", kind, err)
	}
	rec, err := f.client().TrashRecord.Query().Where(trashrecord.KindEQ(kind), trashrecord.RecordID(id)).Only(f.ctx)
	if err != nil {
		f.t.Fatal(err)
	}
	return rec
}

func (f *trashFix) route(code string) *ent.Route {
	f.t.Helper()
	r, err := f.client().Route.Create().SetTenantID(f.ten.TenantID).SetCode(code).SetName("Route " + code).Save(f.ctx)
	if err != nil {
		f.t.Fatalf("create route: %v", err)
	}
	return r
}

func (f *trashFix) archiveRoute(r *ent.Route) *ent.TrashRecord {
	return f.archive(trash.KindRoute, r.ID, r.Code, nil, func(ctx context.Context, tx *ent.Client) error {
		return tx.Route.UpdateOneID(r.ID).SetArchivedAt(time.Now()).Exec(ctx)
	})
}

func (f *trashFix) commerce(name string) *ent.Commerce {
	f.t.Helper()
	c, err := f.client().Commerce.Create().SetTenantID(f.ten.TenantID).SetName(name).Save(f.ctx)
	if err != nil {
		f.t.Fatalf("create commerce: %v", err)
	}
	return c
}

func (f *trashFix) archiveCommerce(c *ent.Commerce) *ent.TrashRecord {
	return f.archive(trash.KindCommerce, c.ID, c.Name, nil, func(ctx context.Context, tx *ent.Client) error {
		return tx.Commerce.UpdateOneID(c.ID).SetArchivedAt(time.Now()).Exec(ctx)
	})
}

// archived creates one record of kind, archives it and returns its id and
// trash entry.
func (f *trashFix) archived(kind trashrecord.Kind) (uuid.UUID, *ent.TrashRecord) {
	f.t.Helper()
	c, ctx, now, pid := f.client(), f.ctx, time.Now(), f.ten.ProjectID
	var (
		id  uuid.UUID
		err error
	)
	switch kind {
	case trash.KindRoute:
		r := f.route(uuid.NewString()[:8])
		return r.ID, f.archiveRoute(r)
	case trash.KindCommerce:
		co := f.commerce("Commerce " + uuid.NewString()[:6])
		return co.ID, f.archiveCommerce(co)
	case trash.KindOperator:
		var o *ent.Operator
		o, err = c.Operator.Create().SetTenantID(f.ten.TenantID).SetName("Op").SetType("SALESMAN").Save(ctx)
		if err == nil {
			id = o.ID
			return id, f.archive(kind, id, "Op", nil, func(ctx context.Context, tx *ent.Client) error {
				return tx.Operator.UpdateOneID(id).SetArchivedAt(now).Exec(ctx)
			})
		}
	case trash.KindSupervisor:
		var s *ent.Supervisor
		s, err = c.Supervisor.Create().SetTenantID(f.ten.TenantID).SetName("Sup").Save(ctx)
		if err == nil {
			id = s.ID
			return id, f.archive(kind, id, "Sup", nil, func(ctx context.Context, tx *ent.Client) error {
				return tx.Supervisor.UpdateOneID(id).SetArchivedAt(now).Exec(ctx)
			})
		}
	case trash.KindAudience:
		var a *ent.Audience
		a, err = c.Audience.Create().SetTenantID(f.ten.TenantID).SetProjectID(pid).SetName("Aud").Save(ctx)
		if err == nil {
			id = a.ID
			return id, f.archive(kind, id, "Aud", &pid, func(ctx context.Context, tx *ent.Client) error {
				return tx.Audience.UpdateOneID(id).SetArchivedAt(now).Exec(ctx)
			})
		}
	case trash.KindEventFilter:
		var e *ent.EventFilter
		e, err = c.EventFilter.Create().SetTenantID(f.ten.TenantID).SetProjectID(pid).SetName("Ev").Save(ctx)
		if err == nil {
			id = e.ID
			return id, f.archive(kind, id, "Ev", &pid, func(ctx context.Context, tx *ent.Client) error {
				return tx.EventFilter.UpdateOneID(id).SetArchivedAt(now).Exec(ctx)
			})
		}
	case trash.KindAGC:
		id = f.agc()
		return id, f.archive(kind, id, "AGC", &pid, func(ctx context.Context, tx *ent.Client) error {
			if err := tx.ActivityGenerationConfig.UpdateOneID(id).SetArchivedAt(now).Exec(ctx); err != nil {
				return err
			}
			if err := tx.ActivationConfig.Update().Where(activationconfig.ActivityGenerationConfigID(id)).SetArchivedAt(now).Exec(ctx); err != nil {
				return err
			}
			if err := tx.EngagementConfig.Update().Where(engagementconfig.ActivityGenerationConfigID(id)).SetArchivedAt(now).Exec(ctx); err != nil {
				return err
			}
			return tx.ResurrectionConfig.Update().Where(resurrectionconfig.ActivityGenerationConfigID(id)).SetArchivedAt(now).Exec(ctx)
		})
	}
	f.t.Fatalf("archived %s: %v", kind, err)
	return uuid.Nil, nil
}

// agc creates an AGC with its three pillars (the only one of the tenant).
func (f *trashFix) agc() uuid.UUID {
	f.t.Helper()
	c, ctx, pid, tid := f.client(), f.ctx, f.ten.ProjectID, f.ten.TenantID
	a, err := c.ActivityGenerationConfig.Create().SetTenantID(tid).SetProjectID(pid).SetName("AGC").Save(ctx)
	if err == nil {
		err = c.ActivationConfig.Create().SetTenantID(tid).SetProjectID(pid).SetActivityGenerationConfigID(a.ID).
			SetName("act").SetSourceTable("t").SetDateColumn("d").SetAggregationMethod("count").Exec(ctx)
	}
	if err == nil {
		err = c.EngagementConfig.Create().SetTenantID(tid).SetProjectID(pid).SetActivityGenerationConfigID(a.ID).
			SetName("eng").SetSourceTable("t").SetDateColumn("d").SetEngagementWindowDays(7).
			SetMinLifetimeActionsForEngaged(1).SetCountingMethod("count").Exec(ctx)
	}
	if err == nil {
		err = c.ResurrectionConfig.Create().SetTenantID(tid).SetProjectID(pid).SetActivityGenerationConfigID(a.ID).
			SetName("res").SetSourceTable("t").SetDateColumn("d").Exec(ctx)
	}
	if err != nil {
		f.t.Fatalf("create AGC: %v", err)
	}
	return a.ID
}

// trashJSON is the JSON of a trash entry as the API must present it.
func trashJSON(r *ent.TrashRecord) map[string]any {
	var project, by any
	if r.ProjectID != nil {
		project = r.ProjectID.String()
	}
	if r.DeletedBy != nil {
		by = r.DeletedBy.String()
	}
	return map[string]any{"id": r.ID.String(), "kind": string(r.Kind), "recordId": r.RecordID.String(),
		"projectId": project, "label": r.Label, "deletedBy": by,
		"deletedAt": r.DeletedAt.Format(time.RFC3339Nano), "purgeAfter": r.PurgeAfter.Format(time.RFC3339Nano)}
}

// sameJSON compares a response body with want (both normalised through JSON).
func sameJSON(t *testing.T, body []byte, want any) {
	t.Helper()
	var got any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("body is not JSON: %s", body)
	}
	raw, _ := json.Marshal(want)
	var w any
	_ = json.Unmarshal(raw, &w)
	g, _ := json.Marshal(got)
	wj, _ := json.Marshal(w)
	if string(g) != string(wj) {
		t.Fatalf("body = %s\nwant   %s", g, wj)
	}
}

func TestTrashListAndGet(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme, beta := env.Bootstrap("Acme"), env.Bootstrap("Beta")
		fa, fb := newTrashFix(t, env, acme), newTrashFix(t, env, beta)
		r1 := fa.archiveRoute(fa.route("R1"))
		time.Sleep(5 * time.Millisecond)
		c1 := fa.archiveCommerce(fa.commerce("Bodega Uno"))
		bRec := fb.archiveRoute(fb.route("R1"))
		h := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)

		// The archived route is hidden from ordinary reads.
		if n, err := env.App.DB.Client.Route.Query().Count(fa.ctx); err != nil || n != 0 {
			t.Fatalf("archived route still visible: %d %v", n, err)
		}

		res := env.Do("GET", "/api/trash", nil, h)
		if res.Status != 200 {
			t.Fatalf("%d %s", res.Status, res.Body)
		}
		sameJSON(t, res.Body, map[string]any{"data": []any{trashJSON(c1), trashJSON(r1)},
			"meta": map[string]any{"page": 1, "limit": 25, "total": 2, "totalPages": 1}})
		if *r1.DeletedBy != acme.UserID || !r1.PurgeAfter.Equal(r1.DeletedAt.AddDate(0, 0, trash.DefaultRetentionDays)) {
			t.Fatalf("trash entry = %+v", r1)
		}

		res = env.Do("GET", "/api/trash?kind=ROUTE&per_page=1", nil, h)
		sameJSON(t, res.Body, map[string]any{"data": []any{trashJSON(r1)},
			"meta": map[string]any{"page": 1, "limit": 1, "total": 1, "totalPages": 1}})
		res = env.Do("GET", "/api/trash?page=2&per_page=1", nil, h)
		sameJSON(t, res.Body, map[string]any{"data": []any{trashJSON(r1)},
			"meta": map[string]any{"page": 2, "limit": 1, "total": 2, "totalPages": 2}})

		res = env.Do("GET", "/api/trash/"+r1.ID.String(), nil, h)
		if res.Status != 200 {
			t.Fatalf("%d %s", res.Status, res.Body)
		}
		sameJSON(t, res.Body, trashJSON(r1))

		apptest.ExpectError(t, env.Do("GET", "/api/trash?kind=ROUTES", nil, h), 400, []string{
			"kind must be one of the following values: AUDIENCE_CRITERIA, COMMERCE, OPERATOR, ROUTE, SUPERVISOR, ACTIVITY_GENERATION_CONFIG, EVENT_CRITERIA"})
		apptest.ExpectError(t, env.Do("GET", "/api/trash?per_page=0", nil, h), 400, []string{"per_page must not be less than 1"})
		apptest.ExpectError(t, env.Do("GET", "/api/trash/nope", nil, h), 400, "Validation failed (uuid is expected)")
		apptest.ExpectError(t, env.Do("GET", "/api/trash/"+uuid.NewString(), nil, h), 404, "Trash record not found")
		// Another tenant's entry does not exist here.
		apptest.ExpectError(t, env.Do("GET", "/api/trash/"+bRec.ID.String(), nil, h), 404, "Trash record not found")

		// The viewer role has no trash:view; fde has it.
		env.CreateUser(acme.TenantID, "vera", auth.RoleViewer)
		apptest.ExpectError(t, env.Do("GET", "/api/trash", nil, apptest.JWT(env.Login("vera"), acme.TenantID, uuid.Nil)),
			403, "Required permissions: trash:view")
		env.CreateUser(acme.TenantID, "fede", auth.RoleFDE)
		if res := env.Do("GET", "/api/trash", nil, apptest.JWT(env.Login("fede"), acme.TenantID, uuid.Nil)); res.Status != 200 {
			t.Fatalf("fde list: %d %s", res.Status, res.Body)
		}
	})
}

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
