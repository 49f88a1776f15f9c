package webhook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/webhookdelivery"
	"github.com/reten-io/reten/ent/webhookendpoint"
	"github.com/reten-io/reten/ent/webhookevent"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/jobs"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// recordTimeout bounds recording a ping's attempt once it was sent.
const recordTimeout = 10 * time.Second

// UserAgent is the User-Agent of every delivery.
const UserAgent = "Reten-Webhooks/1"

// maxResponse is how much of an endpoint's answer an attempt keeps.
const maxResponse = 1024

// claimed is a delivery a replica took, with what sending it needs.
type claimed struct {
	id, tenant, endpoint, event uuid.UUID
	attempts                    int
}

// outcome is what one attempt gave.
type outcome struct {
	at         time.Time
	latency    time.Duration
	statusCode *int
	err        *string
	response   string
}

func (o outcome) ok() bool { return o.err == nil }

// Deliver is one pass of the delivery job: it claims up to Batch due
// PENDING deliveries of active endpoints (SKIP LOCKED on PostgreSQL, so
// replicas share the work; the claim moves next_attempt_at to the lease's
// end, so a delivery whose replica dies mid-way is claimed again then),
// sends them Concurrency at a time, and records each attempt: a 2xx
// answer SUCCEEDS the delivery; anything else schedules the next attempt
// after the backoff, or FAILS it after MaxAttempts. It returns how many it
// sent.
func (s *Service) Deliver(ctx context.Context, now time.Time) (int, error) {
	ctx, now = viewer.SystemContext(ctx), clock.Stored(now)
	batch, err := s.claim(ctx, now)
	if err != nil || len(batch) == 0 {
		return 0, err
	}
	outcomes, err := s.sendAll(ctx, batch)
	if err != nil {
		return 0, err
	}
	return len(batch), txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		for i, c := range batch {
			if err := s.record(ctx, tx, c, outcomes[i], false); err != nil {
				return err
			}
		}
		return nil
	})
}

// claim takes the due deliveries in one statement: never a ping, which its
// request sends and records once (one interrupted before its record stays
// PENDING, unsent again, until the retention purge), but a ping's replay,
// which is delivered like any replay.
func (s *Service) claim(ctx context.Context, now time.Time) ([]claimed, error) {
	due := `SELECT d.id FROM ` + webhookdelivery.Table + ` d JOIN ` + webhookendpoint.Table + ` ep ON ep.id = d.endpoint_id AND ep.is_active
WHERE d.status = 'PENDING' AND d.next_attempt_at <= ? AND (d.event_type <> '` + TypePing + `' OR d.replay_of IS NOT NULL) ORDER BY d.next_attempt_at LIMIT ?`
	q := `UPDATE ` + webhookdelivery.Table + ` SET next_attempt_at = ?, updated_at = ? WHERE id IN (` + due + `)
RETURNING id, tenant_id, endpoint_id, event_id, attempts`
	args := []any{now.Add(s.Lease), now, now, s.Batch}
	if s.postgres() {
		q = strings.Replace(q, "LIMIT ?", "LIMIT ? FOR UPDATE OF d SKIP LOCKED", 1)
		for i := 1; strings.Contains(q, "?"); i++ {
			q = strings.Replace(q, "?", "$"+strconv.Itoa(i), 1)
		}
	}
	rs, err := s.client.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("webhook: claim deliveries: %w", err)
	}
	defer rs.Close()
	var out []claimed
	for rs.Next() {
		var c claimed
		if err := rs.Scan(&c.id, &c.tenant, &c.endpoint, &c.event, &c.attempts); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rs.Err()
}

// sendAll sends the claimed deliveries, Concurrency at a time, and returns
// their outcomes in order.
func (s *Service) sendAll(ctx context.Context, batch []claimed) ([]outcome, error) {
	epIDs, evIDs := make([]uuid.UUID, len(batch)), make([]uuid.UUID, len(batch))
	for i, c := range batch {
		epIDs[i], evIDs[i] = c.endpoint, c.event
	}
	eps, err := s.client.WebhookEndpoint.Query().Where(webhookendpoint.IDIn(epIDs...)).All(ctx)
	if err != nil {
		return nil, err
	}
	evs, err := s.client.WebhookEvent.Query().Where(webhookevent.IDIn(evIDs...)).All(ctx)
	if err != nil {
		return nil, err
	}
	endpoints, events := map[uuid.UUID]*ent.WebhookEndpoint{}, map[uuid.UUID]*ent.WebhookEvent{}
	for _, e := range eps {
		endpoints[e.ID] = e
	}
	for _, e := range evs {
		events[e.ID] = e
	}
	out := make([]outcome, len(batch))
	sem := make(chan struct{}, max(1, s.Concurrency))
	var wg sync.WaitGroup
	for i, c := range batch {
		ep, ev := endpoints[c.endpoint], events[c.event]
		if ep == nil || ev == nil { // deleted since the claim, with the delivery: never sent, nothing to record
			msg := "the endpoint or the event no longer exists"
			out[i] = outcome{at: clock.Now(), err: &msg}
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i] = s.send(ctx, ep, ev)
		}()
	}
	wg.Wait()
	return out, nil
}

