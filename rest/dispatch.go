package rest

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/dispatch"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/patch"
)

// sentPtr is the dispatch inputs' form of a patch: nil when absent, a
// pointer to the zero value when null.
func sentPtr[T any](p patch.Patch[T]) *T {
	if !p.Sent() {
		return nil
	}
	v := p.OrZero()
	return &v
}

// dispatchProviderDTO is a dispatch provider (designed shape). Credentials are
// write-only: responses only say whether some are stored.
type dispatchProviderDTO struct {
	ID             uuid.UUID      `json:"id"`
	Name           string         `json:"name"`
	Channel        string         `json:"channel"`
	Kind           string         `json:"kind"`
	Settings       map[string]any `json:"settings"`
	HasCredentials bool           `json:"hasCredentials"`
	IsActive       bool           `json:"isActive"`
	stamps
}

func presentDispatchProvider(p *ent.DispatchProvider) dispatchProviderDTO {
	return dispatchProviderDTO{ID: p.ID, Name: p.Name, Channel: string(p.Channel), Kind: p.Kind, Settings: orEmpty(p.Settings),
		HasCredentials: dispatch.HasCredentials(p), IsActive: p.IsActive, stamps: stamps{p.CreatedAt, p.UpdatedAt}}
}

// channelDefinitionDTO is a channel definition (designed shape).
type channelDefinitionDTO struct {
	ID            uuid.UUID      `json:"id"`
	ProviderID    uuid.UUID      `json:"providerId"`
	Name          string         `json:"name"`
	Channel       string         `json:"channel"`
	Template      string         `json:"template"`
	Sender        string         `json:"sender"`
	RatePerMinute *int           `json:"ratePerMinute"`
	Settings      map[string]any `json:"settings"`
	IsActive      bool           `json:"isActive"`
	stamps
}

func presentChannelDefinition(d *ent.ChannelDefinition) channelDefinitionDTO {
	return channelDefinitionDTO{ID: d.ID, ProviderID: d.ProviderID, Name: d.Name, Channel: string(d.Channel),
		Template: d.Template, Sender: d.Sender, RatePerMinute: d.RatePerMinute, Settings: orEmpty(d.Settings),
		IsActive: d.IsActive, stamps: stamps{d.CreatedAt, d.UpdatedAt}}
}

// dispatchConfigDTO is a project's dispatch config of one channel (designed shape).
type dispatchConfigDTO struct {
	ID                  uuid.UUID  `json:"id"`
	ProjectID           uuid.UUID  `json:"projectId"`
	Channel             string     `json:"channel"`
	ProviderID          uuid.UUID  `json:"providerId"`
	ChannelDefinitionID *uuid.UUID `json:"channelDefinitionId"`
	MaxAttempts         int        `json:"maxAttempts"`
	RetryBackoffSeconds int        `json:"retryBackoffSeconds"`
	IsActive            bool       `json:"isActive"`
	stamps
}

func presentDispatchConfig(c *ent.DispatchConfig) dispatchConfigDTO {
	return dispatchConfigDTO{ID: c.ID, ProjectID: c.ProjectID, Channel: string(c.Channel), ProviderID: c.ProviderID,
		ChannelDefinitionID: c.ChannelDefinitionID, MaxAttempts: c.MaxAttempts, RetryBackoffSeconds: c.RetryBackoffSeconds,
		IsActive: c.IsActive, stamps: stamps{c.CreatedAt, c.UpdatedAt}}
}

var providerBody = bodyOf(func(b *body) dispatch.CreateProviderInput {
	return dispatch.CreateProviderInput{Name: b.str("name").OrZero(), Channel: b.str("channel", dispatch.MsgChannel).OrZero(),
		Kind: b.str("kind", dispatch.MsgKind).OrZero(), Settings: b.object("settings").OrZero(),
		Credentials: b.object("credentials").OrZero(), IsActive: b.boolean("is_active").Ptr()}
}, "name", "channel", "kind", "settings", "credentials", "is_active")

