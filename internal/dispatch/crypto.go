package dispatch

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
)

// sealVersion prefixes every sealed value: version || nonce || ciphertext.
const sealVersion byte = 1

// seal encrypts credentials for provider id (AES-256-GCM, random nonce, the
// provider id as additional data so a ciphertext cannot be moved to another
// provider). Empty credentials seal to nil (no credentials).
func (s *Service) seal(id uuid.UUID, creds map[string]any) ([]byte, error) {
	if len(creds) == 0 {
		return nil, nil
	}
	if s.keyErr != nil {
		return nil, s.keyErr
	}
	plain, err := json.Marshal(creds)
	if err != nil {
		return nil, fmt.Errorf("dispatch: encode credentials: %w", err)
	}
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	out := append([]byte{sealVersion}, nonce...)
	return s.aead.Seal(out, nonce, plain, id[:]), nil
}

// open decrypts what seal produced for provider id.
func (s *Service) open(id uuid.UUID, sealed []byte) (map[string]any, error) {
	if len(sealed) == 0 {
		return map[string]any{}, nil
	}
	if s.keyErr != nil {
		return nil, s.keyErr
	}
	n := s.aead.NonceSize()
	if len(sealed) < 1+n || sealed[0] != sealVersion {
		return nil, errors.New("dispatch: credentials are not in a known format")
	}
	plain, err := s.aead.Open(nil, sealed[1:1+n], sealed[1+n:], id[:])
	if err != nil {
		return nil, fmt.Errorf("dispatch: decrypt credentials: %w", err)
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