// send makes one attempt: POST the event's payload to the endpoint, signed
// with its valid secrets (sign.go).
func (s *Service) send(ctx context.Context, ep *ent.WebhookEndpoint, ev *ent.WebhookEvent) outcome {
	start := clock.Now()
	fail := func(msg string) outcome {
		return outcome{at: start, latency: clock.Now().Sub(start), err: &msg}
	}
	secrets, err := s.secrets(ep, start)
	if err != nil {
		return fail("the endpoint's secret could not be read")
	}
	ts := start.Unix()
	sig, err := Sign(ev.ID.String(), ts, []byte(ev.Payload), secrets...)
	if err != nil {
		return fail("the endpoint's secret could not be read")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, strings.NewReader(ev.Payload))
	if err != nil {
		return fail("the URL could not be requested: " + err.Error())
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("webhook-id", ev.ID.String())
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("webhook-signature", sig)
	res, err := s.http.Do(req)
	if err != nil {
		return fail(describe(err))
	}
	defer res.Body.Close()
	head, _ := io.ReadAll(io.LimitReader(res.Body, maxResponse))
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10)) // let the connection be reused
	o := outcome{at: start, latency: clock.Now().Sub(start), statusCode: &res.StatusCode, response: text(head)}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		msg := fmt.Sprintf("the endpoint answered %d", res.StatusCode)
		o.err = &msg
	}
	return o
}

// describe says why a request got no answer, without the URL (the list
// shows it) and in the words of the outbound guard when it refused.
func describe(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return "no answer within the timeout"
		}
		err = ue.Err
	}
	return err.Error()
}

