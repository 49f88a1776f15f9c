package rest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/trashrecord"
	"github.com/reten-io/reten/internal/agc"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/audience"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/patch"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/viewer"
)

// heldTx is a transaction of its own, admitted to the matrix line key as
// the tenant's super_admin in its main project: a service called with ctx
// writes in it (txn.Run joins it), and nothing is committed before commit.
func heldTx(t *testing.T, env *apptest.Env, ten apptest.Tenant, key string) (ctx context.Context, commit func()) {
	t.Helper()
	e, ok := tenancy.Lookup(key)
	if !ok {
		t.Fatalf("no matrix line %s", key)
	}
	v := &viewer.Viewer{UserID: ten.UserID, TenantID: ten.TenantID, ProjectID: ten.ProjectID, Roles: []string{auth.RoleSuperAdmin},
		Permissions: auth.PermissionsOf([]string{auth.RoleSuperAdmin})}
	ctx, err := tenancy.Admit(context.Background(), v, e)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := env.App.DB.Client.Tx(ctx)
	if err != nil {
		t.Fatal(err)
	}
	done := false
	t.Cleanup(func() {
		if !done {
			_ = tx.Rollback()
		}
	})
	return ent.NewContext(ent.NewTxContext(ctx, tx), tx.Client()), func() {
		done = true
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
}

// waiting starts the request and asserts it has no answer while the held
// transaction is open; after commit, the answer is read from the channel.
func waiting(t *testing.T, env *apptest.Env, method, path string, body any, h apptest.Headers) <-chan *apptest.Response {
	t.Helper()
	done := make(chan *apptest.Response, 1)
	go func() { done <- env.Do(method, path, body, h) }()
	select {
	case res := <-done:
		t.Fatalf("%s %s answered %d %s while the other transaction was open", method, path, res.Status, res.Body)
	case <-time.After(400 * time.Millisecond):
	}
	return done
}

// TestRootEditAndFallbackTakeTurns: a definition edit of the root audience
// and a write that makes a config fall back on it (PATCH audience_id null,
// a creation without audience, a restore from the trash) take turns on the
// root audience's row (on PostgreSQL its lock; SQLite's write transactions
// are exclusive already), so the edit's confirmation check sees every
// config that falls back when the definition is written.
func TestRootEditAndFallbackTakeTurns(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := newAGCFix(t, env, "Acme")
		a.onDemo = true
		f := &auFix{env: env, tenant: a.tenant, h: a.h}
		f.data, f.prefix = auDemoDataset(t, env, a.tenant.TenantID)
		root := f.root(t)
		rootPath := "/api/audience-criterias/" + root
		f.ok(t, 200, "PATCH", rootPath, map[string]any{"queryBlocks": auBlocks(auSegmentBlock("grocery"))})
		other := f.create(t, map[string]any{"name": "Bakeries", "queryBlocks": auBlocks(auSegmentBlock("bakery"))})
		own := a.create(t, "Own")
		ownID := uuid.MustParse(own["id"].(string))
		ownPath := fmt.Sprintf("/api/activity-generation-configs/%v", own["id"])
		f.ok(t, 200, "PATCH", ownPath, map[string]any{"audience_id": other["id"]})

		// A config's audience cleared, not committed yet: the root edit waits
		// for it, then sees the config falling back.
		ctx, commit := heldTx(t, env, a.tenant, "PATCH /activity-generation-configs/{id}")
		if _, err := env.App.AGCs.Update(ctx, ownID, agc.UpdateInput{Audience: patch.Null[uuid.UUID]()}); err != nil {
			t.Fatal(err)
		}
		edit := map[string]any{"compositions": []any{}}
		done := waiting(t, env, "PATCH", rootPath, edit, f.h)
		commit()
		expectRootConfirmation(t, <-done, `"Own"`, own)

		// A root edit not committed yet: the writes that make a config fall
		// back on the root wait for it, and then answer as usual.
		f.ok(t, 200, "PATCH", ownPath, map[string]any{"audience_id": other["id"]})
		rootEdit := func() func() {
			ctx, commit := heldTx(t, env, a.tenant, "PATCH /audience-criterias/{id}")
			if _, err := env.App.Audiences.Update(ctx, uuid.MustParse(root), audience.UpdateInput{SetCompositions: true}); err != nil {
				t.Fatal(err)
			}
			return commit
		}
		commit = rootEdit()
		done = waiting(t, env, "PATCH", ownPath, map[string]any{"audience_id": nil}, f.h)
		commit()
		if res := <-done; res.Status != 200 || res.Map(t)["audienceId"] != nil {
			t.Fatalf("audience_id null: %d %s", res.Status, res.Body)
		}
		f.ok(t, 200, "PATCH", ownPath, map[string]any{"audience_id": other["id"]})

		commit = rootEdit()
		done = waiting(t, env, "POST", "/api/activity-generation-configs", a.createBody("Later"), f.h)
		commit()
		res := <-done
		later := res.Map(t)
		if res.Status != 201 || later["audienceId"] != nil {
			t.Fatalf("create: %d %s", res.Status, res.Body)
		}
		f.ok(t, 200, "PATCH", fmt.Sprintf("/api/activity-generation-configs/%v", later["id"]), map[string]any{"audience_id": other["id"]})

		f.ok(t, 200, "PATCH", ownPath, map[string]any{"audience_id": nil})
		if res := env.Do("DELETE", ownPath, nil, f.h); res.Status != 204 {
			t.Fatalf("delete: %d %s", res.Status, res.Body)
		}
		rec := env.App.DB.Client.TrashRecord.Query().Where(trashrecord.RecordID(ownID)).OnlyX(sys)
		commit = rootEdit()
		done = waiting(t, env, "POST", "/api/trash/"+rec.ID.String()+"/restore", nil, a.h)
		commit()
		if res := <-done; res.Status != 200 {
			t.Fatalf("restore: %d %s", res.Status, res.Body)
		}
		expectRootConfirmation(t, env.Do("PATCH", rootPath, edit, f.h), `"Own"`, own)
	})
}
