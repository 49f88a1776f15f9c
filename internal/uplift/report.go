package uplift

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
)

// The outcomes, in report order.
const (
	OutcomeEngaged        = "ENGAGED"
	OutcomeImproved       = "IMPROVED"
	OutcomePositiveResult = "POSITIVE_RESULT"
)

// Outcomes lists the outcomes in report order.
var Outcomes = []string{OutcomeEngaged, OutcomeImproved, OutcomePositiveResult}

// Warnings of an outcome's figures.
const (
	MsgNoTreated = "No treated decisions: the uplift cannot be computed"
	MsgNoControl = "No control decisions: the uplift cannot be computed"
	MsgNoneAtAll = "No decisions: the uplift cannot be computed"
	// MsgSmallFmt names the groups' figures (e.g. "treated 2/6, control
	// 2/3") when one breaks the small-sample rule.
	MsgSmallFmt = "Small sample (%s): the 95%% interval and the p-value need at least 30 decisions, 5 successes and 5 failures in each group"
	// MsgSmallTreatedFmt is the rule for an outcome of the treated group only.
	MsgSmallTreatedFmt = "Small sample (treated %d/%d): a rate needs at least 30 decisions, 5 successes and 5 failures to be precise"
)

// Report compares the treated and control decisions of an AGC (the package
// documentation defines every figure).
type Report struct {
	ActivityGenerationConfigID uuid.UUID  `json:"activityGenerationConfigId"`
	RuleID                     *uuid.UUID `json:"ruleId"`
	Channel                    *string    `json:"channel"`
	From                       *time.Time `json:"from"`
	To                         *time.Time `json:"to"`
	WindowDays                 int        `json:"windowDays"`
	// AsOf is now: the decisions whose window ended by then are measured.
	AsOf    time.Time `json:"asOf"`
	Treated Group     `json:"treated"`
	Control Group     `json:"control"`
	// Pending counts the decisions of the population whose window has not
	// elapsed (both groups), left out of every figure.
	Pending  int       `json:"pending"`
	Outcomes []Outcome `json:"outcomes"`
	// Warnings are the report's: an outcome not computed, and why.
	Warnings []string `json:"warnings"`
}

// Group is the size of a group: its measured decisions.
type Group struct {
	Decisions int `json:"decisions"`
}

// Outcome is one outcome's comparison. Treated and Control are nil when
// the outcome was not computed; Control is nil for POSITIVE_RESULT. The
// uplift, its interval and the p-value are nil when a group is missing or
// empty (the p-value also when the pooled rate is 0 or 1).
type Outcome struct {
	Outcome string      `json:"outcome"`
	Treated *Proportion `json:"treated"`
	Control *Proportion `json:"control"`
	Uplift  *float64    `json:"uplift"`
	CILow   *float64    `json:"ciLow"`
	CIHigh  *float64    `json:"ciHigh"`
	PValue  *float64    `json:"pValue"`
	Warning *string     `json:"warning"`
}

// Proportion is a group's figure for an outcome: Successes of N, and the
// rate (nil when N is 0).
type Proportion struct {
	N         int      `json:"n"`
	Successes int      `json:"successes"`
	Rate      *float64 `json:"rate"`
}

// Report measures AGC agcID of the active project: the parameters are
// checked first (one 400 listing every broken one), then the AGC (404),
// then the rule (404 when it is not one of the AGC's); a dataset that
// cannot serve ENGAGED leaves it out with a warning, a dataset statement
// that fails is a 422.
func (s *Service) Report(ctx context.Context, agcID uuid.UUID, in Input) (*Report, error) {
	p, err := s.prepare(ctx, agcID, in)
	if err != nil {
		return nil, err
	}
	out := &Report{ActivityGenerationConfigID: agcID, RuleID: p.f.ruleID, Channel: p.f.channel, From: p.f.from, To: p.f.to,
		WindowDays: p.f.window, AsOf: p.now, Warnings: []string{}}
	if out.Pending, err = s.pending(ctx, p); err != nil {
		return nil, err
	}
	// successes[outcome][group]; the groups' sizes count every outcome's n.
	var n [2]int
	var x [3][2]int
	err = s.stream(ctx, p, func(r Row) error {
		g := 1
		if r.Group == GroupTreated {
			g = 0
		}
		n[g]++
		if r.Engaged != nil && *r.Engaged {
			x[0][g]++
		}
		if r.Improved {
			x[1][g]++
		}
		if r.PositiveResult != nil && *r.PositiveResult {
			x[2][g]++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.Treated.Decisions, out.Control.Decisions = n[0], n[1]
	if p.engage == nil {
		out.Warnings = append(out.Warnings, p.warning)
		out.Outcomes = append(out.Outcomes, Outcome{Outcome: OutcomeEngaged, Warning: &p.warning})
	} else {
		out.Outcomes = append(out.Outcomes, compare(OutcomeEngaged, x[0][0], n[0], x[0][1], n[1]))
	}
	out.Outcomes = append(out.Outcomes, compare(OutcomeImproved, x[1][0], n[0], x[1][1], n[1]))
	positive := Outcome{Outcome: OutcomePositiveResult, Treated: proportion(x[2][0], n[0])}
	if n[0] > 0 && small(x[2][0], n[0]) {
		positive.Warning = new(fmt.Sprintf(MsgSmallTreatedFmt, x[2][0], n[0]))
	}
	out.Outcomes = append(out.Outcomes, positive)
	return out, nil
}

// compare is an outcome of x1 of n1 treated decisions against x2 of n2
// control ones.
func compare(name string, x1, n1, x2, n2 int) Outcome {
	o := Outcome{Outcome: name, Treated: proportion(x1, n1), Control: proportion(x2, n2)}
	switch {
	case n1 == 0 && n2 == 0:
		o.Warning = new(MsgNoneAtAll)
		return o
	case n1 == 0:
		o.Warning = new(MsgNoTreated)
		return o
	case n2 == 0:
		o.Warning = new(MsgNoControl)
		return o
	}
	lo, hi := Newcombe(x1, n1, x2, n2, Z95)
	o.Uplift = new(*o.Treated.Rate - *o.Control.Rate)
	o.CILow, o.CIHigh = &lo, &hi
	if pv, ok := PooledZTest(x1, n1, x2, n2); ok {
		o.PValue = &pv
	}
	if small(x1, n1) || small(x2, n2) {
		o.Warning = new(fmt.Sprintf(MsgSmallFmt, strings.Join([]string{
			fmt.Sprintf("treated %d/%d", x1, n1), fmt.Sprintf("control %d/%d", x2, n2)}, ", ")))
	}
	return o
}

// proportion is x of n with its rate.
func proportion(x, n int) *Proportion {
	p := &Proportion{N: n, Successes: x}
	if n > 0 {
		p.Rate = new(float64(x) / float64(n))
	}
	return p
}
