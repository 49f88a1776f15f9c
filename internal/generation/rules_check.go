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
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/cutoff"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/patch"
)

// The values of the rule's enumerations, as the messages list them.
var (
	triggers      = []string{"ENTER", "DWELL"}
	stages        = []string{"ACTIVATION", "ENGAGEMENT", "RESURRECTION"}
	types         = []string{"TASK", "MESSAGE"}
	taskChannels  = []string{"SALESMAN", "CALLCENTER"}
	msgChannels   = []string{"WHATSAPP", "EMAIL", "SMS", "PUSH"}
	assignments   = []string{"ROUTE_LEAD", "ROUTE_MEMBERS_ROUND_ROBIN"}
	operatorTypes = []string{"SALESMAN", "ACTIVATOR", "CALLCENTER"}
	targetRoles   = []string{"OWNER", "ORDERS", "FINANCE", "ATTENTION", "ADMIN", "COMMERCE_REP", "OTHER"}
)

// apply sets the members sent onto r and checks the whole rule, answering
// one 400 with every broken rule. create: a required member must be sent.
func (r *rule) apply(in RuleFields, create bool) error {
	var msgs []string
	text := func(p patch.Patch[string], name string, dst *string) {
		switch v, ok := p.Get(); {
		case ok:
			*dst = strings.TrimSpace(v)
		case p.IsNull():
			msgs = append(msgs, fmt.Sprintf(MsgNotNull, name))
		}
	}
	number := func(p patch.Patch[int], name string, dst *int) {
		switch v, ok := p.Get(); {
		case ok:
			*dst = v
		case p.IsNull():
			msgs = append(msgs, fmt.Sprintf(MsgNotNull, name))
		}
	}
	flag := func(p patch.Patch[bool], name string, dst *bool) {
		switch v, ok := p.Get(); {
		case ok:
			*dst = v
		case p.IsNull():
			msgs = append(msgs, fmt.Sprintf(MsgNotNull, name))
		}
	}
	nullable := func(p patch.Patch[int], dst **int) {
		if p.Sent() {
			*dst = p.Ptr()
		}
	}
	nullableText := func(p patch.Patch[string], dst **string) {
		if p.Sent() {
			*dst = p.Ptr()
		}
	}
	text(in.Name, "name", &r.name)
	text(in.Trigger, "trigger", &r.trigger)
	text(in.Stage, "stage", &r.stage)
	text(in.StatusCode, "status_code", &r.statusCode)
	nullable(in.DwellDays, &r.dwellDays)
	typeSent := in.Type.Sent()
	text(in.Type, "type", &r.typ)
	text(in.Channel, "channel", &r.channel)
	text(in.ReasonCode, "reason_code", &r.reasonCode)
	if v, ok := in.TitleTemplate.Get(); ok {
		r.titleTemplate = v
	} else if in.TitleTemplate.IsNull() {
		msgs = append(msgs, fmt.Sprintf(MsgNotNull, "title_template"))
	}
	if v, ok := in.InstructionsTemplate.Get(); ok {
		r.instructionsTemplate = v
	} else if in.InstructionsTemplate.IsNull() {
		r.instructionsTemplate = ""
	}
	if in.Attributes.Sent() {
		r.attributes, _ = in.Attributes.Get() // null: none
	}
	number(in.OffsetDays, "offset_days", &r.offsetDays)
	text(in.TimeOfDay, "time_of_day", &r.timeOfDay)
	flag(in.SkipWeekends, "skip_weekends", &r.skipWeekends)
	nullable(in.ExpiresAfterDays, &r.expiresAfterDays)
	nullableText(in.Assignment, &r.assignment)
	nullableText(in.OperatorType, &r.operatorType)
	nullableText(in.TargetRole, &r.targetRole)
	flag(in.IsActive, "is_active", &r.isActive)
	number(in.Priority, "priority", &r.priority)

	// A change of type resets the members that only the other type has,
	// unless they are sent.
	if typeSent && !create {
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
	if !slices.Contains(stages, r.stage) {
		msgs = append(msgs, MsgStage)
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
		if r.operatorType != nil && !slices.Contains(operatorTypes, *r.operatorType) {
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
		if r.targetRole == nil || !slices.Contains(targetRoles, *r.targetRole) {
			msgs = append(msgs, MsgTargetRole)
		}
	default:
		msgs = append(msgs, MsgType)
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
