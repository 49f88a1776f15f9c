package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// KeyPrefix starts every API key; a header value without it is not a key.
const KeyPrefix = "svc_sk_"

// NewAPIKeySecret returns a new plaintext key, its display prefix
// (KeyPrefix + 8 characters) and the SHA-256 hash that is stored.
func NewAPIKeySecret() (plaintext, prefix, hash string) {
	plaintext = KeyPrefix + randomToken(30)
	return plaintext, plaintext[:len(KeyPrefix)+8], HashToken(plaintext)
}

// LooksLikeAPIKey reports whether a header value counts as an API key.
func LooksLikeAPIKey(v string) bool {
	return strings.HasPrefix(v, KeyPrefix) && len(v) > len(KeyPrefix)
}

// HashToken is the SHA-256 hex digest under which secrets are stored.
func HashToken(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// randomToken returns n random bytes, URL-safe base64 encoded (no '_' or '-'
// at risk of confusing the key prefix: the alphabet is kept alphanumeric).
func randomToken(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	s := base64.RawURLEncoding.EncodeToString(b)
	return strings.NewReplacer("-", "A", "_", "B").Replace(s)
}
