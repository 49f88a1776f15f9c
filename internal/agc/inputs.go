package agc

import (
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/activationconfig"
	"github.com/reten-io/reten/internal/lifecycle"
)

// Message formats of pillar validation (path is e.g. "activation.moments.0").
const (
	MsgStatusRefFmt     = "%s.user_retention_status_config_id must reference an active retention status config with code %q"
	MsgForeignChildFmt  = "%s.id %s does not belong to this %s config"
	MsgDuplicateIDFmt   = "%s.id %s appears more than once"
	msgEmptyFmt         = "%s should not be empty"
	msgPositiveFmt      = "%s must be a positive number"
	msgNotNegativeFmt   = "%s must not be less than 0"
	msgChildIDCreateFmt = "%s.property id should not exist"
)

// PillarFields are the fields common to the three pillars; nil is "not sent".
type PillarFields struct {
	Name          *string
	Description   *string
	SourceTable   *string
	SourceColumns *[]string
	DateColumn    *string
}

// ActivationInput is an activation pillar body; Moments nil leaves the
// moments untouched (lifecycle edit).
type ActivationInput struct {
	PillarFields
	AggregationMethod *string
	Moments           *[]MomentInput
}

// MomentInput is an activation moment; ID set updates that moment in place.
type MomentInput struct {
	ID                          *uuid.UUID
	StatusCode                  string
	UserRetentionStatusConfigID uuid.UUID
	MinActions                  *int
	WindowDays                  *int
	TimeWindow                  *int
	Priority                    int
}

// EngagementInput is an engagement pillar body.
type EngagementInput struct {
	PillarFields
	EngagementWindowDays         *int
	MinLifetimeActionsForEngaged *int
	CountingMethod               *string
	Levels                       *[]LevelInput
}

// LevelInput is an engagement level; ID set updates that level in place.
type LevelInput struct {
	ID                          *uuid.UUID
	StatusCode                  string
	UserRetentionStatusConfigID uuid.UUID
	Label                       string
	MinThreshold                int
	MaxThreshold                *int
	Order                       int
}

// ResurrectionInput is a resurrection pillar body.
type ResurrectionInput struct {
	PillarFields
	Thresholds *[]ThresholdInput
}

// ThresholdInput is a resurrection threshold; ID set updates it in place.
type ThresholdInput struct {
	ID                          *uuid.UUID
	StatusCode                  string
	UserRetentionStatusConfigID uuid.UUID
	Label                       string
	ThresholdDays               int
	Order                       int
}

// LifecycleInput is the body of PUT /api/activity-generation-configs/:id/lifecycle:
// only the pillars sent are edited.
type LifecycleInput struct {
	Activation   *ActivationInput
	Engagement   *EngagementInput
	Resurrection *ResurrectionInput
}

func blank(s *string) bool { return s != nil && strings.TrimSpace(*s) == "" }

// validate checks the common fields; create requires the mandatory ones.
func (p PillarFields) validate(path string, create bool) []string {
	var msgs []string
	for _, f := range []struct {
		name string
		v    *string
	}{{"name", p.Name}, {"source_table", p.SourceTable}, {"date_column", p.DateColumn}} {
		if blank(f.v) || create && f.v == nil {
			msgs = append(msgs, fmt.Sprintf(msgEmptyFmt, path+"."+f.name))
		}
	}
	return msgs
}

// listRules checks the child list at path (moments, levels or thresholds):
// required on create (nil leaves the list on update), then rules on each
// child at path.<index>.
func listRules[C any](path string, create bool, items *[]C, rules func(path string, child C) []string) []string {
	if items == nil {
		if create {
			return []string{fmt.Sprintf(msgEmptyFmt, path)}
		}
		return nil
	}
	var msgs []string
	for i, c := range *items {
		msgs = append(msgs, rules(fmt.Sprintf("%s.%d", path, i), c)...)
	}
	return msgs
}

func childRules(path string, create bool, id *uuid.UUID, code string, status uuid.UUID) []string {
	var msgs []string
	if create && id != nil {
		msgs = append(msgs, fmt.Sprintf(msgChildIDCreateFmt, path))
	}
	if strings.TrimSpace(code) == "" {
		msgs = append(msgs, fmt.Sprintf(msgEmptyFmt, path+".status_code"))
	}
	if status == uuid.Nil {
		msgs = append(msgs, fmt.Sprintf(msgEmptyFmt, path+".user_retention_status_config_id"))
	}
	return msgs
}

func (in *ActivationInput) validate(path string, create bool) []string {
	msgs := in.PillarFields.validate(path, create)
	if in.AggregationMethod == nil && create ||
		in.AggregationMethod != nil && activationconfig.AggregationMethodValidator(activationconfig.AggregationMethod(*in.AggregationMethod)) != nil {
		msgs = append(msgs, lifecycle.MethodsMessage(path+".aggregation_method"))
	}
	return append(msgs, listRules(path+".moments", create, in.Moments, func(p string, m MomentInput) []string {
		msgs := childRules(p, create, m.ID, m.StatusCode, m.UserRetentionStatusConfigID)
		for _, f := range []struct {
			name string
			v    *int
		}{{"min_actions", m.MinActions}, {"window_days", m.WindowDays}, {"time_window", m.TimeWindow}} {
			if f.v != nil && *f.v < 0 {
				msgs = append(msgs, fmt.Sprintf(msgNotNegativeFmt, p+"."+f.name))
			}
		}
		return msgs
	})...)
}

func (in *EngagementInput) validate(path string, create bool) []string {
	msgs := in.PillarFields.validate(path, create)
	if in.EngagementWindowDays == nil && create || in.EngagementWindowDays != nil && *in.EngagementWindowDays <= 0 {
		msgs = append(msgs, fmt.Sprintf(msgPositiveFmt, path+".engagement_window_days"))
	}
	if in.MinLifetimeActionsForEngaged == nil && create || in.MinLifetimeActionsForEngaged != nil && *in.MinLifetimeActionsForEngaged < 0 {
		msgs = append(msgs, fmt.Sprintf(msgNotNegativeFmt, path+".min_lifetime_actions_for_engaged"))
	}
	if blank(in.CountingMethod) || create && in.CountingMethod == nil {
		msgs = append(msgs, fmt.Sprintf(msgEmptyFmt, path+".counting_method"))
	}
	return append(msgs, listRules(path+".levels", create, in.Levels, func(p string, l LevelInput) []string {
		msgs := childRules(p, create, l.ID, l.StatusCode, l.UserRetentionStatusConfigID)
		if strings.TrimSpace(l.Label) == "" {
			msgs = append(msgs, fmt.Sprintf(msgEmptyFmt, p+".label"))
		}
		if l.MaxThreshold != nil && *l.MaxThreshold < l.MinThreshold {
			msgs = append(msgs, fmt.Sprintf("%s.max_threshold must not be less than min_threshold", p))
		}
		return msgs
	})...)
}

func (in *ResurrectionInput) validate(path string, create bool) []string {
	msgs := in.PillarFields.validate(path, create)
	return append(msgs, listRules(path+".thresholds", create, in.Thresholds, func(p string, t ThresholdInput) []string {
		msgs := childRules(p, create, t.ID, t.StatusCode, t.UserRetentionStatusConfigID)
		if strings.TrimSpace(t.Label) == "" {
			msgs = append(msgs, fmt.Sprintf(msgEmptyFmt, p+".label"))
		}
		if t.ThresholdDays < 0 {
			msgs = append(msgs, fmt.Sprintf(msgNotNegativeFmt, p+".threshold_days"))
		}
		return msgs
	})...)
}
