package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/demo"
	"github.com/reten-io/reten/internal/engine"
)

// consoleQueries are the GraphQL requests of the console's views, as
// console.js sends them (TestConsoleInChromium checks they are the page's).
var consoleQueries = map[string]string{
	"ConsoleLifecycle": `query ConsoleLifecycle($id: ID!, $from: Time) {` +
		` lifecycleDistribution(activityGenerationConfigID: $id) { stage code count }` +
		` lifecycleEvolution(activityGenerationConfigID: $id, from: $from) { days series { stage code counts } } }`,
	"ConsoleTransitions": `query ConsoleTransitions($id: ID!, $from: Time) {` +
		` lifecycleTransitionCounts(activityGenerationConfigID: $id, from: $from) { from { stage code } to { stage code } count } }`,
	"ConsoleRuns": `query ConsoleRuns($id: ID!) { lifecycleRuns(activityGenerationConfigID: $id, first: 20) { edges { node {` +
		` id status trigger asOf dryRun startedAt finishedAt error` +
		` counts { evaluated classified unclassified created updated unchanged stale } } } } }`,
	"ConsoleGeneration": `query ConsoleGeneration($id: ID!, $since: Time) {` +
		` generationDecisionCounts(activityGenerationConfigID: $id, since: $since) { ruleID ruleName kind count }` +
		` generatedActivityCounts(activityGenerationConfigID: $id, since: $since) { status count } }`,
	"ConsoleUplift": `query ConsoleUplift($id: ID!) { upliftReport(activityGenerationConfigID: $id) {` +
		` windowDays pending warnings treated { decisions } control { decisions }` +
		` outcomes { outcome treated { n successes rate } control { n successes rate } uplift ciLow ciHigh pValue warning } } }`,
}

// dropDemo drops the demo's dataset schema and reader role of a
// PostgreSQL tenant.
func dropDemo(t *testing.T, env *apptest.Env, tenantID string) {
	short := strings.ReplaceAll(tenantID, "-", "")[:8]
	if _, err := env.App.DB.SQL.Exec(`DROP SCHEMA IF EXISTS "demo_` + short + `" CASCADE`); err != nil {
		t.Errorf("drop demo schema: %v", err)
	}
	if err := dataset.DropReader(context.Background(), env.App.DB.SQL, uuid.MustParse(tenantID)); err != nil {
		t.Errorf("drop reader role: %v", err)
	}
}

// viewStatements is what each view costs with no credential cache: the
// caller's authentication (its user, membership and project: 1 statement;
// none when the replica checked them in the last auth.CredentialTTL), the
// AGC's check,
// then one aggregation per picture (the evolution reads the tenant's time
// zone first; the decisions the names of their rules after). The uplift
// report reads the AGC with its pillars, its project, rules and result
// types and the dataset with its catalog, to measure ENGAGED in the
// tenant's dataset (17 statements), counts the pending decisions, then
// measures the decisions a page of 1,000 at a time: 4 statements a page
// (decisions, commerces, transitions, results) and one in the dataset,
// which is not the service's. Both demos have less than 1,000 measured
// decisions: one page.
var viewStatements = map[string]int{
	"ConsoleLifecycle":   6,
	"ConsoleTransitions": 3,
	"ConsoleRuns":        2,
	"ConsoleGeneration":  6,
	"ConsoleUplift":      23,
}

// statements counts the SQL statements the service's ent client runs.
type statements struct {
	mu sync.Mutex
	n  int
	on bool
}

func (s *statements) log(args ...any) {
	if strings.Contains(fmt.Sprint(args...), " query=") {
		s.mu.Lock()
		if s.on {
			s.n++
		}
		s.mu.Unlock()
	}
}

func (s *statements) count(fn func()) int {
	s.mu.Lock()
	s.n, s.on = 0, true
	s.mu.Unlock()
	fn()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.on = false
	return s.n
}

// TestConsoleViewsCostFixedStatements: each view of the console costs the
// same number of SQL statements on a demo of 60 commerces and on one of 240
// (with their twelve weeks of history), on SQLite and on PostgreSQL when
// TEST_DATABASE_URL is set: the aggregations are the database's.
func TestConsoleViewsCostFixedStatements(t *testing.T) {
	kinds := []string{"sqlite"}
	if os.Getenv("TEST_DATABASE_URL") != "" {
		kinds = append(kinds, "postgres")
	}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			costs := map[string][]int{}
			for _, size := range []int{60, 240} {
				log := &statements{}
				env := apptest.NewWith(t, kind, func(c *app.Config) {
					c.CredentialTTL = -1 // every request checks its credential
					c.EntOptions = []ent.Option{ent.Debug(), ent.Log(log.log)}
				})
				res, err := env.App.Demo(t.Context(), dataset.DemoInput{Password: demoPassword,
					Options: demo.Options{Commerces: size, Events: size * 80, Transactions: size * 6}})
				if err != nil {
					t.Fatal(err)
				}
				if kind == "postgres" {
					t.Cleanup(func() { dropDemo(t, env, res.TenantID) })
				}
				tenantID, agcID := uuid.MustParse(res.TenantID), uuid.MustParse(res.ActivityGenerationConfigID)
				if _, err := env.App.RunEngine(t.Context(), tenantID, agcID, engine.StartInput{}); err != nil {
					t.Fatal(err)
				}
				login := env.Do("POST", "/api/auth/login", map[string]string{"identifier": dataset.DemoUsername, "password": demoPassword}, nil)
				var session struct{ AccessToken string }
				login.JSON(t, &session)
				h := apptest.JWT(session.AccessToken, tenantID, uuid.MustParse(res.ProjectID))
				for op, q := range consoleQueries {
					// The default periods, all of the history for the decisions.
					vars := map[string]any{"id": agcID.String()}
					if op == "ConsoleGeneration" {
						vars["since"] = "2000-01-01T00:00:00Z"
					}
					var answer *apptest.Response
					n := log.count(func() { answer = env.GraphQL(q, vars, h) })
					var out struct{ Errors []any }
					if err := json.Unmarshal(answer.Body, &out); err != nil || answer.Status != http.StatusOK || len(out.Errors) > 0 {
						t.Fatalf("%s on %d commerces: %d %s", op, size, answer.Status, answer.Body)
					}
					costs[op] = append(costs[op], n)
				}
			}
			for op, c := range costs {
				if c[0] != c[1] || c[0] != viewStatements[op] {
					t.Errorf("%s costs %d statements on 60 commerces and %d on 240, want %d", op, c[0], c[1], viewStatements[op])
				}
			}
			t.Logf("statements per view: %v", costs)
		})
	}
}
