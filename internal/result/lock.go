package result

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	entact "github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activityresult"
	"github.com/reten-io/reten/ent/predicate"
	enttenant "github.com/reten-io/reten/ent/tenant"
	"github.com/reten-io/reten/ent/tenantresulttypeconfig"
	"github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/cutoff"
	"github.com/reten-io/reten/internal/resulttype"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/webhook"
)

// task is the task a submission links to, locked, with what the submission
// reads with the lock, in the same statement (lockTask).
type task struct {
	a     *ent.Activity
	rules rules
	// hasResult: the task had a result at the statement's snapshot (see
	// lockTask).
	hasResult bool
	last      activity.LastEvent
	// hooks: the tenant had an active webhook endpoint at the snapshot.
	hooks bool
}

// rules are what the rules of a submission read: the tenant's day settings
// and its rule for the result code (ruleErr: the code's 422).
type rules struct {
	settings cutoff.Settings
	rule     resulttype.Rule
	ruleErr  error
}

// Columns lockTask selects besides the activity's. None is ever NULL, and
// each is text or an integer, on both engines (an appended column's type
// follows its value there: SQLite's NULL has none).
const (
	colTimeZone  = "reten_time_zone"
	colDayCutoff = "reten_day_cutoff"
	colCode      = "reten_code"      // codeConfigured | codeActive | codeFuture
	colResult    = "reten_result"    // 1 when the task has a result
	colEndpoints = "reten_endpoints" // 1 when the tenant has an active webhook endpoint
)

// Bits of colCode: the tenant's configuration of the result code.
const (
	codeConfigured = 1 << iota
	codeActive
	codeFuture
)

// lockTask finds the task of tenant tid (and project pid, unless nil) that
// match selects, locks its row (FOR UPDATE on PostgreSQL, which leaves the
// rows its subqueries read unlocked; SQLite's write transactions are
// exclusive already) and reads with it, in subqueries (a join costs
// PostgreSQL more to plan than the statement takes to run):
//
//   - the tenant's day settings, its configuration of code and whether it
//     has an active webhook endpoint: read before the lock is granted or
//     after, they mean the same;
//   - whether the task has a result. A submission that waited for the lock of
//     another one storing the first result reads the snapshot taken before
//     the wait and misses it: the insert that then conflicts finds it
//     (storeLinked);
//   - the task's latest event (activity.WithLastEvent).
//
// It returns nil when no task matches.
func lockTask(ctx context.Context, tx *ent.Client, tid uuid.UUID, pid *uuid.UUID, match predicate.Activity, code string) (*task, error) {
	q := tx.Activity.Query().Where(entact.TenantID(tid), entact.TypeEQ(entact.TypeTASK), match)
	if pid != nil {
		q.Where(entact.ProjectID(*pid))
	}
	a, err := q.Modify(func(s *sql.Selector) {
		tenant, id := s.C(entact.FieldTenantID), s.C(entact.FieldID)
		tenantColumn := func(col string) sql.Querier {
			return sql.Raw(fmt.Sprintf("(SELECT t.%s FROM %s t WHERE t.%s = %s)", col, enttenant.Table, enttenant.FieldID, tenant))
		}
		s.AppendSelectExprAs(tenantColumn(enttenant.FieldTimeZone), colTimeZone).
			AppendSelectExprAs(tenantColumn(enttenant.FieldDayCutoff), colDayCutoff).
			AppendSelectExprAs(sql.ExprFunc(func(b *sql.Builder) {
				b.WriteString(fmt.Sprintf("COALESCE((SELECT %d + CASE WHEN c.%s THEN %d ELSE 0 END + CASE WHEN c.%s THEN %d ELSE 0 END FROM %s c WHERE c.%s = %s AND c.%s = ",
					codeConfigured, tenantresulttypeconfig.FieldIsActive, codeActive, tenantresulttypeconfig.FieldRequiresFutureScheduledAt, codeFuture,
					tenantresulttypeconfig.Table, tenantresulttypeconfig.FieldTenantID, tenant, tenantresulttypeconfig.FieldResultTypeCode)).
					Arg(code).WriteString("), 0)")
			}), colCode).
			AppendSelectExprAs(sql.Raw(fmt.Sprintf("CASE WHEN EXISTS (SELECT 1 FROM %s r WHERE r.%s = %s) THEN 1 ELSE 0 END",
				activityresult.Table, activityresult.FieldActivityID, id)), colResult).
			AppendSelectExprAs(sql.Raw("CASE WHEN "+webhook.ActiveEndpointExists(tenant)+" THEN 1 ELSE 0 END"), colEndpoints)
		activity.WithLastEvent(s)
		txn.ForUpdate(s)
	}).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, wrap("linked activity", err)
	}
	return readTask(a, code)
}

// readTask decodes what lockTask selected besides a's columns.
func readTask(a *ent.Activity, code string) (*task, error) {
	var (
		zone, dayCutoff         string
		bits, result, endpoints int64
	)
	for name, dst := range map[string]any{colTimeZone: &zone, colDayCutoff: &dayCutoff, colCode: &bits,
		colResult: &result, colEndpoints: &endpoints} {
		v, err := a.Value(name)
		if err != nil {
			return nil, fmt.Errorf("result: task %s: %w", a.ID, err)
		}
		if !decode(v, dst) {
			return nil, fmt.Errorf("result: task %s: column %s holds %T", a.ID, name, v)
		}
	}
	t := &task{a: a, hasResult: result == 1, hooks: endpoints == 1, last: activity.LastEventOf(a)}
	var err error
	if t.rules.settings, err = cutoff.Parse(zone, dayCutoff); err != nil {
		return nil, err
	}
	var cfg *resulttype.Configured
	if bits&codeConfigured != 0 {
		cfg = &resulttype.Configured{IsActive: bits&codeActive != 0, RequiresFutureScheduledAt: bits&codeFuture != 0}
	}
	t.rules.rule, t.rules.ruleErr = resulttype.RuleOf(code, cfg)
	return t, nil
}

// decode stores the driver value v in dst, a *string or an *int64.
func decode(v any, dst any) bool {
	switch dst := dst.(type) {
	case *string:
		s, ok := v.(string)
		*dst = s
		return ok
	case *int64:
		n, ok := v.(int64)
		*dst = n
		return ok
	}
	return false
}
