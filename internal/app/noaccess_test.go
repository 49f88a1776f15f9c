package app_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/viewer"
)

// services are the fields of app.App holding the domain services the two
// guards call.
var services = []string{"Projects", "Tenants", "Users", "Nodes", "Audiences", "APIKeys", "Commerces", "FieldOrg",
	"Trash", "Dispatch", "Catalog", "AGCs", "Snapshots", "Dataset", "EventFilters", "Activities", "ResultTypes",
	"TenantSettings", "Results", "Runs", "Generator"}

// unguarded are the exported service methods that do not read an access,
// with the reason: each is either no operation of a route or trusted by
// its callers by design.
var unguarded = map[string]string{
	"Snapshots.Writers": "wiring: how many chunks an engine run writes at once",
	"Runs.Wake":         "nudges this replica's worker",
	"Runs.Claim":        "the run worker, a background job over every tenant (it enters the run's line to execute)",
	"Runs.Execute":      "the run worker: it enters the run's line itself",
	"Runs.Work":         "the run worker's pass",
	"Runs.Run":          "the run worker's loop",
	"Runs.Schedule":     "queues the tenants' daily runs, a background job over every tenant",
	"Dataset.Catalog":   "the event filter and audience services' catalog, under their own access",
	"Dataset.Open":      "the event filter and audience services' dataset handle, under their own access",
	"Dataset.Host":      "hosts a dataset for a tenant its trusted caller names (`reten demo`)",
	"Dataset.Demo":      "`reten demo` itself: it enters the catalog's line for the catalog",
	"Dataset.Close":     "wiring: closes the pooled dataset handles at shutdown",
	"Dispatch.For": "the dispatcher of a project's channel, for the activity service under its access and " +
		"for the retry sweep (a background job: a viewer of the task's tenant, no user)",
	"Dispatch.Credentials":      "decrypts a provider row its caller has already read",
	"Dispatch.SetWebhookClient": "wiring (tests)",
	"Dispatch.SetRateGate":      "wiring",
	"Activities.SetClock":       "wiring (tests)",
	"Activities.Now":            "the service's clock",
	"Activities.DispatchDue":    "the retry sweep, a background job over every tenant",
	"Activities.RunRetrySweep":  "the retry sweep's loop",
	"Results.SetClock":          "wiring (tests)",
	"Results.Now":               "the service's clock",
	"ResultTypes.Active":        "the result service's check of a code, for a tenant its caller names",
	"Trash.PurgeExpired":        "the purge job over every tenant (system context)",
	"Generator.ProcessOutbox":   "the generation job over every tenant (system context)",
	"Generator.Drain":           "the generation job, run to the end by `reten engine run`",
	"Generator.Pass":            "the generation worker's pass",
	"Generator.Run":             "the generation worker's loop",
	"Generator.Wake":            "nudges this replica's generation worker",
	"Generator.RetryResolution": "the resolution retry job over every tenant (system context)",
	"Generator.ExpireDue":       "the expiry job over every tenant (system context)",
	"Generator.EvaluateDwell":   "the DWELL job over every tenant (system context)",
	"Trash.RunPurger":           "the purge job's loop",
	// GraphQL fields of an entity that its root field loaded under its own
	// access (the field guard checked the entity's read permission).
	"Audiences.Blocks":            "GraphQL Audience.queryBlocks",
	"Audiences.Compositions":      "GraphQL Audience.compositions",
	"Audiences.ConditionCount":    "GraphQL Audience.conditionCount",
	"Audiences.OperandName":       "GraphQL AudienceComposition.operandCriteriaName",
	"EventFilters.Blocks":         "GraphQL EventFilter.queryBlocks",
	"EventFilters.ConditionCount": "GraphQL EventFilter.conditionCount",
	"AGCs.EffectiveAudience":      "GraphQL ActivityGenerationConfig.effectiveAudienceID",
	"Dataset.Tables":              "GraphQL TenantDataset.tables",
	"Dataset.Columns":             "GraphQL CatalogTable.columns",
	"Dataset.SemiJoins":           "GraphQL CatalogTable.semiJoins",
	"Dataset.SubFields":           "GraphQL CatalogColumn.subFields",
}

// TestServicesRefuseWithoutAccess: the rule for a context that no matrix
// line was admitted to (tenancy.From). Every exported method of every
// domain service, called with a super_admin viewer but no admitted line
// (and zero arguments), answers tenancy.ErrNoAccess before doing anything,
// unless it is listed in unguarded with its reason; a new method must
// take one side or the other.
func TestServicesRefuseWithoutAccess(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		super := []string{auth.RoleSuperAdmin}
		ctx := viewer.NewContext(context.Background(), &viewer.Viewer{UserID: acme.UserID, TenantID: acme.TenantID,
			ProjectID: acme.ProjectID, Roles: super, Permissions: auth.PermissionsOf(super)})
		ctxType, errType := reflect.TypeFor[context.Context](), reflect.TypeFor[error]()
		app := reflect.ValueOf(env.App).Elem()
		seen := map[string]bool{}
		for _, name := range services {
			svc := app.FieldByName(name)
			for i := range svc.NumMethod() {
				m, key := svc.Type().Method(i), name+"."+svc.Type().Method(i).Name
				seen[key] = true
				if _, ok := unguarded[key]; ok {
					continue
				}
				mt := m.Func.Type()
				if mt.NumIn() < 2 || mt.In(1) != ctxType || mt.NumOut() == 0 || mt.Out(mt.NumOut()-1) != errType {
					t.Errorf("%s takes no context or returns no error: list it in unguarded with the reason", key)
					continue
				}
				args := []reflect.Value{reflect.ValueOf(ctx)}
				for j := 2; j < mt.NumIn(); j++ {
					args = append(args, reflect.Zero(mt.In(j)))
				}
				if err := call(svc.Method(i), args, mt.IsVariadic()); !errors.Is(err, tenancy.ErrNoAccess) {
					t.Errorf("%s without an admitted line: %v, want %v", key, err, tenancy.ErrNoAccess)
				}
			}
		}
		for key := range unguarded {
			if !seen[key] {
				t.Errorf("unguarded lists %s, which is no service method", key)
			}
		}
	})
}

// call calls m with args and returns its last result (an error), or the
// panic it raised as an error.
func call(m reflect.Value, args []reflect.Value, variadic bool) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	var out []reflect.Value
	if variadic {
		out = m.CallSlice(args)
	} else {
		out = m.Call(args)
	}
	last := out[len(out)-1]
	if last.IsNil() {
		return nil
	}
	return last.Interface().(error)
}
