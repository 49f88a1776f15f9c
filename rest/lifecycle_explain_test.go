package rest_test

import (
	"database/sql"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/activationconfig"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/demo"
	"github.com/reten-io/reten/internal/lifecycle"
)

// explainT is the instant of the explain fixtures: a Monday at midnight UTC.
var explainT = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)

func before(d time.Duration) time.Time { return explainT.Add(-d) }

func ndays(n int) time.Duration { return time.Duration(n) * lifecycle.Day }

// explainRows are the transactions of the explain fixtures, hand-placed on
// the day boundaries of the AGC of newAGCFix (onDemo): activation nunique
// with moments new (priority 1, min 1, window 30, time window 90) and
// activated (priority 2, min 2, window 60); engagement nunique over 90 days,
// min lifetime 3, levels low (0-5) and high (6+); thresholds at_risk (30
// days) and dormant (60 days).
func explainRows() []apptest.Transaction {
	row := func(id, commerce string, at time.Time) apptest.Transaction {
		return apptest.Transaction{ID: id, Commerce: commerce, At: at}
	}
	return []apptest.Transaction{
		// Resurrection: the last row exactly 30 days before T.
		row("r1", "COM-00001", before(ndays(45))), row("r2", "COM-00001", before(ndays(30))),
		// Activation: first row exactly at the 90-day time window, the last
		// one second inside the 30-day window (29 whole days).
		row("a1", "COM-00002", before(ndays(90))), row("a2", "COM-00002", before(ndays(30)-time.Second)),
		// Engagement: lifetime 4, two rows in [T-90d, T); rows at and after T do not count.
		row("e1", "COM-00003", before(ndays(200))), row("e2", "COM-00003", before(ndays(90)+time.Second)),
		row("e3", "COM-00003", before(ndays(90))), row("e4", "COM-00003", before(time.Second)),
		row("e5", "COM-00003", explainT), row("e6", "COM-00003", explainT.Add(time.Hour)),
		// Unclassified: first row one second before the time window, one row in the 60-day window.
		row("u1", "COM-00004", before(ndays(90)+time.Second)), row("u2", "COM-00004", before(time.Second)),
	}
}

// explained is the expected explanation of a commerce.
func explained(id uuid.UUID, ext any, inAudience bool, rule string, stage, code any, lifetime float64, days any,
	engagement, moNew, moActivated float64, reasons ...string) map[string]any {
	return map[string]any{"commerceId": id, "externalId": ext, "asOf": "2026-03-02T00:00:00Z", "inAudience": inAudience,
		"rule": rule, "stage": stage, "code": code, "reasons": reasons,
		"metrics": map[string]any{"lifetime": lifetime, "daysSinceLast": days, "engagement": engagement, "activation": []any{
			map[string]any{"statusCode": "new", "windowDays": 30, "value": moNew},
			map[string]any{"statusCode": "activated", "windowDays": 60, "value": moActivated},
		}}}
}

