package cutoff

import (
	"testing"
	"time"

	"github.com/reten-io/reten/internal/apperr"
)

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, ok := LoadZone(name)
	if !ok {
		t.Fatalf("zone %s", name)
	}
	return loc
}

func at(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestParse(t *testing.T) {
	s, err := Parse("America/Guayaquil", "18:05")
	if err != nil || s.Location.String() != "America/Guayaquil" || s.Cutoff != (Clock{18, 5}) || s.Cutoff.String() != "18:05" {
		t.Fatalf("Parse = %+v, %v", s, err)
	}
	if d := Default(); d.Location != time.UTC || d.Cutoff.String() != DefaultDayCutoff {
		t.Fatalf("Default = %+v", d)
	}
	for _, bad := range [][2]string{{"Mars/Olympus", "23:59"}, {"", "23:59"}, {"Local", "23:59"}, {"UTC", "24:00"},
		{"UTC", "9:30"}, {"UTC", "23:60"}, {"UTC", "23:59:00"}, {"UTC", ""}} {
		if _, err := Parse(bad[0], bad[1]); err == nil {
			t.Errorf("Parse(%q, %q) accepted", bad[0], bad[1])
		}
	}
	for _, ok := range []string{"00:00", "23:59", "09:30", "19:45"} {
		if c, good := ParseClock(ok); !good || c.String() != ok {
			t.Errorf("ParseClock(%q) = %v %v", ok, c, good)
		}
	}
}

// TestClosedAroundMidnight: Guayaquil (UTC-5, no DST) and Tokyo (UTC+9), where
// the tenant's day and the UTC day differ, with the default 23:59 and 18:00.
func TestClosedAroundMidnight(t *testing.T) {
	gye := Settings{Location: zone(t, "America/Guayaquil"), Cutoff: Clock{23, 59}}
	tyo := Settings{Location: zone(t, "Asia/Tokyo"), Cutoff: Clock{23, 59}}
	gye18 := Settings{Location: gye.Location, Cutoff: Clock{18, 0}}
	cases := []struct {
		name      string
		s         Settings
		scheduled string
		now       string
		closed    bool
	}{
		// 22:00 local on the 10th is already the 11th in UTC: the local day counts.
		{"gye same local day before cutoff", gye, "2025-03-11T03:00:00Z", "2025-03-11T04:58:59Z", false},
		{"gye at the cutoff instant", gye, "2025-03-11T03:00:00Z", "2025-03-10T23:59:00-05:00", false},
		{"gye just past the cutoff", gye, "2025-03-11T03:00:00Z", "2025-03-10T23:59:00.001-05:00", true},
		{"gye next local day", gye, "2025-03-11T03:00:00Z", "2025-03-11T00:00:00-05:00", true},
		{"gye activity at local midnight belongs to its day", gye, "2025-03-11T05:00:00Z", "2025-03-11T23:00:00-05:00", false},
		{"gye activity one second before local midnight", gye, "2025-03-11T04:59:59Z", "2025-03-11T00:00:01-05:00", true},
		{"gye future day", gye, "2025-03-12T12:00:00Z", "2025-03-11T23:59:30-05:00", false},
		// Tokyo: 01:00 JST on the 11th is the 10th in UTC.
		{"tyo local day is the 11th", tyo, "2025-03-10T16:00:00Z", "2025-03-10T23:59:59+09:00", false},
		{"tyo open until 23:59 on the 11th", tyo, "2025-03-10T16:00:00Z", "2025-03-11T23:59:00+09:00", false},
		{"tyo closed after 23:59 on the 11th", tyo, "2025-03-10T16:00:00Z", "2025-03-11T23:59:01+09:00", true},
		// 18:00 cutoff: the day closes at 18:00, even for an activity scheduled later that day.
		{"18:00 before", gye18, "2025-03-10T09:00:00-05:00", "2025-03-10T17:59:59-05:00", false},
		{"18:00 at", gye18, "2025-03-10T09:00:00-05:00", "2025-03-10T18:00:00-05:00", false},
		{"18:00 after", gye18, "2025-03-10T09:00:00-05:00", "2025-03-10T18:00:01-05:00", true},
		{"18:00 evening activity", gye18, "2025-03-10T20:00:00-05:00", "2025-03-10T19:00:00-05:00", true},
		{"18:00 tomorrow's activity", gye18, "2025-03-11T08:00:00-05:00", "2025-03-10T19:00:00-05:00", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sched, now := at(t, c.scheduled), at(t, c.now)
			if got := Closed(sched, now, c.s); got != c.closed {
				t.Fatalf("Closed(%s, %s) = %v, want %v (day %s closes %s)", c.scheduled, c.now, got, c.closed,
					DayOf(sched, c.s), CloseAt(DayOf(sched, c.s), c.s).UTC())
			}
			err := CheckOpen(sched, now, c.s)
			if e, _ := apperr.As(err); c.closed != (err != nil) || c.closed && (e.Status() != 422 || e.Message() != MsgDayClosed) {
				t.Fatalf("CheckOpen = %v", err)
			}
		})
	}
}

