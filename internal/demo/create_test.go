package demo

import (
	"slices"
	"testing"
	"time"
)

var tableOrder = []string{TableCommerces, TableEvents, TableProductProperties, TableTransactions}

func TestCreateStoresExactlyTheGeneratedRows(t *testing.T) {
	each(t, func(t *testing.T, fresh func() *target) {
		tg := fresh()
		o := small()
		st := tg.mustCreate(t, o)

		if st.Dialect != tg.dialect || st.Schema != tg.schema || st.Seed != 7 || !st.Now.Equal(fixedNow.Truncate(time.Millisecond)) {
			t.Fatalf("stats header = %+v", st)
		}
		want := map[string]int{TableCommerces: 60, TableEvents: 3000, TableProductProperties: 40, TableTransactions: 400}
		if len(st.Tables) != len(tableOrder) {
			t.Fatalf("stats tables = %+v", st.Tables)
		}
		for i, ts := range st.Tables {
			if ts.Name != tableOrder[i] || ts.Physical != tg.table(ts.Name) || ts.Rows != want[ts.Name] || st.Rows(ts.Name) != ts.Rows {
				t.Errorf("stats table %d = %+v, want %s (%s) with %d rows", i, ts, tableOrder[i], tg.table(tableOrder[i]), want[tableOrder[i]])
			}
			if n := tg.count(t, "SELECT count(*) FROM {"+ts.Name+"}"); n != want[ts.Name] {
				t.Errorf("%s holds %d rows, want %d", ts.Name, n, want[ts.Name])
			}
		}
		got, exp := tg.dump(t), expected(t, o)
		for _, name := range tableOrder {
			if !slices.Equal(got[name], exp[name]) {
				t.Errorf("%s: stored rows differ from the generated ones", name)
			}
		}
	})
}

func TestDatasetIsConsistent(t *testing.T) {
	each(t, func(t *testing.T, fresh func() *target) {
		tg := fresh()
		o := small()
		tg.mustCreate(t, o)
		now := fixedNow.Truncate(time.Millisecond)

		itemsSQL := "{events} e, json_each(e.items) j"
		productOf := "json_extract(j.value, '$.product_id')"
		attrsSQL := "{events} e, json_each(e.attributes) a"
		keyOf := "json_extract(a.value, '$.key')"
		if tg.dialect == DialectPostgres {
			itemsSQL, productOf = "{events} e, jsonb_array_elements(e.items) j", "j->>'product_id'"
			attrsSQL, keyOf = "{events} e, jsonb_array_elements(e.attributes) a", "a->>'key'"
		}
		zero := map[string]string{
			"item of an unknown product":      "SELECT count(*) FROM " + itemsSQL + " WHERE " + productOf + " NOT IN (SELECT product_id FROM {product_properties})",
			"item of a product not launched":  "SELECT count(*) FROM " + itemsSQL + " JOIN {product_properties} p ON p.product_id = " + productOf + " WHERE p.launched_at > e.event_timestamp",
			"event of an unknown commerce":    "SELECT count(*) FROM {events} WHERE commerce_id NOT IN (SELECT commerce_id FROM {commerces})",
			"transaction of unknown commerce": "SELECT count(*) FROM {transactions} WHERE commerce_id NOT IN (SELECT commerce_id FROM {commerces})",
			"event before its commerce":       "SELECT count(*) FROM {events} e JOIN {commerces} c ON c.commerce_id = e.commerce_id WHERE e.event_timestamp < c.created_at",
			"transaction before its commerce": "SELECT count(*) FROM {transactions} x JOIN {commerces} c ON c.commerce_id = x.commerce_id WHERE x.transacted_at < c.created_at",
			"purchase without items":          "SELECT count(*) FROM {events} WHERE event_name = 'purchase' AND (value IS NULL OR quantity IS NULL OR value <= 0)",
			"items without value":             "SELECT count(*) FROM {events} WHERE event_name IN ('view_item', 'add_to_cart', 'purchase', 'order_canceled') AND value IS NULL",
		}
		for what, query := range zero {
			if n := tg.count(t, query); n != 0 {
				t.Errorf("%d rows: %s", n, what)
			}
		}
		positive := map[string]string{
			"items":                      "SELECT count(*) FROM " + itemsSQL,
			"purchases with a payment":   "SELECT count(*) FROM " + attrsSQL + " WHERE e.event_name = 'purchase' AND " + keyOf + " = 'payment_method'",
			"events with a utm_source":   "SELECT count(*) FROM " + attrsSQL + " WHERE " + keyOf + " = 'utm_source'",
			"events with a screen":       "SELECT count(*) FROM " + attrsSQL + " WHERE " + keyOf + " = 'screen'",
			"inactive commerces":         "SELECT count(*) FROM {commerces} WHERE NOT is_active",
			"commerces without ERP id":   "SELECT count(*) FROM {commerces} WHERE external_id IS NULL",
			"backend events":             "SELECT count(*) FROM {events} WHERE session_id IS NULL",
			"multi-product purchases":    "SELECT count(*) FROM (SELECT e.event_id FROM " + itemsSQL + " WHERE e.event_name = 'purchase' GROUP BY e.event_id HAVING count(*) > 1) m",
			"refunded transactions":      "SELECT count(*) FROM {transactions} WHERE status = 'refunded'",
			"private label products":     "SELECT count(*) FROM {product_properties} WHERE is_private_label",
			"commerces new in 90 days":   "SELECT count(*) FROM {commerces} WHERE created_at > ?",
			"dormant for 60 days":        "SELECT count(*) FROM (SELECT commerce_id FROM {events} GROUP BY commerce_id HAVING max(event_timestamp) < ?) d",
			"commerces active last week": "SELECT count(DISTINCT commerce_id) FROM {events} WHERE event_timestamp > ?",
		}
		args := map[string][]any{
			"commerces new in 90 days":   {tg.ts(now.Add(-90 * day))},
			"dormant for 60 days":        {tg.ts(now.Add(-60 * day))},
			"commerces active last week": {tg.ts(now.Add(-7 * day))},
		}
		for what, query := range positive {
			if n := tg.count(t, query, args[what]...); n == 0 {
				t.Errorf("no %s", what)
			}
		}
		if n := tg.count(t, "SELECT count(DISTINCT event_name) FROM {events} WHERE event_name IN ('app_open', 'view_item', 'add_to_cart', 'purchase', 'order_canceled', 'visit_registered')"); n != 6 {
			t.Errorf("%d of the 6 event names occur", n)
		}
		if n := tg.count(t, "SELECT count(DISTINCT event_name) FROM {events}"); n != 6 {
			t.Errorf("%d distinct event names, want 6", n)
		}

		// Every instant of the year's activity lies in [Now-365d, Now].
		for _, c := range []struct{ table, col string }{{TableEvents, "event_timestamp"}, {TableTransactions, "transacted_at"}} {
			q := "SELECT count(*) FROM {" + c.table + "} WHERE " + c.col + " < ? OR " + c.col + " > ?"
			if n := tg.count(t, q, tg.ts(fixedNow.Add(-year)), tg.ts(fixedNow)); n != 0 {
				t.Errorf("%d %s outside [Now-365d, Now]", n, c.col)
			}
			if n := tg.count(t, "SELECT count(*) FROM {"+c.table+"} WHERE "+c.col+" < ?", tg.ts(now.Add(-330*day))); n == 0 {
				t.Errorf("%s does not reach back a year", c.col)
			}
		}
		for _, c := range []struct{ table, col string }{{TableCommerces, "created_at"}, {TableProductProperties, "launched_at"}} {
			if n := tg.count(t, "SELECT count(*) FROM {"+c.table+"} WHERE "+c.col+" > ?", tg.ts(fixedNow)); n != 0 {
				t.Errorf("%d %s in the future", n, c.col)
			}
		}
	})
}

