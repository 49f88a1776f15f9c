// Package lifecycle is Reten's own lifecycle engine: it classifies each
// commerce of an activity generation config's population into a retention
// state (stage and status code) from the tenant's dataset.
//
// The rules are stated once, in docs/lifecycle.md. This file evaluates them
// in plain Go over rows held in memory: it explains one commerce's state and
// is the reference the pushed-down SQL statement is tested against.
package lifecycle

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Day is the engine's day: exactly 86,400 seconds, whatever the calendar.
const Day = 24 * time.Hour

// Method is how a pillar measures a commerce's rows over a window.
type Method string

// The methods of activation (aggregationMethod) and engagement (countingMethod).
const (
	Count       Method = "count"
	NUnique     Method = "nunique"
	Sum         Method = "sum"
	ActiveWeeks Method = "active_weeks"
)

// Methods are the methods in the order messages list them.
var Methods = []Method{NUnique, Count, Sum, ActiveWeeks}

// MethodsMessage is the message of a method outside Methods at path.
func MethodsMessage(path string) string {
	names := make([]string, len(Methods))
	for i, m := range Methods {
		names[i] = string(m)
	}
	return path + " must be one of the following values: " + strings.Join(names, ", ")
}

// Rule names the rule that decided a commerce's state.
type Rule string

// The rules, in the order they are tried, and the outcome of none.
const (
	RuleResurrection Rule = "RESURRECTION"
	RuleActivation   Rule = "ACTIVATION"
	RuleEngagement   Rule = "ENGAGEMENT"
	RuleUnclassified Rule = "UNCLASSIFIED"
)

// Row is one dataset row of a commerce in a pillar's source table: its
// instant (dateColumn) and the values of the pillar's sourceColumns, nil for
// SQL NULL. Sum reads Values[0] as a float64.
type Row struct {
	At     time.Time
	Values []any
}

// Moment is an activation moment.
type Moment struct {
	StatusCode string
	MinActions *int
	WindowDays *int
	TimeWindow *int
	Priority   int
	Active     bool
}

// Level is an engagement level.
type Level struct {
	StatusCode   string
	MinThreshold int
	MaxThreshold *int
	Order        int
	Active       bool
}

// Threshold is a resurrection threshold.
type Threshold struct {
	StatusCode    string
	ThresholdDays int
	Order         int
	Active        bool
}

// Source is where a pillar reads its rows: a table of the tenant dataset,
// its instant column and the columns its method reads.
type Source struct {
	Table      string
	DateColumn string
	Columns    []string
}

// Rules is an AGC's three pillars as the engine reads them.
type Rules struct {
	Activation struct {
		Source
		Active  bool
		Method  Method
		Moments []Moment
	}
	Engagement struct {
		Source
		Active      bool
		Method      Method
		WindowDays  int
		MinLifetime int
		Levels      []Level
	}
	Resurrection struct {
		Source
		Active     bool
		Thresholds []Threshold
	}
}

// Rows is one commerce's rows in each pillar's source table.
type Rows struct {
	Activation, Engagement, Resurrection []Row
}

// ActivationMetric is an activation moment's metric over its window.
type ActivationMetric struct {
	StatusCode string   `json:"statusCode"`
	WindowDays *int     `json:"windowDays"`
	Value      *float64 `json:"value"`
}

// Metrics are the figures the rules read.
type Metrics struct {
	Lifetime      float64            `json:"lifetime"`
	DaysSinceLast *int64             `json:"daysSinceLast"`
	Engagement    float64            `json:"engagement"`
	Activation    []ActivationMetric `json:"activation"`
}

// State is the outcome of the rules for one commerce at one instant. Code is
// empty when the commerce is unclassified.
type State struct {
	Rule    Rule
	Stage   string
	Code    string
	Metrics Metrics
	Reasons []string
}

