package dispatch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/channeldefinition"
	"github.com/reten-io/reten/ent/dispatchconfig"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/viewer"
)

// Message is one delivery asked of a provider (an activity for a commerce
// user, an operator...). The dispatcher adds the channel, template and sender
// of the configured channel definition.
type Message struct {
	ActivityID uuid.UUID      `json:"activityId"`
	Recipient  string         `json:"recipient"`
	Subject    string         `json:"subject,omitempty"`
	Body       string         `json:"body,omitempty"`
	Variables  map[string]any `json:"variables,omitempty"`
}

// Dispatcher delivers messages through one provider and returns the
// provider's reference of the delivery.
type Dispatcher interface {
	Dispatch(ctx context.Context, m Message) (providerRef string, err error)
}

// For returns the dispatcher of a project's channel with its dispatch config
// (max attempts, retry backoff). It checks no permission: the caller (the
// activity dispatch flow) has checked its own. A channel without an active
// config or whose provider is inactive answers 422. When the config names a
// channel definition with a rate_per_minute, For takes one send of that rate
// (shared by every replica) and answers 429 (ErrRateLimited) when none is left.
func (s *Service) For(ctx context.Context, projectID uuid.UUID, channel string) (Dispatcher, *ent.DispatchConfig, error) {
	if !ValidChannel(channel) {
		return nil, nil, apperr.Validation(MsgChannel)
	}
	c := s.db(ctx)
	cfg, err := c.DispatchConfig.Query().Where(dispatchconfig.ProjectID(projectID),
		dispatchconfig.TenantID(viewer.FromContext(ctx).TenantID),
		dispatchconfig.ChannelEQ(dispatchconfig.Channel(channel)), dispatchconfig.IsActive(true)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, apperr.Unprocessable(fmt.Sprintf(MsgNoConfigFmt, channel))
	}
	if err != nil {
		return nil, nil, err
	}
	p, err := s.provider(ctx, c, cfg.ProviderID)
	if err != nil {
		return nil, nil, err
	}
	if !p.IsActive {
		return nil, nil, apperr.Unprocessable(MsgProviderInactive)
	}
	var def *ent.ChannelDefinition
	if cfg.ChannelDefinitionID != nil {
		def, err = c.ChannelDefinition.Query().Where(channeldefinition.ID(*cfg.ChannelDefinitionID)).Only(ctx)
		if err != nil {
			return nil, nil, err
		}
		// The send takes a slot of the definition's rate now, before the
		// caller records its attempt: a refused send leaves no trace.
		if n := def.RatePerMinute; n != nil && s.gate != nil && !s.gate.Take(ctx, "dispatch:"+def.ID.String(), *n) {
			return nil, nil, &apperr.Error{Kind: apperr.KindTooMany, Messages: []string{fmt.Sprintf(MsgRateLimitedFmt, *n)},
				Err: ErrRateLimited, RetryAfter: time.Minute}
		}
	}
	d, err := s.dispatcherOf(p, def)
	if err != nil {
		return nil, nil, err
	}
	return d, cfg, nil
}

// dispatcherOf builds the driver of a provider.
func (s *Service) dispatcherOf(p *ent.DispatchProvider, def *ent.ChannelDefinition) (Dispatcher, error) {
	base := envelope{ProviderID: p.ID, Provider: p.Name, Channel: string(p.Channel)}
	if def != nil {
		base.Template, base.Sender = def.Template, def.Sender
	}
	switch p.Kind {
	case KindLog:
		return logDispatcher{base}, nil
	case KindWebhook:
		creds, err := s.Credentials(p)
		if err != nil {
			return nil, err
		}
		u, _ := p.Settings["url"].(string)
		return webhookDispatcher{envelope: base, url: u, creds: creds, client: s.webhooks}, nil
	}
	return nil, fmt.Errorf("dispatch: provider %s has unknown kind %q", p.ID, p.Kind)
}

// envelope is what a driver knows about its provider and channel definition.
type envelope struct {
	ProviderID uuid.UUID `json:"providerId"`
	Provider   string    `json:"provider"`
	Channel    string    `json:"channel"`
	Template   string    `json:"template,omitempty"`
	Sender     string    `json:"sender,omitempty"`
}

// logDispatcher records the dispatch in the log and sends nothing.
type logDispatcher struct{ envelope }

func (d logDispatcher) Dispatch(ctx context.Context, m Message) (string, error) {
	ref := "log-" + uuid.NewString()
	slog.InfoContext(ctx, "dispatch (log provider)", "ref", ref, "provider_id", d.ProviderID, "provider", d.Provider,
		"channel", d.Channel, "template", d.Template, "sender", d.Sender, "activity_id", m.ActivityID, "recipient", m.Recipient)
	return ref, nil
}

// webhookDispatcher POSTs {provider..., message} as JSON to its URL. The
// credentials may carry "token" (sent as Authorization: Bearer) and
// "headers" (an object of extra headers). A 2xx answer is a success; its
// JSON "id" or "reference" becomes the provider reference.
type webhookDispatcher struct {
	envelope
	url    string
	creds  map[string]any
	client *http.Client
}

func (d webhookDispatcher) Dispatch(ctx context.Context, m Message) (string, error) {
	payload, err := json.Marshal(struct {
		envelope
		Message Message `json:"message"`
	}{d.envelope, m})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.url, bytes.NewReader(payload))
	if err != nil {
		return "", fmt.Errorf("webhook dispatch: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if tok, ok := d.creds["token"].(string); ok && tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	if hs, ok := d.creds["headers"].(map[string]any); ok {
		for k, v := range hs {
			if s, ok := v.(string); ok {
				req.Header.Set(k, s)
			}
		}
	}
	res, err := d.client.Do(req)
	if err != nil {
		return "", fmt.Errorf("webhook dispatch: %w", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return "", fmt.Errorf("webhook dispatch: %s answered %d", d.url, res.StatusCode)
	}
	var out struct {
		ID        any `json:"id"`
		Reference any `json:"reference"`
	}
	_ = json.Unmarshal(body, &out)
	for _, v := range []any{out.ID, out.Reference} {
		if v != nil && fmt.Sprint(v) != "" {
			return fmt.Sprint(v), nil
		}
	}
	return "webhook-" + uuid.NewString(), nil
}

// SetWebhookClient sets the HTTP client of webhook providers: the
// deployment's outbound client (package outbound: public addresses and the
// operator's RETEN_OUTBOUND_ALLOW entries only), built by the wiring.
func (s *Service) SetWebhookClient(c *http.Client) { s.webhooks = c }
