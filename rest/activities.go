package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/activity"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/paging"
)

// activityHandlers maps the REST lines of tenancy.activityMatrix to their handlers.
func (a *api) activityHandlers() map[string]handler {
	return map[string]handler{
		"GET /activities":                                  a.listActivities,
		"POST /activities":                                 a.createActivity,
		"GET /activities/{id}":                             a.getActivity,
		"GET /activities/{id}/status-events":               a.activityStatusEvents,
		"GET /activities/{id}/attributes":                  a.activityAttributes,
		"POST /activities/{id}/cancel":                     a.cancelActivity,
		"POST /activities/{id}/resolution-events":          a.activityResolutionEvent,
		"GET /activities/tasks":                            a.listTasks,
		"GET /activities/tasks/{id}":                       a.getTask,
		"POST /activities/tasks/{id}/dispatch":             a.dispatchTask,
		"POST /activities/tasks/{id}/force-retry-dispatch": a.forceRetryTask,
	}
}

// Messages of the activity DTOs.
const (
	msgActCommerceIDUUID  = "commerceId must be a UUID"
	msgActOperatorIDUUID  = "operatorId must be a UUID"
	msgActTypeString      = "type must be a string"
	msgActChannelString   = "channel must be a string"
	msgActScheduledAtISO  = "scheduledAt must be a valid ISO 8601 date string"
	msgActTitleString     = "title must be a string"
	msgActAttributesObj   = "attributes must be an object whose values are strings"
	msgActReasonString    = "reason must be a string"
	msgActEventTypeString = "eventType must be a string"
	msgActDetailObject    = "detail must be an object"
	msgActCommerceIDQuery = "commerce_id must be a UUID"
	msgActFromISO         = "scheduled_from must be a valid ISO 8601 date string"
	msgActToISO           = "scheduled_to must be a valid ISO 8601 date string"
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
	CreatedAt                  time.Time             `json:"createdAt"`
	UpdatedAt                  time.Time             `json:"updatedAt"`
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
		CreatedBy: x.CreatedBy, CreatedAt: x.CreatedAt, UpdatedAt: x.UpdatedAt}
}

func presentActivityDetail(x *ent.Activity) activityDetailDTO {
	out := activityDetailDTO{activityDTO: presentActivity(x), Attributes: make([]attributeDTO, len(x.Edges.Attributes))}
	for i, at := range x.Edges.Attributes {
		out.Attributes[i] = presentAttribute(at)
	}
	return out
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

// activityQuery parses the list parameters, every broken rule in one 400.
func activityQuery(r *http.Request) (activity.Filter, paging.Page, error) {
	q := r.URL.Query()
	p, msgs := paging.Parse(q.Get("page"), q.Get("per_page"))
	f := activity.Filter{Status: q.Get("status"), Type: q.Get("type"), Channel: q.Get("channel"), Search: q.Get("search")}
	if v := q.Get("commerce_id"); v != "" {
		id, err := uuid.Parse(v)
		if err != nil {
			msgs = append(msgs, msgActCommerceIDQuery)
		} else {
			f.CommerceID = &id
		}
	}
	instant := func(name, msg string) *time.Time {
		v := q.Get(name)
		if v == "" {
			return nil
		}
		if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
			return &t
		}
		if t, err := time.Parse(time.DateOnly, v); err == nil {
			return &t
		}
		msgs = append(msgs, msg)
		return nil
	}
	f.ScheduledFrom = instant("scheduled_from", msgActFromISO)
	f.ScheduledTo = instant("scheduled_to", msgActToISO)
	msgs = append(msgs, f.Validate()...)
	if len(msgs) > 0 {
		return f, p, apperr.Validation(msgs...)
	}
	return f, p, nil
}

func (a *api) listActivities(w http.ResponseWriter, r *http.Request) error {
	return a.activityPage(w, r, a.Activities.List)
}

func (a *api) listTasks(w http.ResponseWriter, r *http.Request) error {
	return a.activityPage(w, r, a.Activities.ListTasks)
}

// activityPage answers a list route of activities: the query of GET
// /api/activities through list, as {data, meta}.
func (a *api) activityPage(w http.ResponseWriter, r *http.Request,
	list func(context.Context, activity.Filter, paging.Page) (*paging.List[*ent.Activity], error)) error {
	f, p, err := activityQuery(r)
	if err != nil {
		return err
	}
	l, err := list(r.Context(), f, p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentPage(l, presentActivity))
	return nil
}

