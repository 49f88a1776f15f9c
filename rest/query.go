package rest

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/paging"
)

// msgUUIDExpected answers a path parameter that is not a UUID.
const msgUUIDExpected = "Validation failed (uuid is expected)"

// pathUUID parses a path parameter that must be a UUID.
func pathUUID(r *http.Request, name string) (uuid.UUID, error) {
	id, err := uuid.Parse(urlParam(r, name))
	if err != nil {
		return uuid.Nil, apperr.Invalid(msgUUIDExpected)
	}
	return id, nil
}

// query reads the query string of a list route, collecting one message per
// broken rule: a wrong type says "<name> must be <kind>", as in bodies.
type query struct {
	url.Values
	probs apperr.Problems
}

func queryOf(r *http.Request) *query { return &query{Values: r.URL.Query()} }

// page reads page and per_page.
func (q *query) page() paging.Page {
	p, msgs := paging.Parse(q.Get("page"), q.Get("per_page"))
	q.probs.Rules(msgs...)
	return p
}

// flag reads a boolean parameter ("true" or "false"); nil when not sent.
func (q *query) flag(name string) *bool {
	switch q.Get(name) {
	case "":
		return nil
	case "true":
		return new(true)
	case "false":
		return new(false)
	}
	q.fail(name, name+" must be "+kindBool)
	return nil
}

// text reads a text parameter; nil when not sent (the service checks it).
func (q *query) text(name string) *string {
	if v := q.Get(name); v != "" {
		return &v
	}
	return nil
}

// fail records msg as a problem of parameter name.
func (q *query) fail(name, msg string) { q.probs.Add(name, msg) }

// err is the 400 listing every broken rule so far, nil when there is none.
func (q *query) err() error { return q.probs.Err() }

// pageParams parses page and per_page from the query string.
func pageParams(r *http.Request) (paging.Page, error) {
	q := queryOf(r)
	p := q.page()
	return p, q.err()
}

// listContext is the context page p of a list is read under
// (paging.KeepPlans): its plans are kept when it is the first page asked
// for with no parameter but page and per_page.
func listContext(r *http.Request, p paging.Page) context.Context {
	firstOnly := p.Offset() == 0
	for name := range r.URL.Query() {
		firstOnly = firstOnly && (name == "page" || name == "per_page")
	}
	return paging.KeepPlans(r.Context(), firstOnly)
}

// instantOrDate reads an ISO 8601 instant or date (YYYY-MM-DD); nil when
// not sent.
func (q *query) instantOrDate(name string) *time.Time {
	v := q.Get(name)
	if v == "" {
		return nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return &t
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return &t
	}
	q.fail(name, name+" must be "+kindInstant)
	return nil
}
