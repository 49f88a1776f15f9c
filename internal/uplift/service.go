package uplift

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/generationrule"
	"github.com/reten-io/reten/ent/tenantdataset"
	"github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/agc"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/generation"
	qb "github.com/reten-io/reten/internal/querybuilder"
	"github.com/reten-io/reten/internal/resulttype"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// The window's bounds and default, in days.
const (
	DefaultWindowDays = 30
	MaxWindowDays     = 365
)

// Messages of the parameters (one 400 lists every broken one) and of a
// rule outside the AGC (404).
const (
	MsgRuleID       = "rule_id must be a UUID"
	MsgFrom         = "from must be a valid ISO 8601 date string"
	MsgTo           = "to must be a valid ISO 8601 date string"
	MsgToBeforeFrom = "to must be later than from"
	MsgWindowDays   = "window_days must be an integer from 1 to 365"
	MsgRuleNotFound = generation.MsgRuleNotFound
)

// Warnings of a report whose ENGAGED outcome could not be computed.
const (
	MsgNotComputed    = "ENGAGED was not computed: "
	MsgNoEngagement   = MsgNotComputed + "the activity generation config has no engagement pillar"
	MsgNoDataset      = MsgNotComputed + dataset.MsgNotConfigured
	MsgBigQuery       = MsgNotComputed + "Reten does not run statements on BigQuery datasets"
	msgSourceIssueFmt = MsgNotComputed + "%s"
)

// MsgChannel refuses a channel that is none of activity.Channels.
var MsgChannel = activity.MsgChannel

// Input are the report's parameters as the adapters receive them; the
// service checks every one (empty: not sent).
type Input struct {
	// RuleID narrows to one rule of the AGC (a UUID).
	RuleID string
	// Channel narrows to the AGC's rules of that channel (activity.Channels).
	Channel string
	// From and To bound decided_at to [From, To): RFC 3339 instants.
	From, To string
	// WindowDays is W, an integer from 1 to 365 (DefaultWindowDays).
	WindowDays string
}

// filter is a checked Input.
type filter struct {
	ruleID   *uuid.UUID
	channel  *string
	from, to *time.Time
	window   int
}

// parse checks every parameter and returns one 400 listing the broken ones.
func (in Input) parse() (filter, error) {
	f := filter{window: DefaultWindowDays}
	var probs apperr.Problems
	if in.RuleID != "" {
		id, err := uuid.Parse(in.RuleID)
		probs.Rule(err != nil, MsgRuleID)
		f.ruleID = &id
	}
	if in.Channel != "" {
		probs.Rule(!slices.Contains(activity.Channels, in.Channel), MsgChannel)
		f.channel = &in.Channel
	}
	instant := func(name, v, msg string) *time.Time {
		if v == "" {
			return nil
		}
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			probs.Add(name, msg)
			return nil
		}
		t = clock.Stored(t)
		return &t
	}
	f.from, f.to = instant("from", in.From, MsgFrom), instant("to", in.To, MsgTo)
	probs.Rule(f.from != nil && f.to != nil && !f.to.After(*f.from), MsgToBeforeFrom)
	if in.WindowDays != "" {
		n, err := strconv.Atoi(in.WindowDays)
		probs.Rule(err != nil || n < 1 || n > MaxWindowDays, MsgWindowDays)
		f.window = n
	}
	return f, probs.Err()
}

// Service computes uplift reports for the AGCs of the active project.
type Service struct {
	client      *ent.Client
	agcs        *agc.Service
	datasets    *dataset.Service
	resultTypes *resulttype.Service
	clock.Settable
}

// NewService returns a Service.
func NewService(client *ent.Client, agcs *agc.Service, datasets *dataset.Service, resultTypes *resulttype.Service) *Service {
	return &Service{client: client, agcs: agcs, datasets: datasets, resultTypes: resultTypes}
}

func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// plan is what measuring an AGC's decisions needs, checked.
type plan struct {
	tenant, project, agc uuid.UUID
	f                    filter
	now, cutoff          time.Time // decisions at or before cutoff have a complete window
	channels             map[uuid.UUID]string
	ruleIDs              []uuid.UUID // nil: every rule; else only these (perhaps none)
	levels               Levels
	positive             map[string]bool // result codes of POSITIVE polarity
	engage               *engagement     // nil: ENGAGED not computed (warning says why)
	warning              string
}

// engagement is where ENGAGED is measured: the tenant's dataset and the
// AGC's engagement source.
type engagement struct {
	db        *sql.DB
	d         qb.Dialect
	qualifier string
	cat       *qb.Catalog
	table     string
	date      string
}

// window is W in days as a duration.
func (p *plan) window() time.Duration { return time.Duration(p.f.window) * 24 * time.Hour }

