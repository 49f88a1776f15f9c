// Package jobs holds what the scheduled work of every replica shares: the
// periodic loop and the row claim that keeps two replicas off one row.
package jobs

import (
	"context"
	"log/slog"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/reten-io/reten/internal/clock"
)

// SkipLocked locks the selected rows on PostgreSQL and skips rows another
// replica has locked (SELECT ... FOR UPDATE SKIP LOCKED). SQLite has no row
// locks and needs none: its write transactions (BEGIN IMMEDIATE) are
// exclusive, so two replicas take turns. Use it as a query predicate:
// q.Where(jobs.SkipLocked).
func SkipLocked(s *sql.Selector) {
	if s.Dialect() == dialect.Postgres {
		s.ForUpdate(sql.WithLockAction(sql.SkipLocked))
	}
}

// RunTimeout bounds one run of a scheduled job: a run still going then is
// cut (its context ends) and the next tick resumes the work, which every job
// claims row by row, so that no run waits forever on a database that stopped
// answering.
const RunTimeout = 5 * time.Minute

// run calls fn with a context of its own that ends after timeout.
func run(ctx context.Context, now time.Time, timeout time.Duration, fn func(ctx context.Context, now time.Time) (int, error)) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return fn(ctx, now)
}

// Every runs fn with now() at once and then every interval until ctx ends.
// A failure is logged and the next tick tries again; a run that did work
// logs how much (fn returns the number of rows it handled).
func Every(ctx context.Context, name string, every time.Duration, now func() time.Time,
	fn func(ctx context.Context, now time.Time) (int, error)) {
	t := time.NewTicker(every)
	defer t.Stop()
	loop(ctx, name, t.C, now, RunTimeout, fn)
}

// Woken is Every that also runs fn at once when wake receives (a nudge
// from this replica: new work was queued), each run bounded by timeout.
func Woken(ctx context.Context, name string, every time.Duration, wake <-chan struct{}, timeout time.Duration,
	fn func(ctx context.Context, now time.Time) (int, error)) {
	ticks := make(chan time.Time)
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			var at time.Time
			select {
			case <-ctx.Done():
				return
			case at = <-t.C:
			case <-wake:
				at = clock.Now()
			}
			select {
			case <-ctx.Done():
				return
			case ticks <- at.UTC():
			}
		}
	}()
	loop(ctx, name, ticks, func() time.Time { return clock.Now().UTC() }, timeout, fn)
}

// loop runs fn at once and then on every tick. It never runs fn once ctx
// has ended: when a tick and the end of ctx are both ready, select picks
// either, so the context is checked again before each run.
func loop(ctx context.Context, name string, ticks <-chan time.Time, now func() time.Time, timeout time.Duration,
	fn func(ctx context.Context, now time.Time) (int, error)) {
	for ctx.Err() == nil {
		n, err := run(ctx, now(), timeout, fn)
		switch {
		case err != nil && ctx.Err() == nil:
			slog.ErrorContext(ctx, name+" failed", "err", err, "rows", n)
		case n > 0:
			slog.InfoContext(ctx, name, "rows", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-ticks:
		}
	}
}
