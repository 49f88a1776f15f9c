package graph

import (
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/generationdecision"
	"github.com/reten-io/reten/graph/model"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/generation"
	"github.com/reten-io/reten/internal/patch"
)

// ruleAttributes turns attribute pairs into the service's map; nil stays
// absent.
func ruleAttributes(in []*model.GenerationRuleAttributeInput) patch.Patch[map[string]string] {
	if in == nil {
		return patch.Patch[map[string]string]{}
	}
	m := make(map[string]string, len(in))
	for _, a := range in {
		m[a.Key] = a.Value
	}
	return patch.Of(m)
}

// text is the patch of an optional enum argument (absent when nil).
func text[E ~string](e *E) patch.Patch[string] { return patch.FromPtr(fields.EnumText(e)) }

func createRuleFields(in model.CreateGenerationRuleInput) generation.RuleFields {
	return generation.RuleFields{Name: patch.Of(in.Name), Trigger: patch.Of(string(in.Trigger)), Stage: patch.Of(string(in.Stage)),
		StatusCode: patch.Of(in.StatusCode), DwellDays: patch.FromPtr(in.DwellDays), Type: patch.Of(string(in.Type)),
		Channel: patch.Of(string(in.Channel)), ReasonCode: patch.Of(in.ReasonCode), TitleTemplate: patch.Of(in.TitleTemplate),
		InstructionsTemplate: patch.FromPtr(in.InstructionsTemplate), Attributes: ruleAttributes(in.Attributes),
		OffsetDays: patch.FromPtr(in.OffsetDays), TimeOfDay: patch.FromPtr(in.TimeOfDay), SkipWeekends: patch.FromPtr(in.SkipWeekends),
		ExpiresAfterDays: patch.FromPtr(in.ExpiresAfterDays), Assignment: text(in.Assignment), OperatorType: text(in.OperatorType),
		TargetRole: text(in.TargetRole), IsActive: patch.FromPtr(in.IsActive), Priority: patch.FromPtr(in.Priority)}
}

// updateRuleFields maps the update input; a clear flag sent with its value
// is a 400 naming both.
func updateRuleFields(in model.UpdateGenerationRuleInput) (generation.RuleFields, error) {
	f := generation.RuleFields{Name: patch.FromPtr(in.Name), Trigger: text(in.Trigger), Stage: text(in.Stage),
		StatusCode: patch.FromPtr(in.StatusCode), Type: text(in.Type), Channel: text(in.Channel), ReasonCode: patch.FromPtr(in.ReasonCode),
		TitleTemplate: patch.FromPtr(in.TitleTemplate), InstructionsTemplate: patch.FromPtr(in.InstructionsTemplate),
		Attributes: ruleAttributes(in.Attributes), OffsetDays: patch.FromPtr(in.OffsetDays), TimeOfDay: patch.FromPtr(in.TimeOfDay),
		SkipWeekends: patch.FromPtr(in.SkipWeekends), Assignment: text(in.Assignment), TargetRole: text(in.TargetRole),
		IsActive: patch.FromPtr(in.IsActive), Priority: patch.FromPtr(in.Priority)}
	var both []string
	var ok bool
	if f.DwellDays, ok = patch.FromArgs(in.DwellDays, in.ClearDwellDays); !ok {
		both = append(both, "dwellDays and clearDwellDays cannot be sent together")
	}
	if f.ExpiresAfterDays, ok = patch.FromArgs(in.ExpiresAfterDays, in.ClearExpiresAfterDays); !ok {
		both = append(both, "expiresAfterDays and clearExpiresAfterDays cannot be sent together")
	}
	if f.OperatorType, ok = patch.FromArgs(fields.EnumText(in.OperatorType), in.ClearOperatorType); !ok {
		both = append(both, "operatorType and clearOperatorType cannot be sent together")
	}
	if len(both) > 0 {
		return f, apperr.Validation(both...)
	}
	return f, nil
}

// attributePairs presents a rule's attributes by key.
func attributePairs(m map[string]string) []*model.GenerationRuleAttribute {
	out := make([]*model.GenerationRuleAttribute, 0, len(m))
	for k, v := range m {
		out = append(out, &model.GenerationRuleAttribute{Key: k, Value: v})
	}
	slices.SortFunc(out, func(a, b *model.GenerationRuleAttribute) int { return strings.Compare(a.Key, b.Key) })
	return out
}

func policyInput(in model.GenerationPolicyInput) generation.PolicyInput {
	return generation.PolicyInput{MaxPerCommerce: in.MaxPerCommerce, WindowDays: in.WindowDays, MinGapDays: in.MinGapDays,
		ControlPercent: in.ControlPercent, Reshuffle: in.Reshuffle != nil && *in.Reshuffle}
}

func settingsInput(in model.GenerationSettingsInput) generation.SettingsInput {
	return generation.SettingsInput{HoldoutPercent: in.HoldoutPercent, Reshuffle: in.Reshuffle != nil && *in.Reshuffle}
}

// decisionFilter maps the filter arguments of the decision reads (their
// types are checked by GraphQL already).
func decisionFilter(commerceID, ruleID *uuid.UUID, kind *generationdecision.Kind, since *time.Time) generation.DecisionFilter {
	return generation.DecisionFilter{CommerceID: commerceID, RuleID: ruleID, Kind: fields.EnumText(kind), Since: since}
}