// prepare checks the input (400), the AGC (404) and the rule (404), and
// reads what measuring needs; a dataset that cannot serve ENGAGED leaves it
// out with a warning.
func (s *Service) prepare(ctx context.Context, agcID uuid.UUID, in Input) (*plan, error) {
	f, err := in.parse()
	if err != nil {
		return nil, err
	}
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	a, err := s.agcs.Get(ctx, agcID)
	if err != nil {
		return nil, err
	}
	now := clock.Stored(s.Now())
	p := &plan{tenant: tid, project: pid, agc: agcID, f: f, now: now, levels: LevelsOf(a.ActivityGenerationConfig)}
	p.cutoff = now.Add(-p.window())
	// The AGC's rules, those in the trash too: their decisions are history.
	rules, err := s.db(ctx).GenerationRule.Query().Where(generationrule.TenantID(tid), generationrule.ProjectID(pid),
		generationrule.ActivityGenerationConfigID(agcID)).Select(generationrule.FieldChannel).All(viewer.WithArchived(ctx))
	if err != nil {
		return nil, fmt.Errorf("uplift: rules: %w", err)
	}
	p.channels = make(map[uuid.UUID]string, len(rules))
	for _, r := range rules {
		p.channels[r.ID] = string(r.Channel)
	}
	if f.ruleID != nil {
		ch, ok := p.channels[*f.ruleID]
		if !ok {
			return nil, apperr.NotFound(MsgRuleNotFound)
		}
		p.ruleIDs = []uuid.UUID{}
		if f.channel == nil || *f.channel == ch {
			p.ruleIDs = append(p.ruleIDs, *f.ruleID)
		}
	} else if f.channel != nil {
		p.ruleIDs = []uuid.UUID{}
		for id, ch := range p.channels {
			if ch == *f.channel {
				p.ruleIDs = append(p.ruleIDs, id)
			}
		}
		slices.SortFunc(p.ruleIDs, func(a, b uuid.UUID) int { return slices.Compare(a[:], b[:]) })
	}
	types, err := s.resultTypes.List(ctx)
	if err != nil {
		return nil, err
	}
	p.positive = map[string]bool{}
	for _, t := range types {
		p.positive[t.Code] = t.Polarity == resulttype.Positive
	}
	if p.engage, p.warning, err = s.engagement(ctx, a.ActivityGenerationConfig); err != nil {
		return nil, err
	}
	return p, nil
}

// engagement opens where ENGAGED is measured, or says why it cannot be.
func (s *Service) engagement(ctx context.Context, a *ent.ActivityGenerationConfig) (*engagement, string, error) {
	pillar := a.Edges.EngagementConfig
	if pillar == nil {
		return nil, MsgNoEngagement, nil
	}
	cat, ds, err := s.datasets.Catalog(ctx)
	switch {
	case dataset.NotConfigured(err):
		return nil, MsgNoDataset, nil
	case err != nil:
		return nil, "", err
	case ds.Engine == tenantdataset.EngineBigquery:
		return nil, MsgBigQuery, nil
	}
	if msg := sourceIssue(cat, pillar.SourceTable, pillar.DateColumn); msg != "" {
		return nil, fmt.Sprintf(msgSourceIssueFmt, msg), nil
	}
	db, engine, qualifier, err := s.datasets.Open(ctx)
	if e, ok := apperr.As(err); ok && (e.Kind == apperr.KindNotFound || e.Kind == apperr.KindUnprocessable || e.Kind == apperr.KindInvalid) {
		return nil, MsgNotComputed + strings.Join(e.Messages, "; "), nil
	}
	if err != nil {
		return nil, "", err
	}
	d, ok := qb.DialectFor(engine)
	if !ok {
		return nil, "", fmt.Errorf("uplift: dataset engine %q", engine)
	}
	return &engagement{db: db, d: d, qualifier: qualifier, cat: cat, table: pillar.SourceTable, date: pillar.DateColumn}, "", nil
}

// sourceIssue is why the catalog cannot serve the engagement source, in the
// messages of the AGC's save-time checks; "" when it can.
func sourceIssue(cat *qb.Catalog, table, date string) string {
	t, ok := cat.Table(table)
	if !ok {
		return fmt.Sprintf(agc.MsgSourceTableFmt, "engagement", table)
	}
	if !slices.ContainsFunc(t.Columns, func(c qb.Column) bool { return c.IsIdentity }) {
		return fmt.Sprintf(agc.MsgSourceIdentityFmt, "engagement", table)
	}
	if c, ok := t.Column(date); !ok || c.Type != qb.TypeTimestamp || c.Repeated {
		return fmt.Sprintf(agc.MsgDateColumnFmt, "engagement", date, table)
	}
	return ""
}
