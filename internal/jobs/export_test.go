package jobs

import (
	"context"
	"time"
)

// Loop exposes loop to the tests, which drive it with ticks of their own
// (each run bounded by RunTimeout, as Every bounds it).
func Loop(ctx context.Context, name string, ticks <-chan time.Time, now func() time.Time,
	fn func(ctx context.Context, now time.Time) (int, error)) {
	loop(ctx, name, ticks, now, RunTimeout, fn)
}
