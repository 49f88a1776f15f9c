package rest_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activationconfig"
	"github.com/reten-io/reten/ent/engagementconfig"
	"github.com/reten-io/reten/ent/resurrectionconfig"
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
			"kind must be one of the following values: AUDIENCE_CRITERIA, COMMERCE, OPERATOR, ROUTE, SUPERVISOR, ACTIVITY_GENERATION_CONFIG, EVENT_CRITERIA, GENERATION_RULE"})
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
