// Package clock is the one definition of "now as stored": UTC (SQLite
// compares stored instants as text, so every replica writes one zone) at
// microsecond precision (what PostgreSQL keeps, so a write's response equals
// what a later read returns).
package clock

import "time"

// Now is the current instant as stored.
func Now() time.Time { return Stored(time.Now()) }

// Stored is t as stored: UTC, truncated to microseconds.
func Stored(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// Settable is a service's own clock, which its tests may set (SetClock);
// until then it is the wall clock.
type Settable struct{ now func() time.Time }

// Now is the clock's current instant (store it through Stored).
func (c *Settable) Now() time.Time {
	if c.now == nil {
		return time.Now()
	}
	return c.now()
}

// SetClock replaces the clock (tests).
func (c *Settable) SetClock(now func() time.Time) { c.now = now }
