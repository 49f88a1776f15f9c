package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/webhook"
)

// Webhook endpoints and their deliveries (docs/webhooks.md): bodies
// snake_case, responses camelCase, lists {data, meta}.

type webhookEndpointDTO struct {
	ID                      uuid.UUID  `json:"id"`
	URL                     string     `json:"url"`
	Description             string     `json:"description"`
	EventTypes              []string   `json:"eventTypes"`
	IsActive                bool       `json:"isActive"`
	DisabledAt              *time.Time `json:"disabledAt"`
	DisabledReason          *string    `json:"disabledReason"`
	FailureCount            int        `json:"failureCount"`
	FailingSince            *time.Time `json:"failingSince"`
	PreviousSecretExpiresAt *time.Time `json:"previousSecretExpiresAt"`
	stamps
}

func presentWebhookEndpoint(e *ent.WebhookEndpoint) webhookEndpointDTO {
	return webhookEndpointDTO{ID: e.ID, URL: e.URL, Description: e.Description, EventTypes: e.EventTypes, IsActive: e.IsActive,
		DisabledAt: e.DisabledAt, DisabledReason: e.DisabledReason, FailureCount: e.FailureCount, FailingSince: e.FailingSince,
		PreviousSecretExpiresAt: e.PreviousSecretExpiresAt, stamps: stamps{e.CreatedAt, e.UpdatedAt}}
}

// webhookSecretDTO is an endpoint with its secret: the answer of the
// creation and of a rotation, the only times the secret is shown.
type webhookSecretDTO struct {
	webhookEndpointDTO
	Secret string `json:"secret"`
}

func presentWebhookSecret(e *webhook.WithSecret) webhookSecretDTO {
	return webhookSecretDTO{presentWebhookEndpoint(e.WebhookEndpoint), e.Secret}
}

type webhookAttemptDTO struct {
	Number       int       `json:"number"`
	AttemptedAt  time.Time `json:"attemptedAt"`
	LatencyMs    int       `json:"latencyMs"`
	StatusCode   *int      `json:"statusCode"`
	Error        *string   `json:"error"`
	ResponseBody string    `json:"responseBody"`
}

type webhookDeliveryDTO struct {
	ID             uuid.UUID           `json:"id"`
	EndpointID     uuid.UUID           `json:"endpointId"`
	EventID        uuid.UUID           `json:"eventId"`
	EventType      string              `json:"eventType"`
	Status         string              `json:"status"`
	AttemptCount   int                 `json:"attemptCount"`
	NextAttemptAt  *time.Time          `json:"nextAttemptAt"`
	LastAttemptAt  *time.Time          `json:"lastAttemptAt"`
	LastStatusCode *int                `json:"lastStatusCode"`
	LastError      *string             `json:"lastError"`
	ReplayOf       *uuid.UUID          `json:"replayOf"`
	Payload        json.RawMessage     `json:"payload"`
	Attempts       []webhookAttemptDTO `json:"attempts"`
	stamps
}

func presentWebhookDelivery(d *ent.WebhookDelivery) webhookDeliveryDTO {
	as := webhook.Attempts(d)
	attempts := make([]webhookAttemptDTO, len(as))
	for i, a := range as {
		attempts[i] = webhookAttemptDTO{Number: a.Number, AttemptedAt: a.AttemptedAt.UTC(), LatencyMs: a.LatencyMs,
			StatusCode: a.StatusCode, Error: a.Error, ResponseBody: a.ResponseBody}
	}
	return webhookDeliveryDTO{ID: d.ID, EndpointID: d.EndpointID, EventID: d.EventID, EventType: d.EventType, Status: d.Status.String(),
		AttemptCount: d.Attempts, NextAttemptAt: webhook.NextAttemptAt(d), LastAttemptAt: d.LastAttemptAt,
		LastStatusCode: d.LastStatusCode, LastError: d.LastError, ReplayOf: d.ReplayOf, Payload: json.RawMessage(webhook.Payload(d)),
		Attempts: attempts, stamps: stamps{d.CreatedAt, d.UpdatedAt}}
}

// webhookEndpointBody reads an endpoint's create or PATCH body (the
// service says which members a new endpoint needs).
var webhookEndpointBody = bodyOf(func(b *body) webhook.EndpointFields {
	return webhook.EndpointFields{URL: b.str("url"), Description: b.str("description"), EventTypes: b.strs("event_types"),
		IsActive: b.boolean("is_active")}
}, "url", "description", "event_types", "is_active")

var rotateSecretBody = bodyOf(func(b *body) webhook.RotateInput {
	return webhook.RotateInput{OverlapMinutes: b.integer("overlap_minutes")}
}, "overlap_minutes")

// deliveryParam names a delivery in its path.
var deliveryParam = []string{"deliveryId"}

// webhookDeliveries answers an endpoint's deliveries as {data, meta}; the
// parameters' problems travel in the filter (one 400 listing all).
func (a *api) webhookDeliveries(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	q := queryOf(r)
	p := q.page()
	f := webhook.DeliveryFilter{Status: q.text("status"), EventType: q.text("event_type"), Problems: q.probs}
	return writer(w, http.StatusOK, func(l *paging.List[*ent.WebhookDelivery]) pageOf[webhookDeliveryDTO] {
		return presentPage(l, presentWebhookDelivery)
	})(a.Webhooks.ListDeliveries(listContext(r, p), id, f, p))
}

func (a *api) replayDelivery(ctx context.Context, ids []uuid.UUID, _ struct{}) (*ent.WebhookDelivery, error) {
	return a.Webhooks.Replay(ctx, ids[0])
}
