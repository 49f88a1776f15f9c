package generation

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activityreasonconfig"
	"github.com/reten-io/reten/ent/generationrule"
	"github.com/reten-io/reten/ent/retentionstatusconfig"
	"github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/catalog"
	"github.com/reten-io/reten/internal/commerce"
	"github.com/reten-io/reten/internal/cutoff"
	"github.com/reten-io/reten/internal/fieldorg"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/patch"
)

// The values of the rule's own enumerations, as the messages list them;
// stages, types, operator types and commerce user roles are the catalog's,
// the activities', the field organisation's and the commerces' lists.
var (
	triggers     = []string{"ENTER", "DWELL"}
	taskChannels = []string{"SALESMAN", "CALLCENTER"}
	msgChannels  = []string{"WHATSAPP", "EMAIL", "SMS", "PUSH"}
	assignments  = []string{"ROUTE_LEAD", "ROUTE_MEMBERS_ROUND_ROBIN"}
)

// setValue copies a member that cannot be null onto dst when it is sent
// with a value; sent as null, it records the member's message.
func setValue[T any](p patch.Patch[T], name string, dst *T, msgs *[]string) {
	switch v, ok := p.Get(); {
	case ok:
		*dst = v
	case p.IsNull():
		*msgs = append(*msgs, fmt.Sprintf(MsgNotNull, name))
	}
}

// setNullable copies a nullable member onto dst when it is sent (null
// clears it).
func setNullable[T any](p patch.Patch[T], dst **T) {
	if p.Sent() {
		*dst = p.Ptr()
	}
}

// apply sets the members sent onto r and checks the whole rule, answering
// one 400 with every broken rule. create: a required member must be sent.
func (r *rule) apply(in RuleFields, create bool) error {
	var msgs []string
	setValue(in.Name, "name", &r.name, &msgs)
	setValue(in.Trigger, "trigger", &r.trigger, &msgs)
	setValue(in.Stage, "stage", &r.stage, &msgs)
	setValue(in.StatusCode, "status_code", &r.statusCode, &msgs)
	setNullable(in.DwellDays, &r.dwellDays)
	setValue(in.Type, "type", &r.typ, &msgs)
	setValue(in.Channel, "channel", &r.channel, &msgs)
	setValue(in.ReasonCode, "reason_code", &r.reasonCode, &msgs)
	setValue(in.TitleTemplate, "title_template", &r.titleTemplate, &msgs)
	if v, ok := in.InstructionsTemplate.Get(); ok || in.InstructionsTemplate.IsNull() {
		r.instructionsTemplate = v // null: none
	}
	if in.Attributes.Sent() {
		r.attributes, _ = in.Attributes.Get() // null: none
	}
	setValue(in.OffsetDays, "offset_days", &r.offsetDays, &msgs)
	setValue(in.TimeOfDay, "time_of_day", &r.timeOfDay, &msgs)
	setValue(in.SkipWeekends, "skip_weekends", &r.skipWeekends, &msgs)
	setNullable(in.ExpiresAfterDays, &r.expiresAfterDays)
	setNullable(in.Assignment, &r.assignment)
	setNullable(in.OperatorType, &r.operatorType)
	setNullable(in.TargetRole, &r.targetRole)
	setValue(in.IsActive, "is_active", &r.isActive, &msgs)
	setValue(in.Priority, "priority", &r.priority, &msgs)
	for _, t := range []*string{&r.name, &r.trigger, &r.stage, &r.statusCode, &r.typ, &r.channel, &r.reasonCode, &r.timeOfDay} {
		*t = strings.TrimSpace(*t)
	}

	// A change of type resets the members that only the other type has,
	// unless they are sent.
	if in.Type.Sent() && !create {
		if r.typ == "MESSAGE" && !in.Assignment.Sent() {
			r.assignment = nil
		}
		if r.typ == "MESSAGE" && !in.OperatorType.Sent() {
			r.operatorType = nil
		}
		if r.typ == "TASK" && !in.TargetRole.Sent() {
			r.targetRole = nil
		}
	}
	// Defaults of the type.
	if r.typ == "TASK" && r.assignment == nil && !in.Assignment.IsNull() {
		r.assignment = ptr("ROUTE_LEAD")
	}
	if r.typ == "MESSAGE" && r.targetRole == nil && !in.TargetRole.IsNull() {
		r.targetRole = ptr("OWNER")
	}
	msgs = append(msgs, r.rules()...)
	if len(msgs) > 0 {
		return apperr.Validation(msgs...)
	}
	return nil
}

