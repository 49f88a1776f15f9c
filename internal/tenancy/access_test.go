package tenancy_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/viewer"
)

// expectErr fails unless err is the typed error status with message msg.
func expectErr(t *testing.T, err error, status int, msg string) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Status() != status || !slices.Equal(e.Messages, []string{msg}) {
		t.Fatalf("error = %v, want %d %q", err, status, msg)
	}
}

// holding is a viewer of a tenant in project (uuid.Nil: none) holding perms.
func holding(project uuid.UUID, perms ...string) *viewer.Viewer {
	slices.Sort(perms)
	return &viewer.Viewer{UserID: uuid.New(), TenantID: uuid.New(), ProjectID: project, Permissions: perms}
}

// TestFromRefusesAContextNoLineWasAdmittedTo: the rule for services called
// outside the guards. Whatever the viewer holds, no admitted line is a 500
// wrapping ErrNoAccess; Tenant, Project and Actor read the same access.
func TestFromRefusesAContextNoLineWasAdmittedTo(t *testing.T) {
	all := auth.PermissionsOf([]string{auth.RoleSuperAdmin})
	ctx := viewer.NewContext(context.Background(), holding(uuid.New(), all...))
	for name, err := range map[string]error{
		"From":    func() error { _, err := tenancy.From(ctx); return err }(),
		"Tenant":  func() error { _, err := tenancy.Tenant(ctx); return err }(),
		"Project": func() error { _, _, err := tenancy.Project(ctx); return err }(),
	} {
		expectErr(t, err, http.StatusInternalServerError, "Internal server error")
		if !errors.Is(err, tenancy.ErrNoAccess) {
			t.Fatalf("%s: %v, want %v", name, err, tenancy.ErrNoAccess)
		}
	}
	if a := tenancy.Actor(ctx); a != nil {
		t.Fatalf("actor without an access = %v, want none (the system)", *a)
	}
	// Entering a line applies the line's checks to the same viewer.
	admitted, err := tenancy.Enter(ctx, "POST /commerces")
	if err != nil {
		t.Fatal(err)
	}
	if a := tenancy.Actor(admitted); a == nil || *a != viewer.FromContext(ctx).UserID {
		t.Fatalf("actor = %v, want the viewer's user", a)
	}
	_, err = tenancy.Enter(ctx, "POST /nowhere")
	expectErr(t, err, http.StatusInternalServerError, "Internal server error")
}

// TestAdmitChecksTheProjectThenThePermission: one order for every line
// (SPEC.md "Project context"), and the access carries the scope's project.
func TestAdmitChecksTheProjectThenThePermission(t *testing.T) {
	p := uuid.New()
	line := func(key string) tenancy.Entry {
		e, ok := tenancy.Lookup(key)
		if !ok {
			t.Fatalf("no line %s", key)
		}
		return e
	}
	agcs := line("POST /activity-generation-configs") // project-scoped, agc:create
	// Neither project nor permission: the project comes first.
	_, err := tenancy.Admit(context.Background(), holding(uuid.Nil), agcs)
	expectErr(t, err, http.StatusBadRequest, tenancy.MsgProjectHeaderNeeded)
	_, err = tenancy.Admit(context.Background(), holding(p), agcs)
	expectErr(t, err, http.StatusForbidden, "Required permissions: "+auth.PermAGCCreate)
	_, err = tenancy.Admit(context.Background(), nil, agcs)
	expectErr(t, err, http.StatusUnauthorized, auth.MsgUnauthorized)

	for _, c := range []struct {
		key         string
		project     uuid.UUID
		wantProject uuid.UUID
	}{
		{"POST /activity-generation-configs", p, p},               // project-scoped: the active project
		{"GET /commerces", p, uuid.Nil},                           // tenant-level: the whole tenant, whatever the viewer's
		{"GET /integration/activities/tasks", p, p},               // project-optional with a project
		{"GET /integration/activities/tasks", uuid.Nil, uuid.Nil}, // and without
	} {
		e := line(c.key)
		v := holding(c.project, e.Permission)
		ctx, err := tenancy.Admit(context.Background(), v, e)
		if err != nil {
			t.Fatalf("%s: %v", c.key, err)
		}
		acc, err := tenancy.From(ctx)
		if err != nil || acc.Entry != e || acc.Viewer != v || viewer.FromContext(ctx) != v ||
			acc.TenantID != v.TenantID || acc.ProjectID != c.wantProject {
			t.Fatalf("%s in %s: access %+v, %v", c.key, c.project, acc, err)
		}
		tid, pid, err := tenancy.Project(ctx)
		if c.wantProject == uuid.Nil {
			// A service that acts in one project refuses an access without one.
			expectErr(t, err, http.StatusBadRequest, tenancy.MsgProjectHeaderNeeded)
		} else if err != nil || tid != v.TenantID || pid != c.wantProject {
			t.Fatalf("%s: project %s %s %v", c.key, tid, pid, err)
		}
	}
}

// TestTenantWideDropsTheProjectOfATenantLevelAccessOnly: a tenant-level
// operation's own reads cover every project even when the viewer carries
// the request's project (GraphQL keeps it for the edges); other scopes
// keep it.
func TestTenantWideDropsTheProjectOfATenantLevelAccessOnly(t *testing.T) {
	p := uuid.New()
	for key, keeps := range map[string]bool{
		"PUT /commerce-lifecycle-snapshots":        false,
		"GET /activities":                          true,
		"GET /integration/activities/tasks":        true,
		"Query.commerceLifecycleSnapshots":         false,
		"Mutation.submitIntegrationActivityResult": true,
	} {
		e, _ := tenancy.Lookup(key)
		ctx, err := tenancy.Admit(context.Background(), holding(p, e.Permission), e)
		if err != nil {
			t.Fatal(err)
		}
		acc, _ := tenancy.From(ctx)
		got, _ := viewer.ProjectID(acc.TenantWide(ctx))
		if want := map[bool]uuid.UUID{true: p, false: uuid.Nil}[keeps]; got != want {
			t.Fatalf("%s: project %s after TenantWide, want %s", key, got, want)
		}
		if now, _ := viewer.ProjectID(ctx); now != p {
			t.Fatalf("%s: TenantWide changed the caller's context", key)
		}
	}
}
