package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"github.com/go-chi/jwtauth/v5"
	"github.com/google/uuid"
	"github.com/lestrrat-go/jwx/v2/jwt"

	"github.com/reten-io/reten/internal/apperr"
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

// accessTokenAlg is the one signature algorithm of access tokens.
const accessTokenAlg = "HS256"

// headerAlgIs reports whether token is a compact JWS whose protected header
// names exactly alg. The verifier (jwx) checks the signature with the key's
// algorithm whatever the header says, so without this a token whose header
// claims "none", another HMAC or another spelling would pass.
func headerAlgIs(token, alg string) bool {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return false
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[0])
	if err != nil {
		return false
	}
	// A map, not a struct: encoding/json matches struct fields without regard
	// to case, and the member must be spelled "alg".
	var h map[string]json.RawMessage
	var got string
	return json.Unmarshal(raw, &h) == nil && json.Unmarshal(h["alg"], &got) == nil && got == alg
}

// IssueAccessToken signs a 15-minute access token for the user.
func (s *Service) IssueAccessToken(userID uuid.UUID, now time.Time) (string, error) {
	_, tok, err := s.jwt.Encode(map[string]any{
		jwt.SubjectKey:    userID.String(),
		jwt.IssuedAtKey:   now.Unix(),
		jwt.ExpirationKey: now.Add(AccessTokenTTL).Unix(),
		"typ":             "access",
	})
	return tok, err
}

// UserFromAccessToken verifies an access token and returns its user id. The
// token must be compact, name exactly HS256 in its header, verify with the
// secret and carry an exp that has not passed.
func (s *Service) UserFromAccessToken(token string) (uuid.UUID, error) {
	if !headerAlgIs(token, accessTokenAlg) {
		return uuid.Nil, apperr.Unauthorized(MsgUnauthorized)
	}
	t, err := jwtauth.VerifyToken(s.jwt, token)
	if err != nil {
		return uuid.Nil, apperr.Unauthorized(MsgUnauthorized)
	}
	// Without WithRequiredClaim a token without exp would never expire.
	if err := jwt.Validate(t, jwt.WithClock(jwt.ClockFunc(s.now)), jwt.WithRequiredClaim(jwt.ExpirationKey)); err != nil {
		return uuid.Nil, apperr.Unauthorized(MsgUnauthorized)
	}
	if typ, _ := t.PrivateClaims()["typ"].(string); typ != "access" {
		return uuid.Nil, apperr.Unauthorized(MsgUnauthorized)
	}
	id, err := uuid.Parse(t.Subject())
	if err != nil {
		return uuid.Nil, apperr.Unauthorized(MsgUnauthorized)
	}
	return id, nil
}
