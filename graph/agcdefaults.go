package graph

import (
	"github.com/reten-io/reten/ent/activationconfig"
	"github.com/reten-io/reten/graph/model"
	"github.com/reten-io/reten/internal/agc"
)

// presentLifecycleDefaults presents GET /api/lifecycle-defaults in GraphQL
// names (the children lists named as the pillars' edges).
func presentLifecycleDefaults(d agc.Defaults) *model.LifecycleDefaults {
	a, e, r := d.Activation, d.Engagement, d.Resurrection
	return &model.LifecycleDefaults{
		ActivationConfig: &model.ActivationDefaults{Name: a.Name, SourceTable: a.SourceTable, SourceColumns: a.SourceColumns, DateColumn: a.DateColumn,
			AggregationMethod: activationconfig.AggregationMethod(a.AggregationMethod),
			ActivationMoments: mapAll(a.Moments, func(m agc.DefaultMoment) *model.ActivationMomentDefaults {
				return &model.ActivationMomentDefaults{StatusCode: m.StatusCode, MinActions: m.MinActions, WindowDays: m.WindowDays,
					TimeWindow: m.TimeWindow, Priority: m.Priority}
			})},
		EngagementConfig: &model.EngagementDefaults{Name: e.Name, SourceTable: e.SourceTable, SourceColumns: e.SourceColumns, DateColumn: e.DateColumn,
			EngagementWindowDays: e.EngagementWindowDays, MinLifetimeActionsForEngaged: e.MinLifetimeActionsForEngaged, CountingMethod: e.CountingMethod,
			EngagementLevels: mapAll(e.Levels, func(l agc.DefaultLevel) *model.EngagementLevelDefaults {
				return &model.EngagementLevelDefaults{StatusCode: l.StatusCode, Label: l.Label, MinThreshold: l.MinThreshold,
					MaxThreshold: l.MaxThreshold, Order: l.Order}
			})},
		ResurrectionConfig: &model.ResurrectionDefaults{Name: r.Name, SourceTable: r.SourceTable, SourceColumns: r.SourceColumns, DateColumn: r.DateColumn,
			ResurrectionThresholds: mapAll(r.Thresholds, func(t agc.DefaultThreshold) *model.ResurrectionThresholdDefaults {
				return &model.ResurrectionThresholdDefaults{StatusCode: t.StatusCode, Label: t.Label, ThresholdDays: t.ThresholdDays, Order: t.Order}
			})},
	}
}
