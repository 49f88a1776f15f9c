package auth_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/apikey"
	"github.com/reten-io/reten/ent/membership"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/viewer"
)

// countingDriver records the statements sent through it and, when fail is
// set, answers every statement with that error.
type countingDriver struct {
	dialect.Driver
	mu    sync.Mutex
	stmts []string
	fail  error
}

func (d *countingDriver) note(query string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stmts = append(d.stmts, query)
	return d.fail
}

func (d *countingDriver) Exec(ctx context.Context, query string, args, v any) error {
	if err := d.note(query); err != nil {
		return err
	}
	return d.Driver.Exec(ctx, query, args, v)
}

func (d *countingDriver) Query(ctx context.Context, query string, args, v any) error {
	if err := d.note(query); err != nil {
		return err
	}
	return d.Driver.Query(ctx, query, args, v)
}

// take returns the statements seen since the last take.
func (d *countingDriver) take() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := d.stmts
	d.stmts = nil
	return out
}

// viewerFixture is an auth.Service over the test database whose statements
// are counted, with a fixed clock.
type viewerFixture struct {
	env *apptest.Env
	svc *auth.Service
	drv *countingDriver
	now time.Time
	tn  apptest.Tenant
}

func newViewerFixture(env *apptest.Env) *viewerFixture {
	f := &viewerFixture{env: env, now: time.Now().UTC().Truncate(time.Second)}
	f.drv = &countingDriver{Driver: entsql.OpenDB(env.App.DB.Dialect, env.App.DB.SQL)}
	// Not closed: the pool belongs to env.App.
	f.svc = auth.NewService(ent.NewClient(ent.Driver(f.drv)), []byte(strings.Repeat("s", 32)))
	f.svc.SetClock(func() time.Time { return f.now })
	f.tn = env.Bootstrap("Acme")
	return f
}

// sys is the context of fixture writes (through the app's own client).
func sys() context.Context { return viewer.SystemContext(context.Background()) }

// keyViewer authenticates plain and returns the viewer, the statements it
// sent and the error.
func (f *viewerFixture) keyViewer(plain string) (*viewer.Viewer, []string, error) {
	f.drv.take()
	v, _, err := f.svc.KeyViewer(context.Background(), plain, uuid.Nil)
	return v, f.drv.take(), err
}

func expectAppErr(t *testing.T, err error, kind apperr.Kind, msg string) {
	t.Helper()
	var ae *apperr.Error
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v, want apperr kind %d %q", err, kind, msg)
	}
	if ae.Kind != kind || !slices.Equal(ae.Messages, []string{msg}) {
		t.Fatalf("err = kind %d %q, want kind %d %q", ae.Kind, ae.Messages, kind, msg)
	}
}

func expectStatements(t *testing.T, stmts []string, want int) {
	t.Helper()
	if len(stmts) != want {
		t.Fatalf("%d statements, want %d:\n%s", len(stmts), want, strings.Join(stmts, "\n"))
	}
}

func TestKeyViewerOneStatement(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newViewerFixture(env)
		op := env.CreateUser(f.tn.TenantID, "op", auth.RoleOperator)
		// The operator holds submit and activity:view, not commerce:manage
		// nor api-key:manage: the key keeps the intersection only.
		plain, k := env.CreateKey(f.tn.TenantID, op.ID, f.tn.ProjectID, auth.PermCommerceManage,
			auth.PermActivityView, auth.PermAPIKeyManage, auth.PermActivityResultSubmit, auth.PermActivityView)

		v, stmts, err := f.keyViewer(plain)
		if err != nil {
			t.Fatalf("KeyViewer: %v", err)
		}
		// First use: the read and the lastUsedAt write.
		expectStatements(t, stmts, 2)
		if !strings.Contains(stmts[0], "JOIN") || !strings.HasPrefix(stmts[1], "UPDATE") {
			t.Fatalf("statements = %q, want one joined SELECT then the lastUsedAt UPDATE", stmts)
		}
		want := &viewer.Viewer{UserID: op.ID, TenantID: f.tn.TenantID, APIKeyID: k.ID, KeyProjectID: f.tn.ProjectID,
			Permissions: []string{auth.PermActivityResultSubmit, auth.PermActivityView}}
		if v.UserID != want.UserID || v.TenantID != want.TenantID || v.APIKeyID != want.APIKeyID ||
			v.KeyProjectID != want.KeyProjectID || v.ProjectID != uuid.Nil || v.Roles != nil ||
			!slices.Equal(v.Permissions, want.Permissions) {
			t.Fatalf("viewer = %+v, want %+v", v, want)
		}
		stored, err := env.App.DB.Client.APIKey.Get(sys(), k.ID)
		if err != nil {
			t.Fatal(err)
		}
		if stored.LastUsedAt == nil || !stored.LastUsedAt.Equal(f.now) {
			t.Fatalf("lastUsedAt = %v, want %v", stored.LastUsedAt, f.now)
		}

		// Within the minute: the single SELECT only.
		f.now = f.now.Add(59 * time.Second)
		v2, stmts, err := f.keyViewer(plain)
		if err != nil {
			t.Fatalf("KeyViewer again: %v", err)
		}
		expectStatements(t, stmts, 1)
		if !slices.Equal(v2.Permissions, want.Permissions) || v2.KeyProjectID != f.tn.ProjectID {
			t.Fatalf("viewer again = %+v", v2)
		}

		// A minute after the recorded use: written again.
		f.now = f.now.Add(time.Second)
		if _, stmts, err = f.keyViewer(plain); err != nil {
			t.Fatalf("KeyViewer a minute later: %v", err)
		}
		expectStatements(t, stmts, 2)
	})
}