var providerPatchBody = bodyOf(func(b *body) dispatch.UpdateProviderInput {
	return dispatch.UpdateProviderInput{Name: b.str("name").Ptr(), Settings: sentPtr(b.object("settings")),
		Credentials: sentPtr(b.object("credentials")), IsActive: b.boolean("is_active").Ptr()}
}, "name", "settings", "credentials", "is_active")

func providerFilter(q *query) dispatch.ProviderFilter {
	return dispatch.ProviderFilter{Channel: q.Get("channel")}
}

// channelDefinitionBody reads a channel definition body (creation and PATCH).
var channelDefinitionBody = bodyOf(func(b *body) dispatch.DefinitionInput {
	in := dispatch.DefinitionInput{Name: b.str("name").Ptr(), Channel: b.str("channel", dispatch.MsgChannel).Ptr(),
		Template: b.str("template").Ptr(), Sender: b.str("sender").Ptr(), Settings: sentPtr(b.object("settings")),
		IsActive: b.boolean("is_active").Ptr()}
	rate := b.integer("rate_per_minute")
	in.RatePerMinute, in.ClearRatePerMinute = rate.Ptr(), rate.IsNull()
	return in
}, "name", "channel", "template", "sender", "rate_per_minute", "settings", "is_active")

var dispatchConfigBody = bodyOf(func(b *body) dispatch.ConfigInput {
	return dispatch.ConfigInput{ProviderID: b.uuid("provider_id").OrZero(),
		ChannelDefinitionID: b.uuid("channel_definition_id").Ptr(), MaxAttempts: b.integer("max_attempts").Ptr(),
		RetryBackoffSeconds: b.integer("retry_backoff_seconds").Ptr(), IsActive: b.boolean("is_active").Ptr()}
}, "provider_id", "channel_definition_id", "max_attempts", "retry_backoff_seconds", "is_active")

// The path parameters of the channel definition and dispatch config routes.
var (
	providerPath   = []string{"providerId"}
	definitionPath = []string{"providerId", "definitionId"}
	projectPath    = []string{"projectId"}
)

func (a *api) createChannelDefinition(ctx context.Context, ids []uuid.UUID, in dispatch.DefinitionInput) (*ent.ChannelDefinition, error) {
	return a.Dispatch.CreateDefinition(ctx, ids[0], in)
}

func (a *api) channelDefinitions(ctx context.Context, ids []uuid.UUID, p paging.Page) (*paging.List[*ent.ChannelDefinition], error) {
	return a.Dispatch.ListDefinitions(ctx, ids[0], p)
}

func (a *api) updateChannelDefinition(ctx context.Context, ids []uuid.UUID, in dispatch.DefinitionInput) (*ent.ChannelDefinition, error) {
	return a.Dispatch.UpdateDefinition(ctx, ids[0], ids[1], in)
}

func (a *api) dispatchConfigs(ctx context.Context, ids []uuid.UUID, p paging.Page) (*paging.List[*ent.DispatchConfig], error) {
	return a.Dispatch.ListConfigs(ctx, ids[0], p)
}

// putDispatchConfig answers 201 when it created the channel's config, else 200.
func (a *api) putDispatchConfig(w http.ResponseWriter, r *http.Request) error {
	projectID, err := pathUUID(r, "projectId")
	if err != nil {
		return err
	}
	in, err := dispatchConfigBody(r)
	if err != nil {
		return err
	}
	c, created, err := a.Dispatch.PutConfig(r.Context(), projectID, urlParam(r, "channel"), in)
	if err != nil {
		return err
	}
	writeJSON(w, createdOr200(created), presentDispatchConfig(c))
	return nil
}

// createdOr200 is the status of a PUT: 201 when it created the record.
func createdOr200(created bool) int {
	if created {
		return http.StatusCreated
	}
	return http.StatusOK
}
