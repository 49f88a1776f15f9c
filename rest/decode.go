package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"

	"github.com/reten-io/reten/internal/apperr"
)

// Messages of body decoding.
const (
	msgMalformedJSON = "Malformed JSON body"
	msgBodyNotObject = "Request body must be a JSON object"
	msgBodyTooLarge  = "Request body is too large"
	msgUnknownPropFm = "property %s should not exist"
	// msgNestedUnknownFm names an unknown member of a nested object after
	// the object's path: "activation.property foo should not exist".
	msgNestedUnknownFm = "%s.property %s should not exist"
)

// body is a JSON object of a request body being decoded. Members are read
// by name; every problem is recorded with the member's path from the root
// of the messages ("activation.moments.0.priority"), and a wrong type says
// "<path> must be <kind>" by itself (see members.go). The objects nested in
// a body share its problems, so one 400 lists every broken rule in the
// order the members were read.
type body struct {
	fields map[string]json.RawMessage
	path   string // "" at the root of the messages
	// brackets names array elements path[i] instead of path.i (the
	// dataset catalog's own convention).
	brackets bool
	// wholePathUnknown names an unknown member by its whole path in the
	// root form ("property task_result.foo should not exist").
	wholePathUnknown bool
	probs            *apperr.Problems
}

// decodeBody reads the request body as a JSON object whose members must all
// be in allowed (others add "property <name> should not exist"). An empty
// body is an empty object. Malformed JSON or a non-object is an immediate
// 400, a body past the limit a 413.
func decodeBody(r *http.Request, allowed ...string) (*body, error) {
	raw, err := readBody(r)
	if err != nil {
		return nil, err
	}
	return parseBody(raw, allowed...)
}

// readBody reads the whole request body (413 past the body limit).
func readBody(r *http.Request) ([]byte, error) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, apperr.TooLarge(msgBodyTooLarge)
		}
		return nil, apperr.Invalid(msgMalformedJSON)
	}
	return raw, nil
}

// parseBody is decodeBody over a body already read.
func parseBody(raw []byte, allowed ...string) (*body, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return &body{fields: map[string]json.RawMessage{}, probs: &apperr.Problems{}}, nil
	}
	b, ok := itemBody(raw, allowed...)
	if !ok {
		// Only the failure pays for a second pass over the body.
		if !json.Valid(raw) {
			return nil, apperr.Invalid(msgMalformedJSON)
		}
		return nil, apperr.Invalid(msgBodyNotObject)
	}
	return b, nil
}

// itemBody decodes raw as an object with its own problems (an item of a
// batch, whose messages travel with the item); ok is false when raw is not
// an object.
func itemBody(raw json.RawMessage, allowed ...string) (*body, bool) {
	b := &body{probs: &apperr.Problems{}}
	if !b.open(raw, allowed) {
		b.fields = map[string]json.RawMessage{}
		return b, false
	}
	return b, true
}

// open reads raw as the members of b and records the unknown ones, in name
// order; false when raw is not an object.
func (b *body) open(raw json.RawMessage, allowed []string) bool {
	if err := json.Unmarshal(raw, &b.fields); err != nil || b.fields == nil {
		return false
	}
	names := make([]string, 0, len(b.fields))
	for name := range b.fields {
		if !slices.Contains(allowed, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		switch {
		case b.path == "":
			b.probs.Add(name, fmt.Sprintf(msgUnknownPropFm, name))
		case b.wholePathUnknown:
			b.probs.Add(b.at(name), fmt.Sprintf(msgUnknownPropFm, b.at(name)))
		default:
			b.probs.Add(b.at(name), fmt.Sprintf(msgNestedUnknownFm, b.path, name))
		}
	}
	return true
}

// at is the path of member name.
func (b *body) at(name string) string {
	if b.path == "" {
		return name
	}
	return b.path + "." + name
}

// elemAt is the path of element i of array member name.
func (b *body) elemAt(name string, i int) string {
	if b.brackets {
		return b.at(name) + "[" + strconv.Itoa(i) + "]"
	}
	return b.at(name) + "." + strconv.Itoa(i)
}

// nested decodes raw, found at path, as an object sharing b's problems; a
// non-object records "<path> must be an object" and returns nil.
func (b *body) nested(raw json.RawMessage, path string, allowed []string) *body {
	c := &body{path: path, brackets: b.brackets, wholePathUnknown: b.wholePathUnknown, probs: b.probs}
	if !c.open(raw, allowed) {
		b.probs.Add(path, path+" must be "+kindObject)
		return nil
	}
	return c
}

// child reads member name as a nested object whose members must be in
// allowed: nil when missing, null or not an object (the last recorded).
func (b *body) child(name string, allowed ...string) *body {
	raw, ok := b.raw(name)
	if !ok {
		return nil
	}
	return b.nested(raw, b.at(name), allowed)
}

// childWholePath is child for an object whose unknown members are named by
// their whole path in the root form ("property task_result.foo should not
// exist", as SPEC.md spells the results').
func (b *body) childWholePath(name string, allowed ...string) *body {
	raw, ok := b.raw(name)
	if !ok {
		return nil
	}
	c := &body{path: b.path, brackets: b.brackets, wholePathUnknown: true, probs: b.probs}
	return c.nested(raw, b.at(name), allowed)
}

// elem decodes element i of array member name as a nested object whose
// members must be in allowed; nil when it is not an object (recorded).
// Elements are decoded one at a time, so an element's problems follow those
// of the elements before it.
func (b *body) elem(name string, i int, raw json.RawMessage, allowed ...string) *body {
	return b.nested(raw, b.elemAt(name, i), allowed)
}

// raw returns member name as sent; ok is false when it is missing or null.
func (b *body) raw(name string) (json.RawMessage, bool) {
	raw, ok := b.fields[name]
	if !ok || string(raw) == "null" {
		return nil, false
	}
	return raw, true
}

// has reports whether member name was sent (null counts as sent).
func (b *body) has(name string) bool { _, ok := b.fields[name]; return ok }

// fail records msg as a problem of member name.
func (b *body) fail(name, msg string) { b.probs.Add(b.at(name), msg) }

// failed reports whether any problem was recorded.
func (b *body) failed() bool { return !b.probs.Empty() }

// messages returns the problems recorded so far.
func (b *body) messages() []string { return b.probs.Messages() }

// problems returns the problems, for a service that adds its value rules to
// them (one 400 listing type errors and broken rules).
func (b *body) problems() apperr.Problems { return *b.probs }

// err returns the DTO validation error, or nil when every member read well.
func (b *body) err() error { return b.probs.Err() }

// require records the type message of member name (of kind) when it is
// missing or null: a member the contract requires, whose absence it reports
// as a wrong type.
func (b *body) require(name, kind string, msg ...string) {
	if _, ok := b.raw(name); !ok {
		b.fail(name, b.typeMessage(name, kind, msg))
	}
}

// forbidNull records the type message of member name (of kind) when it is
// null: an optional member whose absence means something null cannot.
func (b *body) forbidNull(name, kind string, msg ...string) {
	if raw, ok := b.fields[name]; ok && string(raw) == "null" {
		b.fail(name, b.typeMessage(name, kind, msg))
	}
}
