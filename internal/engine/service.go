package engine

import (
	"context"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/agc"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/audience"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/commerce"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/lifecycle"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// Messages of the engine's inputs.
const (
	MsgAsOf       = "as_of must be an RFC 3339 instant"
	MsgAsOfFuture = "as_of must not be in the future"
)

// MsgDialect refuses a dialect that is no dataset engine.
var MsgDialect = dataset.EnumMessage("dialect", dataset.Engines)

// Service runs the lifecycle engine for the AGCs of the active project.
type Service struct {
	agcs      *agc.Service
	audiences *audience.Service
	datasets  *dataset.Service
	commerces *commerce.Service // resolves the commerce Explain names
}

// NewService returns a Service.
func NewService(agcs *agc.Service, audiences *audience.Service, datasets *dataset.Service, commerces *commerce.Service) *Service {
	return &Service{agcs: agcs, audiences: audiences, datasets: datasets, commerces: commerces}
}

// SQLInput are the options of the classification statement: the dialect
// (empty: the dataset's engine) and the instant (empty: now).
type SQLInput struct {
	Dialect string
	AsOf    string
}

// AsOf reads an engine instant: RFC 3339 (fractional seconds allowed), now
// when empty, never in the future.
func AsOf(s string) (time.Time, error) {
	now := clock.Now()
	if s == "" {
		return clock.Stored(now), nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, apperr.Validation(MsgAsOf)
	}
	if t.After(now) {
		return time.Time{}, apperr.Validation(MsgAsOfFuture)
	}
	// Kept to the microsecond, as the database stores it: a run's asOf, its
	// snapshots' last_computed_at and the statement's T are one instant.
	return clock.Stored(t), nil
}

// SQL compiles the classification statement of AGC id (GET
// /api/activity-generation-configs/:id/lifecycle-sql): one row per commerce
// of its effective audience with the state the rules give it at the instant
// (docs/lifecycle.md). The options are checked first (400), then the AGC
// (404), then the tenant's dataset (404 when it has none); an AGC whose
// sources the dataset cannot serve is a 422 naming them.
func (s *Service) SQL(ctx context.Context, id uuid.UUID, in SQLInput) (*qb.Compiled, error) {
	var msgs []string
	var d qb.Dialect
	if in.Dialect != "" {
		var ok bool
		if d, ok = qb.DialectFor(in.Dialect); !ok {
			msgs = append(msgs, MsgDialect)
		}
	}
	asOf, err := AsOf(in.AsOf)
	if e, ok := apperr.As(err); ok {
		msgs = append(msgs, e.Messages...)
	}
	if len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	src, err := s.source(ctx, id)
	if err != nil {
		return nil, err
	}
	return src.compile(asOf, d)
}

// compile is the classification statement of the source at asOf for
// dialect d (nil: the dataset's engine).
func (src *source) compile(asOf time.Time, d qb.Dialect) (*qb.Compiled, error) {
	if d == nil {
		d, _ = qb.DialectFor(string(src.dataset.Engine))
	}
	opts := qb.Options{Qualifier: dataset.Qualifier(src.dataset, d.Name())}
	return qb.CompileLifecycle(qb.Lifecycle{Rules: src.rules, AsOf: asOf, Population: src.population}, src.catalog, d, opts)
}

// source is what the engine reads to evaluate an AGC: its rules, the
// tenant's dataset with its catalog, and the AGC's population (nil: a root
// audience without blocks).
type source struct {
	agc        *ent.ActivityGenerationConfig
	rules      lifecycle.Rules
	dataset    *ent.TenantDataset
	catalog    *qb.Catalog
	population *qb.AudienceTree
}

// source loads AGC id (404), the tenant's dataset (404 when it has none)
// and the AGC's population; an AGC whose sources the dataset cannot serve
// is a 422 naming them.
func (s *Service) source(ctx context.Context, id uuid.UUID) (*source, error) {
	a, err := s.agcs.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	cat, ds, err := s.datasets.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	if msgs := agc.StoredSourceIssues(cat, a.ActivityGenerationConfig); len(msgs) > 0 {
		return nil, &apperr.Error{Kind: apperr.KindUnprocessable, Messages: msgs, List: true}
	}
	src := &source{agc: a.ActivityGenerationConfig, rules: RulesOf(a.ActivityGenerationConfig), dataset: ds, catalog: cat}
	if a.EffectiveAudienceID != nil {
		if src.population, err = s.audiences.Population(ctx, *a.EffectiveAudienceID); err != nil {
			return nil, err
		}
	}
	return src, nil
}

// Params are the statement's parameters by name (p0, p1, ...): the values
// the engine's driver binds (positional engines take them in that order;
// SQLite compares instants as the catalog's fixed-width UTC text), the
// named values on BigQuery.
func Params(c *qb.Compiled) map[string]any {
	out := make(map[string]any, len(c.Params))
	for k, v := range c.Params {
		out[k] = v
	}
	for i, v := range c.Args {
		out["p"+strconv.Itoa(i)] = v
	}
	return out
}
