package dispatch

import (
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
)

// seal encrypts credentials for provider id (bound to it, see package
// secret). Empty credentials seal to nil (no credentials).
func (s *Service) seal(id uuid.UUID, creds map[string]any) ([]byte, error) {
	if len(creds) == 0 {
		return nil, nil
	}
	plain, err := json.Marshal(creds)
	if err != nil {
		return nil, fmt.Errorf("dispatch: encode credentials: %w", err)
	}
	return s.box.Seal(id, plain)
}

// open decrypts what seal produced for provider id.
func (s *Service) open(id uuid.UUID, sealed []byte) (map[string]any, error) {
	plain, err := s.box.Open(id, sealed)
	if err != nil || plain == nil {
		return map[string]any{}, err
	}
	var creds map[string]any
	if err := json.Unmarshal(plain, &creds); err != nil {
		return nil, fmt.Errorf("dispatch: decode credentials: %w", err)
	}
	return creds, nil
}

// Credentials decrypts the credentials of a provider (for drivers only; no
// API returns them).
func (s *Service) Credentials(p *ent.DispatchProvider) (map[string]any, error) {
	return s.open(p.ID, p.CredentialsEncrypted)
}

// HasCredentials reports whether the provider stores credentials.
func HasCredentials(p *ent.DispatchProvider) bool { return len(p.CredentialsEncrypted) > 0 }