// rules returns the broken rules of r (its values alone).
func (r *rule) rules() []string {
	msgs := fields.Text(r.name, maxName, MsgNameEmpty, MsgNameTooLong)
	if !slices.Contains(triggers, r.trigger) {
		msgs = append(msgs, MsgTrigger)
	}
	if !slices.Contains(catalog.Stages, r.stage) {
		msgs = append(msgs, catalog.MsgStageValues)
	}
	if r.statusCode == "" {
		msgs = append(msgs, MsgStatusCodeEmpty)
	}
	switch {
	case r.trigger == "DWELL" && (r.dwellDays == nil || *r.dwellDays < 1 || *r.dwellDays > 3650):
		msgs = append(msgs, MsgDwellDays)
	case r.trigger == "ENTER" && r.dwellDays != nil:
		msgs = append(msgs, MsgDwellDaysEnter)
	}
	switch r.typ {
	case "TASK":
		if !slices.Contains(taskChannels, r.channel) {
			msgs = append(msgs, MsgChannelTask)
		}
		switch {
		case r.assignment == nil || !slices.Contains(assignments, *r.assignment):
			msgs = append(msgs, MsgAssignment)
		case r.operatorType != nil && *r.assignment != "ROUTE_MEMBERS_ROUND_ROBIN":
			msgs = append(msgs, MsgOperatorTypeNeed)
		}
		if r.operatorType != nil && !slices.Contains(fieldorg.OperatorTypes, *r.operatorType) {
			msgs = append(msgs, MsgOperatorType)
		}
		if r.targetRole != nil {
			msgs = append(msgs, MsgTargetRoleTask)
		}
	case "MESSAGE":
		if !slices.Contains(msgChannels, r.channel) {
			msgs = append(msgs, MsgChannelMessage)
		}
		if r.assignment != nil || r.operatorType != nil {
			msgs = append(msgs, MsgAssignmentMessage)
		}
		if r.targetRole == nil || !slices.Contains(commerce.Roles, *r.targetRole) {
			msgs = append(msgs, MsgTargetRole)
		}
	default:
		msgs = append(msgs, activity.MsgType)
	}
	if r.reasonCode == "" {
		msgs = append(msgs, MsgReasonCodeEmpty)
	}
	if strings.TrimSpace(r.titleTemplate) == "" {
		msgs = append(msgs, MsgTitleEmpty)
	} else {
		msgs = append(msgs, checkTemplate("title_template", r.titleTemplate)...)
	}
	msgs = append(msgs, checkTemplate("instructions_template", r.instructionsTemplate)...)
	badAttribute := len(r.attributes) > maxAttributes
	for k, v := range r.attributes {
		badAttribute = badAttribute || strings.TrimSpace(k) == "" || fields.TooLong(v, 500)
	}
	if badAttribute {
		msgs = append(msgs, MsgAttributes)
	}
	if r.offsetDays < 0 || r.offsetDays > 365 {
		msgs = append(msgs, MsgOffsetDays)
	}
	if _, ok := cutoff.ParseClock(r.timeOfDay); !ok {
		msgs = append(msgs, MsgTimeOfDay)
	}
	if r.expiresAfterDays != nil && (*r.expiresAfterDays < 1 || *r.expiresAfterDays > 365) {
		msgs = append(msgs, MsgExpiresAfterDays)
	}
	if r.priority < 0 || r.priority > 1000 {
		msgs = append(msgs, MsgPriority)
	}
	return msgs
}

// checkReferences checks that the status code is an active retention status
// config of the tenant with the rule's stage, and the reason code an active
// activity reason config of the tenant.
func (r *rule) checkReferences(ctx context.Context, tx *ent.Client, tid uuid.UUID) error {
	var msgs []string
	ok, err := tx.RetentionStatusConfig.Query().Where(retentionstatusconfig.TenantID(tid), retentionstatusconfig.Code(r.statusCode),
		retentionstatusconfig.StageEQ(retentionstatusconfig.Stage(r.stage)), retentionstatusconfig.IsActive(true)).Exist(ctx)
	if err != nil {
		return err
	}
	if !ok {
		msgs = append(msgs, fmt.Sprintf(MsgStatusCodeFmt, r.statusCode, r.stage))
	}
	if ok, err = tx.ActivityReasonConfig.Query().Where(activityreasonconfig.TenantID(tid), activityreasonconfig.Code(r.reasonCode),
		activityreasonconfig.IsActive(true)).Exist(ctx); err != nil {
		return err
	}
	if !ok {
		msgs = append(msgs, fmt.Sprintf(MsgReasonCodeFmt, r.reasonCode))
	}
	if len(msgs) > 0 {
		return apperr.Validation(msgs...)
	}
	return nil
}

// set writes r onto a create or update mutation.
func (r *rule) set(m *ent.GenerationRuleMutation) {
	m.SetName(r.name)
	m.SetTrigger(generationrule.Trigger(r.trigger))
	m.SetStage(generationrule.Stage(r.stage))
	m.SetStatusCode(r.statusCode)
	if r.dwellDays != nil {
		m.SetDwellDays(*r.dwellDays)
	} else {
		m.ClearDwellDays()
	}
	m.SetType(generationrule.Type(r.typ))
	m.SetChannel(generationrule.Channel(r.channel))
	m.SetReasonCode(r.reasonCode)
	m.SetTitleTemplate(r.titleTemplate)
	m.SetInstructionsTemplate(r.instructionsTemplate)
	if r.attributes == nil {
		r.attributes = map[string]string{}
	}
	m.SetAttributes(r.attributes)
	m.SetOffsetDays(r.offsetDays)
	m.SetTimeOfDay(r.timeOfDay)
	m.SetSkipWeekends(r.skipWeekends)
	if r.expiresAfterDays != nil {
		m.SetExpiresAfterDays(*r.expiresAfterDays)
	} else {
		m.ClearExpiresAfterDays()
	}
	if r.assignment != nil {
		m.SetAssignment(generationrule.Assignment(*r.assignment))
	} else {
		m.ClearAssignment()
	}
	if r.operatorType != nil {
		m.SetOperatorType(generationrule.OperatorType(*r.operatorType))
	} else {
		m.ClearOperatorType()
	}
	if r.targetRole != nil {
		m.SetTargetRole(generationrule.TargetRole(*r.targetRole))
	} else {
		m.ClearTargetRole()
	}
	m.SetIsActive(r.isActive)
	m.SetPriority(r.priority)
}

func ptr[T any](v T) *T { return &v }
