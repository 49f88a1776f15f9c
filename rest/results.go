package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/result"
)

// resultHandlers maps the REST lines of tenancy.resultMatrix to their handlers.
func (a *api) resultHandlers() map[string]handler {
	return map[string]handler{
		"POST /activity-results/tasks":       a.submitResult,
		"PATCH /activity-results/tasks/{id}": a.updateResult,
		"GET /activity-results/tasks/sync":   a.syncResults,
	}
}

// Messages of the result DTO types (the value rules live in internal/result).
const (
	msgResActivityIDUUID   = "activity_id must be a UUID"
	msgResProviderIDString = "provider_activity_id must be a string"
	msgResCommerceExtStr   = "commerce_external_id must be a string"
	msgResOccurredAtISO    = "occurred_at must be a valid ISO 8601 date string"
	msgResExtStatusString  = "external_status must be a string"
	msgResHardOverrideBool = "hard_override must be a boolean value"
	msgResRawPayloadObject = "raw_payload must be an object"
	msgResTaskResultObject = "task_result must be an object"
	msgResResultString     = "task_result.result must be a string"
	msgResCommentString    = "task_result.comment must be a string"
	msgResContactString    = "task_result.contact_type must be a string"
	msgResOperatorString   = "task_result.operator_external_id must be a string"
	msgResFutureISO        = "task_result.future_scheduled_at must be a valid ISO 8601 date string"
	msgResPayloadObject    = "task_result.payload must be an object"
	msgResNestedUnknownFmt = "property task_result.%s should not exist"
)

var (
	resultMembers     = []string{"activity_id", "provider_activity_id", "commerce_external_id", "occurred_at", "status", "external_status", "hard_override", "raw_payload", "task_result"}
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
	CreatedAt          time.Time       `json:"createdAt"`
	UpdatedAt          time.Time       `json:"updatedAt"`
}