// TestLifecycleExplain: one commerce per rule outcome at the day
// boundaries, by UUID or external id, with the exact reasons and metrics;
// each state and metric is the one the classification statement gives on
// the same dataset. Then the checks in order.
func TestLifecycleExplain(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAGCFix(t, env, "Acme")
		f.onDemo = true
		stale := f.create(t, "Before the dataset")
		env.App.DB.Client.ActivationConfig.Update().Where(activationconfig.ActivityGenerationConfigID(uuid.MustParse(stale["id"].(string)))).
			SetSourceTable("orders").ExecX(sys)
		path := func(id any, query string) string {
			return fmt.Sprintf("/api/activity-generation-configs/%v/lifecycle-explain?%s", id, query)
		}
		at := "as_of=" + url.QueryEscape(explainT.Format(time.RFC3339))
		commerce := func(ext *string) uuid.UUID {
			c := env.App.DB.Client.Commerce.Create().SetTenantID(f.tenant.TenantID).SetName("Commerce").SetNillableExternalID(ext)
			return c.SaveX(sys).ID
		}
		ghost := commerce(nil)
		apptest.ExpectError(t, env.Do("GET", path(stale["id"], "commerce="+ghost.String()), nil, f.h), 404, "Tenant dataset not configured")

		db, prefix := apptest.DemoDataset(t, env, f.tenant.TenantID, demo.Options{Commerces: 5, Products: 2, Events: 5, Transactions: 5})
		apptest.ReplaceTransactions(t, db, prefix, explainRows()...)
		id := f.create(t, "Lifecycle")["id"]
		ids := map[string]uuid.UUID{}
		for _, ext := range []string{"COM-00001", "COM-00002", "COM-00003", "COM-00004", "NOT-IN-DATASET"} {
			ids[ext] = commerce(&ext)
		}
		notLastRow := "Resurrection does not apply: 0 days since the last row is below every active threshold."
		noMoment := "Activation applies: lifetime %d < 3; no active moment's conditions hold, so the commerce is unclassified."
		wants := map[string]map[string]any{
			"COM-00001": explained(ids["COM-00001"], "COM-00001", true, "RESURRECTION", "RESURRECTION", "at_risk", 2, 30, 2, 1, 2,
				"Resurrection applies: 30 days since the last row; threshold at_risk starts at 30 days.",
				"Activation does not apply: resurrection applied first.", "Engagement does not apply: resurrection applied first."),
			"COM-00002": explained(ids["COM-00002"], "COM-00002", true, "ACTIVATION", "ACTIVATION", "new", 2, 29, 2, 1, 1,
				"Resurrection does not apply: 29 days since the last row is below every active threshold.",
				"Activation applies: lifetime 2 < 3; moment new is the first active moment whose conditions hold.",
				"Engagement does not apply: activation applied first."),
			"COM-00003": explained(ids["COM-00003"], "COM-00003", true, "ENGAGEMENT", "ENGAGEMENT", "low", 4, 0, 2, 1, 1,
				notLastRow, "Activation does not apply: lifetime 4 >= 3.", "Engagement applies: engagement 2 over 90 days is within level low."),
			"COM-00004": explained(ids["COM-00004"], "COM-00004", true, "UNCLASSIFIED", nil, nil, 2, 0, 1, 1, 1,
				notLastRow, fmt.Sprintf(noMoment, 2), "Engagement does not apply: activation applied first."),
		}
		for ext, want := range wants {
			// By external id, and by UUID: the same answer.
			for _, ident := range []string{ext, ids[ext].String()} {
				res := env.Do("GET", path(id, "commerce="+ident+"&"+at), nil, f.h)
				if res.Status != 200 {
					t.Fatalf("%s: %d %s", ident, res.Status, res.Body)
				}
				expectJSON(t, ident, res.Map(t), want)
			}
		}
		// Outside the audience (no SUBJECTS row), or without an external id:
		// no row, explained all the same.
		noRow := []string{"Resurrection does not apply: no row in its source before the instant.", fmt.Sprintf(noMoment, 0),
			"Engagement does not apply: activation applied first."}
		for ident, want := range map[string]map[string]any{
			"NOT-IN-DATASET": explained(ids["NOT-IN-DATASET"], "NOT-IN-DATASET", false, "UNCLASSIFIED", nil, nil, 0, nil, 0, 0, 0, noRow...),
			ghost.String():   explained(ghost, nil, false, "UNCLASSIFIED", nil, nil, 0, nil, 0, 0, 0, noRow...),
		} {
			res := env.Do("GET", path(id, "commerce="+ident+"&"+at), nil, f.h)
			expectJSON(t, ident, res.Map(t), want)
		}
		expectStatement(t, env, f, db, id, wants)

		// Without as_of: now, where every fixture row is long past.
		res := env.Do("GET", path(id, "commerce=COM-00002"), nil, f.h)
		if got := res.Map(t); res.Status != 200 || got["code"] != "dormant" || got["asOf"] == nil {
			t.Fatalf("now: %d %s", res.Status, res.Body)
		}

		future := url.QueryEscape(time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
		apptest.ExpectError(t, env.Do("GET", path(id, "as_of=yesterday"), nil, f.h), 400,
			[]string{"commerce should not be empty", "as_of must be an RFC 3339 instant"})
		apptest.ExpectError(t, env.Do("GET", path(id, "commerce=COM-00001&as_of="+future), nil, f.h), 400, []string{"as_of must not be in the future"})
		missing := uuid.New()
		apptest.ExpectError(t, env.Do("GET", path(missing, "commerce=COM-00001"), nil, f.h), 404, fmt.Sprintf("Activity generation config %s not found", missing))
		apptest.ExpectError(t, env.Do("GET", path(id, "commerce=COM-00005"), nil, f.h), 404, "Commerce not found")
		apptest.ExpectError(t, env.Do("GET", path(id, "commerce="+missing.String()), nil, f.h), 404, "Commerce not found")
		apptest.ExpectError(t, env.Do("GET", path(stale["id"], "commerce=COM-00001"), nil, f.h), 422,
			[]string{`activation.source_table "orders" is not a table of the dataset catalog`})

		// Another tenant's commerce is not found; a BigQuery dataset cannot run the evaluation.
		other := newAGCFix(t, env, "Beta")
		other.onDemo = true
		otherID := env.App.DB.Client.Commerce.Create().SetTenantID(other.tenant.TenantID).SetName("Other").SetExternalID("COM-00001").SaveX(sys).ID
		apptest.ExpectError(t, env.Do("GET", path(id, "commerce="+otherID.String()), nil, f.h), 404, "Commerce not found")
		if res := env.Do("PUT", "/api/tenant-dataset", map[string]any{"engine": "bigquery", "bigquery_project": "beta-project",
			"bigquery_dataset": "analytics"}, other.h); res.Status != 201 {
			t.Fatalf("bigquery dataset: %d %s", res.Status, res.Body)
		}
		if res := env.Do("PUT", "/api/tenant-dataset/catalog", catalogBody(demo.Catalog()), other.h); res.Status != 200 {
			t.Fatalf("catalog: %d %s", res.Status, res.Body)
		}
		apptest.ExpectError(t, env.Do("GET", path(other.create(t, "On BigQuery")["id"], "commerce=COM-00001"), nil, other.h), 422,
			"Explain is not available for BigQuery datasets: the service only compiles their SQL (GET /api/activity-generation-configs/:id/lifecycle-sql)")
	})
}

