package rest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/activationconfig"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/demo"
	"github.com/reten-io/reten/internal/viewer"
)

// TestLifecycleSQL: the classification statement of an AGC, in the dataset's
// engine by default, runs there and answers one row per commerce of the
// population (the root audience without blocks: every SUBJECTS identity);
// the options, the AGC, the dataset and the sources are checked in order.
func TestLifecycleSQL(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAGCFix(t, env, "Acme")
		f.onDemo = true
		stale := f.create(t, "Before the dataset") // sources checked only once a dataset exists
		// An AGC whose activation reads a table the dataset will not have.
		env.App.DB.Client.ActivationConfig.Update().Where(activationconfig.ActivityGenerationConfigID(uuid.MustParse(stale["id"].(string)))).
			SetSourceTable("orders").ExecX(viewer.SystemContext(context.Background()))
		path := func(id any) string { return fmt.Sprintf("/api/activity-generation-configs/%v/lifecycle-sql", id) }

		apptest.ExpectError(t, env.Do("GET", path(stale["id"]), nil, f.h), 404, "Tenant dataset not configured")
		db, _ := apptest.DemoDataset(t, env, f.tenant.TenantID, demo.Options{Commerces: 7, Products: 2, Events: 5, Transactions: 40})
		id := f.create(t, "Lifecycle")["id"]

		res := env.Do("GET", path(id)+"?as_of=2026-11-01T10:00:00.25Z", nil, f.h)
		if res.Status != 200 {
			t.Fatalf("lifecycle-sql: %d %s", res.Status, res.Body)
		}
		var out struct {
			Dialect string         `json:"dialect"`
			Query   string         `json:"query"`
			Params  map[string]any `json:"params"`
		}
		res.JSON(t, &out)
		engine := "sqlite" // the demo dataset lives in the service's own engine
		if env.App.DB.Dialect == "postgres" {
			engine = "postgres"
		}
		if out.Dialect != engine || len(out.Params) != 1 {
			t.Fatalf("dialect %q params %v", out.Dialect, out.Params)
		}
		rows, err := db.Query(out.Query, out.Params["p0"])
		if err != nil {
			t.Fatalf("%v\n%s", err, out.Query)
		}
		n := 0
		for rows.Next() {
			n++
		}
		if err := rows.Close(); err != nil || n != 7 {
			t.Fatalf("%d rows (want one per demo commerce): %v", n, err)
		}

		res = env.Do("GET", path(id)+"?dialect=bigquery", nil, f.h)
		res.JSON(t, &out)
		if res.Status != 200 || out.Dialect != "bigquery" || !strings.Contains(out.Query, "`transactions`") || out.Params["p0"] == nil {
			t.Fatalf("bigquery: %d %s", res.Status, res.Body)
		}

		future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		apptest.ExpectError(t, env.Do("GET", path(id)+"?dialect=mysql&as_of=yesterday", nil, f.h), 400,
			[]string{"dialect must be one of the following values: bigquery, postgres, sqlite", "as_of must be an RFC 3339 instant"})
		apptest.ExpectError(t, env.Do("GET", path(id)+"?as_of="+future, nil, f.h), 400, []string{"as_of must not be in the future"})
		missing := uuid.New()
		apptest.ExpectError(t, env.Do("GET", path(missing), nil, f.h), 404, fmt.Sprintf("Activity generation config %s not found", missing))
		apptest.ExpectError(t, env.Do("GET", path(stale["id"]), nil, f.h), 422,
			[]string{`activation.source_table "orders" is not a table of the dataset catalog`})
	})
}
