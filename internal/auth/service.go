// Package auth authenticates requests: passwords, JWT access tokens, rotating
// refresh tokens and API keys; it also holds the permission catalog and the
// role -> permission map.
package auth

import (
	"time"

	"github.com/go-chi/jwtauth/v5"

	"github.com/reten-io/reten/ent"
)

// Token lifetimes (SPEC.md "Limits").
const (
	AccessTokenTTL  = 15 * time.Minute
	RefreshTokenTTL = 7 * 24 * time.Hour
	// keyUsageResolution bounds lastUsedAt writes to one per key per minute.
	keyUsageResolution = time.Minute
)

// Service authenticates users and keys.
type Service struct {
	client *ent.Client
	jwt    *jwtauth.JWTAuth
	now    func() time.Time
	// cache holds recent credential checks (CacheCredentials); nil: none.
	cache *credentialCache
}

// NewService returns the authentication service; secret signs access tokens (HS256).
func NewService(client *ent.Client, secret []byte) *Service {
	return &Service{client: client, jwt: jwtauth.New(accessTokenAlg, secret, nil), now: time.Now}
}

// SetClock replaces the clock (tests).
func (s *Service) SetClock(now func() time.Time) { s.now = now }
