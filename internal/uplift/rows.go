package uplift

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activityresult"
	entcommerce "github.com/reten-io/reten/ent/commerce"
	tr "github.com/reten-io/reten/ent/commercelifecycletransition"
	gd "github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/ent/predicate"
	"github.com/reten-io/reten/internal/dataset"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/viewer"
)

// The groups of a row.
const (
	GroupTreated = "TREATED"
	GroupControl = "CONTROL"
)

// pageSize is the decisions read and measured at a time (and the probes of
// one dataset statement).
const pageSize = qb.MaxWindowProbes

// Row is one measured decision: the row behind the report (and of the CSV).
type Row struct {
	DecisionID uuid.UUID
	CommerceID uuid.UUID
	ExternalID *string // the commerce's; nil without one
	RuleID     uuid.UUID
	Channel    string // the rule's
	Group      string // GroupTreated (GENERATED) or GroupControl (HELD_OUT)
	DecidedAt  time.Time
	WindowEnd  time.Time // DecidedAt + W days (excluded from the window)
	Stage      string    // the state at the decision
	StatusCode string
	// Engaged is nil when ENGAGED is not computed (the report says why).
	Engaged       *bool
	EndStage      string // the state at the end of the window
	EndStatusCode string
	Improved      bool
	ActivityID    *uuid.UUID // GENERATED: the activity created
	// ResultCode is the code of the activity's result when it occurred in
	// the window; nil otherwise.
	ResultCode *string
	// PositiveResult is nil for the control group.
	PositiveResult *bool
}

// Rows streams the rows behind the report of AGC agcID (Report's
// parameters and checks), by decided_at then decision id, a page of 1,000
// at a time: every check (400, 404) is answered before fn is first called;
// an error after that (the dataset failing: 422, or fn's) stops the stream.
func (s *Service) Rows(ctx context.Context, agcID uuid.UUID, in Input, fn func(Row) error) error {
	p, err := s.prepare(ctx, agcID, in)
	if err != nil {
		return err
	}
	return s.stream(ctx, p, fn)
}

// decisions are the predicates of the plan's population: the AGC's
// GENERATED and HELD_OUT decisions in the active project under the filter.
func (p *plan) decisions() []predicate.GenerationDecision {
	preds := []predicate.GenerationDecision{gd.TenantID(p.tenant), gd.ProjectID(p.project),
		gd.ActivityGenerationConfigID(p.agc), gd.KindIn(gd.KindGENERATED, gd.KindHELD_OUT)}
	if p.ruleIDs != nil {
		preds = append(preds, gd.RuleIDIn(p.ruleIDs...))
	}
	if p.f.from != nil {
		preds = append(preds, gd.DecidedAtGTE(*p.f.from))
	}
	if p.f.to != nil {
		preds = append(preds, gd.DecidedAtLT(*p.f.to))
	}
	return preds
}

// stream measures the decisions whose window has elapsed, page by page.
func (s *Service) stream(ctx context.Context, p *plan, fn func(Row) error) error {
	var after *Cursor
	for {
		page, err := s.measured(ctx, p, after, pageSize)
		if err != nil || len(page) == 0 {
			return err
		}
		rows, err := s.measure(ctx, p, page)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := fn(r); err != nil {
				return err
			}
		}
		if len(page) < pageSize {
			return nil
		}
		last := page[len(page)-1]
		after = &Cursor{DecidedAt: last.DecidedAt, ID: last.ID}
	}
}

// Cursor is a row's place in the rows' order: its decision's decided_at,
// then id.
type Cursor struct {
	DecidedAt time.Time
	ID        uuid.UUID
}

// measured reads up to limit decisions of the plan whose window has
// elapsed, after cursor after (nil: from the first), in the rows' order.
func (s *Service) measured(ctx context.Context, p *plan, after *Cursor, limit int) ([]*ent.GenerationDecision, error) {
	if p.ruleIDs != nil && len(p.ruleIDs) == 0 {
		return nil, nil // the channel names none of the AGC's rules
	}
	q := s.db(ctx).GenerationDecision.Query().Where(p.decisions()...).Where(gd.DecidedAtLTE(p.cutoff))
	if after != nil {
		q.Where(gd.Or(gd.DecidedAtGT(after.DecidedAt), gd.And(gd.DecidedAtEQ(after.DecidedAt), gd.IDGT(after.ID))))
	}
	page, err := q.Order(gd.ByDecidedAt(), gd.ByID()).Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("uplift: decisions: %w", err)
	}
	return page, nil
}

// RowsPage is Rows a page at a time (GraphQL's upliftRows): up to limit
// rows after cursor after (nil: from the first), and whether more follow.
func (s *Service) RowsPage(ctx context.Context, agcID uuid.UUID, in Input, after *Cursor, limit int) ([]Row, bool, error) {
	p, err := s.prepare(ctx, agcID, in)
	if err != nil {
		return nil, false, err
	}
	page, err := s.measured(ctx, p, after, limit+1)
	if err != nil || len(page) == 0 {
		return []Row{}, false, err
	}
	more := len(page) > limit
	if more {
		page = page[:limit]
	}
	rows, err := s.measure(ctx, p, page)
	return rows, more, err
}

// pending counts the decisions of the population whose window has not
// elapsed.
func (s *Service) pending(ctx context.Context, p *plan) (int, error) {
	if p.ruleIDs != nil && len(p.ruleIDs) == 0 {
		return 0, nil
	}
	n, err := s.db(ctx).GenerationDecision.Query().Where(append(p.decisions(), gd.DecidedAtGT(p.cutoff))...).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("uplift: pending decisions: %w", err)
	}
	return n, nil
}

