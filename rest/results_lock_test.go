package rest_test

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/app"
	"github.com/reten-io/reten/internal/apptest"
	"github.com/reten-io/reten/internal/webhook"
)

// txLog keeps the statements the service sends inside transactions.
type txLog struct {
	mu    sync.Mutex
	kinds []string
}

func (l *txLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.kinds
	l.kinds = nil
	return out
}

// eachTxLogged is apptest.Each with the transactions' statements logged.
func eachTxLogged(t *testing.T, fn func(t *testing.T, env *apptest.Env, log *txLog)) {
	log := &txLog{}
	apptest.EachWith(t, func(c *app.Config) {
		c.EntOptions = []ent.Option{ent.Debug(), ent.Log(func(args ...any) {
			line := fmt.Sprint(args...)
			if _, query, ok := strings.Cut(line, " query="); ok && strings.HasPrefix(line, "Tx(") {
				query, _, _ = strings.Cut(query, " args=")
				log.mu.Lock()
				log.kinds = append(log.kinds, stmtKind(query))
				log.mu.Unlock()
			}
		})}
	}, func(t *testing.T, env *apptest.Env) {
		log.take()
		fn(t, env, log)
	})
}

// TestResultSubmitStatements: a first result reads everything it checks
// with the task's lock, in one statement (PostgreSQL; SQLite reads the
// latest event apart), and records webhook events only when the tenant has
// an active endpoint; a resubmission reads the result it updates.
func TestResultSubmitStatements(t *testing.T) {
	eachTxLogged(t, func(t *testing.T, env *apptest.Env, log *txLog) {
		f := newResFixture(t, env, "Acme")
		pg := env.App.DB.Dialect == "postgres"
		lock, lastEvent := "SELECT activities FOR UPDATE", []string{}
		if !pg {
			lock, lastEvent = "SELECT activities", []string{"SELECT activity_status_events"}
		}
		expect := func(want ...[]string) {
			t.Helper()
			if got, w := log.take(), slices.Concat(want...); !slices.Equal(got, w) {
				t.Fatalf("statements\n got %q\nwant %q", got, w)
			}
		}

		id := f.task(resScheduledAt)
		log.take()
		actOK(t, env.Do("POST", resultsPath, linked(id, "COMPLETED", "success"), f.h), 201)
		expect([]string{lock, "INSERT activity_results"}, lastEvent, []string{"UPDATE activities", "INSERT activity_status_events"})

		// PENDING moves nothing: no event, so no latest event either.
		id = f.task(resScheduledAt)
		log.take()
		actOK(t, env.Do("POST", resultsPath, linked(id, "PENDING", "success"), f.h), 201)
		expect([]string{lock, "INSERT activity_results"})
		// The resubmission reads the result it updates (and ent reads it back).
		body := linked(id, "COMPLETED", "success")
		body["occurred_at"] = "2030-05-01T12:30:00Z"
		actOK(t, env.Do("POST", resultsPath, body, f.h), 201)
		expect([]string{lock, "SELECT activity_results", "UPDATE activity_results", "SELECT activity_results"}, lastEvent,
			[]string{"UPDATE activities", "INSERT activity_status_events"})

		// With an active endpoint, the events are recorded.
		actOK(t, env.Do("POST", "/api/webhook-endpoints", map[string]any{"url": "https://hooks.example.com/reten",
			"event_types": webhook.EventTypes}, f.th), 201)
		id = f.task(resScheduledAt)
		log.take()
		actOK(t, env.Do("POST", resultsPath, linked(id, "COMPLETED", "success"), f.h), 201)
		record := []string{"WITH webhook_deliveries"}
		if !pg {
			record = []string{"SELECT webhook_endpoints", "INSERT webhook_events", "INSERT webhook_deliveries"}
		}
		expect([]string{lock, "INSERT activity_results"}, lastEvent, []string{"UPDATE activities", "INSERT activity_status_events"}, record)
		var events int
		if err := env.App.DB.SQL.QueryRow(`SELECT count(*) FROM webhook_events WHERE payload LIKE '%' || $1 || '%'`, id).Scan(&events); err != nil || events != 3 {
			t.Fatalf("webhook events of %s: %d (%v), want its creation's, its result's and its status change's", id, events, err)
		}
	})
}

// holdTask starts a transaction of the test that locks the task id as a
// concurrent request would (SQLite: the database's write lock) and runs
// stmts in it; the caller commits.
func holdTask(t *testing.T, env *apptest.Env, id string, stmts ...string) *sql.Tx {
	t.Helper()
	tx, err := env.App.DB.SQL.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	lock := `UPDATE activities SET title = title WHERE id = $1`
	if env.App.DB.Dialect == "postgres" {
		lock = `SELECT id FROM activities WHERE id = $1 FOR UPDATE`
	}
	for _, q := range append([]string{lock}, stmts...) {
		if _, err := tx.Exec(q, id); err != nil {
			_ = tx.Rollback()
			t.Fatalf("%s: %v", q, err)
		}
	}
	return tx
}

