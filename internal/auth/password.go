package auth

import (
	"errors"

	"golang.org/x/crypto/bcrypt"
)

// MinPasswordLength is the SPEC.md minimum for passwords.
const MinPasswordLength = 8

// HashPassword hashes a password with bcrypt.
func HashPassword(pw string) (string, error) {
	if len(pw) < MinPasswordLength {
		return "", errors.New("password shorter than 8 characters")
	}
	b, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.DefaultCost)
	return string(b), err
}

// CheckPassword reports whether pw matches hash.
func CheckPassword(hash, pw string) bool {
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(pw)) == nil
}

// dummyHash is compared against when the user does not exist, so that the
// response time does not reveal which identifiers are registered: the
// bcrypt hash, at bcrypt.DefaultCost like every stored hash (a test checks
// it), of a random password nobody kept. It is a constant so that no
// process spends a hash's time (about 60 ms) computing it when it starts.
const dummyHash = "$2a$10$ZUR0GFREQIKAXxJIx4ldnexrsA05/NhM6TABJ8dxWlUjdW5GAhHPu"
