package graph

import (
	"github.com/reten-io/reten/ent/tenantresulttypeconfig"
	"github.com/reten-io/reten/graph/model"
	"github.com/reten-io/reten/internal/cutoff"
	"github.com/reten-io/reten/internal/resulttype"
)

// resultTypeInput maps a GraphQL config input to the service's.
func resultTypeInput(in *model.TaskResultTypeConfigInput) resulttype.Input {
	pol := string(in.Polarity)
	return resulttype.Input{Code: string(in.Code), IsActive: &in.IsActive, Polarity: &pol,
		RequiresFutureScheduledAt: &in.RequiresFutureScheduledAt}
}

// resultTypeConfig presents a service config.
func resultTypeConfig(c resulttype.Config) *model.TaskResultTypeConfig {
	return &model.TaskResultTypeConfig{Code: c.Code, Label: c.Label, IsActive: c.IsActive,
		Polarity: tenantresulttypeconfig.Polarity(c.Polarity), RequiresFutureScheduledAt: c.RequiresFutureScheduledAt,
		IsDefault: c.IsDefault, UpdatedAt: c.UpdatedAt}
}

// resultTypeConfigs presents a list of service configs.
func resultTypeConfigs(cs []resulttype.Config, err error) ([]*model.TaskResultTypeConfig, error) {
	return presentAll(cs, err, resultTypeConfig)
}

// tenantSettings presents the service's day settings.
func tenantSettings(s cutoff.TenantSettings, err error) (*model.TenantSettings, error) {
	if err != nil {
		return nil, err
	}
	return &model.TenantSettings{TimeZone: s.TimeZone, DayCutoff: s.DayCutoff, LifecycleRunTime: s.LifecycleRunTime}, nil
}
