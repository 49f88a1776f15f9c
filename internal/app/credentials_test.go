package app_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/viewer"
)

// sqlLog records the statements of an app's ent client.
type sqlLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *sqlLog) log(args ...any) {
	if line := fmt.Sprint(args...); strings.Contains(line, " query=") {
		l.mu.Lock()
		l.lines = append(l.lines, line)
		l.mu.Unlock()
	}
}

func (l *sqlLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.lines
	l.lines = nil
	return out
}

// mentioning returns the statements that name table.
func mentioning(stmts []string, table string) []string {
	var out []string
	for _, s := range stmts {
		if strings.Contains(s, "`"+table+"`") || strings.Contains(s, `"`+table+`"`) {
			out = append(out, s)
		}
	}
	return out
}

// TestCredentialChecksCostOneStatementThenNone: a request's credential and
// project cost one statement the first time and none while the check is
// cached (auth.CredentialTTL); an API key's first use also records
// lastUsedAt.
func TestCredentialChecksCostOneStatementThenNone(t *testing.T) {
	log := &sqlLog{}
	apptest.EachWith(t, func(c *app.Config) { c.EntOptions = []ent.Option{ent.Debug(), ent.Log(log.log)} }, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		jwt := apptest.JWT(env.Login(acme.Email), acme.TenantID, acme.ProjectID)
		plain, _ := env.CreateKey(acme.TenantID, acme.UserID, uuid.Nil, auth.PermActivityView)
		key := apptest.Key(plain).With("x-project-id", acme.ProjectID.String())
		probe := func(h apptest.Headers) []string {
			t.Helper()
			log.take()
			if res := env.Do("GET", "/api/activities", nil, h); res.Status != http.StatusOK {
				t.Fatalf("GET /api/activities: %d %s", res.Status, res.Body)
			}
			return log.take()
		}
		for _, c := range []struct {
			name    string
			h       apptest.Headers
			table   string // the credential's table
			writes  int    // the first use's writes (lastUsedAt)
			checked []string
		}{
			{"jwt", jwt, "memberships", 0, nil},
			{"api key", key, "api_keys", 1, nil},
		} {
			cold, warm, again := probe(c.h), probe(c.h), probe(c.h)
			reads := mentioning(cold, c.table)
			if len(reads) != 1+c.writes || len(mentioning(reads[:1], "projects")) != 1 || len(mentioning(cold, "projects")) != 1 {
				t.Errorf("%s: the first request read its credential and project in %d statements, want one (and %d write):\n%s",
					c.name, len(reads), c.writes, strings.Join(cold, "\n"))
			}
			if len(mentioning(warm, c.table)) != 0 || len(mentioning(warm, "projects")) != 0 || len(warm) != len(cold)-1-c.writes || len(again) != len(warm) {
				t.Errorf("%s: %d statements first, %d then %d; the cached ones read:\n%s", c.name, len(cold), len(warm), len(again), strings.Join(warm, "\n"))
			}
		}
		// Another tenant's project is a 404 from the cache too.
		beta := env.Bootstrap("Beta")
		for i := 0; i < 2; i++ {
			apptest.ExpectError(t, env.Do("GET", "/api/activities", nil, jwt.With("x-project-id", beta.ProjectID.String())), http.StatusNotFound, "El proyecto no existe.")
		}
	})
}