// Evaluate applies the rules to one commerce's rows at the instant t.
func Evaluate(r Rules, rows Rows, t time.Time) State {
	var st State
	st.Metrics.Lifetime = measure(r.Engagement.Method, rows.Engagement, time.Time{}, t)
	st.Metrics.Engagement = measure(r.Engagement.Method, rows.Engagement, t.Add(-time.Duration(r.Engagement.WindowDays)*Day), t)
	if last, ok := edgeBefore(rows.Resurrection, t, false); ok {
		d := int64(t.Sub(last) / Day)
		st.Metrics.DaysSinceLast = &d
	}
	moments := r.ActiveMoments()
	for _, m := range moments {
		v := measure(r.Activation.Method, rows.Activation, windowStart(m.WindowDays, t), t)
		st.Metrics.Activation = append(st.Metrics.Activation, ActivationMetric{StatusCode: m.StatusCode, WindowDays: m.WindowDays, Value: &v})
	}

	code, why, ok := resurrection(r, st.Metrics.DaysSinceLast)
	if ok {
		return st.decide(RuleResurrection, "RESURRECTION", code, why)
	}
	st.Reasons = append(st.Reasons, why)
	if st.Metrics.Lifetime < float64(r.Engagement.MinLifetime) {
		first, hasFirst := edgeBefore(rows.Activation, t, true)
		for i, m := range moments {
			if *st.Metrics.Activation[i].Value < float64(deref(m.MinActions)) {
				continue
			}
			if m.TimeWindow != nil && (!hasFirst || first.Before(t.Add(-time.Duration(*m.TimeWindow)*Day))) {
				continue
			}
			return st.decide(RuleActivation, "ACTIVATION", m.StatusCode, fmt.Sprintf(
				"Activation applies: lifetime %s < %d; moment %s is the first active moment whose conditions hold.",
				num(st.Metrics.Lifetime), r.Engagement.MinLifetime, m.StatusCode))
		}
		return st.decide(RuleActivation, "ACTIVATION", "", fmt.Sprintf(
			"Activation applies: lifetime %s < %d; no active moment's conditions hold, so the commerce is unclassified.",
			num(st.Metrics.Lifetime), r.Engagement.MinLifetime))
	}
	st.Reasons = append(st.Reasons, fmt.Sprintf("Activation does not apply: lifetime %s >= %d.",
		num(st.Metrics.Lifetime), r.Engagement.MinLifetime))
	e := st.Metrics.Engagement
	for _, l := range r.ActiveLevels() {
		if float64(l.MinThreshold) <= e && (l.MaxThreshold == nil || e <= float64(*l.MaxThreshold)) {
			return st.decide(RuleEngagement, "ENGAGEMENT", l.StatusCode, fmt.Sprintf(
				"Engagement applies: engagement %s over %d days is within level %s.", num(e), r.Engagement.WindowDays, l.StatusCode))
		}
	}
	return st.decide(RuleEngagement, "ENGAGEMENT", "", fmt.Sprintf(
		"Engagement applies: engagement %s over %d days is within no active level, so the commerce is unclassified.",
		num(e), r.Engagement.WindowDays))
}

// ruleNames name the rules, in order, as the reasons say them.
var ruleNames = []struct {
	rule Rule
	name string
}{{RuleResurrection, "resurrection"}, {RuleActivation, "activation"}, {RuleEngagement, "engagement"}}

// decide records the deciding rule, and one reason for each later rule (it
// is not tried); an empty code leaves the commerce unclassified.
func (st State) decide(rule Rule, stage, code, why string) State {
	st.Reasons = append(st.Reasons, why)
	applied := ""
	for _, r := range ruleNames {
		if applied != "" {
			st.Reasons = append(st.Reasons, fmt.Sprintf("%s does not apply: %s applied first.",
				strings.ToUpper(r.name[:1])+r.name[1:], applied))
		}
		if r.rule == rule {
			applied = r.name
		}
	}
	if code == "" {
		st.Rule = RuleUnclassified
		return st
	}
	st.Rule, st.Stage, st.Code = rule, stage, code
	return st
}

