// Package dispatch manages dispatch providers, their channel definitions and
// the per-project dispatch configs that pick a provider per channel, and
// builds the Dispatcher that delivers an activity through the configured
// provider.
package dispatch

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/outbound"
	"github.com/reten-io/reten/internal/secret"
	"github.com/reten-io/reten/internal/txn"
)

// Channels a provider, a channel definition or a dispatch config serves.
var Channels = []string{"WHATSAPP", "EMAIL", "SMS", "PUSH", "SALESMAN", "CALLCENTER"}

// Provider kinds (drivers).
const (
	// KindLog records dispatches in the log without sending anything.
	KindLog = "log"
	// KindWebhook POSTs each dispatch as JSON to settings.url.
	KindWebhook = "webhook"
)

// Kinds lists the provider kinds.
var Kinds = []string{KindLog, KindWebhook}

// Messages of the dispatch rules.
const (
	MsgProviderNotFound        = "Dispatch provider not found"
	MsgDefinitionNotFound      = "Channel definition not found"
	MsgProviderNameTakenFmt    = `A dispatch provider named "%s" already exists`
	MsgDefinitionNameTakenFmt  = `A channel definition named "%s" already exists for this provider`
	MsgProviderInUse           = "The dispatch provider is used by a dispatch config and cannot be deleted"
	MsgChannelMismatchFmt      = "The dispatch provider serves channel %s, not %s"
	MsgDefinitionOtherProvider = "The channel definition does not belong to the dispatch provider"
	MsgNameEmpty               = "name should not be empty"
	MsgNameTooLong             = "name must be shorter than or equal to 255 characters"
	MsgWebhookURL              = "settings.url must be a URL address"
	MsgRateMin                 = "rate_per_minute must not be less than 1"
	MsgProviderIDEmpty         = "provider_id should not be empty"
	MsgMaxAttemptsMin          = "max_attempts must not be less than 1"
	MsgMaxAttemptsMax          = "max_attempts must not be greater than 10"
	MsgBackoffMin              = "retry_backoff_seconds must not be less than 0"
	MsgNoConfigFmt             = "No active dispatch config for channel %s in this project"
	MsgProviderInactive        = "The dispatch provider of this channel is inactive"
)

// Messages of enum rules.
var (
	MsgChannel = "channel must be one of the following values: " + strings.Join(Channels, ", ")
	MsgKind    = "kind must be one of the following values: " + strings.Join(Kinds, ", ")
)

// Bounds of a dispatch config.
const (
	DefaultMaxAttempts         = 3
	MaxMaxAttempts             = 10
	DefaultRetryBackoffSeconds = 300
)

// Service manages dispatch configuration of the viewer's tenant.
type Service struct {
	client   *ent.Client
	box      *secret.Box
	webhooks *http.Client // SetWebhookClient; public addresses only by default
	gate     RateGate     // nil: channel rates are not enforced
}

// RateGate admits one send under a per-minute rate shared by every replica
// (ratelimit.Limiter.Take).
type RateGate interface {
	Take(ctx context.Context, key string, perMinute int) bool
}

// SetRateGate enforces the rate_per_minute of channel definitions with g.
func (s *Service) SetRateGate(g RateGate) { s.gate = g }

// ErrRateLimited marks the 429 of a send over its channel definition's rate.
var ErrRateLimited = errors.New("dispatch rate limited")

// MsgRateLimitedFmt answers a send over the rate of its channel definition.
const MsgRateLimitedFmt = "The channel definition allows %d dispatches per minute; the limit is reached, retry later"

// NewService returns a Service; secretKey (32 bytes) encrypts provider
// credentials with AES-256-GCM. A key of another length makes every
// credential operation fail (never silently store plaintext).
func NewService(client *ent.Client, secretKey []byte) *Service {
	return &Service{client: client, box: secret.New(secretKey), webhooks: outbound.Allowlist{}.Client(outbound.CallTimeout)}
}

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// ValidChannel reports whether c is a channel.
func ValidChannel(c string) bool { return slices.Contains(Channels, c) }

func validateName(name string) []string {
	switch {
	case name == "":
		return []string{MsgNameEmpty}
	case utf8.RuneCountInString(name) > 255:
		return []string{MsgNameTooLong}
	}
	return nil
}

// validURL accepts an absolute http or https URL with a host.
func validURL(v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// validateSettings applies the settings rules of a provider kind.
func validateSettings(kind string, settings map[string]any) []string {
	if kind == KindWebhook && !validURL(settings["url"]) {
		return []string{MsgWebhookURL}
	}
	return nil
}
