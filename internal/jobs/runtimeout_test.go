package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/reten-io/reten/internal/jobs"
)

// TestEveryBoundsEachRun: a run gets a context that ends RunTimeout after it
// starts, so a run stuck on the database cannot hold the job forever.
func TestEveryBoundsEachRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	before := time.Now()
	var deadline time.Time
	var bounded bool
	jobs.Every(ctx, "test job", time.Hour, time.Now, func(run context.Context, _ time.Time) (int, error) {
		deadline, bounded = run.Deadline()
		cancel()
		return 0, nil
	})
	if !bounded || deadline.Before(before.Add(jobs.RunTimeout)) || deadline.After(time.Now().Add(jobs.RunTimeout)) {
		t.Fatalf("run deadline %v (set %v), want %s after the run's start", deadline, bounded, jobs.RunTimeout)
	}
}
