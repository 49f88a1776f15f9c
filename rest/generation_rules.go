package rest

import (
	"github.com/google/uuid"
	"github.com/reten-io/reten/internal/fields"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/generation"
)

// Activity generation rules (docs/generation.md): bodies snake_case,
// responses camelCase.

// ruleParam names a rule in its path.
var ruleParam = []string{"ruleId"}

type ruleDTO struct {
	ID                         uuid.UUID         `json:"id"`
	ActivityGenerationConfigID uuid.UUID         `json:"activityGenerationConfigId"`
	Name                       string            `json:"name"`
	Trigger                    string            `json:"trigger"`
	Stage                      string            `json:"stage"`
	StatusCode                 string            `json:"statusCode"`
	DwellDays                  *int              `json:"dwellDays"`
	Type                       string            `json:"type"`
	Channel                    string            `json:"channel"`
	ReasonCode                 string            `json:"reasonCode"`
	TitleTemplate              string            `json:"titleTemplate"`
	InstructionsTemplate       string            `json:"instructionsTemplate"`
	Attributes                 map[string]string `json:"attributes"`
	OffsetDays                 int               `json:"offsetDays"`
	TimeOfDay                  string            `json:"timeOfDay"`
	SkipWeekends               bool              `json:"skipWeekends"`
	ExpiresAfterDays           *int              `json:"expiresAfterDays"`
	Assignment                 *string           `json:"assignment"`
	OperatorType               *string           `json:"operatorType"`
	TargetRole                 *string           `json:"targetRole"`
	IsActive                   bool              `json:"isActive"`
	Priority                   int               `json:"priority"`
	stamps
}

func presentRule(r *ent.GenerationRule) ruleDTO {
	attrs := r.Attributes
	if attrs == nil {
		attrs = map[string]string{}
	}
	return ruleDTO{ID: r.ID, ActivityGenerationConfigID: r.ActivityGenerationConfigID, Name: r.Name, Trigger: r.Trigger.String(),
		Stage: r.Stage.String(), StatusCode: r.StatusCode, DwellDays: r.DwellDays, Type: r.Type.String(), Channel: r.Channel.String(),
		ReasonCode: r.ReasonCode, TitleTemplate: r.TitleTemplate, InstructionsTemplate: r.InstructionsTemplate, Attributes: attrs,
		OffsetDays: r.OffsetDays, TimeOfDay: r.TimeOfDay, SkipWeekends: r.SkipWeekends, ExpiresAfterDays: r.ExpiresAfterDays,
		Assignment: fields.EnumText(r.Assignment), OperatorType: fields.EnumText(r.OperatorType), TargetRole: fields.EnumText(r.TargetRole),
		IsActive: r.IsActive, Priority: r.Priority, stamps: stamps{r.CreatedAt, r.UpdatedAt}}
}

// ruleBody reads a rule's create or PATCH body: every member optional at
// decoding (the service says which a new rule needs).
var ruleBody = bodyOf(func(b *body) generation.RuleFields {
	return generation.RuleFields{Name: b.str("name"), Trigger: b.str("trigger"), Stage: b.str("stage"), StatusCode: b.str("status_code"),
		DwellDays: b.integer("dwell_days"), Type: b.str("type"), Channel: b.str("channel"), ReasonCode: b.str("reason_code"),
		TitleTemplate: b.str("title_template"), InstructionsTemplate: b.str("instructions_template"), Attributes: b.strMap("attributes"),
		OffsetDays: b.integer("offset_days"), TimeOfDay: b.str("time_of_day"), SkipWeekends: b.boolean("skip_weekends"),
		ExpiresAfterDays: b.integer("expires_after_days"), Assignment: b.str("assignment"), OperatorType: b.str("operator_type"),
		TargetRole: b.str("target_role"), IsActive: b.boolean("is_active"), Priority: b.integer("priority")}
}, "name", "trigger", "stage", "status_code", "dwell_days", "type", "channel", "reason_code", "title_template",
	"instructions_template", "attributes", "offset_days", "time_of_day", "skip_weekends", "expires_after_days", "assignment",
	"operator_type", "target_role", "is_active", "priority")