// ---- reads ----

// byID runs fn with the path id and writes its activity as the detail shape.
func (a *api) byID(w http.ResponseWriter, r *http.Request, fn func(id uuid.UUID) (*ent.Activity, error)) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	x, err := fn(id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentActivityDetail(x))
	return nil
}

func (a *api) getActivity(w http.ResponseWriter, r *http.Request) error {
	return a.byID(w, r, func(id uuid.UUID) (*ent.Activity, error) { return a.Activities.Get(r.Context(), id) })
}

func (a *api) getTask(w http.ResponseWriter, r *http.Request) error {
	return a.byID(w, r, func(id uuid.UUID) (*ent.Activity, error) { return a.Activities.GetTask(r.Context(), id) })
}

func (a *api) activityStatusEvents(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	evs, err := a.Activities.StatusEvents(r.Context(), id)
	if err != nil {
		return err
	}
	out := make([]statusEventDTO, len(evs))
	for i, e := range evs {
		out[i] = presentStatusEvent(e)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *api) activityAttributes(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	attrs, err := a.Activities.Attributes(r.Context(), id)
	if err != nil {
		return err
	}
	out := make([]attributeDTO, len(attrs))
	for i, at := range attrs {
		out[i] = presentAttribute(at)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// ---- writes ----

func (a *api) createActivity(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "commerceId", "type", "channel", "scheduledAt", "operatorId", "title", "description", "attributes")
	if err != nil {
		return err
	}
	var in activity.CreateInput
	if id := b.optUUID("commerceId", msgActCommerceIDUUID); id != nil {
		in.CommerceID = *id
	}
	in.Type, _ = b.str("type", msgActTypeString)
	in.Channel, _ = b.str("channel", msgActChannelString)
	in.ScheduledAt = b.instant("scheduledAt", msgActScheduledAtISO)
	in.OperatorID = b.optUUID("operatorId", msgActOperatorIDUUID)
	in.Title = b.optStr("title", msgActTitleString)
	in.Description = b.optStr("description", msgDescriptionString)
	if raw, ok := b.fields["attributes"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &in.Attributes); err != nil || in.Attributes == nil {
			b.fail(msgActAttributesObj)
		}
	}
	// Type errors first, then the rules of the input (one 400 listing all).
	msgs := append(b.msgs, in.Validate()...)
	if len(msgs) > 0 {
		return apperr.Validation(dedupe(msgs)...)
	}
	x, err := a.Activities.Create(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentActivityDetail(x))
	return nil
}

// dedupe drops repeated messages, keeping the first occurrence.
func dedupe(msgs []string) []string {
	seen := map[string]bool{}
	out := msgs[:0:0]
	for _, m := range msgs {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}

func (a *api) cancelActivity(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "reason")
	if err != nil {
		return err
	}
	reason := b.optStr("reason", msgActReasonString)
	if err := b.err(); err != nil {
		return err
	}
	x, err := a.Activities.Cancel(r.Context(), id, reason)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentActivityDetail(x))
	return nil
}

func (a *api) activityResolutionEvent(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "eventType", "detail")
	if err != nil {
		return err
	}
	ev, ok := b.str("eventType", msgActEventTypeString)
	if ok && !slices.Contains(activity.ResolutionEvents, ev) || !ok && !b.has("eventType") {
		b.fail(activity.MsgResolutionEvent)
	}
	var detail map[string]any
	if raw, ok := b.fields["detail"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &detail); err != nil || detail == nil {
			b.fail(msgActDetailObject)
		}
	}
	if err := b.err(); err != nil {
		return err
	}
	x, err := a.Activities.RecordResolutionEvent(r.Context(), id, ev, detail)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentActivityDetail(x))
	return nil
}

func (a *api) dispatchTask(w http.ResponseWriter, r *http.Request) error {
	return a.byID(w, r, func(id uuid.UUID) (*ent.Activity, error) { return a.Activities.Dispatch(r.Context(), id) })
}

func (a *api) forceRetryTask(w http.ResponseWriter, r *http.Request) error {
	return a.byID(w, r, func(id uuid.UUID) (*ent.Activity, error) {
		return a.Activities.ForceRetryDispatch(r.Context(), id)
	})
}