// replica starts a second service on env's database, as another replica.
func replica(t *testing.T, env *apptest.Env) *app.App {
	t.Helper()
	b, err := app.New(context.Background(), env.App.Config)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// within polls until req answers status and returns how long it took, or
// fails the test after limit.
func within(t *testing.T, limit time.Duration, status int, req func() *apptest.Response) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		res := req()
		if res.Status == status {
			return time.Since(start)
		}
		if time.Since(start) > limit {
			t.Fatalf("still %d %s after %s, want %d", res.Status, res.Body, limit, status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestCredentialChangesReachEveryReplica: a credential check cached by one
// replica stops holding as soon as another replica changes it (PostgreSQL:
// NOTIFY), and at once on the replica that changed it: a revoked key, its
// permissions replaced, its owner deactivated, a user's roles replaced; an
// expired key fails when it expires, with no write. On SQLite, a single
// process's store, another process's change holds within
// auth.CredentialTTL.
func TestCredentialChangesReachEveryReplica(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		b := &apptest.Env{T: t, App: replica(t, env)}
		onB := func(method, path string, body any, h apptest.Headers) *apptest.Response {
			t.Helper()
			res := b.Do(method, path, body, h)
			if res.Status >= 300 {
				t.Fatalf("%s %s on replica B: %d %s", method, path, res.Status, res.Body)
			}
			return res
		}
		acme := env.Bootstrap("Acme")
		admin := apptest.JWT(env.Login(acme.Email), acme.TenantID, uuid.Nil)
		// Another replica's change: NOTIFY on PostgreSQL, the cache's
		// lifetime on SQLite.
		bound := 2 * time.Second
		if env.App.DB.Dialect != "postgres" {
			bound = auth.CredentialTTL + time.Second
		}
		activities := func(h apptest.Headers) func() *apptest.Response {
			return func() *apptest.Response { return env.Do("GET", "/api/activities", nil, h) }
		}
		newKey := func(owner uuid.UUID) (apptest.Headers, *ent.APIKey) {
			plain, k := env.CreateKey(acme.TenantID, owner, uuid.Nil, auth.PermActivityView, auth.PermCommerceView)
			h := apptest.Key(plain).With("x-project-id", acme.ProjectID.String())
			within(t, 0, http.StatusOK, activities(h)) // cached on replica A
			return h, k
		}

		t.Run("revoked key", func(t *testing.T) {
			h, k := newKey(acme.UserID)
			onB("DELETE", "/api/api-keys/"+k.ID.String(), nil, admin)
			took := within(t, bound, http.StatusUnauthorized, activities(h))
			apptest.ExpectError(t, env.Do("GET", "/api/activities", nil, h), http.StatusUnauthorized, auth.MsgKeyInvalid)
			t.Logf("replica A refused the revoked key after %s", took)
		})
		t.Run("permissions replaced", func(t *testing.T) {
			h, k := newKey(acme.UserID)
			onB("PUT", "/api/api-keys/"+k.ID.String()+"/permissions", map[string]any{"permissions": []string{auth.PermCommerceView}}, admin)
			within(t, bound, http.StatusForbidden, activities(h))
			apptest.ExpectError(t, env.Do("GET", "/api/activities", nil, h), http.StatusForbidden,
				fmt.Sprintf(auth.MsgRequiredPermissionsFm, auth.PermActivityView))
		})
		t.Run("owner deactivated", func(t *testing.T) {
			owner := env.CreateUser(acme.TenantID, "owner", auth.RoleAdmin)
			h, _ := newKey(owner.ID)
			onB("PATCH", "/api/users/"+owner.ID.String(), map[string]any{"is_active": false}, admin)
			within(t, bound, http.StatusUnauthorized, activities(h))
			apptest.ExpectError(t, env.Do("GET", "/api/activities", nil, h), http.StatusUnauthorized, auth.MsgKeyOwnerInactive)
		})
		t.Run("roles replaced", func(t *testing.T) {
			u := env.CreateUser(acme.TenantID, "supervisor", auth.RoleAdmin)
			h := apptest.JWT(env.Login(u.Email), acme.TenantID, uuid.Nil)
			keys := func() *apptest.Response { return env.Do("GET", "/api/api-keys", nil, h) }
			within(t, 0, http.StatusOK, keys)
			onB("PUT", "/api/user/"+u.ID.String()+"/roles", map[string]any{"roles": []string{auth.RoleOperator}}, admin)
			within(t, bound, http.StatusForbidden, keys)
			apptest.ExpectError(t, keys(), http.StatusForbidden, fmt.Sprintf(auth.MsgRequiredPermissionsFm, auth.PermAPIKeyManage))
		})
		t.Run("changed on the same replica", func(t *testing.T) {
			h, k := newKey(acme.UserID)
			if res := env.Do("DELETE", "/api/api-keys/"+k.ID.String(), nil, admin); res.Status != http.StatusOK && res.Status != http.StatusNoContent {
				t.Fatalf("revoke: %d %s", res.Status, res.Body)
			}
			apptest.ExpectError(t, env.Do("GET", "/api/activities", nil, h), http.StatusUnauthorized, auth.MsgKeyInvalid)
		})
		t.Run("expired key", func(t *testing.T) {
			h, k := newKey(acme.UserID)
			expires := time.Now().Add(time.Second)
			if err := env.App.DB.Client.APIKey.UpdateOneID(k.ID).SetExpiresAt(expires).Exec(viewer.SystemContext(t.Context())); err != nil {
				t.Fatal(err)
			}
			within(t, 0, http.StatusOK, activities(h)) // cached again, with its expiry
			time.Sleep(time.Until(expires))
			apptest.ExpectError(t, env.Do("GET", "/api/activities", nil, h), http.StatusUnauthorized, auth.MsgKeyInvalid)
		})
	})
}
