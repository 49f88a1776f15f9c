package rest

import (
	"context"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/paging"
)

// ---- presentation ----

type commerceRefDTO struct {
	Name string `json:"name"`
}

type commerceAssignmentDTO struct {
	CommerceID uuid.UUID      `json:"commerceId"`
	Commerce   commerceRefDTO `json:"commerce"`
}

// activityDTO is the activity record (list item, task, detail without attributes).
type activityDTO struct {
	ID                         uuid.UUID             `json:"id"`
	ProjectID                  uuid.UUID             `json:"projectId"`
	Type                       string                `json:"type"`
	Channel                    string                `json:"channel"`
	Status                     string                `json:"status"`
	ScheduledAt                time.Time             `json:"scheduledAt"`
	CommerceAssignment         commerceAssignmentDTO `json:"commerceAssignment"`
	OperatorID                 *uuid.UUID            `json:"operatorId"`
	RouteID                    *uuid.UUID            `json:"routeId"`
	ActivityGenerationConfigID *uuid.UUID            `json:"activityGenerationConfigId"`
	ProviderActivityID         *string               `json:"providerActivityId"`
	Title                      string                `json:"title"`
	Description                string                `json:"description"`
	ReasonCode                 string                `json:"reasonCode"`
	DispatchAttempts           int                   `json:"dispatchAttempts"`
	NextDispatchAt             *time.Time            `json:"nextDispatchAt"`
	ClosedAt                   *time.Time            `json:"closedAt"`
	CreatedBy                  *uuid.UUID            `json:"createdBy"`
	stamps
}

// activityDetailDTO is the GET /:id, POST and command shape: the record and its attributes.
type activityDetailDTO struct {
	activityDTO
	Attributes []attributeDTO `json:"attributes"`
}

type attributeDTO struct {
	ID         uuid.UUID `json:"id"`
	ActivityID uuid.UUID `json:"activityId"`
	Key        string    `json:"key"`
	Value      string    `json:"value"`
	CreatedAt  time.Time `json:"createdAt"`
}

type statusEventDTO struct {
	ID         uuid.UUID      `json:"id"`
	ActivityID uuid.UUID      `json:"activityId"`
	EventType  string         `json:"eventType"`
	FromStatus *string        `json:"fromStatus"`
	ToStatus   string         `json:"toStatus"`
	OccurredAt time.Time      `json:"occurredAt"`
	ActorID    *uuid.UUID     `json:"actorId"`
	Detail     map[string]any `json:"detail"`
}

func presentActivity(x *ent.Activity) activityDTO {
	ca := commerceAssignmentDTO{CommerceID: x.CommerceID}
	if x.Edges.Commerce != nil {
		ca.Commerce.Name = x.Edges.Commerce.Name
	}
	return activityDTO{ID: x.ID, ProjectID: x.ProjectID, Type: string(x.Type), Channel: string(x.Channel),
		Status: string(x.Status), ScheduledAt: x.ScheduledAt, CommerceAssignment: ca, OperatorID: x.OperatorID,
		RouteID: x.RouteID, ActivityGenerationConfigID: x.ActivityGenerationConfigID,
		ProviderActivityID: x.ProviderActivityID, Title: x.Title, Description: x.Description, ReasonCode: x.ReasonCode,
		DispatchAttempts: x.DispatchAttempts, NextDispatchAt: x.NextDispatchAt, ClosedAt: x.ClosedAt,
		CreatedBy: x.CreatedBy, stamps: stamps{x.CreatedAt, x.UpdatedAt}}
}

func presentActivityDetail(x *ent.Activity) activityDetailDTO {
	return activityDetailDTO{activityDTO: presentActivity(x), Attributes: presentAll(x.Edges.Attributes, presentAttribute)}
}

func presentAttribute(at *ent.ActivityAttribute) attributeDTO {
	return attributeDTO{ID: at.ID, ActivityID: at.ActivityID, Key: at.Key, Value: at.Value, CreatedAt: at.CreatedAt}
}

