// Package webhook sends the tenant's events to the endpoints it configures,
// signed as the Standard Webhooks specification says (sign.go), with no
// event lost or invented: the services write each event in the transaction
// of the change that causes it (emit.go), a job on every replica claims the
// due deliveries (SKIP LOCKED) and sends them with retries and exponential
// backoff, at least once, recording every attempt (deliver.go); endpoints
// are managed per tenant (endpoints.go). docs/webhooks.md is the one
// statement of the behaviour.
package webhook

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"entgo.io/ent/dialect"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/outbound"
	"github.com/reten-io/reten/internal/secret"
)

// The event types (docs/webhooks.md documents each payload).
const (
	TypeActivityStatusChanged  = "activity.status_changed"
	TypeActivityResultRecorded = "activity_result.recorded"
	TypeLifecycleStateChanged  = "commerce_lifecycle.state_changed"
	TypeLifecycleRunFinished   = "lifecycle_run.finished"
	TypeDecisionRecorded       = "generation.decision_recorded"
	// TypePing is the event of a test delivery (POST .../ping); no endpoint
	// subscribes to it.
	TypePing = "webhook.ping"
)

// EventTypes are the types an endpoint may subscribe to, in the documented order.
var EventTypes = []string{TypeActivityStatusChanged, TypeActivityResultRecorded, TypeLifecycleStateChanged,
	TypeLifecycleRunFinished, TypeDecisionRecorded}

// Statuses of a delivery.
const (
	StatusPending   = "PENDING"
	StatusSucceeded = "SUCCEEDED"
	StatusFailed    = "FAILED"
)

// DeliveryStatuses are the values of a delivery's status.
var DeliveryStatuses = []string{StatusPending, StatusSucceeded, StatusFailed}

// Messages of the webhook rules.
const (
	MsgEndpointNotFound = "Webhook endpoint not found"
	MsgDeliveryNotFound = "Webhook delivery not found"
	MsgURL              = "url must be a URL address"
	MsgURLTooLong       = "url must be shorter than or equal to 2048 characters"
	MsgURLHTTPS         = "url must use https (http only for a host:port listed in RETEN_OUTBOUND_ALLOW)"
	MsgURLPrivate       = "url must not point to a private or reserved address (only host:port entries of RETEN_OUTBOUND_ALLOW may)"
	MsgURLCredentials   = "url must not contain credentials"
	MsgEventTypesEmpty  = "event_types should not be empty"
	MsgEventTypesUnique = "All event_types's elements must be unique"
	MsgDescription      = "description must be shorter than or equal to 500 characters"
	MsgOverlapMin       = "overlap_minutes must not be less than 0"
	MsgOverlapMax       = "overlap_minutes must not be greater than 10080"
	MsgReplayInactive   = "The delivery's webhook endpoint is not active: turn it on before replaying"
	// DisabledFailing is the disabledReason of an endpoint the service
	// turned off after a run of failures.
	DisabledFailing = "Turned off after a run of failed deliveries"
)

// MsgEventType is the message of a type outside EventTypes.
var MsgEventType = "each value in event_types must be one of the following values: " + strings.Join(EventTypes, ", ")

// MsgStatus is the message of a delivery status filter outside DeliveryStatuses.
var MsgStatus = "status must be one of the following values: " + strings.Join(DeliveryStatuses, ", ")

// MsgEventTypeFilter is the message of an event_type filter outside the types.
var MsgEventTypeFilter = "event_type must be one of the following values: " + strings.Join(append(slices.Clone(EventTypes), TypePing), ", ")

// Delivery policy defaults (docs/webhooks.md).
const (
	// MaxAttempts is how many times a delivery is tried before it FAILS.
	MaxAttempts = 8
	// BackoffBase is the wait after the first failed attempt; each next
	// wait is 4 times longer, up to BackoffMax: 30 s, 2 min, 8 min, 32 min,
	// 2 h 8 min, 8 h 32 min, 12 h (about 23 h 13 min from first to last).
	BackoffBase = 30 * time.Second
	BackoffMax  = 12 * time.Hour
	// DisableAfterFailures and DisableAfter: an endpoint whose attempts
	// have failed this many times in a row, the first of them at least
	// DisableAfter ago, is turned off.
	DisableAfterFailures = 20
	DisableAfter         = 24 * time.Hour
	// Retention: events (with their deliveries and attempts) are deleted
	// this long after they happened.
	Retention = 30 * 24 * time.Hour
	// DefaultOverlap is how long a rotated secret keeps signing.
	DefaultOverlap = 24 * time.Hour
	// maxOverlapMinutes bounds a rotation's overlap (7 days).
	maxOverlapMinutes = 7 * 24 * 60
)

// Service manages endpoints, records events and delivers them.
type Service struct {
	client  *ent.Client
	dialect string
	box     *secret.Box
	allow   outbound.Allowlist
	http    *http.Client
	// Batch bounds the deliveries one claim takes; Concurrency the
	// deliveries sent at once.
	Batch, Concurrency int
	// Lease is how long a claimed delivery is left to its replica before
	// another may claim it again (its replica died mid-delivery).
	Lease time.Duration
	// The delivery policy (defaults above; tests shorten them).
	MaxAttempts          int
	BackoffBase          time.Duration
	BackoffMax           time.Duration
	DisableAfterFailures int
	DisableAfter         time.Duration
	Retention            time.Duration
	// wake asks the worker for a pass now.
	wake chan struct{}
}

// New returns the service over client (whose driver speaks dialect),
// sealing secrets with secretKey and connecting where allow permits
// (package outbound: public addresses and the operator's named ones).
func New(client *ent.Client, dialectName string, secretKey []byte, allow outbound.Allowlist) *Service {
	return &Service{client: client, dialect: dialectName, box: secret.New(secretKey), allow: allow,
		http:  allow.Client(outbound.CallTimeout),
		Batch: 100, Concurrency: 16, Lease: 2 * time.Minute,
		MaxAttempts: MaxAttempts, BackoffBase: BackoffBase, BackoffMax: BackoffMax,
		DisableAfterFailures: DisableAfterFailures, DisableAfter: DisableAfter, Retention: Retention,
		wake: make(chan struct{}, 1)}
}

func (s *Service) postgres() bool { return s.dialect == dialect.Postgres }

// backoff is the wait after failed attempt n (from 1).
func (s *Service) backoff(n int) time.Duration {
	d := s.BackoffBase
	for i := 1; i < n && d < s.BackoffMax; i++ {
		d *= 4
	}
	return min(d, s.BackoffMax)
}
