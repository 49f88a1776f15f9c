package lifecycle

import (
	"slices"
	"testing"
	"time"
)

// t0 is a Monday at midnight UTC, so ISO-week boundaries fall on it.
var t0 = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)

func ip(i int) *int { return &i }

func ago(d time.Duration) time.Time { return t0.Add(-d) }

func days(n int) time.Duration { return time.Duration(n) * Day }

// orders are rows of a one-column source whose values are distinct.
func orders(at ...time.Time) []Row {
	out := make([]Row, len(at))
	for i, a := range at {
		out[i] = Row{At: a, Values: []any{float64(i + 1)}}
	}
	return out
}

// same puts the rows in all three sources, as the defaults read one table.
func same(rows []Row) Rows { return Rows{Activation: rows, Engagement: rows, Resurrection: rows} }

// defaults are the rules of GET /api/lifecycle-defaults.
func defaults() Rules {
	var r Rules
	r.Activation.Active, r.Activation.Method = true, NUnique
	r.Activation.Moments = []Moment{
		{StatusCode: "activated", MinActions: ip(2), WindowDays: ip(60), TimeWindow: ip(90), Priority: 1, Active: true},
		{StatusCode: "new", MinActions: ip(1), WindowDays: ip(30), Priority: 2, Active: true},
	}
	r.Engagement.Active, r.Engagement.Method, r.Engagement.WindowDays, r.Engagement.MinLifetime = true, NUnique, 90, 3
	r.Engagement.Levels = []Level{
		{StatusCode: "low_engagement", MinThreshold: 0, MaxThreshold: ip(2), Order: 1, Active: true},
		{StatusCode: "medium_engagement", MinThreshold: 3, MaxThreshold: ip(5), Order: 2, Active: true},
		{StatusCode: "high_engagement", MinThreshold: 6, Order: 3, Active: true},
	}
	r.Resurrection.Active = true
	r.Resurrection.Thresholds = []Threshold{
		{StatusCode: "at_risk", ThresholdDays: 30, Order: 1, Active: true},
		{StatusCode: "dormant", ThresholdDays: 60, Order: 2, Active: true},
		{StatusCode: "churned", ThresholdDays: 90, Order: 3, Active: true},
	}
	return r
}

