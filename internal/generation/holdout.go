package generation

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"

	"github.com/google/uuid"
)

// InGroup reports whether a commerce falls in a group of percent percent
// (a holdout or control group) under salt: the first 8 bytes of
// SHA-256(salt ":" commerce id) taken modulo 10,000 are below percent x 100.
// The answer depends on nothing else, so it is the same on every run and
// replica; a new salt reshuffles the group.
func InGroup(salt string, commerceID uuid.UUID, percent int) bool {
	if percent <= 0 {
		return false
	}
	h := sha256.New()
	h.Write([]byte(salt))
	h.Write([]byte{':'})
	h.Write(commerceID[:])
	var sum [sha256.Size]byte
	return binary.BigEndian.Uint64(h.Sum(sum[:0])[:8])%10_000 < uint64(percent)*100
}

// newSalt is a fresh random salt.
func newSalt() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}
