// Package jobs holds what the scheduled work of every replica shares: the
// periodic loop and the row claim that keeps two replicas off one row.
package jobs

import (
	"context"
	"log/slog"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
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

// Every runs fn with now() at once and then every interval until ctx ends.
// A failure is logged and the next tick tries again; a run that did work
// logs how much (fn returns the number of rows it handled).
func Every(ctx context.Context, name string, every time.Duration, now func() time.Time,
	fn func(ctx context.Context, now time.Time) (int, error)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		n, err := fn(ctx, now())
		switch {
		case err != nil && ctx.Err() == nil:
			slog.ErrorContext(ctx, name+" failed", "err", err, "rows", n)
		case n > 0:
			slog.InfoContext(ctx, name, "rows", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
