package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

// The Standard Webhooks signature scheme
// (https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md):
// a secret is "whsec_" followed by the base64 of its key; a signature is
// "v1," followed by the base64 of HMAC-SHA256(key, "<id>.<timestamp>.<body>"),
// where id and timestamp are the webhook-id and webhook-timestamp headers
// (unix seconds) and body the exact bytes sent. The webhook-signature
// header lists one signature per valid secret, separated by spaces.

// secretPrefix starts every secret.
const secretPrefix = "whsec_"

// keyBytes is the size of a generated key (192 bits; the specification asks
// for 24 to 64 bytes).
const keyBytes = 24

// NewSecret returns a random secret, "whsec_" and the base64 of 24 bytes.
func NewSecret() (string, error) {
	key := make([]byte, keyBytes)
	if _, err := rand.Read(key); err != nil {
		return "", fmt.Errorf("webhook: secret: %w", err)
	}
	return secretPrefix + base64.StdEncoding.EncodeToString(key), nil
}

// keyOf decodes a secret's key.
func keyOf(secret string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, secretPrefix))
	if err != nil {
		return nil, fmt.Errorf("webhook: secret is not whsec_<base64>: %w", err)
	}
	return key, nil
}

// Sign returns the webhook-signature header of a message signed with
// secrets (the current one first): "v1,<signature>" for each, separated by
// spaces.
func Sign(id string, timestamp int64, body []byte, secrets ...string) (string, error) {
	sigs := make([]string, 0, len(secrets))
	for _, s := range secrets {
		key, err := keyOf(s)
		if err != nil {
			return "", err
		}
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(id))
		mac.Write([]byte{'.'})
		mac.Write([]byte(strconv.FormatInt(timestamp, 10)))
		mac.Write([]byte{'.'})
		mac.Write(body)
		sigs = append(sigs, "v1,"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	}
	return strings.Join(sigs, " "), nil
}