// resurrection applies rule 1: the code of the active threshold with the
// largest thresholdDays <= D, when D reaches the smallest one.
func resurrection(r Rules, d *int64) (code, why string, ok bool) {
	if !r.Resurrection.Active {
		return "", "Resurrection does not apply: the pillar is inactive.", false
	}
	if d == nil {
		return "", "Resurrection does not apply: no row in its source before the instant.", false
	}
	for _, t := range r.ActiveThresholds() {
		if int64(t.ThresholdDays) <= *d {
			return t.StatusCode, fmt.Sprintf("Resurrection applies: %d days since the last row; threshold %s starts at %d days.",
				*d, t.StatusCode, t.ThresholdDays), true
		}
	}
	return "", fmt.Sprintf("Resurrection does not apply: %d days since the last row is below every active threshold.", *d), false
}

// ActiveMoments are the moments rule 2 tries, in order: none when the
// activation pillar is inactive.
func (r Rules) ActiveMoments() []Moment {
	return activeSorted(r.Activation.Moments, r.Activation.Active, func(m Moment) bool { return m.Active },
		func(a, b Moment) int {
			return cmp.Or(cmp.Compare(a.Priority, b.Priority), cmp.Compare(a.StatusCode, b.StatusCode))
		})
}

// ActiveLevels are the levels rule 3 tries, in order: none when the
// engagement pillar is inactive.
func (r Rules) ActiveLevels() []Level {
	return activeSorted(r.Engagement.Levels, r.Engagement.Active, func(l Level) bool { return l.Active },
		func(a, b Level) int {
			return cmp.Or(cmp.Compare(a.Order, b.Order), cmp.Compare(a.StatusCode, b.StatusCode))
		})
}

// ActiveThresholds are the thresholds rule 1 tries, largest thresholdDays
// first (ties: smaller order, then smaller code): the first one <= D gives
// the code. None when the resurrection pillar is inactive.
func (r Rules) ActiveThresholds() []Threshold {
	return activeSorted(r.Resurrection.Thresholds, r.Resurrection.Active, func(t Threshold) bool { return t.Active },
		func(a, b Threshold) int {
			return cmp.Or(cmp.Compare(b.ThresholdDays, a.ThresholdDays), cmp.Compare(a.Order, b.Order), cmp.Compare(a.StatusCode, b.StatusCode))
		})
}

// activeSorted returns the active children of an active pillar in rule order.
func activeSorted[T any](all []T, pillarActive bool, active func(T) bool, order func(a, b T) int) []T {
	if !pillarActive {
		return nil
	}
	var out []T
	for _, c := range all {
		if active(c) {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, order)
	return out
}

// measure is a method's metric over the rows in [from, to); a zero from
// means every row before to.
func measure(m Method, rows []Row, from, to time.Time) float64 {
	var n float64
	seen := map[string]bool{}
	for _, row := range rows {
		if !row.At.Before(to) || (!from.IsZero() && row.At.Before(from)) {
			continue
		}
		switch m {
		case Count:
			n++
		case Sum:
			if len(row.Values) > 0 && row.Values[0] != nil {
				n += row.Values[0].(float64)
			}
		case NUnique:
			if slices.Contains(row.Values, nil) || len(row.Values) == 0 {
				continue
			}
			seen[fmt.Sprintf("%#v", row.Values)] = true
		case ActiveWeeks:
			y, w := row.At.UTC().ISOWeek()
			seen[fmt.Sprint(y, "-", w)] = true
		}
	}
	if m == NUnique || m == ActiveWeeks {
		return float64(len(seen))
	}
	return n
}

func windowStart(days *int, t time.Time) time.Time {
	if days == nil {
		return time.Time{}
	}
	return t.Add(-time.Duration(*days) * Day)
}

// edgeBefore is the latest (or, with first, the earliest) instant of the
// rows before t.
func edgeBefore(rows []Row, t time.Time, first bool) (time.Time, bool) {
	var edge time.Time
	found := false
	for _, r := range rows {
		if r.At.Before(t) && (!found || r.At.Before(edge) == first) {
			edge, found = r.At, true
		}
	}
	return edge, found
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// num formats a metric without a needless fraction.
func num(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%g", v)
}
