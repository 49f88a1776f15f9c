package activity

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activity"
	"github.com/reten-io/reten/ent/activitystatusevent"
	"github.com/reten-io/reten/ent/commerce"
	"github.com/reten-io/reten/ent/operator"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/webhook"
)

// Types and channels of an activity (SPEC.md "Activity").
var (
	Types    = []string{"TASK", "MESSAGE"}
	Channels = []string{"SALESMAN", "CALLCENTER", "WHATSAPP", "EMAIL", "SMS", "PUSH"}
)

// Validation messages of activity creation and of the list filters.
var (
	MsgType    = "type must be one of the following values: " + strings.Join(Types, ", ")
	MsgChannel = "channel must be one of the following values: " + strings.Join(Channels, ", ")
	MsgStatus  = "status must be one of the following values: " + strings.Join(statusNames(), ", ")
)

// Validation messages of activity creation.
const (
	MsgCommerceIDEmpty       = "commerce_id should not be empty"
	MsgScheduledAtEmpty      = "scheduled_at should not be empty"
	MsgTitleTooLong          = "title must be shorter than or equal to 255 characters"
	MsgAttributeKeyEmpty     = "attribute keys should not be empty"
	MsgAttributeKeyLong      = "attribute keys must be shorter than or equal to 255 characters"
	MsgAttributeKeyDuplicate = "attribute keys must be unique"
	MsgTypeEmpty             = "type should not be empty"
	MsgChannelEmpty          = "channel should not be empty"
)

func statusNames() []string {
	out := make([]string, len(Statuses))
	for i, s := range Statuses {
		out[i] = string(s)
	}
	return out
}

// CreateInput is the body of POST /api/activities (decoded by the adapter).
// Problems are the adapter's decoding problems: the rules of Validate are
// reported after them, in one 400.
type CreateInput struct {
	CommerceID  uuid.UUID
	Type        string
	Channel     string
	ScheduledAt *time.Time
	OperatorID  *uuid.UUID
	Title       *string
	Description *string
	Attributes  []Attribute
	Problems    apperr.Problems
}

// Attribute is a key and value of a new activity; keys are unique.
type Attribute struct{ Key, Value string }

// Validate returns one message per broken rule.
func (in CreateInput) Validate() []string {
	var msgs []string
	if in.CommerceID == uuid.Nil {
		msgs = append(msgs, MsgCommerceIDEmpty)
	}
	switch {
	case in.Type == "":
		msgs = append(msgs, MsgTypeEmpty)
	case !slices.Contains(Types, in.Type):
		msgs = append(msgs, MsgType)
	}
	switch {
	case in.Channel == "":
		msgs = append(msgs, MsgChannelEmpty)
	case !slices.Contains(Channels, in.Channel):
		msgs = append(msgs, MsgChannel)
	}
	if in.ScheduledAt == nil {
		msgs = append(msgs, MsgScheduledAtEmpty)
	}
	if in.Title != nil && utf8.RuneCountInString(*in.Title) > 255 {
		msgs = append(msgs, MsgTitleTooLong)
	}
	keys := slices.Sorted(maps.Keys(in.attributes()))
	for _, k := range keys {
		switch {
		case strings.TrimSpace(k) == "":
			msgs = append(msgs, MsgAttributeKeyEmpty)
		case utf8.RuneCountInString(k) > 255:
			msgs = append(msgs, MsgAttributeKeyLong)
		}
	}
	if len(keys) < len(in.Attributes) {
		msgs = append(msgs, MsgAttributeKeyDuplicate)
	}
	return slices.Compact(msgs)
}

// attributes are the attributes by key (a repeated key keeps its last value;
// Validate reports it).
func (in CreateInput) attributes() map[string]string {
	m := make(map[string]string, len(in.Attributes))
	for _, at := range in.Attributes {
		m[at.Key] = at.Value
	}
	return m
}

// Create creates an activity of the active project in READY, with its
// attributes and its CREATED status event (fromStatus null), in one
// transaction. The commerce must be a live commerce of the
// tenant, the operator (optional) a live operator of the tenant: otherwise 404.
func (s *Service) Create(ctx context.Context, in CreateInput) (*ent.Activity, error) {
	tid, pid, err := tenancy.Project(ctx)
	if err != nil {
		return nil, err
	}
	p := in.Problems
	p.Rules(in.Validate()...)
	if err := p.Err(); err != nil {
		return nil, err
	}
	attrs := in.attributes()
	var id uuid.UUID
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		ok, err := tx.Commerce.Query().Where(commerce.ID(in.CommerceID), commerce.TenantID(tid)).Exist(ctx)
		if err != nil {
			return err
		}
		if !ok {
			return apperr.NotFound(MsgCommerceNotFound)
		}
		if in.OperatorID != nil {
			ok, err := tx.Operator.Query().Where(operator.ID(*in.OperatorID), operator.TenantID(tid)).Exist(ctx)
			if err != nil {
				return err
			}
			if !ok {
				return apperr.NotFound(MsgOperatorNotFound)
			}
		}
		row, _ := Lookup("", TriggerCreated)
		c := tx.Activity.Create().SetTenantID(tid).SetProjectID(pid).SetCommerceID(in.CommerceID).
			SetType(activity.Type(in.Type)).SetChannel(activity.Channel(in.Channel)).SetStatus(row.To).
			SetScheduledAt(in.ScheduledAt.UTC().Truncate(time.Microsecond)).SetNillableOperatorID(in.OperatorID).
			SetNillableCreatedBy(tenancy.Actor(ctx)).SetNillableTitle(in.Title).SetNillableDescription(in.Description)
		a, err := c.Save(ctx)
		if err != nil {
			return fmt.Errorf("create activity: %w", err)
		}
		id = a.ID
		if len(attrs) > 0 {
			bulk := make([]*ent.ActivityAttributeCreate, 0, len(attrs))
			for _, k := range slices.Sorted(maps.Keys(attrs)) {
				bulk = append(bulk, tx.ActivityAttribute.Create().SetTenantID(tid).SetProjectID(pid).
					SetActivityID(a.ID).SetKey(k).SetValue(attrs[k]))
			}
			if err := tx.ActivityAttribute.CreateBulk(bulk...).Exec(ctx); err != nil {
				return fmt.Errorf("create activity attributes: %w", err)
			}
		}
		// The CREATED row of the table: no from status.
		ev, err := tx.ActivityStatusEvent.Create().SetTenantID(tid).SetProjectID(pid).SetActivityID(a.ID).
			SetEventType(row.Event).SetToStatus(activitystatusevent.ToStatus(row.To)).
			SetOccurredAt(a.CreatedAt).SetNillableActorID(tenancy.Actor(ctx)).Save(ctx)
		if err != nil {
			return err
		}
		return s.Machine.Events.Emit(ctx, tx, tid, webhook.StatusEvent(a, ev.ID, string(row.Event), nil, string(row.To), a.CreatedAt, nil))
	})
	if err != nil {
		return nil, err
	}
	return s.detail(ctx, s.db(ctx), tid, pid, id, false)
}
