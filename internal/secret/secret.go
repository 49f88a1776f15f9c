// Package secret seals values stored at rest (dispatch provider credentials,
// tenant dataset connection strings) with AES-256-GCM under the service's
// secrets key. Each value is bound to the id of the row that holds it, so a
// ciphertext copied to another row does not open.
package secret

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"

	"github.com/google/uuid"
)

// version prefixes every sealed value: version || nonce || ciphertext.
const version byte = 1

// Box seals and opens values; the zero Box (or one made from a bad key)
// fails every call with the key error.
type Box struct {
	aead cipher.AEAD
	err  error
}

// New returns a Box for a 32-byte key.
func New(key []byte) *Box {
	if len(key) != 32 {
		return &Box{err: fmt.Errorf("secret: the key must be 32 bytes, got %d", len(key))}
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return &Box{err: err}
	}
	aead, err := cipher.NewGCM(block)
	return &Box{aead: aead, err: err}
}

// Seal encrypts plain for the row owner (random nonce, owner as additional
// data). Empty plain seals to nil.
func (b *Box) Seal(owner uuid.UUID, plain []byte) ([]byte, error) {
	if len(plain) == 0 {
		return nil, nil
	}
	if b.err != nil {
		return nil, b.err
	}
	nonce := make([]byte, b.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	out := append([]byte{version}, nonce...)
	return b.aead.Seal(out, nonce, plain, owner[:]), nil
}

// Open decrypts what Seal produced for owner; nil opens to nil.
func (b *Box) Open(owner uuid.UUID, sealed []byte) ([]byte, error) {
	if len(sealed) == 0 {
		return nil, nil
	}
	if b.err != nil {
		return nil, b.err
	}
	n := b.aead.NonceSize()
	if len(sealed) < 1+n || sealed[0] != version {
		return nil, errors.New("secret: value is not in a known format")
	}
	plain, err := b.aead.Open(nil, sealed[1:1+n], sealed[1+n:], owner[:])
	if err != nil {
		return nil, fmt.Errorf("secret: decrypt: %w", err)
	}
	return plain, nil
}
