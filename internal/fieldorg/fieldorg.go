// Package fieldorg manages the field organisation: operators, routes, their
// links and supervisors, with the integrators' sync and batch upserts.
package fieldorg

import (
	"context"
	"fmt"
	"strings"

	"github.com/reten-io/reten/ent"
	emailaddr "github.com/reten-io/reten/internal/email"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/txn"
)

// Service manages the field organisation of the viewer's tenant.
type Service struct{ client *ent.Client }

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client} }

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// Limits of the field organisation records and requests.
const (
	// MaxBatchItems is the largest item list of a sync or batch upsert.
	MaxBatchItems = 5000
	// lookupChunk is how many keys one bulk look-up (or bulk insert) carries;
	// it keeps the statement under SQLite's and PostgreSQL's parameter limits.
	lookupChunk = 500
	maxText     = 255
	maxPhone    = 50
)

// Messages shared by the field organisation records.
const (
	MsgOperatorNotFound   = "Operator not found"
	MsgRouteNotFound      = "Route not found"
	MsgSupervisorNotFound = "Supervisor not found"
	MsgLinkNotFound       = "Operator is not linked to this route"

	MsgNameRequired       = "name should not be empty"
	MsgNameTooLong        = "name must be shorter than or equal to 255 characters"
	MsgCodeRequired       = "code should not be empty"
	MsgCodeTooLong        = "code must be shorter than or equal to 255 characters"
	MsgEmailInvalid       = "email must be an email"
	MsgPhoneTooLong       = "phone must be shorter than or equal to 50 characters"
	MsgExternalIDRequired = "external_id should not be empty"
	MsgExternalIDTooLong  = "external_id must be shorter than or equal to 255 characters"
	MsgTypeValues         = "type must be one of the following values: SALESMAN, ACTIVATOR, CALLCENTER"
	MsgRoleValues         = "role must be one of the following values: LEAD, MEMBER"
	MsgOperatorIDRequired = "operator_id must be a UUID"
	MsgItemsTooManyFmt    = fields.MsgItemsMaxFmt
	// MsgItemNotObject is the message of an item that is not a JSON object
	// (rendered "items.<i> must be an object").
	MsgItemNotObject = "must be an object"

	MsgOperatorEmailTakenFmt      = `An operator with email "%s" already exists`
	MsgOperatorExternalIDTakenFmt = `An operator of type %s with external_id "%s" already exists`
	MsgRouteCodeTakenFmt          = `A route with code "%s" already exists`
	MsgSupervisorEmailTakenFmt    = `A supervisor with email "%s" already exists`
	MsgSupervisorExternalTakenFmt = `A supervisor with external_id "%s" already exists`
)

// ItemMessage renders an item's message with its index, as DTO validation
// of nested arrays does: "items.3.name should not be empty".
func ItemMessage(index int, msg string) string {
	if msg == MsgItemNotObject {
		return fmt.Sprintf("items.%d %s", index, msg)
	}
	return fmt.Sprintf("items.%d.%s", index, msg)
}

// ItemError is the outcome of a rejected item of a batch upsert.
type ItemError struct {
	Index    int
	Messages []string
}

// BatchResult is the outcome of a sync or batch upsert. Total is the number
// of items received: Created + Updated + len(Errors).
type BatchResult struct {
	Created, Updated, Total int
	Errors                  []ItemError
}

// emailKey is the case-insensitive key of an email.
func emailKey(email *string) *string {
	if email == nil {
		return nil
	}
	k := strings.ToLower(*email)
	return &k
}

// checkName validates a required name.
func checkName(name string) []string {
	return fields.Text(name, maxText, MsgNameRequired, MsgNameTooLong)
}

// checkContact validates the optional email and phone ("" means clear).
func checkContact(email, phone *string) []string {
	var msgs []string
	if email != nil && *email != "" && !emailaddr.Valid(*email) {
		msgs = append(msgs, MsgEmailInvalid)
	}
	if phone != nil && fields.TooLong(*phone, maxPhone) {
		msgs = append(msgs, MsgPhoneTooLong)
	}
	return msgs
}

// flagged reports whether the adapter already rejected field (a message
// "<field> ..."), so that a wrong JSON type is not also reported as empty.
func flagged(invalid []string, field string) bool {
	for _, m := range invalid {
		if strings.HasPrefix(m, field+" ") {
			return true
		}
	}
	return false
}