func TestEvaluateRules(t *testing.T) {
	tests := []struct {
		name   string
		rules  func(*Rules)
		rows   Rows
		rule   Rule
		code   string
		metric func(Metrics) bool
	}{
		{name: "no row at all is unclassified by the defaults", rows: Rows{}, rule: RuleUnclassified},
		{name: "no row at all meets a moment without minimum", rows: Rows{}, rule: RuleActivation, code: "any",
			rules: func(r *Rules) {
				r.Activation.Moments = append(r.Activation.Moments, Moment{StatusCode: "any", Priority: 9, Active: true})
			}},
		{name: "a row at exactly T does not count", rows: same(orders(t0)), rule: RuleUnclassified,
			metric: func(m Metrics) bool { return m.DaysSinceLast == nil && m.Lifetime == 0 }},
		{name: "30 days to the second is at_risk", rows: same(orders(ago(days(30)))), rule: RuleResurrection, code: "at_risk",
			metric: func(m Metrics) bool { return *m.DaysSinceLast == 30 }},
		{name: "one second short of 30 days is new", rows: same(orders(ago(days(30) - time.Second))), rule: RuleActivation, code: "new",
			metric: func(m Metrics) bool { return *m.DaysSinceLast == 29 }},
		{name: "59 days is still at_risk", rows: same(orders(ago(days(60) - time.Second))), rule: RuleResurrection, code: "at_risk"},
		{name: "60 days is dormant", rows: same(orders(ago(days(60)))), rule: RuleResurrection, code: "dormant"},
		{name: "1000 days is churned", rows: same(orders(ago(days(1000)), ago(days(1200)))), rule: RuleResurrection, code: "churned"},
		{name: "two orders in 60 days, the first within 90, is activated",
			rows: same(orders(ago(days(10)), ago(days(5)))), rule: RuleActivation, code: "activated"},
		{name: "first order exactly 90 days before meets the time window",
			rules: func(r *Rules) { r.Engagement.MinLifetime = 10 },
			rows:  same(orders(ago(days(90)), ago(days(50)), ago(days(5)))), rule: RuleActivation, code: "activated"},
		{name: "first order a second before the time window falls to new",
			rules: func(r *Rules) { r.Engagement.MinLifetime = 10 },
			rows:  same(orders(ago(days(90)+time.Second), ago(days(50)), ago(days(5)))), rule: RuleActivation, code: "new"},
		{name: "three lifetime orders, two in 90 days, is low_engagement",
			rows: same(orders(ago(days(200)), ago(days(20)), ago(days(3)))), rule: RuleEngagement, code: "low_engagement",
			metric: func(m Metrics) bool { return m.Lifetime == 3 && m.Engagement == 2 }},
		{name: "the engagement window includes its first instant",
			rows: same(orders(ago(days(90)), ago(days(20)), ago(days(3)))), rule: RuleEngagement, code: "medium_engagement"},
		{name: "six orders in 90 days is high_engagement",
			rows: same(orders(ago(days(80)), ago(days(70)), ago(days(60)), ago(days(40)), ago(days(20)), ago(days(1)))),
			rule: RuleEngagement, code: "high_engagement"},
		{name: "an inactive resurrection pillar never applies rule 1",
			rules: func(r *Rules) { r.Resurrection.Active = false },
			rows:  same(orders(ago(days(400)), ago(days(300)), ago(days(200)))), rule: RuleEngagement, code: "low_engagement"},
		{name: "an inactive activation pillar leaves rule 2 unclassified",
			rules: func(r *Rules) { r.Activation.Active = false },
			rows:  same(orders(ago(days(3)))), rule: RuleUnclassified},
		{name: "an inactive engagement pillar still defines L but has no level",
			rules: func(r *Rules) { r.Engagement.Active = false },
			rows:  same(orders(ago(days(20)), ago(days(10)), ago(days(3)))), rule: RuleUnclassified,
			metric: func(m Metrics) bool { return m.Lifetime == 3 && m.Engagement == 3 }},
		{name: "an inactive child does not count",
			rules: func(r *Rules) { r.Resurrection.Thresholds[2].Active = false },
			rows:  same(orders(ago(days(100)))), rule: RuleResurrection, code: "dormant"},
		{name: "equal thresholds: the smaller order, then the smaller code",
			rules: func(r *Rules) {
				r.Resurrection.Thresholds = append(r.Resurrection.Thresholds,
					Threshold{StatusCode: "b_gone", ThresholdDays: 90, Order: 0, Active: true},
					Threshold{StatusCode: "a_gone", ThresholdDays: 90, Order: 0, Active: true})
			},
			rows: same(orders(ago(days(95)))), rule: RuleResurrection, code: "a_gone"},
		{name: "equal priorities: the smaller code",
			rules: func(r *Rules) {
				r.Activation.Moments = []Moment{
					{StatusCode: "zz", MinActions: ip(1), Priority: 1, Active: true},
					{StatusCode: "aa", MinActions: ip(1), Priority: 1, Active: true},
				}
			},
			rows: same(orders(ago(days(2)))), rule: RuleActivation, code: "aa"},
		{name: "a sum between two levels is unclassified",
			rules: func(r *Rules) { r.Engagement.Method, r.Engagement.MinLifetime = Sum, 1 },
			rows: same([]Row{{At: ago(days(2)), Values: []any{1.5}}, {At: ago(days(3)), Values: []any{nil}},
				{At: ago(days(4)), Values: []any{1.0}}}),
			rule: RuleUnclassified, metric: func(m Metrics) bool { return m.Engagement == 2.5 }},
		{name: "nunique ignores a row with a null and counts a tuple once",
			rules: func(r *Rules) { r.Engagement.MinLifetime = 0 },
			rows: same([]Row{{At: ago(days(2)), Values: []any{"a", "x"}}, {At: ago(days(3)), Values: []any{"a", "x"}},
				{At: ago(days(4)), Values: []any{"a", nil}}, {At: ago(days(5)), Values: []any{"a", "y"}}}),
			rule: RuleEngagement, code: "low_engagement", metric: func(m Metrics) bool { return m.Engagement == 2 }},
		{name: "count counts rows with nulls",
			rules: func(r *Rules) { r.Engagement.Method, r.Engagement.MinLifetime = Count, 0 },
			rows: same([]Row{{At: ago(days(2)), Values: []any{nil}}, {At: ago(days(3)), Values: []any{nil}},
				{At: ago(days(4)), Values: []any{"a"}}}),
			rule: RuleEngagement, code: "medium_engagement", metric: func(m Metrics) bool { return m.Engagement == 3 }},
		{name: "active weeks start on Monday UTC",
			rules: func(r *Rules) { r.Engagement.Method, r.Engagement.MinLifetime = ActiveWeeks, 0 },
			rows:  same(orders(ago(time.Second), ago(days(7)))),
			rule:  RuleEngagement, code: "low_engagement", metric: func(m Metrics) bool { return m.Engagement == 1 }},
		{name: "active weeks: a second before Monday is the week before",
			rules: func(r *Rules) { r.Engagement.Method, r.Engagement.MinLifetime = ActiveWeeks, 0 },
			rows:  same(orders(ago(time.Second), ago(days(7)), ago(days(7)+time.Second), ago(days(14)+time.Second))),
			rule:  RuleEngagement, code: "medium_engagement", metric: func(m Metrics) bool { return m.Engagement == 3 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := defaults()
			if tc.rules != nil {
				tc.rules(&r)
			}
			st := Evaluate(r, tc.rows, t0)
			if st.Rule != tc.rule || st.Code != tc.code {
				t.Fatalf("got rule %s code %q, want %s %q; reasons %q", st.Rule, st.Code, tc.rule, tc.code, st.Reasons)
			}
			if tc.metric != nil && !tc.metric(st.Metrics) {
				t.Fatalf("metrics %+v", st.Metrics)
			}
		})
	}
}

