package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/webhookdelivery"
	"github.com/reten-io/reten/ent/webhookendpoint"
	"github.com/reten-io/reten/ent/webhookevent"
	"github.com/reten-io/reten/internal/clock"
)

// Event is one event to record: its id (the webhook-id every delivery
// sends), type, instant and data (the payload's "data", marshalled to JSON).
type Event struct {
	ID   uuid.UUID
	Type string
	At   time.Time
	Data any
}

// body is what every delivery of an event sends: the Standard Webhooks
// payload structure.
type body struct {
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`
	Data      any       `json:"data"`
}

// payload is the JSON body of e.
func (e Event) payload() (string, error) {
	b, err := json.Marshal(body{Type: e.Type, Timestamp: e.At.UTC(), Data: e.Data})
	if err != nil {
		return "", fmt.Errorf("webhook: %s payload: %w", e.Type, err)
	}
	return string(b), nil
}

// NewID is the id of an event: a UUIDv7, so the events table grows at its end.
func NewID() uuid.UUID { return uuid.Must(uuid.NewV7()) }

// Emit records events of tenant tenantID in tx, the transaction of the
// change that causes them, so that an event exists exactly when its change
// does: each event whose type an active endpoint of the tenant subscribes
// to is written, with one PENDING delivery per such endpoint, due at once;
// the others are not written (nobody would receive them). On PostgreSQL
// that is one statement whatever the number of events; SQLite reads the
// endpoints first. A nil Service records nothing.
func (s *Service) Emit(ctx context.Context, tx *ent.Client, tenantID uuid.UUID, events ...Event) error {
	if s == nil || len(events) == 0 {
		return nil
	}
	ids, types, payloads, ats := make([]string, len(events)), make([]string, len(events)), make([]string, len(events)), make([]string, len(events))
	for i, e := range events {
		b, err := e.payload()
		if err != nil {
			return err
		}
		ids[i], types[i], payloads[i], ats[i] = e.ID.String(), e.Type, b, e.At.UTC().Format(time.RFC3339Nano)
	}
	now := clock.Stored(clock.Now())
	if s.postgres() {
		res, err := tx.ExecContext(ctx, emitStatement, tenantID, pq.Array(ids), pq.Array(types), pq.Array(payloads), pq.Array(ats), now)
		if err != nil {
			return fmt.Errorf("webhook: record events: %w", err)
		}
		if n, _ := res.RowsAffected(); n > 0 {
			s.wakeAfter(ctx)
		}
		return nil
	}
	subs, err := s.subscribers(ctx, tx, tenantID)
	if err != nil || len(subs) == 0 {
		return err
	}
	var evs, dels [][]any
	for i, e := range events {
		var to []uuid.UUID
		for _, ep := range subs {
			if slices.Contains(ep.EventTypes, e.Type) {
				to = append(to, ep.ID)
			}
		}
		if len(to) == 0 {
			continue
		}
		evs = append(evs, []any{e.ID, tenantID, e.Type, payloads[i], e.At.UTC()})
		for _, ep := range to {
			dels = append(dels, []any{uuid.New(), tenantID, ep, e.ID, e.Type, StatusPending, 0, now, now, now})
		}
	}
	if err := insertRows(ctx, tx, webhookevent.Table, "id, tenant_id, type, payload, created_at", evs); err != nil {
		return err
	}
	if err := insertRows(ctx, tx, webhookdelivery.Table,
		"id, tenant_id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at, updated_at", dels); err != nil {
		return err
	}
	if len(dels) > 0 {
		s.wakeAfter(ctx)
	}
	return nil
}

// wakeAfter wakes this replica's delivery job once the transaction of ctx
// has committed (at once outside one), so that its pass sees the new
// deliveries instead of waiting for the next tick.
func (s *Service) wakeAfter(ctx context.Context) {
	tx := ent.TxFromContext(ctx)
	if tx == nil {
		s.Wake()
		return
	}
	tx.OnCommit(func(next ent.Committer) ent.Committer {
		return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
			err := next.Commit(ctx, tx)
			if err == nil {
				s.Wake()
			}
			return err
		})
	})
}

// emitStatement writes the events ($2..$5 as arrays) that an active endpoint
// of tenant $1 subscribes to, and their deliveries due at $6.
var emitStatement = `WITH ev AS (SELECT * FROM unnest($2::uuid[], $3::text[], $4::text[], $5::timestamptz[]) AS ev(id, type, payload, at)),
d AS (SELECT ev.id AS event_id, ev.type, ep.id AS endpoint_id FROM ev JOIN ` + webhookendpoint.Table + ` ep
 ON ep.tenant_id = $1 AND ep.is_active AND ep.event_types @> jsonb_build_array(ev.type)),
e AS (INSERT INTO ` + webhookevent.Table + ` (id, tenant_id, type, payload, created_at)
 SELECT ev.id, $1, ev.type, ev.payload, ev.at FROM ev WHERE ev.id IN (SELECT event_id FROM d))
INSERT INTO ` + webhookdelivery.Table + ` (id, tenant_id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at, updated_at)
SELECT gen_random_uuid(), $1, d.endpoint_id, d.event_id, d.type, 'PENDING', 0, $6, $6, $6 FROM d`

// ActiveEndpointExists is an SQL condition: the tenant whose id is in
// tenantColumn has an active endpoint. Without one, Emit records nothing: a
// caller that reads this with its other reads may skip Emit.
func ActiveEndpointExists(tenantColumn string) string {
	return fmt.Sprintf("EXISTS (SELECT 1 FROM %s ep WHERE ep.%s = %s AND ep.%s)",
		webhookendpoint.Table, webhookendpoint.FieldTenantID, tenantColumn, webhookendpoint.FieldIsActive)
}

// subscribers are the tenant's active endpoints (their ids and types).
func (s *Service) subscribers(ctx context.Context, tx *ent.Client, tenantID uuid.UUID) ([]*ent.WebhookEndpoint, error) {
	eps, err := tx.WebhookEndpoint.Query().Where(webhookendpoint.TenantID(tenantID), webhookendpoint.IsActive(true)).
		Select(webhookendpoint.FieldID, webhookendpoint.FieldEventTypes).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("webhook: read the endpoints: %w", err)
	}
	return eps, nil
}

// Subscribed returns the event types an active endpoint of the tenant
// subscribes to, read in tx: the writers of many events at once (the
// generator) build the events of these types only. A nil Service answers
// none.
func (s *Service) Subscribed(ctx context.Context, tx *ent.Client, tenantID uuid.UUID) (map[string]bool, error) {
	if s == nil {
		return nil, nil
	}
	subs, err := s.subscribers(ctx, tx, tenantID)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, ep := range subs {
		for _, t := range ep.EventTypes {
			out[t] = true
		}
	}
	return out, nil
}

// insertRows writes rows into table (SQLite: multi-row VALUES, 500 rows a
// statement, under its parameter limit).
func insertRows(ctx context.Context, tx *ent.Client, table, columns string, rows [][]any) error {
	for chunk := range slices.Chunk(rows, 500) {
		row := "(" + strings.TrimSuffix(strings.Repeat("?,", len(chunk[0])), ",") + ")"
		args := make([]any, 0, len(chunk)*len(chunk[0]))
		for _, r := range chunk {
			args = append(args, r...)
		}
		q := "INSERT INTO " + table + " (" + columns + ") VALUES " + strings.TrimSuffix(strings.Repeat(row+",", len(chunk)), ",")
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("webhook: insert into %s: %w", table, err)
		}
	}
	return nil
}