func presentStatusEvent(e *ent.ActivityStatusEvent) statusEventDTO {
	out := statusEventDTO{ID: e.ID, ActivityID: e.ActivityID, EventType: string(e.EventType), ToStatus: string(e.ToStatus),
		OccurredAt: e.OccurredAt, ActorID: e.ActorID, Detail: e.Detail}
	if e.FromStatus != nil {
		s := string(*e.FromStatus)
		out.FromStatus = &s
	}
	if out.Detail == nil {
		out.Detail = map[string]any{}
	}
	return out
}

// ---- lists ----

// activityPage answers a list route of activities as {data, meta}. The
// parameters' type problems travel in the filter: the service adds its enum
// rules to them (one 400 listing all).
func activityPage(list func(context.Context, activity.Filter, paging.Page) (*paging.List[*ent.Activity], error)) handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		q := queryOf(r)
		p := q.page()
		f := activity.Filter{Status: q.Get("status"), Type: q.Get("type"), Channel: q.Get("channel"), Search: q.Get("search")}
		if v := q.Get("commerce_id"); v != "" {
			if id, err := uuid.Parse(v); err == nil {
				f.CommerceID = &id
			} else {
				q.fail("commerce_id", "commerce_id must be "+kindUUID)
			}
		}
		f.ScheduledFrom = q.instantOrDate("scheduled_from")
		f.ScheduledTo = q.instantOrDate("scheduled_to")
		f.Problems = q.probs
		return writer(w, http.StatusOK, func(l *paging.List[*ent.Activity]) pageOf[activityDTO] {
			return presentPage(l, presentActivity)
		})(list(listContext(r, p), f, p))
	}
}

// ---- writes ----

// activityBody reads a new activity; its type problems travel with it (the
// service adds its rules to them: one 400 listing all).
var activityBody = func(r *http.Request) (activity.CreateInput, error) {
	b, err := decodeBody(r, "commerce_id", "type", "channel", "scheduled_at", "operator_id", "title", "description", "attributes")
	if err != nil {
		return activity.CreateInput{}, err
	}
	in := activity.CreateInput{CommerceID: b.uuid("commerce_id").OrZero(), Type: b.str("type").OrZero(),
		Channel: b.str("channel").OrZero(), ScheduledAt: b.instant("scheduled_at").Ptr(), OperatorID: b.uuid("operator_id").Ptr(),
		Title: b.str("title").Ptr(), Description: b.str("description").Ptr()}
	attrs := b.strMap("attributes").OrZero()
	for _, k := range slices.Sorted(maps.Keys(attrs)) {
		in.Attributes = append(in.Attributes, activity.Attribute{Key: k, Value: attrs[k]})
	}
	in.Problems = b.problems()
	return in, nil
}

func (a *api) createActivity(w http.ResponseWriter, r *http.Request) error {
	return decoded(http.StatusCreated, activityBody, a.Activities.Create, presentActivityDetail)(w, r)
}

var reasonOnlyBody = bodyOf(func(b *body) *string { return b.str("reason").Ptr() }, "reason")

// resolutionBody reads a resolution event; the service checks event_type
// against its values, after the type problems that travel with it.
var resolutionBody = func(r *http.Request) (activity.ResolutionInput, error) {
	b, err := decodeBody(r, "event_type", "detail")
	if err != nil {
		return activity.ResolutionInput{}, err
	}
	in := activity.ResolutionInput{EventType: b.str("event_type").OrZero(), Detail: b.floatObject("detail").OrZero()}
	in.Problems = b.problems()
	return in, nil
}

func (a *api) activityResolutionEvent(w http.ResponseWriter, r *http.Request) error {
	return update(resolutionBody, a.Activities.RecordResolutionEvent, presentActivityDetail)(w, r)
}
