// Package email holds the one rule for what counts as an email address.
package email

import (
	"net/mail"
	"unicode/utf8"
)

// MaxLength is the longest address accepted, in characters.
const MaxLength = 320

// Valid accepts a bare address (no display name, no angle brackets) of at
// most MaxLength characters.
func Valid(s string) bool {
	addr, err := mail.ParseAddress(s)
	return err == nil && addr.Address == s && utf8.RuneCountInString(s) <= MaxLength
}