// expectStatement runs the AGC's classification statement at explainT on
// the dataset and checks that it gives each commerce of wants the state and
// the metrics its explanation gives.
func expectStatement(t *testing.T, env *apptest.Env, f *agcFix, db *sql.DB, id any, wants map[string]map[string]any) {
	t.Helper()
	var stmt struct {
		Query  string         `json:"query"`
		Params map[string]any `json:"params"`
	}
	env.Do("GET", fmt.Sprintf("/api/activity-generation-configs/%v/lifecycle-sql?as_of=%s", id, explainT.Format(time.RFC3339)), nil, f.h).JSON(t, &stmt)
	rows, err := db.Query(stmt.Query, stmt.Params["p0"])
	if err != nil {
		t.Fatalf("%v\n%s", err, stmt.Query)
	}
	defer rows.Close()
	seen := 0
	for rows.Next() {
		var identity string
		var stage, code sql.NullString
		var days sql.NullInt64
		var lifetime, engagement, moNew, moActivated float64
		if err := rows.Scan(&identity, &stage, &code, &lifetime, &days, &engagement, &moNew, &moActivated); err != nil {
			t.Fatal(err)
		}
		want, ok := wants[identity]
		if !ok {
			continue
		}
		seen++
		m := want["metrics"].(map[string]any)
		act := m["activation"].([]any)
		got := map[string]any{"stage": nullable(stage.String, stage.Valid), "code": nullable(code.String, code.Valid),
			"lifetime": lifetime, "daysSinceLast": nullable(days.Int64, days.Valid), "engagement": engagement, "moments": []float64{moNew, moActivated}}
		expectJSON(t, "statement row "+identity, got, map[string]any{"stage": want["stage"], "code": want["code"],
			"lifetime": m["lifetime"], "daysSinceLast": m["daysSinceLast"], "engagement": m["engagement"],
			"moments": []any{act[0].(map[string]any)["value"], act[1].(map[string]any)["value"]}})
	}
	if err := rows.Err(); err != nil || seen != len(wants) {
		t.Fatalf("%d of %d commerces in the statement: %v", seen, len(wants), err)
	}
}

func nullable[V any](v V, valid bool) any {
	if !valid {
		return nil
	}
	return v
}
