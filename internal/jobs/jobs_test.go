package jobs_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/reten-io/reten/internal/jobs"
)

// TestEveryRunsAtOnceWithItsClockAndStopsWithItsContext: the first run
// happens before any tick, with the injected clock; a failing run does not
// stop the loop; the loop returns once the context ends.
func TestEveryRunsAtOnceWithItsClockAndStopsWithItsContext(t *testing.T) {
	at := time.Date(2030, 3, 10, 22, 1, 0, 0, time.UTC)
	ctx, cancel := context.WithCancel(context.Background())
	var seen []time.Time
	done := make(chan struct{})
	go func() {
		defer close(done)
		// A long interval: the first run cannot have waited for a tick.
		jobs.Every(ctx, "test job", time.Hour, func() time.Time { return at }, func(ctx context.Context, now time.Time) (int, error) {
			seen = append(seen, now)
			cancel()
			return 0, errors.New("boom")
		})
	}()
	<-done
	if len(seen) != 1 || !seen[0].Equal(at) {
		t.Fatalf("runs: %v, want one at %v", seen, at)
	}

	// Failures are retried on the next tick.
	ctx, cancel = context.WithCancel(context.Background())
	calls := 0
	jobs.Every(ctx, "test job", time.Millisecond, time.Now, func(ctx context.Context, now time.Time) (int, error) {
		calls++
		if calls == 3 {
			cancel()
			return 1, nil
		}
		return 0, errors.New("boom")
	})
	if calls != 3 {
		t.Fatalf("%d calls, want 3", calls)
	}
}
