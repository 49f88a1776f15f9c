package uplift

import "testing"

// TestBetter: the table of "better" (package documentation).
func TestBetter(t *testing.T) {
	levels := Levels{"low": 1, "mid": 5, "high": 10, "also_low": 1}
	st := func(stage, code string) State { return State{Stage: stage, Code: code} }
	res, act := st(StageResurrection, "lost"), st(StageActivation, "new")
	low, mid, high := st(StageEngagement, "low"), st(StageEngagement, "mid"), st(StageEngagement, "high")
	for _, c := range []struct {
		from, to State
		better   bool
	}{
		{res, act, true},
		{res, low, true},
		{res, high, true},
		{res, st(StageResurrection, "dormant"), false}, // a deeper (or other) dormancy
		{res, res, false},
		{act, low, true},
		{act, high, true},
		{act, st(StageEngagement, "unknown"), true}, // ENGAGEMENT whatever its level
		{act, st(StageActivation, "first_purchase"), false},
		{act, act, false},
		{act, res, false},
		{low, mid, true},
		{mid, high, true},
		{low, high, true},
		{high, mid, false},
		{mid, mid, false},
		{low, st(StageEngagement, "also_low"), false}, // same threshold
		{low, st(StageEngagement, "unknown"), false},  // not a level of the AGC
		{st(StageEngagement, "unknown"), high, false},
		{high, act, false},
		{high, res, false},
		{st("", ""), high, false},
		{res, st("", ""), false},
	} {
		if got := Better(c.from, c.to, levels); got != c.better {
			t.Errorf("%v -> %v: better %v, want %v", c.from, c.to, got, c.better)
		}
	}
}