func presentResult(r *ent.ActivityResult) resultDTO {
	td := taskDetailsDTO{Result: r.ResultCode, Comment: r.Comment, OperatorExternalID: r.OperatorExternalID,
		FutureScheduledAt: r.FutureScheduledAt, Payload: r.Payload}
	if r.ContactType != nil {
		s := string(*r.ContactType)
		td.ContactType = &s
	}
	if td.Payload == nil {
		td.Payload = map[string]any{}
	}
	raw := r.RawPayload
	if len(raw) == 0 {
		raw = json.RawMessage("null")
	}
	return resultDTO{ID: r.ID, ActivityID: r.ActivityID, ProjectID: r.ProjectID, Source: string(r.Source),
		ResultStatus: string(r.ResultStatus), ExternalStatus: r.ExternalStatus, ProviderActivityID: r.ProviderActivityID,
		CommerceID: r.CommerceID, CommerceExternalID: r.CommerceExternalID, HardOverride: r.HardOverride,
		OccurredAt: r.OccurredAt, TaskDetails: td, RawPayload: raw, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

// rawObject reads a JSON object member kept as sent; nil when missing or null.
func (b *body) rawObject(name, notObject string) json.RawMessage {
	raw, ok := b.fields[name]
	if !ok || string(raw) == "null" {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		b.fail(notObject)
		return nil
	}
	return raw
}

// taskResult decodes task_result: its type errors and unknown members go to b.
func (b *body) taskResult() *result.TaskResult {
	raw := b.rawObject("task_result", msgResTaskResultObject)
	if raw == nil {
		return nil
	}
	nb := &body{fields: map[string]json.RawMessage{}}
	_ = json.Unmarshal(raw, &nb.fields)
	names := make([]string, 0, len(nb.fields))
	for n := range nb.fields {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if !slices.Contains(taskResultMembers, n) {
			nb.fail(fmt.Sprintf(msgResNestedUnknownFmt, n))
		}
	}
	tr := &result.TaskResult{
		Result:             nb.optStr("result", msgResResultString),
		Comment:            nb.optStr("comment", msgResCommentString),
		ContactType:        nb.optStr("contact_type", msgResContactString),
		OperatorExternalID: nb.optStr("operator_external_id", msgResOperatorString),
		FutureScheduledAt:  nb.instant("future_scheduled_at", msgResFutureISO),
		Payload:            nb.object("payload", msgResPayloadObject),
	}
	b.msgs = append(b.msgs, nb.msgs...)
	return tr
}

// merge returns the type errors of b followed by the value rules, leaving
// out a value rule on a member whose type was already wrong (one message per
// broken rule).
func (b *body) merge(rules []string) error {
	flagged := func(m string) bool {
		field, _, _ := strings.Cut(m, " ")
		for _, t := range b.msgs {
			if tf, _, _ := strings.Cut(t, " "); tf == field {
				return true
			}
		}
		return false
	}
	var extra []string
	for _, m := range rules {
		if !flagged(m) {
			extra = append(extra, m)
		}
	}
	b.msgs = append(b.msgs, extra...)
	return b.err()
}

// statusMember reads status; a non-string breaks the enum rule (reported by
// the value rules), so it reads as a value outside the enum.
func (b *body) statusMember() *string {
	raw, ok := b.fields["status"]
	if !ok || string(raw) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		s = string(raw)
	}
	return &s
}

func decodeResultInput(raw []byte) (result.Input, error) {
	b, err := parseBody(raw, resultMembers...)
	if err != nil {
		return result.Input{}, err
	}
	// Members are read in the order of SPEC.md's body table (the order of the messages).
	var in result.Input
	in.ActivityID = b.optUUID("activity_id", msgResActivityIDUUID)
	in.ProviderActivityID = b.optStr("provider_activity_id", msgResProviderIDString)
	in.CommerceExternalID = b.optStr("commerce_external_id", msgResCommerceExtStr)
	in.OccurredAt = b.instant("occurred_at", msgResOccurredAtISO)
	in.Status = b.statusMember()
	in.ExternalStatus = b.optStr("external_status", msgResExtStatusString)
	if v := b.boolean("hard_override", msgResHardOverrideBool); v != nil {
		in.HardOverride = *v
	}
	in.RawPayload = b.rawObject("raw_payload", msgResRawPayloadObject)
	in.TaskResult = b.taskResult()
	// activity_id sent but not a UUID: the commerce_external_id rule does not apply.
	if in.ActivityID == nil && b.has("activity_id") && slices.Contains(b.msgs, msgResActivityIDUUID) {
		in.ActivityID = &uuid.UUID{}
	}
	return in, b.merge(in.Validate())
}

func (a *api) submitResult(w http.ResponseWriter, r *http.Request) error {
	return a.submitResultWith(w, r, a.Results.Submit)
}

// submitResultWith decodes a result submission and answers it through
// submit, recorded for replay when the request carries an Idempotency-Key.
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
	return a.idempotent(w, r, raw, http.StatusCreated, func(ctx context.Context) (any, error) {
		res, err := submit(ctx, in)
		if err != nil {
			return nil, err
		}
		return presentResult(res), nil
	})
}

func (a *api) updateResult(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, resultPatchFields...)
	if err != nil {
		return err
	}
	var p result.Patch
	p.OccurredAt = b.instant("occurred_at", msgResOccurredAtISO)
	p.Status = b.statusMember()
	p.ExternalStatus = b.optStr("external_status", msgResExtStatusString)
	if v := b.boolean("hard_override", msgResHardOverrideBool); v != nil {
		p.HardOverride = *v
	}
	p.RawPayload = b.rawObject("raw_payload", msgResRawPayloadObject)
	p.TaskResult = b.taskResult()
	if err := b.merge(p.Validate()); err != nil {
		return err
	}
	res, err := a.Results.Update(r.Context(), id, p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentResult(res))
	return nil
}
