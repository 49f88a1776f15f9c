// Package catalog manages the tenant catalogs of the activity lifecycle:
// retention status configs (the codes pillars and snapshots carry) and
// activity reason configs (with the constant platform defaults).
package catalog

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/txn"
)

// Messages shared by both catalogs (class-validator style).
const (
	MsgCodeRequired    = "code should not be empty"
	MsgCodeTooLong     = "code must be shorter than or equal to 100 characters"
	MsgLabelRequired   = "label should not be empty"
	MsgLabelTooLong    = "label must be shorter than or equal to 255 characters"
	MsgIsActiveQuery   = "is_active must be a boolean value"
	maxCodeLen         = 100
	maxLabelLen        = 255
	maxDescriptionLen  = 1000
	MsgDescriptionLong = "description must be shorter than or equal to 1000 characters"
	MsgItemsMin        = fields.MsgItemsMin
	MsgItemsMaxFmt     = fields.MsgItemsMaxFmt
	MaxBulkItems       = 100
)

// Service manages the catalogs of the viewer's tenant.
type Service struct{ client *ent.Client }

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client} }

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// codeLabel validates a code and a label (both trimmed by the caller).
func codeLabel(code, label string) []string {
	var msgs []string
	switch {
	case code == "":
		msgs = append(msgs, MsgCodeRequired)
	case utf8.RuneCountInString(code) > maxCodeLen:
		msgs = append(msgs, MsgCodeTooLong)
	}
	msgs = append(msgs, labelRule(label)...)
	return msgs
}

func labelRule(label string) []string {
	switch {
	case label == "":
		return []string{MsgLabelRequired}
	case utf8.RuneCountInString(label) > maxLabelLen:
		return []string{MsgLabelTooLong}
	}
	return nil
}

// trimPtr trims an optional string in place.
func trimPtr(s *string) *string {
	if s == nil {
		return nil
	}
	t := strings.TrimSpace(*s)
	return &t
}