// TestDSTTransitions: the cutoff and the start of day on days the clock
// springs forward (a gap) or falls back (a repeated hour).
func TestDSTTransitions(t *testing.T) {
	scl := zone(t, "America/Santiago")
	mad := zone(t, "Europe/Madrid")
	cases := []struct {
		name string
		got  time.Time
		want string
	}{
		// Santiago springs from 24:00 to 01:00 on 2024-09-08: the day starts at 01:00 -03.
		{"scl start of spring day", StartOf(Date{2024, 9, 8}, Settings{Location: scl}), "2024-09-08T04:00:00Z"},
		{"scl cutoff in the gap", CloseAt(Date{2024, 9, 8}, Settings{Location: scl, Cutoff: Clock{0, 30}}), "2024-09-08T04:00:00Z"},
		{"scl 23:59 on the spring day", CloseAt(Date{2024, 9, 8}, Settings{Location: scl, Cutoff: Clock{23, 59}}), "2024-09-09T02:59:00Z"},
		{"scl 23:59 the day before", CloseAt(Date{2024, 9, 7}, Settings{Location: scl, Cutoff: Clock{23, 59}}), "2024-09-08T03:59:00Z"},
		// Santiago falls back from 24:00 to 23:00 on 2025-04-05: 23:30 happens twice, the first counts.
		{"scl repeated cutoff", CloseAt(Date{2025, 4, 5}, Settings{Location: scl, Cutoff: Clock{23, 30}}), "2025-04-06T02:30:00Z"},
		{"scl start after fall back", StartOf(Date{2025, 4, 6}, Settings{Location: scl}), "2025-04-06T04:00:00Z"},
		// Madrid springs from 02:00 to 03:00 on 2025-03-30 and falls back from 03:00 to 02:00 on 2025-10-26.
		{"mad cutoff in the gap", CloseAt(Date{2025, 3, 30}, Settings{Location: mad, Cutoff: Clock{2, 30}}), "2025-03-30T01:00:00Z"},
		{"mad 23:59 on the spring day", CloseAt(Date{2025, 3, 30}, Settings{Location: mad, Cutoff: Clock{23, 59}}), "2025-03-30T21:59:00Z"},
		{"mad repeated 02:30", CloseAt(Date{2025, 10, 26}, Settings{Location: mad, Cutoff: Clock{2, 30}}), "2025-10-26T00:30:00Z"},
		{"mad 23:59 on the fall day", CloseAt(Date{2025, 10, 26}, Settings{Location: mad, Cutoff: Clock{23, 59}}), "2025-10-26T22:59:00Z"},
	}
	for _, c := range cases {
		if want := at(t, c.want); !c.got.Equal(want) {
			t.Errorf("%s: got %s, want %s", c.name, c.got.UTC(), c.want)
		}
	}
	// An activity of the spring day (Santiago, 23:59) closes one minute after 23:58:59 local.
	s := Settings{Location: scl, Cutoff: Clock{23, 59}}
	sched := at(t, "2024-09-08T10:00:00-03:00")
	if Closed(sched, at(t, "2024-09-08T23:59:00-03:00"), s) || !Closed(sched, at(t, "2024-09-08T23:59:01-03:00"), s) {
		t.Fatal("spring day closes at 23:59 local")
	}
	// 23:30 local on the fall-back day (second occurrence) is past the first 23:30.
	s = Settings{Location: scl, Cutoff: Clock{23, 30}}
	if !Closed(at(t, "2025-04-05T10:00:00-03:00"), at(t, "2025-04-05T23:30:01-04:00"), s) {
		t.Fatal("fall-back day closed at the first 23:30")
	}
}

