package webhook

import (
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/lifecycle"
)

// The data of each event type, camelCase like the REST responses
// (docs/webhooks.md shows each).

// StatusChanged is the data of activity.status_changed: one status event of
// an activity (SPEC's audit trail entry) with what identifies the activity.
type StatusChanged struct {
	ActivityID                 uuid.UUID      `json:"activityId"`
	ProjectID                  uuid.UUID      `json:"projectId"`
	CommerceID                 uuid.UUID      `json:"commerceId"`
	ActivityGenerationConfigID *uuid.UUID     `json:"activityGenerationConfigId"`
	Type                       string         `json:"type"`
	Channel                    string         `json:"channel"`
	StatusEventID              uuid.UUID      `json:"statusEventId"`
	EventType                  string         `json:"eventType"`
	FromStatus                 *string        `json:"fromStatus"`
	ToStatus                   string         `json:"toStatus"`
	OccurredAt                 time.Time      `json:"occurredAt"`
	Detail                     map[string]any `json:"detail"`
}

// StatusEvent is the event of one status event of activity a.
func StatusEvent(a *ent.Activity, eventID uuid.UUID, eventType string, from *string, to string, at time.Time, detail map[string]any) Event {
	if detail == nil {
		detail = map[string]any{} // as GET .../status-events shows it
	}
	return Event{ID: NewID(), Type: TypeActivityStatusChanged, At: at, Data: StatusChanged{
		ActivityID: a.ID, ProjectID: a.ProjectID, CommerceID: a.CommerceID, ActivityGenerationConfigID: a.ActivityGenerationConfigID,
		Type: string(a.Type), Channel: string(a.Channel), StatusEventID: eventID, EventType: eventType, FromStatus: from,
		ToStatus: to, OccurredAt: at.UTC(), Detail: detail}}
}

// ResultRecorded is the data of activity_result.recorded: a result as
// stored after a submission (first or resubmitted) or a sync.
type ResultRecorded struct {
	ResultID           uuid.UUID      `json:"resultId"`
	ActivityID         *uuid.UUID     `json:"activityId"`
	ProjectID          *uuid.UUID     `json:"projectId"`
	CommerceID         *uuid.UUID     `json:"commerceId"`
	Source             string         `json:"source"`
	ResultStatus       string         `json:"resultStatus"`
	ResultCode         string         `json:"resultCode"`
	Comment            *string        `json:"comment"`
	ContactType        *string        `json:"contactType"`
	OperatorExternalID *string        `json:"operatorExternalId"`
	FutureScheduledAt  *time.Time     `json:"futureScheduledAt"`
	OccurredAt         time.Time      `json:"occurredAt"`
	Payload            map[string]any `json:"payload"`
	RecordedAt         time.Time      `json:"recordedAt"`
}

// ResultEvent is the event of result r recorded at at.
func ResultEvent(r *ent.ActivityResult, at time.Time) Event {
	payload := r.Payload
	if payload == nil {
		payload = map[string]any{} // as the REST result shows it
	}
	var contact *string
	if r.ContactType != nil {
		s := string(*r.ContactType)
		contact = &s
	}
	return Event{ID: NewID(), Type: TypeActivityResultRecorded, At: at, Data: ResultRecorded{
		ResultID: r.ID, ActivityID: r.ActivityID, ProjectID: r.ProjectID, CommerceID: r.CommerceID, Source: string(r.Source),
		ResultStatus: string(r.ResultStatus), ResultCode: r.ResultCode, Comment: r.Comment, ContactType: contact,
		OperatorExternalID: r.OperatorExternalID, FutureScheduledAt: r.FutureScheduledAt, OccurredAt: r.OccurredAt,
		Payload: payload, RecordedAt: at.UTC()}}
}