// measure turns a page of decisions into rows with one read of their
// commerces, one of their transitions, one of their activities' results
// and one dataset statement.
func (s *Service) measure(ctx context.Context, p *plan, page []*ent.GenerationDecision) ([]Row, error) {
	w := p.window()
	var commerceIDs, activityIDs []uuid.UUID
	from, to := page[0].DecidedAt, page[len(page)-1].DecidedAt.Add(w)
	for _, d := range page {
		commerceIDs = append(commerceIDs, d.CommerceID)
		if d.ActivityID != nil {
			activityIDs = append(activityIDs, *d.ActivityID)
		}
	}
	commerceIDs = unique(commerceIDs)
	// Commerces in the trash too: their decisions are history.
	cs, err := s.db(ctx).Commerce.Query().Where(entcommerce.TenantID(p.tenant), entcommerce.IDIn(commerceIDs...)).
		Select(entcommerce.FieldExternalID).All(viewer.WithArchived(ctx))
	if err != nil {
		return nil, fmt.Errorf("uplift: commerces: %w", err)
	}
	external := make(map[uuid.UUID]*string, len(cs))
	for _, c := range cs {
		external[c.ID] = c.ExternalID
	}
	// The page's commerces' transitions under the AGC over the page's span
	// of windows, oldest first.
	ts, err := s.db(ctx).CommerceLifecycleTransition.Query().Where(tr.TenantID(p.tenant), tr.ActivityGenerationConfigID(p.agc),
		tr.CommerceIDIn(commerceIDs...), tr.StateChangedAtGTE(from), tr.StateChangedAtLT(to)).
		Order(tr.ByStateChangedAt(), tr.ByID()).
		Select(tr.FieldCommerceID, tr.FieldToStage, tr.FieldToCode, tr.FieldStateChangedAt).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("uplift: transitions: %w", err)
	}
	history := map[uuid.UUID][]*ent.CommerceLifecycleTransition{}
	for _, t := range ts {
		history[t.CommerceID] = append(history[t.CommerceID], t)
	}
	results := map[uuid.UUID]*ent.ActivityResult{}
	if len(activityIDs) > 0 {
		rs, err := s.db(ctx).ActivityResult.Query().Where(activityresult.TenantID(p.tenant), activityresult.ActivityIDIn(activityIDs...)).
			Select(activityresult.FieldActivityID, activityresult.FieldResultCode, activityresult.FieldOccurredAt).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("uplift: results: %w", err)
		}
		for _, r := range rs {
			results[*r.ActivityID] = r
		}
	}
	engaged, err := s.engaged(ctx, p, page, external)
	if err != nil {
		return nil, err
	}
	rows := make([]Row, len(page))
	for i, d := range page {
		t0 := d.DecidedAt.UTC()
		t1 := t0.Add(w)
		r := Row{DecisionID: d.ID, CommerceID: d.CommerceID, ExternalID: external[d.CommerceID], RuleID: d.RuleID,
			Channel: p.channels[d.RuleID], Group: GroupControl, DecidedAt: t0, WindowEnd: t1,
			Stage: string(d.Stage), StatusCode: d.StatusCode, ActivityID: d.ActivityID}
		if engaged != nil {
			r.Engaged = &engaged[i]
		}
		end := State{Stage: r.Stage, Code: r.StatusCode}
		for _, t := range history[d.CommerceID] {
			if at := t.StateChangedAt; !at.Before(t0) && at.Before(t1) {
				end = State{Stage: string(t.ToStage), Code: t.ToCode}
			}
		}
		r.EndStage, r.EndStatusCode = end.Stage, end.Code
		r.Improved = Better(State{Stage: r.Stage, Code: r.StatusCode}, end, p.levels)
		if d.Kind == gd.KindGENERATED {
			r.Group = GroupTreated
			positive := false
			if d.ActivityID != nil {
				if res, ok := results[*d.ActivityID]; ok && !res.OccurredAt.Before(t0) && res.OccurredAt.Before(t1) {
					code := res.ResultCode
					r.ResultCode, positive = &code, p.positive[code]
				}
			}
			r.PositiveResult = &positive
		}
		rows[i] = r
	}
	return rows, nil
}

// engaged answers ENGAGED for a page in the dataset (nil when it is not
// computed): one probe per decision whose commerce has an external id.
func (s *Service) engaged(ctx context.Context, p *plan, page []*ent.GenerationDecision, external map[uuid.UUID]*string) ([]bool, error) {
	e := p.engage
	if e == nil {
		return nil, nil
	}
	out := make([]bool, len(page))
	var probes []qb.WindowProbe
	var at []int
	for i, d := range page {
		if ext := external[d.CommerceID]; ext != nil {
			t0 := d.DecidedAt.UTC()
			probes = append(probes, qb.WindowProbe{Identity: *ext, From: t0, To: t0.Add(p.window())})
			at = append(at, i)
		}
	}
	if len(probes) == 0 {
		return out, nil
	}
	got, err := qb.RowsWithin(ctx, e.db, e.d, e.qualifier, e.cat, e.table, e.date, probes)
	if err != nil {
		return nil, dataset.QueryFailed(ctx, fmt.Errorf("uplift: engaged: %w", err))
	}
	for j, ok := range got {
		out[at[j]] = ok
	}
	return out, nil
}

func unique(ids []uuid.UUID) []uuid.UUID {
	out := slices.Clone(ids)
	slices.SortFunc(out, func(a, b uuid.UUID) int { return slices.Compare(a[:], b[:]) })
	return slices.Compact(out)
}
