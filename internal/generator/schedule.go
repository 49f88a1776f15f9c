package generator

import (
	"time"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/generationrule"
	"github.com/reten-io/reten/internal/cutoff"
)

// when is the schedule of an activity a rule creates.
type when struct {
	// due is the rule's own schedule: the trigger day plus offsetDays, at
	// timeOfDay in the tenant's zone (a weekend moved to Monday when the
	// rule skips weekends).
	due time.Time
	// scheduled is due, or today at timeOfDay when due falls on a day
	// already past (a late evaluation never schedules into a closed day).
	scheduled time.Time
	// expires is expiresAfterDays calendar days after due, at the same
	// time of day; nil when the rule never expires.
	expires *time.Time
}

// schedule computes when a rule's activity is due for a state entered at
// enteredAt (a DWELL rule's trigger day is dwellDays later), evaluated at now.
func schedule(r *ent.GenerationRule, enteredAt, now time.Time, tz cutoff.Settings) when {
	trigger := enteredAt
	if r.Trigger == generationrule.TriggerDWELL && r.DwellDays != nil {
		trigger = enteredAt.Add(time.Duration(*r.DwellDays) * 24 * time.Hour)
	}
	tod, _ := cutoff.ParseClock(r.TimeOfDay) // checked when the rule was saved
	day := cutoff.DayOf(trigger, tz).AddDays(r.OffsetDays)
	at := func(d cutoff.Date) time.Time {
		if r.SkipWeekends {
			switch d.Weekday() {
			case time.Saturday:
				d = d.AddDays(2)
			case time.Sunday:
				d = d.AddDays(1)
			}
		}
		return cutoff.At(d, tod, tz).UTC()
	}
	w := when{due: at(day)}
	w.scheduled = w.due
	if today := cutoff.DayOf(now, tz); cutoff.DayOf(w.due, tz).Before(today) {
		w.scheduled = at(today)
	}
	if r.ExpiresAfterDays != nil {
		// Calendar days: the same wall time, whatever DST did in between.
		e := cutoff.At(cutoff.DayOf(w.due, tz).AddDays(*r.ExpiresAfterDays), tod, tz).UTC()
		w.expires = &e
	}
	return w
}
