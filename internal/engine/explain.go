package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/tenantdataset"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/dataset"
	"github.com/reten-io/reten/internal/lifecycle"
	qb "github.com/reten-io/reten/internal/querybuilder"
)

// ExplainRowLimit is the most rows of one commerce an explanation reads in
// each pillar's source table.
const ExplainRowLimit = 100_000

// Messages of the explanation.
const (
	MsgCommerceRequired = "commerce should not be empty"
	MsgExplainBigQuery  = "Explain is not available for BigQuery datasets: the service only compiles their SQL (GET /api/activity-generation-configs/:id/lifecycle-sql)"
)

// MsgExplainTooManyRows refuses a commerce with more rows in a source than
// an explanation reads.
var MsgExplainTooManyRows = fmt.Sprintf(
	"The commerce has more than %d rows before as_of in a source table: an explanation reads at most %d", ExplainRowLimit, ExplainRowLimit)

// Explanation is the state of one commerce for one AGC at AsOf, with the
// figures the rules read and one sentence per rule tried (docs/lifecycle.md
// "Explaining one commerce"). Stage and Code are nil when unclassified.
type Explanation struct {
	CommerceID uuid.UUID
	ExternalID *string
	AsOf       time.Time
	// InAudience tells whether the commerce belongs to the AGC's population
	// (its external id is an identity of the effective audience): a run
	// evaluates it only then; it is explained either way.
	InAudience bool
	Rule       lifecycle.Rule
	Stage      *string
	Code       *string
	Metrics    lifecycle.Metrics
	Reasons    []string
}

// Explain evaluates the rules of AGC agcID for one commerce of the tenant
// (its UUID, else its external id) at asOf (empty: now) with the rules'
// plain-Go evaluation over the commerce's rows read from the tenant's
// dataset: the state it gives is the one the classification statement
// gives. Checked in order: commerce and asOf (400), the AGC (404), the
// tenant's dataset (404), the AGC's sources (422), the commerce (404), a
// BigQuery dataset (422: the service cannot run a statement there).
func (s *Service) Explain(ctx context.Context, agcID uuid.UUID, commerce string, asOf string) (*Explanation, error) {
	var msgs []string
	if strings.TrimSpace(commerce) == "" {
		msgs = append(msgs, MsgCommerceRequired)
	}
	at, err := AsOf(asOf)
	if e, ok := apperr.As(err); ok {
		msgs = append(msgs, e.Messages...)
	}
	if len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	src, err := s.source(ctx, agcID)
	if err != nil {
		return nil, err
	}
	c, err := s.commerces.Resolve(ctx, commerce)
	if err != nil {
		return nil, err
	}
	if src.dataset.Engine == tenantdataset.EngineBigquery {
		return nil, apperr.Unprocessable(MsgExplainBigQuery)
	}
	var rows lifecycle.Rows
	inAudience := false
	if c.ExternalID != nil { // without an external id no dataset row names it
		db, engine, qualifier, err := s.datasets.Open(ctx)
		if err != nil {
			return nil, err
		}
		d, _ := qb.DialectFor(engine)
		l := qb.Lifecycle{Rules: src.rules, AsOf: at, Population: src.population}
		rows, inAudience, err = qb.LifecycleExplain(ctx, db, l, src.catalog, d, qb.Options{Qualifier: qualifier}, *c.ExternalID, ExplainRowLimit)
		if errors.Is(err, qb.ErrTooManyRows) {
			return nil, apperr.Unprocessable(MsgExplainTooManyRows)
		}
		if err != nil {
			return nil, dataset.QueryFailed(ctx, err)
		}
	}
	st := lifecycle.Evaluate(src.rules, rows, at)
	out := &Explanation{CommerceID: c.ID, ExternalID: c.ExternalID, AsOf: at, InAudience: inAudience,
		Rule: st.Rule, Metrics: st.Metrics, Reasons: st.Reasons}
	if st.Code != "" {
		out.Stage, out.Code = &st.Stage, &st.Code
	}
	if out.Metrics.Activation == nil {
		out.Metrics.Activation = []lifecycle.ActivationMetric{}
	}
	return out, nil
}
