package generator

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	gd "github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/ent/generationrule"
	"github.com/reten-io/reten/internal/cutoff"
	"github.com/reten-io/reten/internal/generation"
)

// decision is one decision row to write.
type decision struct {
	id, project, agc, rule, commerce uuid.UUID
	trigger                          generationrule.Trigger
	stage, code                      string
	enteredAt                        time.Time
	kind                             gd.Kind
	reason                           *gd.Reason
	detail                           string
	transition                       *uuid.UUID
	activity                         *newActivity // GENERATED
}

// newActivity is an activity a GENERATED decision creates.
type newActivity struct {
	id, project, agc, commerce uuid.UUID
	typ                        activity.Type
	channel                    activity.Channel
	unresolved                 string // MESSAGE: why no recipient was found ("" when found)
	created, scheduled         time.Time
	expires                    *time.Time
	title, description, reason string
	operator, route            *uuid.UUID
	attributes                 map[string]string
}

// decide makes the decisions of entries in w, in order: the rules of each
// entry by (priority, id). Nothing is written; the world is updated as if
// each decision were (a later rule sees an earlier one's activity).
func (g *Service) decide(w *world, entries []entry) ([]*decision, error) {
	var out []*decision
	templates := map[string]*generation.Template{}
	render := func(text string, values map[string]string) (string, error) {
		t, ok := templates[text]
		if !ok {
			var err error
			if t, err = generation.ParseTemplate(text); err != nil {
				return "", err
			}
			templates[text] = t
		}
		return t.Render(values)
	}
	for _, e := range entries {
		a, c := w.agcs[e.agc], w.commerces[e.commerce]
		if a == nil || c == nil {
			continue // the AGC is not active, or the commerce is gone: no rule fires
		}
		rules := w.rules[e.agc]
		if e.rule != nil {
			rules = []*ent.GenerationRule{e.rule}
		}
		for _, r := range rules {
			if string(r.Stage) != e.stage || r.StatusCode != e.code {
				continue
			}
			k := decisionKey{r.ID, e.commerce, e.enteredAt.UTC()}
			if w.decided[k] {
				continue
			}
			w.decided[k] = true
			d := &decision{id: newID(), project: a.ProjectID, agc: a.ID, rule: r.ID, commerce: c.ID, trigger: r.Trigger,
				stage: e.stage, code: e.code, enteredAt: e.enteredAt, transition: e.transition}
			if err := w.judge(d, r, c, render); err != nil {
				return nil, err
			}
			out = append(out, d)
		}
	}
	return out, nil
}

// judge decides one rule for one commerce, in this order: the state left,
// an inactive commerce, the control group, the AGC's holdout, another rule
// that created today, the caps (an open activity of the rule, the maximum
// per window, the minimum gap), an expiry already past; else GENERATED.
func (w *world) judge(d *decision, r *ent.GenerationRule, c *ent.Commerce, render func(string, map[string]string) (string, error)) error {
	pc := projectCommerce{d.project, c.ID}
	cp := w.caps[d.project]
	recent := w.generated[pc]
	sched := schedule(r, d.enteredAt, w.now, w.tz)
	state := w.states[stateKey{d.agc, c.ID}]
	set := func(kind gd.Kind, reason gd.Reason, detail string, args ...any) {
		d.kind, d.reason, d.detail = kind, &reason, fmt.Sprintf(detail, args...)
	}
	switch {
	case state == nil || !state.StateChangedAt.Equal(d.enteredAt) || string(state.Stage) != d.stage || state.Code != d.code:
		set(gd.KindEXPIRED_RULE, gd.ReasonSTATE_LEFT, "The commerce had left %s %s when the rule was evaluated.", d.stage, d.code)
	case !c.IsActive:
		set(gd.KindSUPPRESSED, gd.ReasonCOMMERCE_INACTIVE, "The commerce is inactive.")
	case generation.InGroup(cp.control.salt, c.ID, cp.control.percent):
		set(gd.KindHELD_OUT, gd.ReasonCONTROL_GROUP, "The commerce is in the project's control group (%d%%).", cp.control.percent)
	case generation.InGroup(w.holdout[d.agc].salt, c.ID, w.holdout[d.agc].percent):
		set(gd.KindHELD_OUT, gd.ReasonAGC_HOLDOUT, "The commerce is in the AGC's holdout group (%d%%).", w.holdout[d.agc].percent)
	case len(recent) > 0 && !recent[len(recent)-1].at.Before(cutoff.StartOf(cutoff.DayOf(w.now, w.tz), w.tz)):
		set(gd.KindSUPPRESSED, gd.ReasonPRIORITY, "Rule %q created an activity for the commerce earlier today.", recent[len(recent)-1].rule)
	case w.open[ruleCommerce{r.ID, c.ID}]:
		set(gd.KindCAPPED, gd.ReasonOPEN_ACTIVITY, "The commerce still has an open activity of this rule.")
	case countSince(recent, w.now.Add(-days(cp.windowDays))) >= cp.maxPerCommerce:
		set(gd.KindCAPPED, gd.ReasonMAX_PER_WINDOW, "The commerce already has %d generated activities in the last %d days (the policy's maximum).",
			cp.maxPerCommerce, cp.windowDays)
	case cp.minGapDays > 0 && len(recent) > 0 && recent[len(recent)-1].at.After(w.now.Add(-days(cp.minGapDays))):
		set(gd.KindCAPPED, gd.ReasonMIN_GAP, "The commerce's last generated activity is less than %d days old (the policy's minimum gap).", cp.minGapDays)
	case sched.expires != nil && !sched.expires.After(w.now):
		set(gd.KindEXPIRED_RULE, gd.ReasonEXPIRED, "The activity, due %s, would have expired at %s.",
			sched.due.Format(time.RFC3339), sched.expires.Format(time.RFC3339))
	default:
		a, err := w.build(d, r, c, state, sched, render)
		if err != nil {
			return err
		}
		d.kind, d.activity = gd.KindGENERATED, a
		d.detail = fmt.Sprintf("Created a %s on %s scheduled at %s.", r.Type, r.Channel, a.scheduled.Format(time.RFC3339))
		w.generated[pc] = append(w.generated[pc], generated{at: w.now, rule: r.Name})
		w.open[ruleCommerce{r.ID, c.ID}] = true
	}
	return nil
}

