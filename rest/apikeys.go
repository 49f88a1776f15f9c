package rest

import (
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/apikey"
)

// apiKeyDTO is the SPEC.md API key shape; plaintextKey only on creation.
type apiKeyDTO struct {
	ID           uuid.UUID  `json:"id"`
	Name         string     `json:"name"`
	KeyPrefix    string     `json:"keyPrefix"`
	UserID       uuid.UUID  `json:"userId"`
	TenantID     uuid.UUID  `json:"tenantId"`
	ProjectID    *uuid.UUID `json:"projectId"`
	IsActive     bool       `json:"isActive"`
	Permissions  []string   `json:"permissions"`
	ExpiresAt    *time.Time `json:"expiresAt"`
	LastUsedAt   *time.Time `json:"lastUsedAt"`
	CreatedAt    time.Time  `json:"createdAt"`
	RevokedAt    *time.Time `json:"revokedAt"`
	PlaintextKey string     `json:"plaintextKey,omitempty"`
}

func presentAPIKey(k *ent.APIKey) apiKeyDTO {
	perms := k.Permissions
	if perms == nil {
		perms = []string{}
	}
	return apiKeyDTO{ID: k.ID, Name: k.Name, KeyPrefix: k.KeyPrefix, UserID: k.UserID, TenantID: k.TenantID,
		ProjectID: k.ProjectID, IsActive: k.IsActive, Permissions: perms, ExpiresAt: k.ExpiresAt,
		LastUsedAt: k.LastUsedAt, CreatedAt: k.CreatedAt, RevokedAt: k.RevokedAt}
}

func (a *api) createAPIKey(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "name", "permissions", "expiresAt", "scope", "projectId")
	if err != nil {
		return err
	}
	var in apikey.CreateInput
	in.Name, _ = b.str("name", msgNameString)
	in.Permissions, _ = b.strs("permissions", "permissions must be an array of strings")
	in.ExpiresAt = b.instant("expiresAt", "expiresAt must be a valid ISO 8601 date string")
	in.Scope, _ = b.str("scope", apikey.MsgScope)
	in.ProjectID = b.optUUID("projectId", "projectId must be a UUID")
	if err := b.err(); err != nil {
		return err
	}
	created, err := a.APIKeys.Create(r.Context(), in)
	if err != nil {
		return err
	}
	dto := presentAPIKey(created.Key)
	dto.PlaintextKey = created.Plaintext
	writeJSON(w, http.StatusCreated, dto)
	return nil
}

func (a *api) listAPIKeys(w http.ResponseWriter, r *http.Request) error {
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	keys, err := a.APIKeys.List(r.Context(), p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentPage(keys, presentAPIKey))
	return nil
}

func (a *api) getAPIKey(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	k, err := a.APIKeys.Get(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentAPIKey(k))
	return nil
}

func (a *api) revokeAPIKey(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	if _, err := a.APIKeys.Revoke(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *api) setAPIKeyPermissions(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "permissions")
	if err != nil {
		return err
	}
	perms, _ := b.strs("permissions", "permissions must be an array of strings")
	if err := b.err(); err != nil {
		return err
	}
	k, err := a.APIKeys.SetPermissions(r.Context(), id, perms)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentAPIKey(k))
	return nil
}
