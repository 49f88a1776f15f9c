package generation

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activitygenerationconfig"
	"github.com/reten-io/reten/ent/generationrule"
	"github.com/reten-io/reten/ent/predicate"
	"github.com/reten-io/reten/internal/agc"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/commerce"
	"github.com/reten-io/reten/internal/fieldorg"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/patch"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/trash"
	"github.com/reten-io/reten/internal/txn"
)

// Messages of the rule rules (designed, in the class-validator style).
const (
	MsgRuleNotFound        = "Generation rule not found"
	MsgNameTakenFmt        = `A generation rule named "%s" already exists in this activity generation config`
	MsgNameEmpty           = "name should not be empty"
	MsgNameTooLong         = "name must be shorter than or equal to 255 characters"
	MsgTrigger             = "trigger must be one of the following values: ENTER, DWELL"
	MsgStatusCodeEmpty     = "status_code should not be empty"
	MsgStatusCodeFmt       = `status_code "%s" is not an active retention status config of stage %s`
	MsgDwellDays           = "dwell_days must be an integer from 1 to 3650 when trigger is DWELL"
	MsgDwellDaysEnter      = "dwell_days must be null when trigger is ENTER"
	MsgChannelTask         = "channel must be one of the following values for a TASK: SALESMAN, CALLCENTER"
	MsgChannelMessage      = "channel must be one of the following values for a MESSAGE: WHATSAPP, EMAIL, SMS, PUSH"
	MsgReasonCodeEmpty     = "reason_code should not be empty"
	MsgReasonCodeFmt       = `reason_code "%s" is not an active activity reason config`
	MsgTitleEmpty          = "title_template should not be empty"
	MsgAttributes          = "attributes must hold at most 50 keys, none blank, each value at most 500 characters"
	MsgOffsetDays          = "offset_days must be an integer from 0 to 365"
	MsgTimeOfDay           = "time_of_day must be a time of day HH:MM (00:00 to 23:59)"
	MsgExpiresAfterDays    = "expires_after_days must be null or an integer from 1 to 365"
	MsgAssignment          = "assignment must be one of the following values: ROUTE_LEAD, ROUTE_MEMBERS_ROUND_ROBIN"
	MsgAssignmentMessage   = "assignment must be null for a MESSAGE"
	MsgOperatorTypeNeed    = "operator_type must be null unless assignment is ROUTE_MEMBERS_ROUND_ROBIN"
	MsgTargetRoleTask      = "target_role must be null for a TASK"
	MsgPriority            = "priority must be an integer from 0 to 1000"
	MsgNotNull             = "%s must not be null"
	maxName, maxAttributes = 255, 50
)

// Messages built from the field organisation's and the commerces' lists.
var (
	MsgOperatorType = "operator_type must be one of the following values: " + strings.Join(fieldorg.OperatorTypes, ", ")
	MsgTargetRole   = "target_role must be one of the following values: " + strings.Join(commerce.Roles, ", ")
)

// RuleFields are the members of a rule's create or update body: absent
// keeps the stored value (on create, the default); null clears a nullable
// member and is refused for the others.
type RuleFields struct {
	Name, Trigger, Stage, StatusCode     patch.Patch[string]
	DwellDays                            patch.Patch[int]
	Type, Channel, ReasonCode            patch.Patch[string]
	TitleTemplate, InstructionsTemplate  patch.Patch[string]
	Attributes                           patch.Patch[map[string]string]
	OffsetDays                           patch.Patch[int]
	TimeOfDay                            patch.Patch[string]
	SkipWeekends                         patch.Patch[bool]
	ExpiresAfterDays                     patch.Patch[int]
	Assignment, OperatorType, TargetRole patch.Patch[string]
	IsActive                             patch.Patch[bool]
	Priority                             patch.Patch[int]
}

// rule is a rule's values while it is checked.
type rule struct {
	name, trigger, stage, statusCode     string
	dwellDays                            *int
	typ, channel, reasonCode             string
	titleTemplate, instructionsTemplate  string
	attributes                           map[string]string
	offsetDays                           int
	timeOfDay                            string
	skipWeekends                         bool
	expiresAfterDays                     *int
	assignment, operatorType, targetRole *string
	isActive                             bool
	priority                             int
}

// Service manages the generation rules of the active project's AGCs.
type Service struct{ client *ent.Client }

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client} }

func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// ruleOf reads a live rule of the project.
func ruleOf(ctx context.Context, c *ent.Client, tid, pid, id uuid.UUID) (*ent.GenerationRule, error) {
	r, err := c.GenerationRule.Query().Where(generationrule.ID(id), generationrule.TenantID(tid), generationrule.ProjectID(pid)).Only(ctx)
	return r, apperr.FromEnt(err, MsgRuleNotFound, "")
}

// GetRule returns a rule of the active project.
func (s *Service) GetRule(ctx context.Context, id uuid.UUID) (*ent.GenerationRule, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	return ruleOf(ctx, s.db(ctx), tid, pid, id)
}

