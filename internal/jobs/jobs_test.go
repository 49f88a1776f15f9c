package jobs_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/reten-io/reten/internal/jobs"
)

// TestEveryRunsAtOnceWithItsClockAndStopsWithItsContext: the first run
// happens before any tick, with the injected clock; a failing run does not
// stop the loop; the loop returns once the context ends and never runs again
// after that, even with a tick ready at the same moment.
func TestEveryRunsAtOnceWithItsClockAndStopsWithItsContext(t *testing.T) {
	quiet(t)
	at := time.Date(2030, 3, 10, 22, 1, 0, 0, time.UTC)
	ctx, cancel := context.WithCancel(context.Background())
	var seen []time.Time
	// A long interval: the first run cannot have waited for a tick.
	jobs.Every(ctx, "test job", time.Hour, func() time.Time { return at }, func(ctx context.Context, now time.Time) (int, error) {
		seen = append(seen, now)
		cancel()
		return 0, errors.New("boom")
	})
	if len(seen) != 1 || !seen[0].Equal(at) {
		t.Fatalf("runs: %v, want one at %v", seen, at)
	}

	// Failures are retried on the next tick. Ticks are always waiting here,
	// so when the third run ends the context both cases of the loop's select
	// are ready; select picks either at random, so the rounds make a loop that
	// ran once more after its context (the old flake) fail for certain.
	for round := range 64 {
		ctx, cancel := context.WithCancel(context.Background())
		ticks := make(chan time.Time, 8)
		for range cap(ticks) {
			ticks <- at
		}
		calls := 0
		jobs.Loop(ctx, "test job", ticks, time.Now, func(ctx context.Context, now time.Time) (int, error) {
			calls++
			if calls == 3 {
				cancel()
				return 1, nil
			}
			return 0, errors.New("boom")
		})
		if calls != 3 {
			t.Fatalf("round %d: %d calls, want 3", round, calls)
		}
	}

	// A context that has already ended runs nothing.
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	jobs.Every(ctx, "test job", time.Hour, time.Now, func(context.Context, time.Time) (int, error) {
		t.Fatal("ran with an ended context")
		return 0, nil
	})
}

// quiet drops the logs of the failing runs for the test's duration.
func quiet(t *testing.T) {
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
}
