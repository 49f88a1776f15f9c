package webhook

import (
	"context"

	"entgo.io/contrib/entgql"
	"fmt"
	"net"
	"net/url"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/webhookendpoint"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/patch"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
)

// Limits of an endpoint's members.
const (
	maxURL         = 2048
	maxDescription = 500
)

// MsgNotNullFmt refuses null for a member that has no null.
const MsgNotNullFmt = "%s must not be null"

// EndpointFields are the members of an endpoint's create or PATCH body:
// absent keeps the stored value (on create: url and event_types are
// required, description defaults to "", is_active to true).
type EndpointFields struct {
	URL         patch.Patch[string]
	Description patch.Patch[string]
	EventTypes  patch.Patch[[]string]
	IsActive    patch.Patch[bool]
}

// WithSecret is an endpoint with its secret in clear: the answer of the
// creation and of a rotation, the only times the secret is shown.
type WithSecret struct {
	*ent.WebhookEndpoint
	Secret string
}

func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// endpointOf reads an endpoint of tenant tid.
func endpointOf(ctx context.Context, c *ent.Client, tid, id uuid.UUID) (*ent.WebhookEndpoint, error) {
	e, err := c.WebhookEndpoint.Query().Where(webhookendpoint.ID(id), webhookendpoint.TenantID(tid)).Only(ctx)
	return e, apperr.FromEnt(err, MsgEndpointNotFound, "")
}

// check applies the rules to in (a create when create is set): every broken
// one in one 400.
func (s *Service) check(in EndpointFields, create bool) error {
	var p apperr.Problems
	for _, m := range []struct {
		name string
		null bool
	}{{"url", in.URL.IsNull()}, {"event_types", in.EventTypes.IsNull()}, {"is_active", in.IsActive.IsNull()}} {
		p.Rule(m.null, fmt.Sprintf(MsgNotNullFmt, m.name), m.name)
	}
	if u, ok := in.URL.Get(); ok || create && !in.URL.Sent() {
		p.Rules(s.checkURL(u)...)
	}
	if ts, ok := in.EventTypes.Get(); ok || create && !in.EventTypes.Sent() {
		p.Rule(len(ts) == 0, MsgEventTypesEmpty)
		p.Rule(slices.ContainsFunc(ts, func(t string) bool { return !slices.Contains(EventTypes, t) }), MsgEventType)
		p.Rule(len(slices.Compact(slices.Sorted(slices.Values(ts)))) != len(ts), MsgEventTypesUnique)
	}
	if d, ok := in.Description.Get(); ok {
		p.Rule(fields.TooLong(d, maxDescription), MsgDescription)
	}
	return p.Err()
}

// checkURL returns the broken rules of an endpoint URL: an absolute https
// URL of at most 2,048 characters without credentials, whose host is not a
// literal private or reserved address; http, and a private address, only
// for a host:port the deployment's outbound allowlist names. A host name is
// judged by what it resolves to when each delivery connects.
func (s *Service) checkURL(raw string) []string {
	if fields.TooLong(raw, maxURL) {
		return []string{MsgURLTooLong}
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Hostname() == "" || u.Opaque != "" || (u.Scheme != "https" && u.Scheme != "http") {
		return []string{MsgURL}
	}
	if u.User != nil {
		return []string{MsgURLCredentials}
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"https": "443", "http": "80"}[u.Scheme]
	}
	hostport := net.JoinHostPort(u.Hostname(), port)
	allowed := s.allow.Allows(hostport)
	var msgs []string
	if u.Scheme != "https" && !allowed {
		msgs = append(msgs, MsgURLHTTPS)
	}
	if !s.allow.Permits(hostport) {
		msgs = append(msgs, MsgURLPrivate)
	}
	return msgs
}

// GetEndpoint returns an endpoint of the tenant.
func (s *Service) GetEndpoint(ctx context.Context, id uuid.UUID) (*ent.WebhookEndpoint, error) {
	return tenancy.Get(ctx, s.db(ctx), id, endpointOf)
}

// ListEndpoints returns a page of the tenant's endpoints, oldest first.
func (s *Service) ListEndpoints(ctx context.Context, p paging.Page) (*paging.List[*ent.WebhookEndpoint], error) {
	return tenancy.List(ctx, s.db(ctx).WebhookEndpoint.Query(), webhookendpoint.TenantID,
		paging.Asc(webhookendpoint.FieldCreatedAt, webhookendpoint.FieldID), p)
}

// EndpointConnection pages through the tenant's endpoints for GraphQL.
func (s *Service) EndpointConnection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.WebhookEndpointOrder, where *ent.WebhookEndpointWhereInput) (*ent.WebhookEndpointConnection, error) {
	if orderBy == nil { // GET /api/webhook-endpoints' order: oldest first
		orderBy = &ent.WebhookEndpointOrder{Direction: entgql.OrderDirectionAsc, Field: ent.WebhookEndpointOrderFieldCreatedAt}
	}
	return tenancy.Connection(ctx, s.db(ctx).WebhookEndpoint.Query(), webhookendpoint.TenantID, after, first, before, last,
		ent.WithWebhookEndpointOrder(orderBy), ent.WithWebhookEndpointFilter(where.Filter))
}