// text is b as valid UTF-8 text (an answer may be anything).
func text(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// record writes an attempt of claimed delivery c and its consequence on
// the delivery and (unless it is a ping) on the endpoint's run of
// failures. Only a PENDING delivery changes: one that another replica
// settled meanwhile (its lease had run out) keeps its status, and one
// deleted meanwhile (with its endpoint or its event) has nothing left to
// record, so that it never fails the batch's other records.
func (s *Service) record(ctx context.Context, tx *ent.Client, c claimed, o outcome, ping bool) error {
	n := c.attempts + 1
	end := clock.Stored(o.at.Add(o.latency))
	u := tx.WebhookDelivery.Update().Where(webhookdelivery.ID(c.id), webhookdelivery.StatusEQ(webhookdelivery.StatusPENDING)).
		SetAttempts(n).SetLastAttemptAt(end).SetNillableLastStatusCode(o.statusCode).SetUpdatedAt(end)
	switch {
	case o.ok():
		u.SetStatus(webhookdelivery.StatusSUCCEEDED).ClearLastError()
	case ping || n >= s.MaxAttempts:
		u.SetStatus(webhookdelivery.StatusFAILED).SetLastError(*o.err)
	default:
		u.SetLastError(*o.err).SetNextAttemptAt(clock.Stored(end.Add(s.backoff(n))))
	}
	if o.statusCode == nil {
		u.ClearLastStatusCode()
	}
	changed, err := u.Save(ctx)
	if err != nil {
		return fmt.Errorf("webhook: record the delivery: %w", err)
	}
	if changed == 0 {
		exists, err := tx.WebhookDelivery.Query().Where(webhookdelivery.ID(c.id)).Exist(ctx)
		if err != nil || !exists {
			return err
		}
	}
	if err := tx.WebhookAttempt.Create().SetTenantID(c.tenant).SetDeliveryID(c.id).SetNumber(n).SetAttemptedAt(clock.Stored(o.at)).
		SetLatencyMs(int(o.latency.Milliseconds())).SetNillableStatusCode(o.statusCode).SetNillableError(o.err).
		SetResponseBody(o.response).Exec(ctx); err != nil {
		return fmt.Errorf("webhook: record the attempt: %w", err)
	}
	if ping {
		return nil
	}
	return s.countFailure(ctx, tx, c.endpoint, o.ok(), end)
}

// countFailure keeps the endpoint's run of failed attempts: a success ends
// it; a failure lengthens it, and turns the endpoint off once it holds
// DisableAfterFailures attempts over at least DisableAfter.
func (s *Service) countFailure(ctx context.Context, tx *ent.Client, endpoint uuid.UUID, ok bool, at time.Time) error {
	if ok {
		return tx.WebhookEndpoint.Update().Where(webhookendpoint.ID(endpoint), webhookendpoint.FailureCountGT(0)).
			SetFailureCount(0).ClearFailingSince().Exec(ctx)
	}
	ep, err := tx.WebhookEndpoint.Query().Where(webhookendpoint.ID(endpoint)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil // deleted meanwhile
	}
	if err != nil {
		return err
	}
	since := at
	if ep.FailingSince != nil {
		since = *ep.FailingSince
	}
	u := tx.WebhookEndpoint.UpdateOne(ep).AddFailureCount(1).SetFailingSince(since)
	if ep.IsActive && ep.FailureCount+1 >= s.DisableAfterFailures && !at.Before(since.Add(s.DisableAfter)) {
		u.SetIsActive(false).SetDisabledAt(at).SetDisabledReason(DisabledFailing)
	}
	return u.Exec(ctx)
}

// Ping sends a webhook.ping event to an endpoint of the tenant at once (even
// a turned-off one: it is how the receiver is tested) and returns the
// delivery with its one attempt; a failed ping is not retried, and does not
// count toward the endpoint's run of failures.
func (s *Service) Ping(ctx context.Context, id uuid.UUID) (*ent.WebhookDelivery, error) {
	ep, err := s.GetEndpoint(ctx, id)
	if err != nil {
		return nil, err
	}
	now := clock.Stored(clock.Now())
	ev := Event{ID: NewID(), Type: TypePing, At: now, Data: Ping{EndpointID: ep.ID, Message: "Reten webhook test"}}
	var c claimed
	var stored *ent.WebhookEvent
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		payload, err := ev.payload()
		if err != nil {
			return err
		}
		stored, err = tx.WebhookEvent.Create().SetID(ev.ID).SetTenantID(ep.TenantID).SetType(ev.Type).SetPayload(payload).
			SetCreatedAt(now).Save(ctx)
		if err != nil {
			return err
		}
		// The job never claims a ping (see claim): this request sends it.
		d, err := tx.WebhookDelivery.Create().SetTenantID(ep.TenantID).SetEndpointID(ep.ID).SetEventID(ev.ID).SetEventType(ev.Type).
			SetNextAttemptAt(now.Add(s.Lease)).SetCreatedAt(now).SetUpdatedAt(now).Save(ctx)
		if err != nil {
			return err
		}
		c = claimed{id: d.ID, tenant: ep.TenantID, endpoint: ep.ID, event: ev.ID}
		return nil
	})
	if err != nil {
		return nil, err
	}
	o := s.send(ctx, ep, stored)
	// The attempt is recorded even when the caller has gone meanwhile.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	if err := txn.Run(rctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		return s.record(ctx, tx, c, o, true)
	}); err != nil {
		return nil, err
	}
	return s.GetDelivery(rctx, c.id)
}

// Purge deletes, in batches of Batch, the events older than Retention with
// their deliveries and attempts; it returns how many events it deleted.
func (s *Service) Purge(ctx context.Context, now time.Time) (int, error) {
	ctx = viewer.SystemContext(ctx)
	ids, err := s.client.WebhookEvent.Query().Where(webhookevent.CreatedAtLT(now.Add(-s.Retention))).
		Order(ent.Asc(webhookevent.FieldCreatedAt)).Limit(s.Batch).IDs(ctx)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	return s.client.WebhookEvent.Delete().Where(webhookevent.IDIn(ids...)).Exec(ctx)
}

// Wake asks the running worker for a pass now; it never blocks.
func (s *Service) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Pass is one pass of the worker: deliveries while a claim comes back
// full, then the retention purge.
func (s *Service) Pass(ctx context.Context, now time.Time) (int, error) {
	total := 0
	for {
		n, err := s.Deliver(ctx, clock.Now())
		total += n
		if err != nil {
			return total, err
		}
		if n < s.Batch {
			break
		}
	}
	n, err := s.Purge(ctx, now)
	return total + n, err
}

// Run is the worker of a replica: a pass every interval, and at once when
// woken (an event was recorded, an endpoint turned on, a replay queued).
func (s *Service) Run(ctx context.Context, every time.Duration) {
	jobs.Woken(ctx, "webhook delivery", every, s.wake, jobs.RunTimeout, s.Pass)
}
