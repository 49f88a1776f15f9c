package rest

import (
	"encoding/json"
	"math"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/dispatch"
)

// dispatchHandlers maps the REST lines of tenancy.dispatchMatrix to their handlers.
func (a *api) dispatchHandlers() map[string]handler {
	return map[string]handler{
		"POST /dispatch-providers":                                                  a.createDispatchProvider,
		"GET /dispatch-providers":                                                   a.listDispatchProviders,
		"GET /dispatch-providers/{id}":                                              a.getDispatchProvider,
		"PATCH /dispatch-providers/{id}":                                            a.updateDispatchProvider,
		"DELETE /dispatch-providers/{id}":                                           a.deleteDispatchProvider,
		"POST /dispatch-providers/{providerId}/channel-definitions":                 a.createChannelDefinition,
		"GET /dispatch-providers/{providerId}/channel-definitions":                  a.listChannelDefinitions,
		"PATCH /dispatch-providers/{providerId}/channel-definitions/{definitionId}": a.updateChannelDefinition,
		"GET /projects/{projectId}/dispatch-configs":                                a.listDispatchConfigs,
		"PUT /projects/{projectId}/dispatch-configs/{channel}":                      a.putDispatchConfig,
	}
}

// Type messages of the dispatch bodies.
const (
	msgDispatchSettingsObj = "settings must be an object"
	msgDispatchCredsObj    = "credentials must be an object"
	msgDispatchActiveBool  = "is_active must be a boolean value"
	msgDispatchTemplateStr = "template must be a string"
	msgDispatchSenderStr   = "sender must be a string"
	msgDispatchRateInt     = "rate_per_minute must be an integer number"
	msgDispatchProviderID  = "provider_id must be a UUID"
	msgDispatchDefID       = "channel_definition_id must be a UUID"
	msgDispatchAttemptsInt = "max_attempts must be an integer number"
	msgDispatchBackoffInt  = "retry_backoff_seconds must be an integer number"
)

// dispatchInt reads an integer member: nil when missing or null (null also
// reports null=true); a non-integer adds notInt.
func dispatchInt(b *body, name, notInt string) (val *int, null bool) {
	raw, ok := b.fields[name]
	if !ok {
		return nil, false
	}
	if string(raw) == "null" {
		return nil, true
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
		b.fail(notInt)
		return nil, false
	}
	n := int(f)
	return &n, false
}

// dispatchObject reads a JSON object member: nil when missing; a pointer to a
// nil map when null; another JSON type adds notObject.
func dispatchObject(b *body, name, notObject string) *map[string]any {
	m, present := b.objectMember(name, notObject)
	if !present {
		return nil
	}
	return &m
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
	CreatedAt      time.Time      `json:"createdAt"`
	UpdatedAt      time.Time      `json:"updatedAt"`
}

func presentDispatchProvider(p *ent.DispatchProvider) dispatchProviderDTO {
	settings := p.Settings
	if settings == nil {
		settings = map[string]any{}
	}
	return dispatchProviderDTO{ID: p.ID, Name: p.Name, Channel: string(p.Channel), Kind: p.Kind, Settings: settings,
		HasCredentials: dispatch.HasCredentials(p), IsActive: p.IsActive, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
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
	CreatedAt     time.Time      `json:"createdAt"`
	UpdatedAt     time.Time      `json:"updatedAt"`
}

func presentChannelDefinition(d *ent.ChannelDefinition) channelDefinitionDTO {
	settings := d.Settings
	if settings == nil {
		settings = map[string]any{}
	}
	return channelDefinitionDTO{ID: d.ID, ProviderID: d.ProviderID, Name: d.Name, Channel: string(d.Channel),
		Template: d.Template, Sender: d.Sender, RatePerMinute: d.RatePerMinute, Settings: settings,
		IsActive: d.IsActive, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt}
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
	CreatedAt           time.Time  `json:"createdAt"`
	UpdatedAt           time.Time  `json:"updatedAt"`
}

func presentDispatchConfig(c *ent.DispatchConfig) dispatchConfigDTO {
	return dispatchConfigDTO{ID: c.ID, ProjectID: c.ProjectID, Channel: string(c.Channel), ProviderID: c.ProviderID,
		ChannelDefinitionID: c.ChannelDefinitionID, MaxAttempts: c.MaxAttempts, RetryBackoffSeconds: c.RetryBackoffSeconds,
		IsActive: c.IsActive, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}

func (a *api) createDispatchProvider(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "name", "channel", "kind", "settings", "credentials", "is_active")
	if err != nil {
		return err
	}
	var in dispatch.CreateProviderInput
	in.Name, _ = b.str("name", msgNameString)
	in.Channel, _ = b.str("channel", dispatch.MsgChannel)
	in.Kind, _ = b.str("kind", dispatch.MsgKind)
	if m := dispatchObject(b, "settings", msgDispatchSettingsObj); m != nil {
		in.Settings = *m
	}
	if m := dispatchObject(b, "credentials", msgDispatchCredsObj); m != nil {
		in.Credentials = *m
	}
	in.IsActive = b.boolean("is_active", msgDispatchActiveBool)
	if err := b.err(); err != nil {
		return err
	}
	p, err := a.Dispatch.CreateProvider(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentDispatchProvider(p))
	return nil
}

func (a *api) listDispatchProviders(w http.ResponseWriter, r *http.Request) error {
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	l, err := a.Dispatch.ListProviders(r.Context(), dispatch.ProviderFilter{Channel: r.URL.Query().Get("channel")}, p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentPage(l, presentDispatchProvider))
	return nil
}

func (a *api) getDispatchProvider(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	p, err := a.Dispatch.GetProvider(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentDispatchProvider(p))
	return nil
}

func (a *api) updateDispatchProvider(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "name", "settings", "credentials", "is_active")
	if err != nil {
		return err
	}
	in := dispatch.UpdateProviderInput{
		Name:        b.optStr("name", msgNameString),
		Settings:    dispatchObject(b, "settings", msgDispatchSettingsObj),
		Credentials: dispatchObject(b, "credentials", msgDispatchCredsObj),
		IsActive:    b.boolean("is_active", msgDispatchActiveBool),
	}
	if err := b.err(); err != nil {
		return err
	}
	p, err := a.Dispatch.UpdateProvider(r.Context(), id, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentDispatchProvider(p))
	return nil
}

