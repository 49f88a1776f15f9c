package agc

import (
	"testing"
	"time"

	"github.com/reten-io/reten/internal/lifecycle"
)

// defaultRules reads the lifecycle defaults as the engine's rules.
func defaultRules(d Defaults) lifecycle.Rules {
	var r lifecycle.Rules
	r.Activation.Active, r.Activation.Method = true, lifecycle.Method(d.Activation.AggregationMethod)
	for _, m := range d.Activation.Moments {
		r.Activation.Moments = append(r.Activation.Moments, lifecycle.Moment{StatusCode: m.StatusCode,
			MinActions: m.MinActions, WindowDays: m.WindowDays, TimeWindow: m.TimeWindow, Priority: m.Priority, Active: true})
	}
	e := d.Engagement
	r.Engagement.Active, r.Engagement.Method = true, lifecycle.Method(e.CountingMethod)
	r.Engagement.WindowDays, r.Engagement.MinLifetime = e.EngagementWindowDays, e.MinLifetimeActionsForEngaged
	for _, l := range e.Levels {
		r.Engagement.Levels = append(r.Engagement.Levels, lifecycle.Level{StatusCode: l.StatusCode,
			MinThreshold: l.MinThreshold, MaxThreshold: l.MaxThreshold, Order: l.Order, Active: true})
	}
	r.Resurrection.Active = true
	for _, t := range d.Resurrection.Thresholds {
		r.Resurrection.Thresholds = append(r.Resurrection.Thresholds, lifecycle.Threshold{StatusCode: t.StatusCode,
			ThresholdDays: t.ThresholdDays, Order: t.Order, Active: true})
	}
	return r
}

// TestDefaultsReachEveryState: under the engine's rules every state of the
// lifecycle defaults is the state of some commerce (one order table read by
// the three pillars, as the defaults configure it).
func TestDefaultsReachEveryState(t *testing.T) {
	d := defaults()
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	orders := func(daysAgo ...int) lifecycle.Rows {
		var rows []lifecycle.Row
		for i, n := range daysAgo {
			rows = append(rows, lifecycle.Row{At: now.Add(-time.Duration(n) * lifecycle.Day), Values: []any{float64(i)}})
		}
		return lifecycle.Rows{Activation: rows, Engagement: rows, Resurrection: rows}
	}
	cases := map[string]lifecycle.Rows{
		"new":               orders(5),
		"activated":         orders(40, 10),
		"low_engagement":    orders(200, 100, 10),
		"medium_engagement": orders(200, 80, 40, 10),
		"high_engagement":   orders(85, 70, 50, 40, 20, 10),
		"at_risk":           orders(45),
		"dormant":           orders(75),
		"churned":           orders(300, 200, 120),
	}
	codes := 0
	for _, m := range d.Activation.Moments {
		codes++
		if _, ok := cases[m.StatusCode]; !ok {
			t.Fatalf("no case for %s", m.StatusCode)
		}
	}
	codes += len(d.Engagement.Levels) + len(d.Resurrection.Thresholds)
	if codes != len(cases) {
		t.Fatalf("%d default states, %d cases", codes, len(cases))
	}
	for code, rows := range cases {
		if st := lifecycle.Evaluate(defaultRules(d), rows, now); st.Code != code {
			t.Errorf("%s: got %s %q (%q)", code, st.Rule, st.Code, st.Reasons)
		}
	}
}