// StateChanged is the data of commerce_lifecycle.state_changed: one
// transition of the history.
type StateChanged struct {
	TransitionID               uuid.UUID  `json:"transitionId"`
	CommerceID                 uuid.UUID  `json:"commerceId"`
	ActivityGenerationConfigID uuid.UUID  `json:"activityGenerationConfigId"`
	FromStage                  *string    `json:"fromStage"`
	FromCode                   *string    `json:"fromCode"`
	ToStage                    string     `json:"toStage"`
	ToCode                     string     `json:"toCode"`
	StateChangedAt             time.Time  `json:"stateChangedAt"`
	Source                     string     `json:"source"`
	RunID                      *uuid.UUID `json:"runId"`
	// WrittenAt is when the transition was written: the event's instant.
	WrittenAt time.Time `json:"-"`
}

// TransitionEvent is the event of a transition.
func TransitionEvent(d StateChanged) Event {
	return Event{ID: NewID(), Type: TypeLifecycleStateChanged, At: d.WrittenAt, Data: d}
}

// RunFinished is the data of lifecycle_run.finished: the run as GET
// /api/lifecycle-runs/:runId shows it once it SUCCEEDED or FAILED.
type RunFinished struct {
	RunID                      uuid.UUID              `json:"runId"`
	ProjectID                  uuid.UUID              `json:"projectId"`
	ActivityGenerationConfigID uuid.UUID              `json:"activityGenerationConfigId"`
	Status                     string                 `json:"status"`
	Trigger                    string                 `json:"trigger"`
	AsOf                       time.Time              `json:"asOf"`
	DryRun                     bool                   `json:"dryRun"`
	StartedAt                  *time.Time             `json:"startedAt"`
	FinishedAt                 *time.Time             `json:"finishedAt"`
	Counts                     lifecycle.RunCounts    `json:"counts"`
	ByState                    []lifecycle.StateCount `json:"byState"`
	Error                      *string                `json:"error"`
}

// RunEvent is the event of finished run r.
func RunEvent(r *ent.LifecycleRun) Event {
	at := r.UpdatedAt
	if r.FinishedAt != nil {
		at = *r.FinishedAt
	}
	return Event{ID: NewID(), Type: TypeLifecycleRunFinished, At: at, Data: RunFinished{
		RunID: r.ID, ProjectID: r.ProjectID, ActivityGenerationConfigID: r.ActivityGenerationConfigID, Status: string(r.Status),
		Trigger: string(r.Trigger), AsOf: r.AsOf, DryRun: r.DryRun, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt,
		Counts: r.Counts, ByState: r.ByState, Error: r.Error}}
}

// DecisionRecorded is the data of generation.decision_recorded: one
// decision as GET .../generation-decisions shows it.
type DecisionRecorded struct {
	DecisionID                 uuid.UUID  `json:"decisionId"`
	ProjectID                  uuid.UUID  `json:"projectId"`
	ActivityGenerationConfigID uuid.UUID  `json:"activityGenerationConfigId"`
	RuleID                     uuid.UUID  `json:"ruleId"`
	CommerceID                 uuid.UUID  `json:"commerceId"`
	Trigger                    string     `json:"trigger"`
	Stage                      string     `json:"stage"`
	StatusCode                 string     `json:"statusCode"`
	EnteredAt                  time.Time  `json:"enteredAt"`
	Kind                       string     `json:"kind"`
	Reason                     *string    `json:"reason"`
	Detail                     string     `json:"detail"`
	ActivityID                 *uuid.UUID `json:"activityId"`
	TransitionID               *uuid.UUID `json:"transitionId"`
	DecidedAt                  time.Time  `json:"decidedAt"`
}

// DecisionEvent is the event of a decision.
func DecisionEvent(d DecisionRecorded) Event {
	return Event{ID: NewID(), Type: TypeDecisionRecorded, At: d.DecidedAt, Data: d}
}

// Ping is the data of webhook.ping.
type Ping struct {
	EndpointID uuid.UUID `json:"endpointId"`
	Message    string    `json:"message"`
}