func (a *api) deleteDispatchProvider(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	if err := a.Dispatch.DeleteProvider(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// decodeDefinition reads a channel definition body.
func decodeDefinition(r *http.Request) (dispatch.DefinitionInput, error) {
	b, err := decodeBody(r, "name", "channel", "template", "sender", "rate_per_minute", "settings", "is_active")
	if err != nil {
		return dispatch.DefinitionInput{}, err
	}
	in := dispatch.DefinitionInput{
		Name:     b.optStr("name", msgNameString),
		Channel:  b.optStr("channel", dispatch.MsgChannel),
		Template: b.optStr("template", msgDispatchTemplateStr),
		Sender:   b.optStr("sender", msgDispatchSenderStr),
		Settings: dispatchObject(b, "settings", msgDispatchSettingsObj),
		IsActive: b.boolean("is_active", msgDispatchActiveBool),
	}
	in.RatePerMinute, in.ClearRatePerMinute = dispatchInt(b, "rate_per_minute", msgDispatchRateInt)
	return in, b.err()
}

func (a *api) createChannelDefinition(w http.ResponseWriter, r *http.Request) error {
	providerID, err := pathUUID(r, "providerId")
	if err != nil {
		return err
	}
	in, err := decodeDefinition(r)
	if err != nil {
		return err
	}
	d, err := a.Dispatch.CreateDefinition(r.Context(), providerID, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentChannelDefinition(d))
	return nil
}

func (a *api) listChannelDefinitions(w http.ResponseWriter, r *http.Request) error {
	providerID, err := pathUUID(r, "providerId")
	if err != nil {
		return err
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	l, err := a.Dispatch.ListDefinitions(r.Context(), providerID, p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentPage(l, presentChannelDefinition))
	return nil
}

func (a *api) updateChannelDefinition(w http.ResponseWriter, r *http.Request) error {
	providerID, err := pathUUID(r, "providerId")
	if err != nil {
		return err
	}
	id, err := pathUUID(r, "definitionId")
	if err != nil {
		return err
	}
	in, err := decodeDefinition(r)
	if err != nil {
		return err
	}
	d, err := a.Dispatch.UpdateDefinition(r.Context(), providerID, id, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentChannelDefinition(d))
	return nil
}

func (a *api) listDispatchConfigs(w http.ResponseWriter, r *http.Request) error {
	projectID, err := pathUUID(r, "projectId")
	if err != nil {
		return err
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	l, err := a.Dispatch.ListConfigs(r.Context(), projectID, p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentPage(l, presentDispatchConfig))
	return nil
}

func (a *api) putDispatchConfig(w http.ResponseWriter, r *http.Request) error {
	projectID, err := pathUUID(r, "projectId")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "provider_id", "channel_definition_id", "max_attempts", "retry_backoff_seconds", "is_active")
	if err != nil {
		return err
	}
	var in dispatch.ConfigInput
	if id := b.optUUID("provider_id", msgDispatchProviderID); id != nil {
		in.ProviderID = *id
	}
	in.ChannelDefinitionID = b.optUUID("channel_definition_id", msgDispatchDefID)
	in.MaxAttempts, _ = dispatchInt(b, "max_attempts", msgDispatchAttemptsInt)
	in.RetryBackoffSeconds, _ = dispatchInt(b, "retry_backoff_seconds", msgDispatchBackoffInt)
	in.IsActive = b.boolean("is_active", msgDispatchActiveBool)
	if err := b.err(); err != nil {
		return err
	}
	c, created, err := a.Dispatch.PutConfig(r.Context(), projectID, urlParam(r, "channel"), in)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	writeJSON(w, status, presentDispatchConfig(c))
	return nil
}
