package webhook

import (
	"context"
	"slices"
	"time"

	"entgo.io/contrib/entgql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/predicate"
	"github.com/reten-io/reten/ent/webhookattempt"
	"github.com/reten-io/reten/ent/webhookdelivery"
	"github.com/reten-io/reten/ent/webhookendpoint"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// DeliveryFilter narrows an endpoint's deliveries; nil members do not filter.
type DeliveryFilter struct {
	Status    *string // one of DeliveryStatuses
	EventType *string // one of EventTypes or TypePing
	// Problems are the adapter's problems with the parameters, reported
	// with the filter's rules in one 400.
	Problems apperr.Problems
}

func (f DeliveryFilter) predicates() ([]predicate.WebhookDelivery, error) {
	p := f.Problems
	p.Rule(f.Status != nil && !slices.Contains(DeliveryStatuses, *f.Status), MsgStatus, "status")
	p.Rule(f.EventType != nil && *f.EventType != TypePing && !slices.Contains(EventTypes, *f.EventType), MsgEventTypeFilter, "event_type")
	if err := p.Err(); err != nil {
		return nil, err
	}
	var preds []predicate.WebhookDelivery
	if f.Status != nil {
		preds = append(preds, webhookdelivery.StatusEQ(webhookdelivery.Status(*f.Status)))
	}
	if f.EventType != nil {
		preds = append(preds, webhookdelivery.EventType(*f.EventType))
	}
	return preds, nil
}

// deliveryOrder is the lists' order: newest first, the index's.
var deliveryOrder = paging.Desc(webhookdelivery.FieldCreatedAt, webhookdelivery.FieldID)

// endpointDeliveries checks the filter and the endpoint and returns the
// query of its deliveries.
func (s *Service) endpointDeliveries(ctx context.Context, endpointID uuid.UUID, f DeliveryFilter) (*ent.WebhookDeliveryQuery, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	preds, err := f.predicates()
	if err != nil {
		return nil, err
	}
	c := s.db(ctx)
	if _, err := endpointOf(ctx, c, tid, endpointID); err != nil {
		return nil, err
	}
	return c.WebhookDelivery.Query().Where(webhookdelivery.EndpointID(endpointID)).Where(preds...), nil
}

// ListDeliveries returns page p of an endpoint's deliveries, newest first,
// with their attempts and payloads (400 for a broken filter, then 404 for
// an endpoint of another tenant).
func (s *Service) ListDeliveries(ctx context.Context, endpointID uuid.UUID, f DeliveryFilter, p paging.Page) (*paging.List[*ent.WebhookDelivery], error) {
	q, err := s.endpointDeliveries(ctx, endpointID, f)
	if err != nil {
		return nil, err
	}
	return tenancy.List(ctx, withDetails(q), webhookdelivery.TenantID, deliveryOrder, p)
}

// DeliveryConnection pages the tenant's deliveries for GraphQL, newest
// first, with their attempts and payloads: those of endpoint endpointID
// when it is set (404 for another tenant's).
func (s *Service) DeliveryConnection(ctx context.Context, endpointID *uuid.UUID, f DeliveryFilter,
	after *ent.Cursor, first *int, before *ent.Cursor, last *int) (*ent.WebhookDeliveryConnection, error) {
	var q *ent.WebhookDeliveryQuery
	if endpointID != nil {
		var err error
		if q, err = s.endpointDeliveries(ctx, *endpointID, f); err != nil {
			return nil, err
		}
	} else {
		preds, err := f.predicates()
		if err != nil {
			return nil, err
		}
		q = s.db(ctx).WebhookDelivery.Query().Where(preds...)
	}
	order := &ent.WebhookDeliveryOrder{Direction: entgql.OrderDirectionDesc, Field: ent.WebhookDeliveryOrderFieldCreatedAt}
	return tenancy.Connection(ctx, withDetails(q), webhookdelivery.TenantID, after, first, before, last, ent.WithWebhookDeliveryOrder(order))
}

// withDetails loads the deliveries of q with their event (the payload)
// and their attempts, oldest first: two more reads for the whole page.
func withDetails(q *ent.WebhookDeliveryQuery) *ent.WebhookDeliveryQuery {
	return q.WithEvent().WithAttemptLog(func(a *ent.WebhookAttemptQuery) { a.Order(ent.Asc(webhookattempt.FieldNumber)) })
}

// deliveryOf reads a delivery of tenant tid.
func deliveryOf(ctx context.Context, c *ent.Client, tid, id uuid.UUID) (*ent.WebhookDelivery, error) {
	d, err := c.WebhookDelivery.Query().Where(webhookdelivery.ID(id), webhookdelivery.TenantID(tid)).Only(ctx)
	return d, apperr.FromEnt(err, MsgDeliveryNotFound, "")
}

// GetDelivery returns a delivery of the tenant with its event and attempts.
func (s *Service) GetDelivery(ctx context.Context, id uuid.UUID) (*ent.WebhookDelivery, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	d, err := withDetails(s.db(ctx).WebhookDelivery.Query().Where(webhookdelivery.ID(id), webhookdelivery.TenantID(tid))).Only(ctx)
	return d, apperr.FromEnt(err, MsgDeliveryNotFound, "")
}

// Replay queues a new delivery of a delivery's event to its endpoint, due
// at once, with the same webhook-id (receivers deduplicate by it). The
// endpoint must be on (422 otherwise).
func (s *Service) Replay(ctx context.Context, id uuid.UUID) (*ent.WebhookDelivery, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	var out *ent.WebhookDelivery
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		d, err := deliveryOf(ctx, tx, tid, id)
		if err != nil {
			return err
		}
		on, err := tx.WebhookEndpoint.Query().Where(webhookendpoint.ID(d.EndpointID), webhookendpoint.TenantID(tid),
			webhookendpoint.IsActive(true)).Exist(ctx)
		if err != nil {
			return err
		}
		if !on {
			return apperr.Unprocessable(MsgReplayInactive)
		}
		now := clock.Stored(clock.Now())
		out, err = tx.WebhookDelivery.Create().SetTenantID(tid).SetEndpointID(d.EndpointID).SetEventID(d.EventID).
			SetEventType(d.EventType).SetReplayOf(d.ID).SetNextAttemptAt(now).SetCreatedAt(now).SetUpdatedAt(now).Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.Wake()
	return s.GetDelivery(ctx, out.ID)
}

// NextAttemptAt is when a PENDING delivery is due next (nil otherwise).
func NextAttemptAt(d *ent.WebhookDelivery) *time.Time {
	if d.Status != webhookdelivery.StatusPENDING {
		return nil
	}
	return &d.NextAttemptAt
}

// Payload is the body a delivery loaded with its event sends.
func Payload(d *ent.WebhookDelivery) string {
	if d.Edges.Event == nil {
		return ""
	}
	return d.Edges.Event.Payload
}

// Attempts are the attempts a delivery was loaded with, oldest first.
func Attempts(d *ent.WebhookDelivery) []*ent.WebhookAttempt {
	if d.Edges.AttemptLog == nil {
		return []*ent.WebhookAttempt{}
	}
	return d.Edges.AttemptLog
}
