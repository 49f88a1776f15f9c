package rest_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"hash"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apptest"
)

// craftJWT signs header.claims with the service's own secret and the given
// HMAC (nil: an empty signature, as "none" tokens carry).
func craftJWT(t *testing.T, secret []byte, header, claims map[string]any, mac func() hash.Hash) string {
	t.Helper()
	enc := func(v any) string {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return base64.RawURLEncoding.EncodeToString(raw)
	}
	input := enc(header) + "." + enc(claims)
	if mac == nil {
		return input + "."
	}
	h := hmac.New(mac, secret)
	h.Write([]byte(input))
	return input + "." + base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

// TestAccessTokenNeedsExpAndExactlyHS256: a token signed with the right
// secret is still refused (401, the message of every invalid token) when it
// has no exp, or when its header's alg is anything but "HS256" (another HMAC,
// "none", another spelling), whatever the signature.
func TestAccessTokenNeedsExpAndExactlyHS256(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		acme := env.Bootstrap("Acme")
		secret := env.App.Config.JWTSecret
		now := time.Now()
		claims := map[string]any{"sub": acme.UserID.String(), "iat": now.Unix(), "exp": now.Add(time.Minute).Unix(), "typ": "access"}
		hs256 := map[string]any{"alg": "HS256", "typ": "JWT"}
		get := func(token string) *apptest.Response {
			return env.Do("GET", "/api/projects", nil, apptest.JWT(token, acme.TenantID, uuid.Nil))
		}
		// The crafted token is accepted as it is: only the named flaw refuses the others.
		if res := get(craftJWT(t, secret, hs256, claims, sha256.New)); res.Status != 200 {
			t.Fatalf("well-formed crafted token: %d %s", res.Status, res.Body)
		}
		noExp := map[string]any{"sub": claims["sub"], "iat": claims["iat"], "typ": "access"}
		for _, tc := range []struct {
			name   string
			header map[string]any
			claims map[string]any
			mac    func() hash.Hash
		}{
			{"no exp", hs256, noExp, sha256.New},
			{"alg HS384 signed HS384", map[string]any{"alg": "HS384", "typ": "JWT"}, claims, sha512.New384},
			{"alg HS384 signed HS256", map[string]any{"alg": "HS384", "typ": "JWT"}, claims, sha256.New},
			{"alg HS512 signed HS512", map[string]any{"alg": "HS512", "typ": "JWT"}, claims, sha512.New},
			{"alg HS512 signed HS256", map[string]any{"alg": "HS512", "typ": "JWT"}, claims, sha256.New},
			{"alg none unsigned", map[string]any{"alg": "none", "typ": "JWT"}, claims, nil},
			{"alg none signed HS256", map[string]any{"alg": "none", "typ": "JWT"}, claims, sha256.New},
			{"alg hs256", map[string]any{"alg": "hs256", "typ": "JWT"}, claims, sha256.New},
			{"no alg", map[string]any{"typ": "JWT"}, claims, sha256.New},
			{"member ALG", map[string]any{"ALG": "HS256", "typ": "JWT"}, claims, sha256.New},
		} {
			t.Run(tc.name, func(t *testing.T) {
				apptest.ExpectError(t, get(craftJWT(t, secret, tc.header, tc.claims, tc.mac)), 401, "Unauthorized")
			})
		}
	})
}