// CreateEndpoint adds an endpoint to the tenant with a new secret, shown
// in the answer only.
func (s *Service) CreateEndpoint(ctx context.Context, in EndpointFields) (*WithSecret, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.check(in, true); err != nil {
		return nil, err
	}
	sec, err := NewSecret()
	if err != nil {
		return nil, err
	}
	id := uuid.New()
	sealed, err := s.box.Seal(id, []byte(sec))
	if err != nil {
		return nil, err
	}
	active, ok := in.IsActive.Get()
	e, err := s.db(ctx).WebhookEndpoint.Create().SetID(id).SetTenantID(tid).SetURL(in.URL.OrZero()).
		SetDescription(in.Description.OrZero()).SetEventTypes(in.EventTypes.OrZero()).SetIsActive(active || !ok).
		SetSecretEncrypted(sealed).SetNillableCreatedBy(tenancy.Actor(ctx)).Save(ctx)
	if err != nil {
		return nil, err
	}
	return &WithSecret{WebhookEndpoint: e, Secret: sec}, nil
}

// UpdateEndpoint changes the members sent of an endpoint of the tenant.
// Turning it on clears a disabling and the run of failures behind it.
func (s *Service) UpdateEndpoint(ctx context.Context, id uuid.UUID, in EndpointFields) (*ent.WebhookEndpoint, error) {
	if err := s.check(in, false); err != nil {
		return nil, err
	}
	out, err := s.change(ctx, id, func(cur *ent.WebhookEndpoint, u *ent.WebhookEndpointUpdateOne) error {
		fields.Set(in.URL.Ptr(), func(v string) { u.SetURL(v) })
		fields.Set(in.Description.NullAs("").Ptr(), func(v string) { u.SetDescription(v) })
		fields.Set(in.EventTypes.Ptr(), func(v []string) { u.SetEventTypes(v) })
		if on, ok := in.IsActive.Get(); ok {
			u.SetIsActive(on)
			if on && !cur.IsActive {
				u.ClearDisabledAt().ClearDisabledReason().SetFailureCount(0).ClearFailingSince()
			}
		}
		return nil
	})
	if err == nil && out.IsActive {
		s.Wake() // pending deliveries of a re-enabled endpoint are due
	}
	return out, err
}

// change reads endpoint id of the tenant in a transaction and saves what
// edit makes of it.
func (s *Service) change(ctx context.Context, id uuid.UUID, edit func(cur *ent.WebhookEndpoint, u *ent.WebhookEndpointUpdateOne) error) (*ent.WebhookEndpoint, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	return txn.Value(ctx, s.client, func(ctx context.Context, tx *ent.Client) (*ent.WebhookEndpoint, error) {
		cur, err := endpointOf(ctx, tx, tid, id)
		if err != nil {
			return nil, err
		}
		u := tx.WebhookEndpoint.UpdateOne(cur)
		if err := edit(cur, u); err != nil {
			return nil, err
		}
		return u.Save(ctx)
	})
}

// DeleteEndpoint removes an endpoint of the tenant with its deliveries and
// their attempts.
func (s *Service) DeleteEndpoint(ctx context.Context, id uuid.UUID) error {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return err
	}
	n, err := s.db(ctx).WebhookEndpoint.Delete().Where(webhookendpoint.ID(id), webhookendpoint.TenantID(tid)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return apperr.NotFound(MsgEndpointNotFound)
	}
	return nil
}

// RotateInput is the body of POST .../rotate-secret: how long, in minutes,
// the replaced secret keeps signing (nil: DefaultOverlap).
type RotateInput struct {
	OverlapMinutes patch.Patch[int]
}

// RotateSecret gives an endpoint of the tenant a new secret, shown in the
// answer only. The replaced secret keeps signing every delivery, after the
// new one, for the overlap (0: not at all), so that receivers can switch.
func (s *Service) RotateSecret(ctx context.Context, id uuid.UUID, in RotateInput) (*WithSecret, error) {
	overlap := DefaultOverlap
	if m, ok := in.OverlapMinutes.Get(); ok {
		var p apperr.Problems
		p.Rule(m < 0, MsgOverlapMin)
		p.Rule(m > maxOverlapMinutes, MsgOverlapMax)
		if err := p.Err(); err != nil {
			return nil, err
		}
		overlap = time.Duration(m) * time.Minute
	} else if in.OverlapMinutes.IsNull() {
		return nil, apperr.Validation(fmt.Sprintf(MsgNotNullFmt, "overlap_minutes"))
	}
	sec, err := NewSecret()
	if err != nil {
		return nil, err
	}
	out, err := s.change(ctx, id, func(cur *ent.WebhookEndpoint, u *ent.WebhookEndpointUpdateOne) error {
		sealed, err := s.box.Seal(id, []byte(sec))
		if err != nil {
			return err
		}
		u.SetSecretEncrypted(sealed)
		if overlap > 0 {
			u.SetPreviousSecretEncrypted(cur.SecretEncrypted).SetPreviousSecretExpiresAt(clock.Stored(clock.Now().Add(overlap)))
		} else {
			u.ClearPreviousSecretEncrypted().ClearPreviousSecretExpiresAt()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &WithSecret{WebhookEndpoint: out, Secret: sec}, nil
}

// secrets returns the secrets that sign a delivery to e at now: the
// current one, and the replaced one while its overlap lasts.
func (s *Service) secrets(e *ent.WebhookEndpoint, now time.Time) ([]string, error) {
	cur, err := s.box.Open(e.ID, e.SecretEncrypted)
	if err != nil {
		return nil, fmt.Errorf("webhook: endpoint %s secret: %w", e.ID, err)
	}
	out := []string{string(cur)}
	if e.PreviousSecretEncrypted != nil && e.PreviousSecretExpiresAt != nil && now.Before(*e.PreviousSecretExpiresAt) {
		prev, err := s.box.Open(e.ID, *e.PreviousSecretEncrypted)
		if err != nil {
			return nil, fmt.Errorf("webhook: endpoint %s previous secret: %w", e.ID, err)
		}
		out = append(out, string(prev))
	}
	return out, nil
}
