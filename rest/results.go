package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/result"
)

var (
	resultMembers = []string{"activity_id", "provider_activity_id", "commerce_external_id", "occurred_at", "status",
		"external_status", "hard_override", "raw_payload", "task_result"}
	resultPatchFields = []string{"occurred_at", "status", "external_status", "hard_override", "raw_payload", "task_result"}
	taskResultMembers = []string{"result", "comment", "contact_type", "operator_external_id", "future_scheduled_at", "payload"}
)

// taskDetailsDTO is the task_result as stored.
type taskDetailsDTO struct {
	Result             string         `json:"result"`
	Comment            *string        `json:"comment"`
	ContactType        *string        `json:"contactType"`
	OperatorExternalID *string        `json:"operatorExternalId"`
	FutureScheduledAt  *time.Time     `json:"futureScheduledAt"`
	Payload            map[string]any `json:"payload"`
}

// resultDTO is the result shape of SPEC.md plus the documented extra members.
type resultDTO struct {
	ID                 uuid.UUID       `json:"id"`
	ActivityID         *uuid.UUID      `json:"activityId"`
	ProjectID          *uuid.UUID      `json:"projectId"`
	Source             string          `json:"source"`
	ResultStatus       string          `json:"resultStatus"`
	ExternalStatus     *string         `json:"externalStatus"`
	ProviderActivityID *string         `json:"providerActivityId"`
	CommerceID         *uuid.UUID      `json:"commerceId"`
	CommerceExternalID *string         `json:"commerceExternalId"`
	HardOverride       bool            `json:"hardOverride"`
	OccurredAt         time.Time       `json:"occurredAt"`
	TaskDetails        taskDetailsDTO  `json:"taskDetails"`
	RawPayload         json.RawMessage `json:"rawPayload"`
	stamps
}

func presentResult(r *ent.ActivityResult) resultDTO {
	td := taskDetailsDTO{Result: r.ResultCode, Comment: r.Comment, OperatorExternalID: r.OperatorExternalID,
		FutureScheduledAt: r.FutureScheduledAt, Payload: orEmpty(r.Payload)}
	if r.ContactType != nil {
		s := string(*r.ContactType)
		td.ContactType = &s
	}
	raw := r.RawPayload
	if len(raw) == 0 {
		raw = json.RawMessage("null")
	}
	return resultDTO{ID: r.ID, ActivityID: r.ActivityID, ProjectID: r.ProjectID, Source: string(r.Source),
		ResultStatus: string(r.ResultStatus), ExternalStatus: r.ExternalStatus, ProviderActivityID: r.ProviderActivityID,
		CommerceID: r.CommerceID, CommerceExternalID: r.CommerceExternalID, HardOverride: r.HardOverride,
		OccurredAt: r.OccurredAt, TaskDetails: td, RawPayload: raw, stamps: stamps{r.CreatedAt, r.UpdatedAt}}
}

// taskResult reads task_result; its problems are named by their whole path.
func taskResult(b *body) *result.TaskResult {
	tb := b.childWholePath("task_result", taskResultMembers...)
	if tb == nil {
		return nil
	}
	return &result.TaskResult{Result: tb.str("result").Ptr(), Comment: tb.str("comment").Ptr(),
		ContactType: tb.str("contact_type").Ptr(), OperatorExternalID: tb.str("operator_external_id").Ptr(),
		FutureScheduledAt: tb.instant("future_scheduled_at").Ptr(), Payload: tb.object("payload").OrZero()}
}

// A result's members are read in the order of SPEC.md's body table (the
// order of the messages). status is read as text: a value of another type
// breaks the status rule, which the service reports. The problems travel
// with the input: the service adds its value rules to them.

func decodeResultInput(raw []byte) (result.Input, error) {
	b, err := parseBody(raw, resultMembers...)
	if err != nil {
		return result.Input{}, err
	}
	in := result.Input{ActivityID: b.uuid("activity_id").Ptr(), ProviderActivityID: b.str("provider_activity_id").Ptr(),
		CommerceExternalID: b.str("commerce_external_id").Ptr(), OccurredAt: b.instant("occurred_at").Ptr(),
		Status: b.text("status").Ptr(), ExternalStatus: b.str("external_status").Ptr(),
		HardOverride: b.boolean("hard_override").OrZero(), RawPayload: b.rawObject("raw_payload").OrZero(),
		TaskResult: taskResult(b)}
	in.Problems = b.problems()
	return in, nil
}

var resultPatchBody = func(r *http.Request) (result.Patch, error) {
	b, err := decodeBody(r, resultPatchFields...)
	if err != nil {
		return result.Patch{}, err
	}
	p := result.Patch{OccurredAt: b.instant("occurred_at").Ptr(), Status: b.text("status").Ptr(),
		ExternalStatus: b.str("external_status").Ptr(), HardOverride: b.boolean("hard_override").OrZero(),
		RawPayload: b.rawObject("raw_payload").OrZero(), TaskResult: taskResult(b)}
	p.Problems = b.problems()
	return p, nil
}

func (a *api) updateResult(w http.ResponseWriter, r *http.Request) error {
	return update(resultPatchBody, a.Results.Update, presentResult)(w, r)
}

func (a *api) submitResult(w http.ResponseWriter, r *http.Request) error {
	return a.submitResultWith(w, r, a.Results.Submit)
}

func (a *api) submitIntegrationResult(w http.ResponseWriter, r *http.Request) error {
	return a.submitResultWith(w, r, a.Results.SubmitAnyProject)
}

// submitResultWith decodes a result submission and answers it through
// submit, recorded for replay when the request carries an Idempotency-Key.
// A body that breaks the service's rules is answered before a key is
// claimed (a retry of a rejected body is rejected again, never replayed).
func (a *api) submitResultWith(w http.ResponseWriter, r *http.Request,
	submit func(context.Context, result.Input) (*ent.ActivityResult, error)) error {
	raw, err := readBody(r)
	if err != nil {
		return err
	}
	in, err := decodeResultInput(raw)
	if err != nil {
		return err
	}
	if err := in.Check(); err != nil {
		return err
	}
	return a.idempotent(w, r, raw, http.StatusCreated, func(ctx context.Context) (any, error) {
		res, err := submit(ctx, in)
		if err != nil {
			return nil, err
		}
		return presentResult(res), nil
	})
}