func TestEvaluateExplains(t *testing.T) {
	st := Evaluate(defaults(), same(orders(ago(days(200)), ago(days(20)), ago(days(3)))), t0)
	want := []string{
		"Resurrection does not apply: 3 days since the last row is below every active threshold.",
		"Activation does not apply: lifetime 3 >= 3.",
		"Engagement applies: engagement 2 over 90 days is within level low_engagement.",
	}
	if len(st.Reasons) != len(want) {
		t.Fatalf("reasons %q", st.Reasons)
	}
	for i := range want {
		if st.Reasons[i] != want[i] {
			t.Fatalf("reason %d: %q, want %q", i, st.Reasons[i], want[i])
		}
	}
	if st.Stage != "ENGAGEMENT" || len(st.Metrics.Activation) != 2 || *st.Metrics.Activation[0].Value != 2 ||
		*st.Metrics.Activation[1].Value != 2 {
		t.Fatalf("state %+v", st)
	}
}

// TestEvaluateGivesOneReasonPerRule: the rules after the deciding one say
// they were not tried, also when the deciding rule leaves the commerce
// unclassified.
func TestEvaluateGivesOneReasonPerRule(t *testing.T) {
	for _, tc := range []struct {
		rows Rows
		want []string
	}{
		{same(orders(ago(days(60)))), []string{"Resurrection applies: 60 days since the last row; threshold dormant starts at 60 days.",
			"Activation does not apply: resurrection applied first.", "Engagement does not apply: resurrection applied first."}},
		{Rows{}, []string{"Resurrection does not apply: no row in its source before the instant.",
			"Activation applies: lifetime 0 < 3; no active moment's conditions hold, so the commerce is unclassified.",
			"Engagement does not apply: activation applied first."}},
	} {
		if st := Evaluate(defaults(), tc.rows, t0); !slices.Equal(st.Reasons, tc.want) {
			t.Fatalf("reasons %q\nwant %q", st.Reasons, tc.want)
		}
	}
}