// build makes the activity of a GENERATED decision: its schedule, rendered
// texts, static attributes and resolved assignee or recipient.
func (w *world) build(d *decision, r *ent.GenerationRule, c *ent.Commerce, state *ent.CommerceLifecycleSnapshot, sched when,
	render func(string, map[string]string) (string, error)) (*newActivity, error) {
	values := map[string]string{
		"commerce.name": c.Name, "commerce.segment": c.Segment,
		"state.stage": d.stage, "state.code": d.code, "state.label": state.Label,
		"state.entered_at":    cutoff.DayOf(d.enteredAt, w.tz).String(),
		"state.days_in_state": strconv.Itoa(int(w.now.Sub(d.enteredAt) / (24 * time.Hour))),
	}
	if c.ExternalID != nil {
		values["commerce.external_id"] = *c.ExternalID
	}
	for k, v := range w.metrics[entryKey{d.agc, c.ID, d.enteredAt.UnixMicro()}] {
		values["metrics."+k] = v
	}
	title, err := render(r.TitleTemplate, values)
	if err != nil {
		return nil, fmt.Errorf("generation: rule %s title: %w", r.ID, err)
	}
	description, err := render(r.InstructionsTemplate, values)
	if err != nil {
		return nil, fmt.Errorf("generation: rule %s instructions: %w", r.ID, err)
	}
	w.created++
	a := &newActivity{id: newID(), created: w.now.Add(time.Duration(w.created) * time.Microsecond), project: d.project, agc: d.agc, commerce: c.ID, typ: activity.Type(r.Type),
		channel: activity.Channel(r.Channel), scheduled: sched.scheduled, expires: sched.expires,
		title: truncate(title, 255), description: description, reason: r.ReasonCode, attributes: map[string]string{}}
	for k, v := range r.Attributes {
		a.attributes[k] = v
	}
	a.attributes[AttrRule] = r.ID.String()
	if r.Type == generationrule.TypeTASK {
		w.assign(a, r)
	} else {
		role := string(generationrule.TargetRoleOWNER)
		if r.TargetRole != nil {
			role = string(*r.TargetRole)
		}
		a.attributes[AttrTargetRole] = role
		w.target(a, role)
	}
	return a, nil
}

// countSince counts the decisions at or after since.
func countSince(gs []generated, since time.Time) int {
	i, _ := slices.BinarySearchFunc(gs, since, func(g generated, t time.Time) int { return g.at.Compare(t) })
	return len(gs) - i
}

func days(n int) time.Duration { return time.Duration(n) * 24 * time.Hour }

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// newID is a decision's or activity's id: a UUIDv7, time-ordered, so a
// batch appends to the primary keys.
func newID() uuid.UUID { return uuid.Must(uuid.NewV7()) }
