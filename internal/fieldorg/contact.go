package fieldorg

import (
	"strings"

	"github.com/reten-io/reten/internal/fields"
)

// Operators and supervisors are people of the field organisation: a name and
// the same optional contact fields (email, phone, external id) and metadata,
// with the same rules and the same PATCH semantics.

// checkPerson validates a person's name (nil: not sent) and contact fields.
func checkPerson(name, email, phone, externalID *string) []string {
	var msgs []string
	if name != nil {
		msgs = checkName(*name)
	}
	msgs = append(msgs, checkContact(email, phone)...)
	if externalID != nil && fields.TooLong(*externalID, maxText) {
		msgs = append(msgs, MsgExternalIDTooLong)
	}
	return msgs
}

// newContact trims the contact fields of a create body; blank ones become
// nil (stored as NULL).
func newContact(email, phone, externalID *string) (*string, *string, *string) {
	return fields.BlankNil(fields.Trim(email)), fields.BlankNil(fields.Trim(phone)), fields.BlankNil(fields.Trim(externalID))
}

// personUpdate is the part of an operator's or supervisor's update builder
// that writes the contact fields.
type personUpdate[U any] interface {
	SetEmail(string) U
	ClearEmail() U
	SetEmailKey(string) U
	ClearEmailKey() U
	SetPhone(string) U
	ClearPhone() U
	SetExternalID(string) U
	ClearExternalID() U
	SetMetadata(map[string]any) U
	ClearMetadata() U
}

// patchContact writes the contact fields of a PATCH body (trimmed): nil
// leaves a field, "" clears it, an empty metadata object clears the metadata.
// The email's case-insensitive key follows the email.
func patchContact[U personUpdate[U]](u U, email, phone, externalID *string, metadata map[string]any) {
	fields.Patch(email, func(e string) U { return u.SetEmail(e).SetEmailKey(strings.ToLower(e)) },
		func() U { return u.ClearEmail().ClearEmailKey() })
	fields.Patch(phone, u.SetPhone, u.ClearPhone)
	fields.Patch(externalID, u.SetExternalID, u.ClearExternalID)
	fields.PatchMap(metadata, u.SetMetadata, u.ClearMetadata)
}