func TestSQLitePhysicalForm(t *testing.T) {
	tg := newSQLite(t)
	tg.mustCreate(t, small())
	const shape = "'[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'"
	storage := map[string]string{"STRING": "text", "TIMESTAMP": "text", "BOOLEAN": "integer", "INT64": "integer",
		"FLOAT64": "real", "NUMERIC": "real", "RECORD": "text"}
	for _, tab := range Catalog().Tables {
		for _, c := range tab.Columns {
			col := `"` + c.Name + `"`
			q := "SELECT count(*) FROM {" + tab.Name + "} WHERE typeof(" + col + ") NOT IN ('null', '" + storage[string(c.Type)] + "')"
			if n := tg.count(t, q); n != 0 {
				t.Errorf("%s.%s: %d values not stored as %s", tab.Name, c.Name, n, storage[string(c.Type)])
			}
			var bad string
			switch c.Type {
			case "TIMESTAMP":
				bad = "length(" + col + ") <> 24 OR " + col + " NOT GLOB " + shape + " OR substr(" + col + ", 1, 19) || 'Z' <> strftime('%Y-%m-%dT%H:%M:%SZ', " + col + ")"
			case "BOOLEAN":
				bad = col + " NOT IN (0, 1)"
			case "RECORD":
				bad = "json_type(" + col + ") <> 'array' OR EXISTS (SELECT 1 FROM json_each(" + col + ") WHERE type <> 'object')"
			default:
				continue
			}
			if n := tg.count(t, "SELECT count(*) FROM {"+tab.Name+"} WHERE "+bad); n != 0 {
				t.Errorf("%s.%s: %d malformed values", tab.Name, c.Name, n)
			}
		}
	}
}

func TestDefaultSize(t *testing.T) {
	each(t, func(t *testing.T, fresh func() *target) {
		tg := fresh()
		before := time.Now()
		st := tg.mustCreate(t, Options{})
		after := time.Now()
		t.Logf("%s: default dataset created in %v", tg.dialect, st.Elapsed)
		if st.Seed != DefaultSeed || st.Now.Before(before.Truncate(time.Millisecond)) || st.Now.After(after) {
			t.Errorf("defaults: seed %d now %v, want %d within [%v, %v]", st.Seed, st.Now, DefaultSeed, before, after)
		}
		want := map[string]int{TableCommerces: DefaultCommerces, TableEvents: DefaultEvents,
			TableProductProperties: DefaultProducts, TableTransactions: DefaultTransactions}
		for name, n := range want {
			if st.Rows(name) != n {
				t.Errorf("stats: %s has %d rows, want %d", name, st.Rows(name), n)
			}
			if got := tg.count(t, "SELECT count(*) FROM {"+name+"}"); got != n {
				t.Errorf("%s holds %d rows, want %d", name, got, n)
			}
		}
	})
}
