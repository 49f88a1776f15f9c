package criteria

import (
	"strings"

	"github.com/reten-io/reten/internal/fields"
)

// Messages of the name rule of audiences and event filters.
const (
	MsgNameEmpty   = "name should not be empty"
	MsgNameTooLong = "name must be shorter than or equal to 255 characters"
)

// maxName is the longest audience or event filter name, in characters.
const maxName = 255

// NameRule checks the name of an audience or an event filter (trimmed):
// required, at most maxName characters.
func NameRule(name string) []string {
	return fields.Text(strings.TrimSpace(name), maxName, MsgNameEmpty, MsgNameTooLong)
}
