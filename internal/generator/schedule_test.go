package generator

import (
	"testing"
	"time"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/generationrule"
	"github.com/reten-io/reten/internal/cutoff"
)

// TestSchedule: the due instant is the trigger day plus offsetDays at
// timeOfDay in the tenant's zone, across DST changes (a time the clock
// springs over becomes the end of the gap, one it repeats the first of
// the two), weekends skipped to Monday, DWELL days added to the entry,
// a late evaluation scheduled today, and the expiry counted from due.
func TestSchedule(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	scl, _ := time.LoadLocation("America/Santiago")
	days := func(n int) *int { return &n }
	for _, c := range []struct {
		name       string
		zone       *time.Location
		rule       ent.GenerationRule
		entered    time.Time
		now        time.Time
		due, sched time.Time
		expires    *time.Time
	}{
		{"same day", ny, ent.GenerationRule{TimeOfDay: "09:00"},
			time.Date(2026, 6, 1, 15, 0, 0, 0, time.UTC), time.Date(2026, 6, 1, 15, 0, 0, 0, time.UTC),
			time.Date(2026, 6, 1, 13, 0, 0, 0, time.UTC), time.Date(2026, 6, 1, 13, 0, 0, 0, time.UTC), nil},
		{"entered late at night local time counts the local day", ny, ent.GenerationRule{TimeOfDay: "09:00", OffsetDays: 1},
			time.Date(2026, 6, 2, 2, 0, 0, 0, time.UTC), time.Date(2026, 6, 2, 2, 0, 0, 0, time.UTC), // 22:00 on June 1st in New York
			time.Date(2026, 6, 2, 13, 0, 0, 0, time.UTC), time.Date(2026, 6, 2, 13, 0, 0, 0, time.UTC), nil},
		{"spring forward: 02:30 does not exist", ny, ent.GenerationRule{TimeOfDay: "02:30", OffsetDays: 1},
			time.Date(2026, 3, 7, 17, 0, 0, 0, time.UTC), time.Date(2026, 3, 7, 17, 0, 0, 0, time.UTC),
			time.Date(2026, 3, 8, 7, 0, 0, 0, time.UTC), time.Date(2026, 3, 8, 7, 0, 0, 0, time.UTC), nil},
		{"fall back: 01:30 happens twice, the first is taken", ny, ent.GenerationRule{TimeOfDay: "01:30", OffsetDays: 1},
			time.Date(2026, 10, 31, 17, 0, 0, 0, time.UTC), time.Date(2026, 10, 31, 17, 0, 0, 0, time.UTC),
			time.Date(2026, 11, 1, 5, 30, 0, 0, time.UTC), time.Date(2026, 11, 1, 5, 30, 0, 0, time.UTC), nil},
		{"Santiago's midnight skipped on its DST day", scl, ent.GenerationRule{TimeOfDay: "00:15", OffsetDays: 1},
			time.Date(2026, 9, 5, 15, 0, 0, 0, time.UTC), time.Date(2026, 9, 5, 15, 0, 0, 0, time.UTC),
			time.Date(2026, 9, 6, 4, 0, 0, 0, time.UTC), time.Date(2026, 9, 6, 4, 0, 0, 0, time.UTC), nil},
		{"Saturday moves to Monday", scl, ent.GenerationRule{TimeOfDay: "10:00", OffsetDays: 2, SkipWeekends: true, ExpiresAfterDays: days(2)},
			time.Date(2026, 11, 26, 15, 0, 0, 0, time.UTC), time.Date(2026, 11, 26, 15, 0, 0, 0, time.UTC), // Thursday
			time.Date(2026, 11, 30, 13, 0, 0, 0, time.UTC), time.Date(2026, 11, 30, 13, 0, 0, 0, time.UTC), ptr(time.Date(2026, 12, 2, 13, 0, 0, 0, time.UTC))},
		{"Sunday moves to Monday", scl, ent.GenerationRule{TimeOfDay: "10:00", OffsetDays: 3, SkipWeekends: true},
			time.Date(2026, 11, 26, 15, 0, 0, 0, time.UTC), time.Date(2026, 11, 26, 15, 0, 0, 0, time.UTC),
			time.Date(2026, 11, 30, 13, 0, 0, 0, time.UTC), time.Date(2026, 11, 30, 13, 0, 0, 0, time.UTC), nil},
		{"dwell counts from the entry", ny, ent.GenerationRule{TimeOfDay: "09:00", Trigger: generationrule.TriggerDWELL, DwellDays: days(3)},
			time.Date(2026, 6, 1, 15, 0, 0, 0, time.UTC), time.Date(2026, 6, 4, 16, 0, 0, 0, time.UTC),
			time.Date(2026, 6, 4, 13, 0, 0, 0, time.UTC), time.Date(2026, 6, 4, 13, 0, 0, 0, time.UTC), nil},
		{"late: a past day is scheduled today", ny, ent.GenerationRule{TimeOfDay: "09:00", ExpiresAfterDays: days(10)},
			time.Date(2026, 6, 1, 15, 0, 0, 0, time.UTC), time.Date(2026, 6, 5, 20, 0, 0, 0, time.UTC),
			time.Date(2026, 6, 1, 13, 0, 0, 0, time.UTC), time.Date(2026, 6, 5, 13, 0, 0, 0, time.UTC), ptr(time.Date(2026, 6, 11, 13, 0, 0, 0, time.UTC))},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.rule.Trigger == "" {
				c.rule.Trigger = generationrule.TriggerENTER
			}
			w := schedule(&c.rule, c.entered, c.now, cutoff.Settings{Location: c.zone, Cutoff: cutoff.Clock{Hour: 23, Minute: 59}})
			if !w.due.Equal(c.due) || !w.scheduled.Equal(c.sched) || (w.expires == nil) != (c.expires == nil) ||
				(w.expires != nil && !w.expires.Equal(*c.expires)) {
				t.Fatalf("schedule = due %v, scheduled %v, expires %v; want %v, %v, %v", w.due, w.scheduled, w.expires, c.due, c.sched, c.expires)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
