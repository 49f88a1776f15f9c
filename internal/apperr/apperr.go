// Package apperr defines the typed errors that services return and that both
// adapters (REST and GraphQL) map to a status code and the SPEC.md error body.
package apperr

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Kind classifies an error; each kind has exactly one HTTP status.
type Kind int

// The kinds of error, one per status the interface documents.
const (
	KindInternal Kind = iota
	KindInvalid
	KindUnauthorized
	KindForbidden
	KindNotFound
	KindConflict
	KindUnprocessable
	KindTooMany
	KindPayloadTooLarge
	KindUnavailable
)

var statusOf = map[Kind]int{
	KindInternal:        http.StatusInternalServerError,
	KindInvalid:         http.StatusBadRequest,
	KindUnauthorized:    http.StatusUnauthorized,
	KindForbidden:       http.StatusForbidden,
	KindNotFound:        http.StatusNotFound,
	KindConflict:        http.StatusConflict,
	KindUnprocessable:   http.StatusUnprocessableEntity,
	KindTooMany:         http.StatusTooManyRequests,
	KindPayloadTooLarge: http.StatusRequestEntityTooLarge,
	KindUnavailable:     http.StatusServiceUnavailable,
}

// Error is a typed, client-facing error.
type Error struct {
	Kind Kind
	// Messages holds one message, or one per broken rule for DTO validation.
	Messages []string
	// List renders message as an array even with a single entry (DTO validation).
	List bool
	// Code is the stable UPPER_SNAKE code for errors a client branches on.
	Code string
	// Details are the members a coded error carries beside code: in the
	// REST error body and in the GraphQL extensions.
	Details map[string]any
	// Err is the wrapped cause (never shown to clients).
	Err error
	// RetryAfter, when set on a 429 or 503, is sent as the Retry-After header.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	msg := ""
	if len(e.Messages) > 0 {
		msg = e.Messages[0]
		for _, m := range e.Messages[1:] {
			msg += "; " + m
		}
	}
	if e.Err != nil {
		return fmt.Sprintf("%s: %v", msg, e.Err)
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// Status is the HTTP status of the error.
func (e *Error) Status() int { return statusOf[e.Kind] }

// StatusText is the HTTP error name of the error ("Bad Request", ...).
func (e *Error) StatusText() string { return http.StatusText(e.Status()) }

// Message returns the message as the error body carries it: a string, or a
// list of strings for validation errors.
func (e *Error) Message() any {
	if e.List {
		return e.Messages
	}
	if len(e.Messages) == 0 {
		return e.StatusText()
	}
	return e.Messages[0]
}

func newErr(k Kind, msg string) *Error { return &Error{Kind: k, Messages: []string{msg}} }

// Invalid is a 400 with a single message.
func Invalid(msg string) *Error { return newErr(KindInvalid, msg) }

// Invalidf is a 400 with a formatted message.
func Invalidf(format string, args ...any) *Error { return Invalid(fmt.Sprintf(format, args...)) }

// Validation is a 400 whose message is the list of broken rules.
func Validation(msgs ...string) *Error {
	return &Error{Kind: KindInvalid, Messages: msgs, List: true}
}

// Unauthorized is a 401.
func Unauthorized(msg string) *Error { return newErr(KindUnauthorized, msg) }

// Forbidden is a 403.
func Forbidden(msg string) *Error { return newErr(KindForbidden, msg) }

// NotFound is a 404.
func NotFound(msg string) *Error { return newErr(KindNotFound, msg) }

// Conflict is a 409.
func Conflict(msg string) *Error { return newErr(KindConflict, msg) }

// Unprocessable is a 422.
func Unprocessable(msg string) *Error { return newErr(KindUnprocessable, msg) }

// TooMany is a 429.
func TooMany(msg string) *Error { return newErr(KindTooMany, msg) }

// TooLarge is a 413.
func TooLarge(msg string) *Error { return newErr(KindPayloadTooLarge, msg) }

// Internal wraps an unexpected error as a 500; the cause is logged, never shown.
func Internal(err error) *Error {
	return &Error{Kind: KindInternal, Messages: []string{"Internal server error"}, Err: err}
}

// MsgUnavailable is the message of a 503: the database (or another
// dependency) did not answer within the request's deadline.
const MsgUnavailable = "Service temporarily unavailable"

// ErrUnavailable marks errors of a dependency that did not answer in time or
// could not be reached (the database layer wraps its timeouts with it);
// Normalize answers them 503.
var ErrUnavailable = errors.New("dependency unavailable")

// Unavailable wraps err as a 503; the cause is logged as a warning, never shown.
func Unavailable(err error) *Error {
	return &Error{Kind: KindUnavailable, Messages: []string{MsgUnavailable}, Err: err}
}

// As extracts an *Error from err.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
