package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/activityresult"
	"github.com/reten-io/reten/graph/model"
	"github.com/reten-io/reten/internal/idempotency"
	"github.com/reten-io/reten/internal/result"
)

// rawJSON keeps a Map argument as the JSON the result stores (nil for none).
func rawJSON(m map[string]any) (json.RawMessage, error) {
	if m == nil {
		return nil, nil
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("rawPayload: %w", err)
	}
	return raw, nil
}

// rawPayload is a stored raw payload as the JSON scalar writes it, exactly
// as sent (nil, null, when none).
func rawPayload(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	return raw
}

// contactType is the ent enum as the service's string, nil for none.
func contactType(c *activityresult.ContactType) *string {
	if c == nil {
		return nil
	}
	s := string(*c)
	return &s
}

// resultInput is the service input of a submission: REST's task_result is
// the input's flat outcome members.
func resultInput(input model.SubmitActivityResultInput) (result.Input, error) {
	raw, err := rawJSON(input.RawPayload)
	if err != nil {
		return result.Input{}, err
	}
	status := string(input.ResultStatus)
	return result.Input{ActivityID: input.ActivityID, ProviderActivityID: input.ProviderActivityID,
		CommerceExternalID: input.CommerceExternalID, OccurredAt: &input.OccurredAt, Status: &status,
		ExternalStatus: input.ExternalStatus, HardOverride: input.HardOverride != nil && *input.HardOverride, RawPayload: raw,
		TaskResult: &result.TaskResult{Result: &input.ResultCode, Comment: input.Comment, ContactType: contactType(input.ContactType),
			OperatorExternalID: input.OperatorExternalID, FutureScheduledAt: input.FutureScheduledAt, Payload: input.Payload}}, nil
}

// resultPatch is the service input of an update; absent members are unchanged.
func resultPatch(input model.UpdateActivityResultInput) (result.Patch, error) {
	raw, err := rawJSON(input.RawPayload)
	if err != nil {
		return result.Patch{}, err
	}
	p := result.Patch{OccurredAt: &input.OccurredAt, ExternalStatus: input.ExternalStatus,
		HardOverride: input.HardOverride != nil && *input.HardOverride, RawPayload: raw,
		TaskResult: &result.TaskResult{Result: input.ResultCode, Comment: input.Comment, ContactType: contactType(input.ContactType),
			OperatorExternalID: input.OperatorExternalID, FutureScheduledAt: input.FutureScheduledAt, Payload: input.Payload}}
	if input.ResultStatus != nil {
		s := string(*input.ResultStatus)
		p.Status = &s
	}
	return p, nil
}

// resultMembers are the REST members of a result body that the GraphQL
// inputs name otherwise (the flat outcome members of ActivityResult); the
// other task_result members are their own name (InputNames then says them
// in camelCase).
var resultMembers = map[string]string{"status": "resultStatus", "task_result.result": "resultCode"}

// resultErr says the member that starts a result message in GraphQL names:
// "task_result.result should not be empty" is "resultCode should not be
// empty", "task_result.contact_type must be ..." "contact_type must be ..."
// (then contactType), "status must be ..." "resultStatus must be ...".
func resultErr(err error) error {
	return translateMessages(err, func(m string) string {
		path, rest, found := strings.Cut(m, " ")
		if !found {
			return m
		}
		if name, ok := resultMembers[path]; ok {
			return name + " " + rest
		}
		if member, ok := strings.CutPrefix(path, "task_result."); ok {
			return member + " " + rest
		}
		return m
	})
}

// recordedResult is what an idempotent submission records: the id of its result.
type recordedResult struct {
	ID uuid.UUID `json:"id"`
}

// submitResult submits input through submit; with an idempotency key it runs
// once per key (internal/idempotency) and a replay returns the result the
// first submission stored, as it is now.
func (r *Resolver) submitResult(ctx context.Context, field string, input model.SubmitActivityResultInput, key *string,
	submit func(context.Context, result.Input) (*ent.ActivityResult, error)) (*ent.ActivityResult, error) {
	in, err := resultInput(input)
	if err != nil {
		return nil, err
	}
	if key == nil {
		out, err := submit(ctx, in)
		return out, resultErr(err)
	}
	var out *ent.ActivityResult
	req := idempotency.Request{Key: *key, Method: "Mutation", Path: field, Body: input}
	resp, replayed, err := r.Idempotency.Do(ctx, req, func(ctx context.Context) (idempotency.Response, error) {
		if out, err = submit(ctx, in); err != nil {
			return idempotency.Response{}, err
		}
		body, err := json.Marshal(recordedResult{ID: out.ID})
		return idempotency.Response{Status: 201, Body: body}, err
	})
	if err != nil || !replayed {
		return out, resultErr(err)
	}
	var rec recordedResult
	if err := json.Unmarshal(resp.Body, &rec); err != nil {
		return nil, fmt.Errorf("replay %s: %w", field, err)
	}
	return r.Results.Stored(ctx, rec.ID)
}
