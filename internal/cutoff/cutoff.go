// Package cutoff decides which calendar day an instant belongs to in a
// tenant's time zone and when that day closes (the end-of-day cutoff after
// which an activity of the day no longer accepts a result and the auto-close
// job may close it). Every function takes "now" explicitly so callers inject
// their clock and tests need no wall clock.
package cutoff

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"time"
	_ "time/tzdata" // IANA zones even on hosts without zoneinfo
)

// Exact SPEC.md 422 messages of the day rules ("Errors", results table).
const (
	// MsgDayClosed: the activity's scheduled day has passed its cutoff.
	MsgDayClosed = "La actividad corresponde a un día ya cerrado y no admite registrar resultado."
	// MsgFutureInPast: future_scheduled_at falls on a day before today.
	MsgFutureInPast = "La fecha programada no puede ser en el pasado."
	// MsgFutureRequired: the result type requires future_scheduled_at.
	MsgFutureRequired = "Este tipo de resultado requiere una fecha comprometida."
)

// Defaults of a tenant that never changed its settings (the ent schema
// defaults of tenant.time_zone and tenant.day_cutoff).
const (
	DefaultTimeZone  = "UTC"
	DefaultDayCutoff = "23:59"
)

var clockPattern = regexp.MustCompile(`^([01][0-9]|2[0-3]):([0-5][0-9])$`)

// Clock is a local time of day (hour 0..23, minute 0..59).
type Clock struct{ Hour, Minute int }

// String formats the clock as "HH:MM".
func (c Clock) String() string { return fmt.Sprintf("%02d:%02d", c.Hour, c.Minute) }

// ParseClock parses "HH:MM" (00:00..23:59, two digits each).
func ParseClock(s string) (Clock, bool) {
	m := clockPattern.FindStringSubmatch(s)
	if m == nil {
		return Clock{}, false
	}
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	return Clock{h, mi}, true
}

// LoadZone loads an IANA zone name; "" and "Local" are not zones (the
// server's zone must never decide a tenant's day). A zone loaded once is
// kept (time.LoadLocation reads and parses its file on every call): the
// zones are IANA's, a few hundred at most.
func LoadZone(name string) (*time.Location, bool) {
	if name == "" || name == "Local" {
		return nil, false
	}
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), true
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, false
	}
	zones.Store(name, loc)
	return loc, true
}

// zones are the locations LoadZone loaded, by name.
var zones sync.Map

// Settings are a tenant's day rules: its zone and the local time after which
// a day is closed.
type Settings struct {
	Location *time.Location
	Cutoff   Clock
}

// Parse builds Settings from the stored tenant columns.
func Parse(zone, dayCutoff string) (Settings, error) {
	loc, ok := LoadZone(zone)
	if !ok {
		return Settings{}, fmt.Errorf("cutoff: invalid time zone %q", zone)
	}
	c, ok := ParseClock(dayCutoff)
	if !ok {
		return Settings{}, fmt.Errorf("cutoff: invalid day cutoff %q", dayCutoff)
	}
	return Settings{Location: loc, Cutoff: c}, nil
}

// Default are the settings of a tenant that changed nothing: 23:59 in UTC.
func Default() Settings { return Settings{Location: time.UTC, Cutoff: Clock{23, 59}} }

// Date is a civil (calendar) date, without zone.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// String formats the date as YYYY-MM-DD.
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day) }

// Before reports whether d is an earlier day than o.
func (d Date) Before(o Date) bool {
	if d.Year != o.Year {
		return d.Year < o.Year
	}
	if d.Month != o.Month {
		return d.Month < o.Month
	}
	return d.Day < o.Day
}

// AddDays returns the date n days later (earlier when n < 0).
func (d Date) AddDays(n int) Date {
	t := time.Date(d.Year, d.Month, d.Day+n, 12, 0, 0, 0, time.UTC)
	return Date{t.Year(), t.Month(), t.Day()}
}

