package graph

import (
	"github.com/reten-io/reten/ent/commercelifecyclesnapshot"
	"github.com/reten-io/reten/graph/model"
	"github.com/reten-io/reten/internal/engine"
)

// presentLifecycleExplain is an explanation in GraphQL's typed shape.
func presentLifecycleExplain(e *engine.Explanation) *model.LifecycleExplain {
	m := &model.LifecycleExplainMetrics{Lifetime: e.Metrics.Lifetime, Engagement: e.Metrics.Engagement,
		Activation: make([]*model.LifecycleActivationMetric, len(e.Metrics.Activation))}
	if d := e.Metrics.DaysSinceLast; d != nil {
		n := int(*d)
		m.DaysSinceLast = &n
	}
	for i, a := range e.Metrics.Activation {
		m.Activation[i] = &model.LifecycleActivationMetric{StatusCode: a.StatusCode, WindowDays: a.WindowDays}
		if a.Value != nil {
			m.Activation[i].Value = *a.Value
		}
	}
	out := &model.LifecycleExplain{CommerceID: e.CommerceID, ExternalID: e.ExternalID, AsOf: e.AsOf, InAudience: e.InAudience,
		Rule: model.LifecycleRule(e.Rule), Code: e.Code, Metrics: m, Reasons: e.Reasons}
	if e.Stage != nil {
		s := commercelifecyclesnapshot.Stage(*e.Stage)
		out.Stage = &s
	}
	return out
}
