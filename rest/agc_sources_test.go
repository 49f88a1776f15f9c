package rest_test

import (
	"testing"

	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/demo"
)

// TestAGCSourcesCheckedAgainstTheCatalog: once the tenant has a dataset, an
// AGC's pillar sources must be readable by the lifecycle engine: the table
// in the catalog with an identity column, a TIMESTAMP date column, source
// columns of the table suited to the method. Without a dataset nothing is
// checked, and an edit that sends no source field is not checked.
func TestAGCSourcesCheckedAgainstTheCatalog(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newAGCFix(t, env, "Acme")
		before := f.create(t, "Before the dataset") // orders/order_date: no catalog yet
		apptest.DemoDataset(t, env, f.tenant.TenantID, demo.Options{Commerces: 3, Products: 2, Events: 5, Transactions: 5})

		apptest.ExpectError(t, env.Do("POST", "/api/activity-generation-configs", f.createBody("Orders"), f.h), 400, []string{
			`activation.source_table "orders" is not a table of the dataset catalog`,
			`engagement.source_table "orders" is not a table of the dataset catalog`,
			`resurrection.source_table "orders" is not a table of the dataset catalog`,
		})

		f.onDemo = true // every pillar on transactions/transacted_at/[transaction_id]
		b := f.createBody("Transactions")
		pillars := []map[string]any{b["activation"].(map[string]any), b["engagement"].(map[string]any), b["resurrection"].(map[string]any)}
		pillars[0]["aggregation_method"], pillars[0]["source_columns"] = "sum", []string{"currency", "nope"}
		pillars[1]["date_column"], pillars[1]["counting_method"] = "amount", "distinct"
		pillars[2]["source_table"] = "product_properties"
		apptest.ExpectError(t, env.Do("POST", "/api/activity-generation-configs", b, f.h), 400, []string{
			`activation.source_columns.0 must be a numeric column for the sum method`,
			`activation.source_columns.1 "nope" is not a column of "transactions"`,
			`engagement.date_column "amount" must be a TIMESTAMP column of "transactions"`,
			`engagement.counting_method must be one of the following values: nunique, count, sum, active_weeks`,
			`resurrection.source_table "product_properties" has no identity column`,
			`resurrection.date_column "transacted_at" must be a TIMESTAMP column of "product_properties"`,
			`resurrection.source_columns.0 "transaction_id" is not a column of "product_properties"`,
		})

		pillars[0]["source_columns"] = []string{"amount"}
		pillars[1]["date_column"], pillars[1]["counting_method"] = "transacted_at", "active_weeks"
		pillars[2]["source_table"] = "events"
		pillars[2]["date_column"], pillars[2]["source_columns"] = "event_timestamp", []string{}
		res := env.Do("POST", "/api/activity-generation-configs", b, f.h)
		if res.Status != 201 {
			t.Fatalf("create: %d %s", res.Status, res.Body)
		}
		id := res.Map(t)["id"].(string)

		// A lifecycle edit is checked with the stored fields it does not send.
		apptest.ExpectError(t, env.Do("PUT", "/api/activity-generation-configs/"+id+"/lifecycle",
			map[string]any{"activation": map[string]any{"aggregation_method": "nunique", "source_columns": []string{}}}, f.h), 400,
			[]string{`activation.source_columns should not be empty for the nunique method`})
		apptest.ExpectError(t, env.Do("PUT", "/api/activity-generation-configs/"+id+"/lifecycle",
			map[string]any{"engagement": map[string]any{"source_table": "commerces"}}, f.h), 400,
			[]string{`engagement.date_column "transacted_at" must be a TIMESTAMP column of "commerces"`,
				`engagement.source_columns.0 "transaction_id" is not a column of "commerces"`})
		if res := env.Do("PUT", "/api/activity-generation-configs/"+id+"/lifecycle",
			map[string]any{"engagement": map[string]any{"source_table": "commerces", "date_column": "created_at", "source_columns": []string{}}}, f.h); res.Status != 200 {
			t.Fatalf("valid edit: %d %s", res.Status, res.Body)
		}
		// The AGC created before the dataset keeps working for edits that
		// send no source field.
		if res := env.Do("PUT", "/api/activity-generation-configs/"+before["id"].(string)+"/lifecycle",
			map[string]any{"engagement": map[string]any{"name": "Renamed"}}, f.h); res.Status != 200 {
			t.Fatalf("name-only edit: %d %s", res.Status, res.Body)
		}
	})
}
