package rest

import (
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

// presentCreatedAPIKey is the key and, this once, its plaintext.
func presentCreatedAPIKey(c *apikey.Created) apiKeyDTO {
	dto := presentAPIKey(c.Key)
	dto.PlaintextKey = c.Plaintext
	return dto
}

var apiKeyBody = bodyOf(func(b *body) apikey.CreateInput {
	return apikey.CreateInput{Name: b.str("name").OrZero(), Permissions: b.strs("permissions").OrZero(),
		ExpiresAt: b.instant("expiresAt").Ptr(), Scope: b.str("scope", apikey.MsgScope).OrZero(),
		ProjectID: b.uuid("projectId").Ptr()}
}, "name", "permissions", "expiresAt", "scope", "projectId")

var permissionsBody = bodyOf(func(b *body) []string { return b.strs("permissions").OrZero() }, "permissions")