// TestClosedDaysBefore: Closed(x, now) holds exactly for x before
// ClosedDaysBefore(now), across zones, cutoffs and DST days.
func TestClosedDaysBefore(t *testing.T) {
	for _, name := range []string{"UTC", "America/Guayaquil", "Asia/Tokyo", "America/Santiago", "Europe/Madrid"} {
		loc := zone(t, name)
		for _, c := range []Clock{{23, 59}, {18, 0}, {0, 30}, {2, 30}} {
			s := Settings{Location: loc, Cutoff: c}
			for _, day := range []string{"2024-09-07T00:00:00Z", "2025-04-05T00:00:00Z", "2025-03-29T00:00:00Z", "2025-10-25T00:00:00Z"} {
				base := at(t, day)
				for n := time.Duration(0); n < 72*time.Hour; n += 47 * time.Minute {
					now := base.Add(n)
					limit := ClosedDaysBefore(now, s)
					for x := base.Add(-24 * time.Hour); x.Before(base.Add(96 * time.Hour)); x = x.Add(13 * time.Minute) {
						if Closed(x, now, s) != x.Before(limit) {
							t.Fatalf("%s %s now %s x %s: Closed %v, limit %s", name, c, now, x, Closed(x, now, s), limit)
						}
					}
				}
			}
		}
	}
	gye := Settings{Location: zone(t, "America/Guayaquil"), Cutoff: Clock{23, 59}}
	if got := ClosedDaysBefore(at(t, "2025-03-10T12:00:00-05:00"), gye); !got.Equal(at(t, "2025-03-10T05:00:00Z")) {
		t.Fatalf("open day: %s", got)
	}
	if got := ClosedDaysBefore(at(t, "2025-03-10T23:59:30-05:00"), gye); !got.Equal(at(t, "2025-03-11T05:00:00Z")) {
		t.Fatalf("closed day: %s", got)
	}
}

// TestBeforeToday: future_scheduled_at is compared by local day.
func TestBeforeToday(t *testing.T) {
	gye := Settings{Location: zone(t, "America/Guayaquil"), Cutoff: Clock{18, 0}}
	tyo := Settings{Location: zone(t, "Asia/Tokyo"), Cutoff: Clock{23, 59}}
	cases := []struct {
		name   string
		s      Settings
		t, now string
		before bool
	}{
		{"yesterday's last second", gye, "2025-03-09T23:59:59-05:00", "2025-03-10T00:30:00-05:00", true},
		{"today's midnight", gye, "2025-03-10T00:00:00-05:00", "2025-03-10T00:30:00-05:00", false},
		{"earlier today", gye, "2025-03-10T00:10:00-05:00", "2025-03-10T20:00:00-05:00", false},
		{"today after the cutoff", gye, "2025-03-10T23:00:00-05:00", "2025-03-10T20:00:00-05:00", false},
		{"tomorrow", gye, "2025-03-11T08:00:00-05:00", "2025-03-10T20:00:00-05:00", false},
		// Same UTC day, previous local day.
		{"previous local day, same UTC day", gye, "2025-03-10T04:30:00Z", "2025-03-10T06:00:00Z", true},
		// Previous UTC day, same local day (Tokyo is ahead).
		{"same local day, previous UTC day", tyo, "2025-03-09T15:30:00Z", "2025-03-10T01:00:00Z", false},
		{"tokyo yesterday", tyo, "2025-03-09T14:59:59Z", "2025-03-09T15:00:00Z", true},
	}
	for _, c := range cases {
		tt, now := at(t, c.t), at(t, c.now)
		if got := BeforeToday(tt, now, c.s); got != c.before {
			t.Errorf("%s: BeforeToday = %v, want %v", c.name, got, c.before)
		}
	}
}

// TestCheckFuture: the 422s of future_scheduled_at, in SPEC.md words.
func TestCheckFuture(t *testing.T) {
	s := Settings{Location: zone(t, "America/Guayaquil"), Cutoff: Clock{23, 59}}
	now := at(t, "2025-03-10T00:30:00-05:00")
	past, today := at(t, "2025-03-09T23:00:00-05:00"), at(t, "2025-03-10T00:00:00-05:00")
	expect := func(err error, msg string) {
		t.Helper()
		if msg == "" {
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			return
		}
		if e, ok := apperr.As(err); !ok || e.Status() != 422 || e.Message() != msg {
			t.Fatalf("err = %v, want 422 %q", err, msg)
		}
	}
	expect(CheckFuture(true, nil, now, s), MsgFutureRequired)
	expect(CheckFuture(false, nil, now, s), "")
	expect(CheckFuture(false, &past, now, s), MsgFutureInPast)
	expect(CheckFuture(true, &past, now, s), MsgFutureInPast)
	expect(CheckFuture(true, &today, now, s), "")
	if MsgDayClosed != "La actividad corresponde a un día ya cerrado y no admite registrar resultado." ||
		MsgFutureInPast != "La fecha programada no puede ser en el pasado." ||
		MsgFutureRequired != "Este tipo de resultado requiere una fecha comprometida." {
		t.Fatal("SPEC.md messages changed")
	}
}

func TestDate(t *testing.T) {
	d := Date{2024, 12, 31}
	if d.AddDays(1) != (Date{2025, 1, 1}) || d.AddDays(-366) != (Date{2023, 12, 31}) || d.String() != "2024-12-31" {
		t.Fatal("date arithmetic")
	}
	if !d.Before(Date{2025, 1, 1}) || d.Before(d) || (Date{2025, 1, 1}).Before(d) || !(Date{2024, 11, 30}).Before(d) {
		t.Fatal("Before")
	}
}