// DayOf is the calendar day of t in the tenant's zone.
func DayOf(t time.Time, s Settings) Date {
	l := t.In(s.Location)
	return Date{l.Year(), l.Month(), l.Day()}
}

// StartOf is the first instant of day d in the tenant's zone (local
// midnight, or the end of the gap when midnight is skipped by a DST change).
func StartOf(d Date, s Settings) time.Time { return wallInstant(d, Clock{}, s.Location) }

// CloseAt is the instant at which day d reaches its cutoff: the first instant
// whose local wall clock on d reads HH:MM (the first of two on a day the
// clock falls back; the end of the gap on a day it springs over HH:MM).
// The day is closed once now is after this instant.
func CloseAt(d Date, s Settings) time.Time { return wallInstant(d, s.Cutoff, s.Location) }

// At is the instant at which the local wall clock of day d reads c in the
// tenant's zone (the first of two on a day the clock falls back; the end of
// the gap on a day it springs over c).
func At(d Date, c Clock, s Settings) time.Time { return wallInstant(d, c, s.Location) }

// Weekday is the day of the week of d.
func (d Date) Weekday() time.Weekday {
	return time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC).Weekday()
}

// Closed reports whether the day of scheduledAt (in the tenant's zone) is
// closed at now: now has passed that day's cutoff.
func Closed(scheduledAt, now time.Time, s Settings) bool {
	return now.After(CloseAt(DayOf(scheduledAt, s), s))
}

// BeforeToday reports whether t falls on a calendar day before the day of
// now, both in the tenant's zone (the future_scheduled_at rule: any time
// today, even an earlier hour, is accepted).
func BeforeToday(t, now time.Time, s Settings) bool {
	return DayOf(t, s).Before(DayOf(now, s))
}

// ClosedDaysBefore is the instant before which every scheduled activity
// belongs to a closed day at now: the start of today when today is still
// open, else the start of tomorrow. Closed(x, now, s) == x.Before(ClosedDaysBefore(now, s))
// for every x; the auto-close job selects activities with scheduled_at < it.
func ClosedDaysBefore(now time.Time, s Settings) time.Time {
	today := DayOf(now, s)
	if now.After(CloseAt(today, s)) {
		return StartOf(today.AddDays(1), s)
	}
	return StartOf(today, s)
}

// wallInstant resolves the local wall-clock time c on day d to an instant:
// the earliest instant whose local wall clock reaches it.
func wallInstant(d Date, c Clock, loc *time.Location) time.Time {
	wall := time.Date(d.Year, d.Month, d.Day, c.Hour, c.Minute, 0, 0, time.UTC)
	// The offsets in effect around the wall time (a zone changes at most a
	// few times a year, so a day either side covers every candidate).
	var best time.Time
	var offsets []int
	for _, h := range []time.Duration{-36, -12, 0, 12, 36} {
		_, off := wall.Add(h * time.Hour).In(loc).Zone()
		offsets = append(offsets, off)
	}
	lo, hi := time.Time{}, time.Time{}
	for _, off := range offsets {
		cand := wall.Add(-time.Duration(off) * time.Second)
		if wallOf(cand, loc).Equal(wall) {
			if best.IsZero() || cand.Before(best) {
				best = cand
			}
			continue
		}
		if lo.IsZero() || cand.Before(lo) {
			lo = cand
		}
		if hi.IsZero() || cand.After(hi) {
			hi = cand
		}
	}
	if !best.IsZero() {
		return best
	}
	if hi.IsZero() {
		return wall // unreachable: one offset always fits outside a gap
	}
	// The wall time falls in a gap (the clock springs over it): the first
	// instant past it is the transition, found by bisection on the offset.
	_, hiOff := hi.In(loc).Zone()
	for hi.Sub(lo) > time.Second {
		mid := lo.Add(hi.Sub(lo) / 2).Truncate(time.Second)
		if _, off := mid.In(loc).Zone(); off == hiOff {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// wallOf is the local wall clock of t read as if it were UTC.
func wallOf(t time.Time, loc *time.Location) time.Time {
	l := t.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), time.UTC)
}
