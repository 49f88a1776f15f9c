package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/paging"
)

// Messages of body decoding.
const (
	msgMalformedJSON = "Malformed JSON body"
	msgBodyNotObject = "Request body must be a JSON object"
	msgBodyTooLarge  = "Request body is too large"
	msgUUIDExpected  = "Validation failed (uuid is expected)"
	msgUnknownPropFm = "property %s should not exist"
	// The type messages of the name and description members every domain has.
	msgNameString        = "name must be a string"
	msgDescriptionString = "description must be a string"
)

// body is a decoded JSON object being validated: it keeps the raw members and
// collects one message per broken rule, so a DTO error lists them all.
type body struct {
	fields map[string]json.RawMessage
	msgs   []string
}

// decodeBody reads the request body as a JSON object whose members must all be
// in allowed (others add "property <name> should not exist"). An empty body is
// an empty object. Malformed JSON or a non-object is an immediate 400.
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
	b := &body{fields: map[string]json.RawMessage{}}
	if len(bytes.TrimSpace(raw)) == 0 {
		return b, nil
	}
	if err := json.Unmarshal(raw, &b.fields); err != nil || b.fields == nil {
		// Only the failure pays for a second pass over the body.
		if !json.Valid(raw) {
			return nil, apperr.Invalid(msgMalformedJSON)
		}
		return nil, apperr.Invalid(msgBodyNotObject)
	}
	b.rejectUnknown(allowed)
	return b, nil
}

func (b *body) fail(msg string) { b.msgs = append(b.msgs, msg) }

// rejectUnknown adds "property <name> should not exist" for every member
// outside allowed, in name order.
func (b *body) rejectUnknown(allowed []string) {
	names := make([]string, 0, len(b.fields))
	for name := range b.fields {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !slices.Contains(allowed, name) {
			b.fail(fmt.Sprintf(msgUnknownPropFm, name))
		}
	}
}

// objectBody decodes a nested JSON object (an item of a batch, an address of
// an item) as a body whose members must be in allowed; ok is false when raw
// is not an object.
func objectBody(raw json.RawMessage, allowed ...string) (b *body, ok bool) {
	b = &body{fields: map[string]json.RawMessage{}}
	if err := json.Unmarshal(raw, &b.fields); err != nil || b.fields == nil {
		b.fields = map[string]json.RawMessage{}
		return b, false
	}
	b.rejectUnknown(allowed)
	return b, true
}

// array reads an array member as raw elements; present=false when missing or
// null; another JSON type adds notArray.
func (b *body) array(name, notArray string) (items []json.RawMessage, present bool) {
	raw, ok := b.fields[name]
	if !ok || string(raw) == "null" {
		return nil, false
	}
	if err := json.Unmarshal(raw, &items); err != nil {
		b.fail(notArray)
		return nil, false
	}
	return items, true
}

// err returns the DTO validation error, or nil when every rule held.
func (b *body) err() error {
	if len(b.msgs) == 0 {
		return nil
	}
	return apperr.Validation(b.msgs...)
}

// has reports whether the member was sent (null counts as sent).
func (b *body) has(name string) bool { _, ok := b.fields[name]; return ok }

// str reads a string member. Missing or null: present=false. Another JSON type
// adds notString.
func (b *body) str(name, notString string) (val string, present bool) {
	raw, ok := b.fields[name]
	if !ok || string(raw) == "null" {
		return "", false
	}
	if err := json.Unmarshal(raw, &val); err != nil {
		b.fail(notString)
		return "", false
	}
	return val, true
}

// pathUUID parses a path parameter that must be a UUID.
func pathUUID(r *http.Request, name string) (uuid.UUID, error) {
	id, err := uuid.Parse(urlParam(r, name))
	if err != nil {
		return uuid.Nil, apperr.Invalid(msgUUIDExpected)
	}
	return id, nil
}

// strs reads an array of strings. Missing or null: present=false.
func (b *body) strs(name, notArray string) (val []string, present bool) {
	raw, ok := b.fields[name]
	if !ok || string(raw) == "null" {
		return nil, false
	}
	if err := json.Unmarshal(raw, &val); err != nil {
		b.fail(notArray)
		return nil, false
	}
	if val == nil {
		val = []string{}
	}
	return val, true
}

// boolean reads a boolean member; nil when missing or null.
func (b *body) boolean(name, notBool string) *bool {
	raw, ok := b.fields[name]
	if !ok || string(raw) == "null" {
		return nil
	}
	var v bool
	if err := json.Unmarshal(raw, &v); err != nil {
		b.fail(notBool)
		return nil
	}
	return &v
}

// optStr reads an optional string member; nil when missing or null.
func (b *body) optStr(name, notString string) *string {
	if v, ok := b.str(name, notString); ok {
		return &v
	}
	return nil
}

// instant reads an ISO 8601 instant; nil when missing or null.
func (b *body) instant(name, invalid string) *time.Time {
	s, ok := b.str(name, invalid)
	if !ok {
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		b.fail(invalid)
		return nil
	}
	return &t
}

// optUUID reads a UUID member; nil when missing or null.
// objectMember reads a JSON object member with arbitrary members (numbers
// kept exact as json.Number). present is false when the member is missing; a
// null reads as a nil map with present true; another JSON type adds
// notObject. The wrappers below give each domain its null semantics.
func (b *body) objectMember(name, notObject string) (m map[string]any, present bool) {
	raw, ok := b.fields[name]
	if !ok {
		return nil, false
	}
	if string(raw) == "null" {
		return nil, true
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil || m == nil {
		b.fail(notObject)
		return nil, true
	}
	return m, true
}

// object reads a JSON object member; nil when missing or null.
func (b *body) object(name, notObject string) map[string]any {
	m, _ := b.objectMember(name, notObject)
	return m
}

func (b *body) optUUID(name, invalid string) *uuid.UUID {
	s, ok := b.str(name, invalid)
	if !ok {
		return nil
	}
	id, err := uuid.Parse(s)
	if err != nil {
		b.fail(invalid)
		return nil
	}
	return &id
}

// pageParams parses page and per_page from the query string.
func pageParams(r *http.Request) (paging.Page, error) {
	p, msgs := paging.Parse(r.URL.Query().Get("page"), r.URL.Query().Get("per_page"))
	if len(msgs) > 0 {
		return p, apperr.Validation(msgs...)
	}
	return p, nil
}

// pageOf is the {data, meta} envelope of paginated lists.
type pageOf[T any] struct {
	Data []T         `json:"data"`
	Meta paging.Meta `json:"meta"`
}

func presentPage[S, T any](l *paging.List[S], present func(S) T) pageOf[T] {
	out := pageOf[T]{Data: make([]T, len(l.Items)), Meta: paging.MetaOf(l.Page, l.Total)}
	for i, it := range l.Items {
		out.Data[i] = present(it)
	}
	return out
}
