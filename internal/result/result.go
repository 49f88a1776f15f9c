// Package result registers the outcome of a task (an activity result): the
// submission that links it to an activity of the project (by activity_id or
// provider_activity_id) and syncs the activity's status through the status
// machine in the same transaction, or stores it STANDALONE with a commerce
// reference; and the guarded update of a stored result (temporal guard and
// result status machine).
package result

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activityresult"
	"github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/resulttype"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// Result statuses (SPEC.md "Activity result statuses"); PENDING is the only
// non-terminal one.
const (
	StatusPending     = "PENDING"
	StatusCompleted   = "COMPLETED"
	StatusNotExecuted = "NOT_EXECUTED"
	StatusCanceled    = "CANCELED"
	StatusTransferred = "TRANSFERRED"
)

// Statuses lists the result statuses in SPEC.md order.
var Statuses = []string{StatusPending, StatusCompleted, StatusNotExecuted, StatusCanceled, StatusTransferred}

// ContactTypes lists the task_result.contact_type values.
var ContactTypes = []string{"INBOUND", "OUTBOUND"}

// Sources of a result.
const (
	SourceActivity   = "RETEN_ACTIVITY"
	SourceStandalone = "STANDALONE"
)

// Messages of the results (validation: one per broken rule).
var (
	MsgOccurredAtRequired = "occurred_at should not be empty"
	MsgStatusEnum         = "status must be one of the following values: " + strings.Join(Statuses, ", ")
	MsgTaskResultRequired = "task_result should not be empty"
	MsgResultRequired     = "task_result.result should not be empty"
	MsgCommerceExtRequire = "commerce_external_id should not be empty when activity_id is absent"
	MsgContactTypeEnum    = "task_result.contact_type must be one of the following values: " + strings.Join(ContactTypes, ", ")
)

// Messages of the result rules (422 exact SPEC.md; 404 and 409 designed).
const (
	// MsgActivityState: the linked activity does not accept a result.
	MsgActivityState = "La actividad no está en un estado válido para registrar resultado."
	// MsgNotFound: the result id names no result of the active project.
	MsgNotFound = "Activity result not found"
	// MsgStaleUpdateFmt: the temporal guard (occurred_at <= stored updatedAt).
	MsgStaleUpdateFmt = "occurred_at must be later than the result's last update (%s)"
	// MsgTerminalFmt: the result status machine refuses a change out of a terminal status.
	MsgTerminalFmt = "Result in status %s is terminal and cannot change to %s; send hard_override to force it"
)

// TaskResult is the task_result object of a submission.
type TaskResult struct {
	Result             *string
	Comment            *string
	ContactType        *string
	OperatorExternalID *string
	FutureScheduledAt  *time.Time
	Payload            map[string]any
}

// Input is a result submission (POST /api/activity-results/tasks).
type Input struct {
	ActivityID         *uuid.UUID
	ProviderActivityID *string
	CommerceExternalID *string
	OccurredAt         *time.Time
	Status             *string
	ExternalStatus     *string
	HardOverride       bool
	RawPayload         json.RawMessage
	TaskResult         *TaskResult
	// Problems are the adapter's decoding problems (wrong JSON types,
	// unknown members), reported first.
	Problems apperr.Problems
}

// Validate returns the broken rules: the adapter's problems, then the rules
// of the values, leaving out a rule about a member already reported (one
// message per broken rule).
func (in Input) Validate() []string {
	p := in.Problems
	p.Rule(in.OccurredAt == nil, MsgOccurredAtRequired, "occurred_at")
	p.Rule(in.Status == nil || !slices.Contains(Statuses, *in.Status), MsgStatusEnum, "status")
	// A commerce reference is needed without an activity_id, unless the one
	// sent could not be read.
	p.Rule(in.ActivityID == nil && (in.CommerceExternalID == nil || *in.CommerceExternalID == ""), MsgCommerceExtRequire,
		"commerce_external_id", "activity_id")
	if in.TaskResult == nil {
		p.Rule(true, MsgTaskResultRequired, "task_result")
		return p.Messages()
	}
	p.Rule(in.TaskResult.Result == nil || *in.TaskResult.Result == "", MsgResultRequired, "task_result.result")
	in.TaskResult.validate(&p)
	return p.Messages()
}

// Check is Validate as the 400 that lists the broken rules, nil when none is.
func (in Input) Check() error { return problemsErr(in.Validate()) }

func (tr *TaskResult) validate(p *apperr.Problems) {
	p.Rule(tr.ContactType != nil && !slices.Contains(ContactTypes, *tr.ContactType), MsgContactTypeEnum, "task_result.contact_type")
}

func problemsErr(msgs []string) error {
	if len(msgs) == 0 {
		return nil
	}
	return apperr.Validation(msgs...)
}

// Patch is a result update (PATCH /api/activity-results/tasks/:id): nil
// fields are unchanged; OccurredAt is required (the temporal guard needs it).
type Patch struct {
	OccurredAt     *time.Time
	Status         *string
	ExternalStatus *string
	HardOverride   bool
	RawPayload     json.RawMessage
	TaskResult     *TaskResult
	// Problems are the adapter's decoding problems, reported first.
	Problems apperr.Problems
}

// Validate returns the broken rules of the update, as Input.Validate does.
func (p Patch) Validate() []string {
	probs := p.Problems
	probs.Rule(p.OccurredAt == nil, MsgOccurredAtRequired, "occurred_at")
	probs.Rule(p.Status != nil && !slices.Contains(Statuses, *p.Status), MsgStatusEnum, "status")
	if p.TaskResult != nil {
		probs.Rule(p.TaskResult.Result != nil && *p.TaskResult.Result == "", MsgResultRequired, "task_result.result")
		p.TaskResult.validate(&probs)
	}
	return probs.Messages()
}

// Service registers and updates the activity results of the active project.
type Service struct {
	client         *ent.Client
	types          *resulttype.Service
	clock.Settable // the day rules'
	// Machine syncs the activities' statuses, recording their webhook
	// events; Events records activity_result.recorded.
	Machine activity.Machine
}

// NewService returns a Service that checks result codes through types.
func NewService(client *ent.Client, types *resulttype.Service) *Service {
	return &Service{client: client, types: types}
}

func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// Stored returns a result of the tenant by id, of the active project when
// the request has one (the replay of an idempotent GraphQL submission).
func (s *Service) Stored(ctx context.Context, id uuid.UUID) (*ent.ActivityResult, error) {
	acc, err := tenancy.From(ctx)
	if err != nil {
		return nil, err
	}
	q := s.db(ctx).ActivityResult.Query().Where(activityresult.ID(id), activityresult.TenantID(acc.TenantID))
	if acc.ProjectID != uuid.Nil {
		q.Where(activityresult.ProjectID(acc.ProjectID))
	}
	r, err := q.Only(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, MsgNotFound, "")
	}
	return r, nil
}

func wrap(what string, err error) error { return fmt.Errorf("result %s: %w", what, err) }
