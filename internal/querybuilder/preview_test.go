package querybuilder

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestPreview(t *testing.T) {
	f := newFixture()
	cat := testCatalog()
	for _, db := range execDatabases(t, f) {
		t.Run(db.dialect.Name(), func(t *testing.T) {
			opts := Options{Qualifier: db.qualifier}
			ctx := context.Background()

			def := decodeDef(t, blocks(qb{table: "events", items: []string{ci("events", "event_id", "id"), ci("events", "event_timestamp", "at"),
				ci("events", "value", ""), ci("events", "quantity", "")}, where: pr("events", "event_name", "EQUALS", "purchase")}))
			c, err := Compile(def, cat, EventFilter, db.dialect, opts)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Preview(ctx, db.db, c, 5)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(res.Columns, ",") != "id,at,value,quantity" || res.RowCount != 5 || len(res.Rows) != 5 || res.SubjectCount != nil {
				t.Fatalf("preview: %+v", res)
			}
			for _, row := range res.Rows {
				if _, ok := row[0].(string); !ok {
					t.Errorf("id %T", row[0])
				}
				at, ok := row[1].(string)
				if ts, err := time.Parse(time.RFC3339Nano, at); !ok || err != nil || ts.Location() != time.UTC {
					t.Errorf("timestamp %#v is not an RFC 3339 UTC string", row[1])
				}
				if _, err := json.Marshal(row); err != nil {
					t.Errorf("row is not JSON: %v", err)
				}
			}
			if res, _ := Preview(ctx, db.db, c, 0); res.RowCount != DefaultPreviewLimit {
				t.Errorf("default limit: %d rows", res.RowCount)
			}
			all, err := Compile(decodeDef(t, blocks(qb{table: "events", items: evID})), cat, EventFilter, db.dialect, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res, _ := Preview(ctx, db.db, all, 1000); res.RowCount != MaxPreviewLimit {
				t.Errorf("max limit: %d rows", res.RowCount)
			}

			// An audience also counts its distinct subjects.
			aud := decodeDef(t, blocks(qb{table: "commerces", items: []string{ci("commerces", "commerce_id", "subject"), ci("commerces", "is_active", ""),
				ci("commerces", "credit_limit", "")}, where: pr("commerces", "segment", "NOT_EQUALS", "bakery")}))
			c, err = Compile(aud, cat, Audience, db.dialect, opts)
			if err != nil {
				t.Fatal(err)
			}
			res, err = Preview(ctx, db.db, c, 3)
			if err != nil {
				t.Fatal(err)
			}
			want := rowSet(t, db.db, "SELECT COUNT(DISTINCT commerce_id) FROM commerces WHERE segment <> 'bakery'")
			if res.SubjectCount == nil || comparable(*res.SubjectCount) != want[0] || res.RowCount != 3 {
				t.Fatalf("audience preview: %+v, want %v subjects", res, want)
			}
			for _, row := range res.Rows {
				if _, ok := row[1].(bool); !ok {
					t.Errorf("is_active %#v is not a boolean", row[1])
				}
				switch row[2].(type) {
				case json.Number, float64: // exact on postgres, REAL on sqlite
				default:
					t.Errorf("credit_limit %#v is not a number", row[2])
				}
			}
		})
	}
}

func TestPreviewIsReadOnly(t *testing.T) {
	f := newFixture()
	for _, db := range execDatabases(t, f) {
		t.Run(db.dialect.Name(), func(t *testing.T) {
			ctx := context.Background()
			err := readOnly(ctx, db.db, db.dialect.Name(), func(q querier) error {
				rows, err := q.QueryContext(ctx, "INSERT INTO page_views (commerce_id) VALUES ('intruder') RETURNING commerce_id")
				if err == nil {
					err = rows.Err()
					for rows.Next() {
					}
					if err == nil {
						err = rows.Err()
					}
					rows.Close()
				}
				return err
			})
			if err == nil {
				t.Fatal("a write inside the preview transaction succeeded")
			}
			if n := rowSet(t, db.db, "SELECT COUNT(*) FROM page_views WHERE commerce_id = 'intruder'"); n[0] != "0" {
				t.Fatalf("the write went through: %v", n)
			}
			// The pool's connections are writable again afterwards.
			db.db.SetMaxOpenConns(1)
			defer db.db.SetMaxOpenConns(0)
			if _, err := db.db.Exec("UPDATE page_views SET tags = tags WHERE commerce_id = 'nobody'"); err != nil {
				t.Fatalf("connection left read-only: %v", err)
			}
			if db.dialect == Postgres {
				var timeout string
				_ = readOnly(ctx, db.db, "postgres", func(q querier) error {
					return q.QueryRowContext(ctx, "SHOW statement_timeout").Scan(&timeout)
				})
				if timeout != "10s" {
					t.Errorf("statement_timeout = %q", timeout)
				}
			}
			cancelled, cancel := context.WithCancel(ctx)
			cancel()
			if err := readOnly(cancelled, db.db, db.dialect.Name(), func(querier) error { return nil }); err == nil {
				t.Error("a cancelled context must stop the preview")
			}
		})
	}
	c := &Compiled{Dialect: "bigquery", Query: "CTE_VALID_EVENTS AS (SELECT 1)", FinalCteName: FinalCteName}
	if _, err := Preview(context.Background(), nil, c, 1); !errors.Is(err, ErrPreviewUnsupported) {
		t.Errorf("bigquery preview: %v", err)
	}
}

func TestMembershipChange(t *testing.T) {
	f := newFixture()
	cat := testCatalog()
	before := AudienceTree{Definition: decodeDef(t, blocks(qb{table: "commerces", items: []string{ci("commerces", "commerce_id", "")},
		where: pr("commerces", "city", "IN", []string{"Lima", "Quito"})}))}
	after := AudienceTree{Definition: decodeDef(t, blocks(qb{table: "commerces", items: []string{ci("commerces", "commerce_id", "c")},
		where: grp("AND", pr("commerces", "city", "NOT_EQUALS", "Quito"), pr("commerces", "is_active", "EQUALS", true))}))}
	for _, db := range execDatabases(t, f) {
		t.Run(db.dialect.Name(), func(t *testing.T) {
			m, err := MembershipChange(context.Background(), db.db, db.dialect, Options{Qualifier: db.qualifier}, cat, before, after)
			if err != nil {
				t.Fatal(err)
			}
			active := "is_active = 1"
			if db.dialect == Postgres {
				active = "is_active"
			}
			b := "SELECT commerce_id FROM commerces WHERE city IN ('Lima', 'Quito')"
			a := "SELECT commerce_id FROM commerces WHERE city <> 'Quito' AND " + active
			want := rowSet(t, db.db, "SELECT (SELECT COUNT(*) FROM ("+b+") x), (SELECT COUNT(*) FROM ("+a+") y), "+
				"(SELECT COUNT(*) FROM ("+a+") y WHERE commerce_id NOT IN ("+b+")), (SELECT COUNT(*) FROM ("+b+") x WHERE commerce_id NOT IN ("+a+"))")
			got := strings.Join([]string{comparable(m.Before), comparable(m.After), comparable(m.Entering), comparable(m.Leaving)}, " | ")
			if got != want[0] || m.Entering == 0 || m.Leaving == 0 {
				t.Errorf("membership %s, want %s", got, want[0])
			}
		})
	}
	if _, err := MembershipChange(context.Background(), nil, BigQuery, Options{}, cat, before, after); !errors.Is(err, ErrPreviewUnsupported) {
		t.Errorf("bigquery: %v", err)
	}
}
