package agc

import (
	"context"

	"github.com/reten-io/reten/internal/tenancy"
)

// Defaults is the snake_case payload of GET /api/lifecycle-defaults that
// prefills AGC creation; it mirrors the create body (without audience and
// without user_retention_status_config_id, which the client resolves from the
// tenant's retention status configs by status_code).
type Defaults struct {
	Activation   DefaultActivation   `json:"activation"`
	Engagement   DefaultEngagement   `json:"engagement"`
	Resurrection DefaultResurrection `json:"resurrection"`
}

// DefaultActivation prefills the activation pillar.
type DefaultActivation struct {
	Name              string          `json:"name"`
	SourceTable       string          `json:"source_table"`
	SourceColumns     []string        `json:"source_columns"`
	DateColumn        string          `json:"date_column"`
	AggregationMethod string          `json:"aggregation_method"`
	Moments           []DefaultMoment `json:"moments"`
}

// DefaultMoment prefills an activation moment.
type DefaultMoment struct {
	StatusCode string `json:"status_code"`
	MinActions *int   `json:"min_actions"`
	WindowDays *int   `json:"window_days"`
	TimeWindow *int   `json:"time_window"`
	Priority   int    `json:"priority"`
}

// DefaultEngagement prefills the engagement pillar.
type DefaultEngagement struct {
	Name                         string         `json:"name"`
	SourceTable                  string         `json:"source_table"`
	SourceColumns                []string       `json:"source_columns"`
	DateColumn                   string         `json:"date_column"`
	EngagementWindowDays         int            `json:"engagement_window_days"`
	MinLifetimeActionsForEngaged int            `json:"min_lifetime_actions_for_engaged"`
	CountingMethod               string         `json:"counting_method"`
	Levels                       []DefaultLevel `json:"levels"`
}

// DefaultLevel prefills an engagement level.
type DefaultLevel struct {
	StatusCode   string `json:"status_code"`
	Label        string `json:"label"`
	MinThreshold int    `json:"min_threshold"`
	MaxThreshold *int   `json:"max_threshold"`
	Order        int    `json:"order"`
}

// DefaultResurrection prefills the resurrection pillar.
type DefaultResurrection struct {
	Name          string             `json:"name"`
	SourceTable   string             `json:"source_table"`
	SourceColumns []string           `json:"source_columns"`
	DateColumn    string             `json:"date_column"`
	Thresholds    []DefaultThreshold `json:"thresholds"`
}

// DefaultThreshold prefills a resurrection threshold.
type DefaultThreshold struct {
	StatusCode    string `json:"status_code"`
	Label         string `json:"label"`
	ThresholdDays int    `json:"threshold_days"`
	Order         int    `json:"order"`
}

func ptr(i int) *int { return &i }

// LifecycleDefaults returns the hardcoded defaults (tenant-level).
func (s *Service) LifecycleDefaults(ctx context.Context) (Defaults, error) {
	if _, err := tenancy.From(ctx); err != nil {
		return Defaults{}, err
	}
	return defaults(), nil
}

// defaults are the same for every tenant; each state they name is reachable
// under the engine's rules (TestDefaultsReachEveryState).
func defaults() Defaults {
	return Defaults{
		Activation: DefaultActivation{Name: "Activación", SourceTable: "orders", SourceColumns: []string{"order_id"},
			DateColumn: "order_date", AggregationMethod: "nunique", Moments: []DefaultMoment{
				// "activated" is tried first: every commerce that reaches it also
				// meets "new" (docs/lifecycle.md, rule 2).
				{StatusCode: "activated", MinActions: ptr(2), WindowDays: ptr(60), TimeWindow: ptr(90), Priority: 1},
				{StatusCode: "new", MinActions: ptr(1), WindowDays: ptr(30), TimeWindow: nil, Priority: 2},
			}},
		Engagement: DefaultEngagement{Name: "Engagement", SourceTable: "orders", SourceColumns: []string{"order_id"},
			DateColumn: "order_date", EngagementWindowDays: 90, MinLifetimeActionsForEngaged: 3, CountingMethod: "nunique",
			Levels: []DefaultLevel{
				{StatusCode: "low_engagement", Label: "Bajo", MinThreshold: 0, MaxThreshold: ptr(2), Order: 1},
				{StatusCode: "medium_engagement", Label: "Medio", MinThreshold: 3, MaxThreshold: ptr(5), Order: 2},
				{StatusCode: "high_engagement", Label: "Alto", MinThreshold: 6, MaxThreshold: nil, Order: 3},
			}},
		Resurrection: DefaultResurrection{Name: "Resurrección", SourceTable: "orders", SourceColumns: []string{"order_id"},
			DateColumn: "order_date", Thresholds: []DefaultThreshold{
				{StatusCode: "at_risk", Label: "En riesgo", ThresholdDays: 30, Order: 1},
				{StatusCode: "dormant", Label: "Dormido", ThresholdDays: 60, Order: 2},
				{StatusCode: "churned", Label: "Perdido", ThresholdDays: 90, Order: 3},
			}},
	}
}