// ListRules returns a page of an AGC's rules, by priority then id (the
// order in which rules firing together are tried; 404 for an AGC outside
// the active project).
func (s *Service) ListRules(ctx context.Context, agcID uuid.UUID, p paging.Page) (*paging.List[*ent.GenerationRule], error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	if err := agcExists(ctx, s.db(ctx), tid, pid, agcID); err != nil {
		return nil, err
	}
	q := s.db(ctx).GenerationRule.Query().Where(generationrule.ProjectID(pid), generationrule.ActivityGenerationConfigID(agcID))
	return tenancy.List(ctx, q, generationrule.TenantID,
		paging.Asc(generationrule.FieldPriority, generationrule.FieldID), p)
}

// RuleConnection pages through the active project's rules (of one AGC when
// agcID is set) for GraphQL, in ListRules' order.
func (s *Service) RuleConnection(ctx context.Context, agcID *uuid.UUID, after *ent.Cursor, first *int, before *ent.Cursor, last *int) (*ent.GenerationRuleConnection, error) {
	q := s.db(ctx).GenerationRule.Query()
	if agcID != nil {
		tid, pid, err := tenancy.Project(ctx)
		if err != nil {
			return nil, err
		}
		if err := agcExists(ctx, s.db(ctx), tid, pid, *agcID); err != nil {
			return nil, err
		}
		q.Where(generationrule.ActivityGenerationConfigID(*agcID))
	}
	order := &ent.GenerationRuleOrder{Direction: "ASC", Field: ent.GenerationRuleOrderFieldPriority}
	return tenancy.ProjectConnection(ctx, q, inProject, after, first, before, last, ent.WithGenerationRuleOrder(order))
}

func inProject(tenantID, projectID uuid.UUID) predicate.GenerationRule {
	return generationrule.And(generationrule.TenantID(tenantID), generationrule.ProjectID(projectID))
}

func agcExists(ctx context.Context, c *ent.Client, tid, pid, agcID uuid.UUID) error {
	ok, err := c.ActivityGenerationConfig.Query().Where(activitygenerationconfig.ID(agcID), activitygenerationconfig.TenantID(tid),
		activitygenerationconfig.ProjectID(pid)).Exist(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.NotFound(fmt.Sprintf(agc.MsgNotFoundFmt, agcID))
	}
	return nil
}

// CreateRule adds a rule to an AGC of the active project.
func (s *Service) CreateRule(ctx context.Context, agcID uuid.UUID, in RuleFields) (*ent.GenerationRule, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	r := rule{timeOfDay: "09:00", isActive: true, priority: 100}
	var out *ent.GenerationRule
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		if err := agcExists(ctx, tx, tid, pid, agcID); err != nil {
			return err
		}
		if err := r.apply(in, true); err != nil {
			return err
		}
		if err := r.checkReferences(ctx, tx, tid); err != nil {
			return err
		}
		c := tx.GenerationRule.Create().SetTenantID(tid).SetProjectID(pid).SetActivityGenerationConfigID(agcID)
		r.set(c.Mutation())
		out, err = c.Save(ctx)
		return apperr.FromEnt(err, "", fmt.Sprintf(MsgNameTakenFmt, r.name))
	})
	return out, err
}

// UpdateRule changes the members sent of a rule of the active project.
func (s *Service) UpdateRule(ctx context.Context, id uuid.UUID, in RuleFields) (*ent.GenerationRule, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	var out *ent.GenerationRule
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		cur, err := ruleOf(ctx, tx, tid, pid, id)
		if err != nil {
			return err
		}
		r := ruleFrom(cur)
		if err := r.apply(in, false); err != nil {
			return err
		}
		if err := r.checkReferences(ctx, tx, tid); err != nil {
			return err
		}
		u := tx.GenerationRule.UpdateOne(cur)
		r.set(u.Mutation())
		out, err = u.Save(ctx)
		return apperr.FromEnt(err, MsgRuleNotFound, fmt.Sprintf(MsgNameTakenFmt, r.name))
	})
	return out, err
}

// DeleteRule moves a rule of the active project to the trash.
func (s *Service) DeleteRule(ctx context.Context, id uuid.UUID) error {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return err
	}
	return txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		r, err := ruleOf(ctx, tx, tid, pid, id)
		if err != nil {
			return err
		}
		return trash.Move(ctx, tx, trash.Record{Kind: trash.KindGenerationRule, RecordID: id, Label: r.Name, ProjectID: &pid})
	})
}

func ruleFrom(g *ent.GenerationRule) rule {
	return rule{name: g.Name, trigger: g.Trigger.String(), stage: g.Stage.String(), statusCode: g.StatusCode, dwellDays: g.DwellDays,
		typ: g.Type.String(), channel: g.Channel.String(), reasonCode: g.ReasonCode, titleTemplate: g.TitleTemplate,
		instructionsTemplate: g.InstructionsTemplate, attributes: g.Attributes, offsetDays: g.OffsetDays, timeOfDay: g.TimeOfDay,
		skipWeekends: g.SkipWeekends, expiresAfterDays: g.ExpiresAfterDays,
		assignment: fields.EnumText(g.Assignment), operatorType: fields.EnumText(g.OperatorType), targetRole: fields.EnumText(g.TargetRole),
		isActive: g.IsActive, priority: g.Priority}
}