func TestKeyViewerTenantKeyDropsKeyManage(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newViewerFixture(env)
		// The super_admin holds every permission; api-key:manage never reaches a key viewer.
		plain, k := env.CreateKey(f.tn.TenantID, f.tn.UserID, uuid.Nil,
			auth.PermAPIKeyManage, auth.PermTenantManage, auth.PermCommerceView)
		v, stmts, err := f.keyViewer(plain)
		if err != nil {
			t.Fatalf("KeyViewer: %v", err)
		}
		expectStatements(t, stmts, 2)
		if v.APIKeyID != k.ID || v.UserID != f.tn.UserID || v.TenantID != f.tn.TenantID || v.KeyProjectID != uuid.Nil ||
			!slices.Equal(v.Permissions, []string{auth.PermCommerceView, auth.PermTenantManage}) {
			t.Fatalf("viewer = %+v", v)
		}
	})
}

func TestKeyViewerRejections(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newViewerFixture(env)
		c := env.App.DB.Client
		newKey := func(username string) (string, *ent.APIKey, *ent.User) {
			u := env.CreateUser(f.tn.TenantID, username, auth.RoleOperator)
			plain, k := env.CreateKey(f.tn.TenantID, u.ID, f.tn.ProjectID, auth.PermActivityResultSubmit)
			return plain, k, u
		}
		revoke := func(k *ent.APIKey) error {
			return c.APIKey.UpdateOneID(k.ID).SetRevokedAt(f.now.Add(-time.Hour)).Exec(sys())
		}
		deactivate := func(u *ent.User) error { return c.User.UpdateOneID(u.ID).SetIsActive(false).Exec(sys()) }
		cases := []struct {
			name string
			// spoil breaks a key just created for a new user; nil sends a key
			// that does not exist.
			spoil func(k *ent.APIKey, u *ent.User) error
			msg   string
		}{
			{"unknown", nil, auth.MsgKeyInvalid},
			{"revoked", func(k *ent.APIKey, _ *ent.User) error { return revoke(k) }, auth.MsgKeyInvalid},
			{"deactivated", func(k *ent.APIKey, _ *ent.User) error {
				return c.APIKey.UpdateOneID(k.ID).SetIsActive(false).Exec(sys())
			}, auth.MsgKeyInvalid},
			{"expired", func(k *ent.APIKey, _ *ent.User) error {
				return c.APIKey.UpdateOneID(k.ID).SetExpiresAt(f.now).Exec(sys())
			}, auth.MsgKeyInvalid},
			{"revoked key of an inactive owner", func(k *ent.APIKey, u *ent.User) error {
				return errors.Join(revoke(k), deactivate(u))
			}, auth.MsgKeyInvalid},
			{"inactive owner", func(_ *ent.APIKey, u *ent.User) error { return deactivate(u) }, auth.MsgKeyOwnerInactive},
			{"owner removed from the key's tenant", func(_ *ent.APIKey, u *ent.User) error {
				// Still a member elsewhere: only the key's tenant counts.
				other := env.Bootstrap("Other")
				if err := c.Membership.Create().SetTenantID(other.TenantID).SetUserID(u.ID).
					SetRoles([]string{auth.RoleAdmin}).Exec(sys()); err != nil {
					return err
				}
				_, err := c.Membership.Delete().
					Where(membership.UserID(u.ID), membership.TenantID(f.tn.TenantID)).Exec(sys())
				return err
			}, auth.MsgKeyOwnerInactive},
			{"owner missing", func(k *ent.APIKey, _ *ent.User) error {
				orphanKey(t, env, k.ID)
				return nil
			}, auth.MsgKeyOwnerInactive},
		}
		for i, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				plain := "svc_sk_" + strings.Repeat("x", 40)
				if tc.spoil != nil {
					var k *ent.APIKey
					var u *ent.User
					plain, k, u = newKey(fmt.Sprintf("rejected%d", i))
					if err := tc.spoil(k, u); err != nil {
						t.Fatal(err)
					}
				}
				v, stmts, err := f.keyViewer(plain)
				if v != nil {
					t.Fatalf("viewer = %+v, want none", v)
				}
				expectAppErr(t, err, apperr.KindUnauthorized, tc.msg)
				// One read, and no lastUsedAt write for a rejected key.
				expectStatements(t, stmts, 1)
			})
		}

		t.Run("future expiry", func(t *testing.T) {
			plain, k, _ := newKey("later")
			if err := c.APIKey.UpdateOneID(k.ID).SetExpiresAt(f.now.Add(time.Second)).Exec(sys()); err != nil {
				t.Fatal(err)
			}
			v, _, err := f.keyViewer(plain)
			if err != nil || v.APIKeyID != k.ID {
				t.Fatalf("viewer = %+v, err = %v", v, err)
			}
		})

		t.Run("database error", func(t *testing.T) {
			plain, _, _ := newKey("dberr")
			f.drv.fail = errors.New("connection reset")
			defer func() { f.drv.fail = nil }()
			v, stmts, err := f.keyViewer(plain)
			if v != nil {
				t.Fatalf("viewer = %+v, want none", v)
			}
			expectAppErr(t, err, apperr.KindUnauthorized, auth.MsgKeyValidationFailed)
			expectStatements(t, stmts, 1)
		})
	})
}

