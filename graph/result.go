package graph

import (
	"context"
	"encoding/json"
	"fmt"

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

// contactType is the ent enum as the service's string, nil for none.
func contactType(c *activityresult.ContactType) *string {
	if c == nil {
		return nil
	}
	s := string(*c)
	return &s
}

// resultInput is the service input of a submission.
func resultInput(input model.SubmitActivityResultInput) (result.Input, error) {
	raw, err := rawJSON(input.RawPayload)
	if err != nil {
		return result.Input{}, err
	}
	status := string(input.Status)
	in := result.Input{ActivityID: input.ActivityID, ProviderActivityID: input.ProviderActivityID,
		CommerceExternalID: input.CommerceExternalID, OccurredAt: &input.OccurredAt, Status: &status,
		ExternalStatus: input.ExternalStatus, HardOverride: input.HardOverride != nil && *input.HardOverride, RawPayload: raw}
	if tr := input.TaskResult; tr != nil {
		in.TaskResult = &result.TaskResult{Result: &tr.Result, Comment: tr.Comment, ContactType: contactType(tr.ContactType),
			OperatorExternalID: tr.OperatorExternalID, FutureScheduledAt: tr.FutureScheduledAt, Payload: tr.Payload}
	}
	return in, nil
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
		return submit(ctx, in)
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
		return out, err
	}
	var rec recordedResult
	if err := json.Unmarshal(resp.Body, &rec); err != nil {
		return nil, fmt.Errorf("replay %s: %w", field, err)
	}
	return r.Results.Stored(ctx, rec.ID)
}
