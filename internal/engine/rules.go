// Package engine runs Reten's lifecycle engine over a tenant's dataset: it
// reads an AGC's pillars as lifecycle rules, pushes the classification down
// to the dataset's engine and writes the states through the snapshot upsert.
package engine

import (
	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/lifecycle"
)

// RulesOf reads an AGC loaded with its pillars and their children as the
// engine's rules. A missing pillar reads as an inactive one.
func RulesOf(a *ent.ActivityGenerationConfig) lifecycle.Rules {
	var r lifecycle.Rules
	if p := a.Edges.ActivationConfig; p != nil {
		r.Activation.Source = lifecycle.Source{Table: p.SourceTable, DateColumn: p.DateColumn, Columns: p.SourceColumns}
		r.Activation.Active, r.Activation.Method = p.IsActive, lifecycle.Method(p.AggregationMethod)
		for _, m := range p.Edges.ActivationMoments {
			r.Activation.Moments = append(r.Activation.Moments, lifecycle.Moment{StatusCode: m.StatusCode,
				MinActions: m.MinActions, WindowDays: m.WindowDays, TimeWindow: m.TimeWindow, Priority: m.Priority, Active: m.IsActive})
		}
	}
	if p := a.Edges.EngagementConfig; p != nil {
		r.Engagement.Source = lifecycle.Source{Table: p.SourceTable, DateColumn: p.DateColumn, Columns: p.SourceColumns}
		r.Engagement.Active, r.Engagement.Method = p.IsActive, lifecycle.Method(p.CountingMethod)
		r.Engagement.WindowDays, r.Engagement.MinLifetime = p.EngagementWindowDays, p.MinLifetimeActionsForEngaged
		for _, l := range p.Edges.EngagementLevels {
			r.Engagement.Levels = append(r.Engagement.Levels, lifecycle.Level{StatusCode: l.StatusCode,
				MinThreshold: l.MinThreshold, MaxThreshold: l.MaxThreshold, Order: l.Order, Active: l.IsActive})
		}
	}
	if p := a.Edges.ResurrectionConfig; p != nil {
		r.Resurrection.Source = lifecycle.Source{Table: p.SourceTable, DateColumn: p.DateColumn, Columns: p.SourceColumns}
		r.Resurrection.Active = p.IsActive
		for _, t := range p.Edges.ResurrectionThresholds {
			r.Resurrection.Thresholds = append(r.Resurrection.Thresholds, lifecycle.Threshold{StatusCode: t.StatusCode,
				ThresholdDays: t.ThresholdDays, Order: t.Order, Active: t.IsActive})
		}
	}
	return r
}
