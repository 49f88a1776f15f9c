package dataset_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/demo"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/viewer"
)

// as returns the context of a user of tenant holding roles, admitted to a
// tenant-level line that needs no permission (as a guard leaves it for a
// caller its route let through; a line's own check is tenancy.Enter's).
func as(tenant uuid.UUID, roles ...string) context.Context {
	v := &viewer.Viewer{UserID: uuid.New(), TenantID: tenant, Roles: roles, Permissions: auth.PermissionsOf(roles)}
	ctx, err := tenancy.Admit(context.Background(), v, tenancy.Entry{Method: "TEST", Path: "/dataset", Scope: tenancy.TenantLevel})
	if err != nil {
		panic(err) // a line without permission admits any viewer of a tenant
	}
	return ctx
}

// admin is a super_admin context of tenant.
func admin(tenant uuid.UUID) context.Context { return as(tenant, auth.RoleSuperAdmin) }

func svc(env *apptest.Env) *dataset.Service { return env.App.Dataset }

func ptr(s string) *string { return &s }

// bigquery is a valid bigquery configuration.
func bigquery() dataset.ConfigInput {
	return dataset.ConfigInput{Engine: dataset.EngineBigQuery, BigqueryProject: "acme-analytics", BigqueryDataset: "events_prod"}
}

// mustSet stores a configuration that must be valid.
func mustSet(t *testing.T, ctx context.Context, s *dataset.Service, in dataset.ConfigInput) {
	t.Helper()
	if _, _, err := s.Set(ctx, in); err != nil {
		t.Fatalf("set %+v: %v", in, err)
	}
}

// smallDemo sizes the generated demo data for tests.
func smallDemo() demo.Options {
	return demo.Options{Seed: 7, Commerces: 30, Products: 20, Events: 600, Transactions: 80}
}

// oneTable is a minimal valid catalog.
func oneTable() qb.Catalog {
	return qb.Catalog{Tables: []qb.Table{{Name: "t", Purpose: qb.PurposeOther,
		Columns: []qb.Column{{Name: "id", Type: qb.TypeString}}}}}
}
