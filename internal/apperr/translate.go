package apperr

import (
	"context"
	"errors"

	"entgo.io/ent/privacy"

	"github.com/reten-io/reten/ent"
)

// FromEnt maps data-layer errors once, for every caller: a missing row and a
// privacy denial both become notFound (existence is never revealed across
// tenants); a constraint violation becomes conflict; anything else is kept.
func FromEnt(err error, notFound, conflict string) error {
	switch {
	case err == nil:
		return nil
	case ent.IsNotFound(err), errors.Is(err, privacy.Deny):
		return NotFound(notFound)
	case ent.IsConstraintError(err) && conflict != "":
		return Conflict(conflict)
	}
	return err
}

// Normalize returns the client-facing form of any error: typed errors as they
// are, data-layer not-found and privacy denials as 404, a passed deadline or
// an unreachable dependency as 503, anything else as 500.
func Normalize(err error) *Error {
	if e, ok := As(err); ok {
		return e
	}
	if ent.IsNotFound(err) || errors.Is(err, privacy.Deny) {
		return &Error{Kind: KindNotFound, Messages: []string{"Not Found"}, Err: err}
	}
	if errors.Is(err, ErrUnavailable) || errors.Is(err, context.DeadlineExceeded) {
		return Unavailable(err)
	}
	return Internal(err)
}

// GraphQLCode is the extensions.code of the error on GraphQL.
func (e *Error) GraphQLCode() string {
	if e.Code != "" {
		return e.Code
	}
	return map[Kind]string{
		KindInternal:        "INTERNAL_SERVER_ERROR",
		KindInvalid:         "BAD_REQUEST",
		KindUnauthorized:    "UNAUTHENTICATED",
		KindForbidden:       "FORBIDDEN",
		KindNotFound:        "NOT_FOUND",
		KindConflict:        "CONFLICT",
		KindUnprocessable:   "UNPROCESSABLE_ENTITY",
		KindTooMany:         "TOO_MANY_REQUESTS",
		KindPayloadTooLarge: "PAYLOAD_TOO_LARGE",
		KindUnavailable:     "SERVICE_UNAVAILABLE",
	}[e.Kind]
}