// orphanKey points the key at a user that does not exist, bypassing the
// foreign key on one connection (a state the schema otherwise prevents).
func orphanKey(t *testing.T, env *apptest.Env, keyID uuid.UUID) {
	t.Helper()
	ctx := context.Background()
	conn, err := env.App.DB.SQL.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	off, on := "PRAGMA foreign_keys = OFF", "PRAGMA foreign_keys = ON"
	if env.App.DB.Dialect == dialect.Postgres {
		off, on = "SET session_replication_role = replica", "SET session_replication_role = DEFAULT"
	}
	if _, err := conn.ExecContext(ctx, off); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if _, err := conn.ExecContext(ctx, on); err != nil {
			t.Error(err)
		}
	}()
	q, args := entsql.Dialect(env.App.DB.Dialect).Update(apikey.Table).
		Set(apikey.FieldUserID, uuid.New()).Where(entsql.EQ(apikey.FieldID, keyID)).Query()
	if _, err := conn.ExecContext(ctx, q, args...); err != nil {
		t.Fatal(err)
	}
}

func TestUserViewerOneStatement(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newViewerFixture(env)
		c := env.App.DB.Client
		u := env.CreateUser(f.tn.TenantID, "sup", auth.RoleSupervisor, auth.RoleOperator, auth.RoleSupervisor)
		userViewer := func(userID, tenantID uuid.UUID) (*viewer.Viewer, []string, error) {
			f.drv.take()
			v, _, err := f.svc.UserViewer(context.Background(), userID, tenantID, uuid.Nil)
			return v, f.drv.take(), err
		}

		v, stmts, err := userViewer(u.ID, f.tn.TenantID)
		if err != nil {
			t.Fatalf("UserViewer: %v", err)
		}
		expectStatements(t, stmts, 1)
		roles := []string{auth.RoleOperator, auth.RoleSupervisor}
		if v.UserID != u.ID || v.TenantID != f.tn.TenantID || v.APIKeyID != uuid.Nil || v.ProjectID != uuid.Nil ||
			!slices.Equal(v.Roles, roles) || !slices.Equal(v.Permissions, auth.PermissionsOf(roles)) {
			t.Fatalf("viewer = %+v", v)
		}

		other := env.Bootstrap("Other")
		v, stmts, err = userViewer(u.ID, other.TenantID)
		if v != nil {
			t.Fatalf("viewer = %+v, want none", v)
		}
		expectAppErr(t, err, apperr.KindForbidden, auth.MsgNotTenantMember)
		expectStatements(t, stmts, 1)

		_, stmts, err = userViewer(uuid.New(), f.tn.TenantID)
		expectAppErr(t, err, apperr.KindUnauthorized, auth.MsgUnauthorized)
		expectStatements(t, stmts, 1)

		if err := c.User.UpdateOneID(u.ID).SetIsActive(false).Exec(sys()); err != nil {
			t.Fatal(err)
		}
		// Inactive wins over a missing membership.
		for _, tid := range []uuid.UUID{f.tn.TenantID, other.TenantID} {
			_, stmts, err = userViewer(u.ID, tid)
			expectAppErr(t, err, apperr.KindUnauthorized, auth.MsgUnauthorized)
			expectStatements(t, stmts, 1)
		}
	})
}
