package generator

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/commerce"
	snap "github.com/reten-io/reten/ent/commercelifecyclesnapshot"
	gd "github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/ent/generationrule"
	"github.com/reten-io/reten/internal/agc"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/viewer"
)

// Bounds of a preview.
const (
	// PreviewLimit is the most state entries a preview evaluates (the most
	// recent first); Truncated says when there were more.
	PreviewLimit = 10_000
	// PreviewSample is the most commerces shown per rule and decision kind.
	PreviewSample = 5
)

// Kinds are the decision kinds, in their documented order.
var Kinds = []gd.Kind{gd.KindGENERATED, gd.KindHELD_OUT, gd.KindCAPPED, gd.KindSUPPRESSED, gd.KindEXPIRED_RULE}

// Preview is what an AGC's active rules would decide now.
type Preview struct {
	ActivityGenerationConfigID uuid.UUID
	At                         time.Time
	Evaluated                  int // state entries evaluated
	Truncated                  bool
	Rules                      []PreviewRule
}

// PreviewRule is one rule's share of a preview: its decisions by kind and
// a sample of them.
type PreviewRule struct {
	Rule   *ent.GenerationRule
	Counts map[gd.Kind]int
	Sample []PreviewDecision
}

// PreviewDecision is one decision of the sample.
type PreviewDecision struct {
	CommerceID   uuid.UUID
	CommerceName string
	Kind         gd.Kind
	Reason       *gd.Reason
	Detail       string
}

// Preview answers, writing nothing, what the active rules of an AGC of
// the active project would decide now: each rule is evaluated for the
// commerces currently in its state whose entry it has not decided yet (an
// ENTER rule as if the entry's transition were processed now, a DWELL rule
// for the commerces that have stayed dwellDays), exactly as the generator
// decides (groups, caps, priority, expiry), over the PreviewLimit most
// recent entries.
func (g *Service) Preview(ctx context.Context, agcID uuid.UUID) (*Preview, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	sys, now := viewer.SystemContext(ctx), clock.Now()
	ok, err := g.client.ActivityGenerationConfig.Query().Where(activitygenerationconfig.ID(agcID), activitygenerationconfig.TenantID(tid),
		activitygenerationconfig.ProjectID(pid)).Exist(sys)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apperr.NotFound(fmt.Sprintf(agc.MsgNotFoundFmt, agcID))
	}
	rules, err := g.client.GenerationRule.Query().Where(generationrule.TenantID(tid), generationrule.ActivityGenerationConfigID(agcID),
		generationrule.IsActive(true)).Order(generationrule.ByPriority(), generationrule.ByID()).All(sys)
	if err != nil {
		return nil, err
	}
	p := &Preview{ActivityGenerationConfigID: agcID, At: now}
	byRule := map[uuid.UUID]*PreviewRule{}
	for _, r := range rules {
		p.Rules = append(p.Rules, PreviewRule{Rule: r, Counts: map[gd.Kind]int{}})
	}
	for i := range p.Rules {
		byRule[p.Rules[i].Rule.ID] = &p.Rules[i]
	}
	if len(rules) == 0 {
		return p, nil
	}
	// The commerces in the rules' states, most recent entries first.
	var inState []*ent.CommerceLifecycleSnapshot
	for _, r := range rules {
		if len(inState) > PreviewLimit {
			break
		}
		q := g.client.CommerceLifecycleSnapshot.Query().Where(snap.TenantID(tid), snap.ActivityGenerationConfigID(agcID),
			snap.StageEQ(snap.Stage(r.Stage)), snap.Code(r.StatusCode), undecided(r))
		if r.Trigger == generationrule.TriggerDWELL && r.DwellDays != nil {
			q.Where(snap.StateChangedAtLTE(now.Add(-days(*r.DwellDays))))
		}
		rows, err := q.Order(snap.ByStateChangedAt(), snap.ByID()).Limit(PreviewLimit + 1 - len(inState)).All(sys)
		if err != nil {
			return nil, err
		}
		inState = append(inState, rows...)
	}
	if len(inState) > PreviewLimit {
		inState, p.Truncated = inState[:PreviewLimit], true
	}
	var entries []entry
	dwell := map[string][]*ent.GenerationRule{}
	for _, r := range rules {
		if r.Trigger == generationrule.TriggerDWELL {
			dwell[string(r.Stage)+"/"+r.StatusCode] = append(dwell[string(r.Stage)+"/"+r.StatusCode], r)
		}
	}
	seen := map[uuid.UUID]bool{}
	for _, s := range inState {
		if seen[s.ID] { // in the state of two rules
			continue
		}
		seen[s.ID] = true
		e := entry{tenant: tid, commerce: s.CommerceID, agc: agcID, stage: string(s.Stage), code: s.Code, enteredAt: s.StateChangedAt,
			trigger: generationrule.TriggerENTER}
		entries = append(entries, e)
		for _, r := range dwell[e.stage+"/"+e.code] {
			if !now.Before(e.enteredAt.Add(days(*r.DwellDays))) {
				d := e
				d.trigger, d.rule = generationrule.TriggerDWELL, r
				entries = append(entries, d)
			}
		}
	}
	p.Evaluated = len(seen)
	names := map[uuid.UUID]string{}
	for part := range slices.Chunk(entries, g.Batch) {
		ds, err := g.apply(sys, g.client, part, now, false)
		if err != nil {
			return nil, err
		}
		var ids []uuid.UUID
		for _, d := range ds {
			ids = append(ids, d.commerce)
		}
		cs, err := g.client.Commerce.Query().Where(commerce.IDIn(unique(ids)...)).All(sys)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			names[c.ID] = c.Name
		}
		for _, d := range ds {
			pr := byRule[d.rule]
			if pr == nil {
				continue
			}
			pr.Counts[d.kind]++
			if countKind(pr.Sample, d.kind) < PreviewSample {
				pr.Sample = append(pr.Sample, PreviewDecision{CommerceID: d.commerce, CommerceName: names[d.commerce], Kind: d.kind,
					Reason: d.reason, Detail: d.detail})
			}
		}
	}
	return p, nil
}

func countKind(ds []PreviewDecision, k gd.Kind) int {
	n := 0
	for _, d := range ds {
		if d.Kind == k {
			n++
		}
	}
	return n
}
