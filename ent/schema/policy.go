package schema

import (
	"context"

	"entgo.io/ent"
	"entgo.io/ent/entql"

	"github.com/reten-io/reten/ent/privacy"
	"github.com/reten-io/reten/internal/viewer"
)

// tenantPolicy filters every query and mutation of a tenant-owned entity to
// the viewer's tenant. Without a tenant (and outside viewer.SystemContext)
// the data layer denies: a forgotten filter can never leak rows.
func tenantPolicy() ent.Policy {
	rule := privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		tid, ok := viewer.TenantID(ctx)
		if !ok {
			return privacy.Denyf("tenant-owned data needs a tenant in context")
		}
		f.Where(entql.FieldEQ("tenant_id", tid))
		return privacy.Skip
	})
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule},
		Mutation: privacy.MutationPolicy{rule},
	}
}

// projectPolicy narrows project-owned entities to the active project when the
// request has one (project-optional reads without a project stay tenant-wide).
func projectPolicy() ent.Policy {
	rule := privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		if pid, ok := viewer.ProjectID(ctx); ok {
			f.Where(entql.FieldEQ("project_id", pid))
		}
		return privacy.Skip
	})
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule},
		Mutation: privacy.MutationPolicy{rule},
	}
}
