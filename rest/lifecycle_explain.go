package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/engine"
	"github.com/reten-io/reten/internal/lifecycle"
)

// lifecycleExplainView is one commerce's state for an AGC at an instant,
// explained (docs/lifecycle.md "Explaining one commerce").
type lifecycleExplainView struct {
	CommerceID uuid.UUID         `json:"commerceId"`
	ExternalID *string           `json:"externalId"`
	AsOf       time.Time         `json:"asOf"`
	InAudience bool              `json:"inAudience"`
	Rule       lifecycle.Rule    `json:"rule"`
	Stage      *string           `json:"stage"`
	Code       *string           `json:"code"`
	Metrics    lifecycle.Metrics `json:"metrics"`
	Reasons    []string          `json:"reasons"`
}

func presentLifecycleExplain(e *engine.Explanation) lifecycleExplainView {
	return lifecycleExplainView{CommerceID: e.CommerceID, ExternalID: e.ExternalID, AsOf: e.AsOf, InAudience: e.InAudience,
		Rule: e.Rule, Stage: e.Stage, Code: e.Code, Metrics: e.Metrics, Reasons: e.Reasons}
}

// explainQuery are the query parameters of the explanation.
type explainQuery struct{ commerce, asOf string }

// lifecycleExplain answers GET /activity-generation-configs/:id/lifecycle-explain
// (query parameters commerce and as_of).
func (a *api) lifecycleExplain() handler {
	options := func(r *http.Request) (explainQuery, error) {
		q := r.URL.Query()
		return explainQuery{commerce: q.Get("commerce"), asOf: q.Get("as_of")}, nil
	}
	return route(http.StatusOK, idParam, options, func(ctx context.Context, ids []uuid.UUID, in explainQuery) (*engine.Explanation, error) {
		return a.Engine.Explain(ctx, ids[0], in.commerce, in.asOf)
	}, presentLifecycleExplain)
}