// submitWhileHeld posts body while tx holds the task, waits until the
// request waits for tx's lock (PostgreSQL; SQLite's request waits on the
// database's write lock, unseen), commits tx and returns the answer.
func submitWhileHeld(t *testing.T, env *apptest.Env, tx *sql.Tx, body map[string]any, h apptest.Headers) *apptest.Response {
	t.Helper()
	done := make(chan *apptest.Response, 1)
	go func() { done <- env.Do("POST", resultsPath, body, h) }()
	if env.App.DB.Dialect == "postgres" {
		var holder int
		if err := tx.QueryRow(`SELECT pg_backend_pid()`).Scan(&holder); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			var waiting int
			if err := env.App.DB.SQL.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, holder).
				Scan(&waiting); err != nil {
				t.Fatal(err)
			}
			if waiting > 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the submission never waited for the task's lock")
			}
			time.Sleep(5 * time.Millisecond)
		}
	} else {
		time.Sleep(100 * time.Millisecond)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return <-done
}

// TestResultSubmitAfterConcurrentTransition: a submission that waited for
// the lock of a transaction that moved the task and wrote an event (here
// from a replica whose clock is an hour ahead) orders its event after it,
// although its read of the task's events predates the wait.
func TestResultSubmitAfterConcurrentTransition(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		id := f.task(resScheduledAt)
		ahead := time.Now().Add(time.Hour).UTC().Truncate(time.Microsecond)
		tx := holdTask(t, env, id, `UPDATE activities SET status = 'DISPATCHED' WHERE id = $1`,
			fmt.Sprintf(`INSERT INTO activity_status_events (id, created_at, updated_at, event_type, from_status, to_status, occurred_at,
				tenant_id, project_id, activity_id) SELECT '%s', created_at, created_at, 'DISPATCH_SUCCESS', 'READY', 'DISPATCHED', '%s',
				tenant_id, project_id, id FROM activities WHERE id = $1`, "6f0a8c9e-0000-4000-8000-000000000001", sqlTime(env, ahead)))
		actOK(t, submitWhileHeld(t, env, tx, linked(id, "COMPLETED", "success"), f.h), 201)
		var from string
		var at time.Time
		if err := env.App.DB.SQL.QueryRow(`SELECT from_status, occurred_at FROM activity_status_events WHERE activity_id = $1 AND event_type = 'COMPLETED'`, id).
			Scan(&from, &at); err != nil {
			t.Fatal(err)
		}
		if want := ahead.Add(time.Microsecond); from != "DISPATCHED" || !at.Equal(want) {
			t.Fatalf("COMPLETED event from %s at %s; want from DISPATCHED at %s", from, at, want)
		}
	})
}

// TestResultSubmitAfterConcurrentFirstResult: a submission that waited for
// the lock of one storing the task's first result (PENDING: the task's row
// is not changed) updates that result, as a resubmission.
func TestResultSubmitAfterConcurrentFirstResult(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		f := newResFixture(t, env, "Acme")
		id := f.task(resScheduledAt)
		first := actOK(t, env.Do("POST", resultsPath, linked(f.task(resScheduledAt), "PENDING", "success"), f.h), 201)
		// The first result, as another submission stores it: a copy of a PENDING result moved to this task.
		tx := holdTask(t, env, id, `INSERT INTO activity_results (id, created_at, updated_at, project_id, source, result_status, occurred_at,
			result_code, hard_override, submitted_by, activity_id, tenant_id, commerce_id)
			SELECT '6f0a8c9e-0000-4000-8000-000000000002', created_at, created_at, project_id, source, result_status, occurred_at,
			result_code, hard_override, submitted_by, $1, tenant_id, commerce_id FROM activity_results WHERE id = '`+first["id"].(string)+`'`)
		body := linked(id, "COMPLETED", "success")
		body["occurred_at"] = "2031-01-01T00:00:00Z"
		got := actOK(t, submitWhileHeld(t, env, tx, body, f.h), 201)
		if got["id"] != "6f0a8c9e-0000-4000-8000-000000000002" || got["resultStatus"] != "COMPLETED" || f.status(id) != "COMPLETED" {
			t.Fatalf("submission answered %v, task %s; want the stored result updated to COMPLETED and the task COMPLETED", got, f.status(id))
		}
		var results int
		if err := env.App.DB.SQL.QueryRow(`SELECT count(*) FROM activity_results WHERE activity_id = $1`, id).Scan(&results); err != nil || results != 1 {
			t.Fatalf("%d results (%v), want 1", results, err)
		}
	})
}

// sqlTime is t as a literal the database stores for a time column.
func sqlTime(env *apptest.Env, t time.Time) string {
	if env.App.DB.Dialect == "postgres" {
		return t.Format(time.RFC3339Nano)
	}
	return t.Format("2006-01-02 15:04:05.999999999-07:00")
}
