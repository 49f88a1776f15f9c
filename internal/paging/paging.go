// Package paging holds the page/per_page parameters of REST lists, the meta
// block of their responses ({page, limit, total, totalPages}), the one
// offset-paging fetch every list runs (Fetch) and the bounds of GraphQL
// connection windows.
package paging

import (
	"fmt"
	"strconv"
)

// Limits of SPEC.md "Limits": default 25, maximum 100, page from 1.
const (
	DefaultPerPage = 25
	MaxPerPage     = 100
)

// Page is a validated page request.
type Page struct {
	Page    int
	PerPage int
}

// Offset is the number of rows before the page.
func (p Page) Offset() int { return (p.Page - 1) * p.PerPage }

// Parse reads page and per_page query values ("" means the default) and
// returns one message per broken rule.
func Parse(page, perPage string) (Page, []string) {
	p := Page{Page: 1, PerPage: DefaultPerPage}
	msgs := parseBound(page, "page", 0, &p.Page)
	return p, append(msgs, parseBound(perPage, "per_page", MaxPerPage, &p.PerPage)...)
}

// parseBound reads the whole number value of query parameter name into n:
// at least 1 and, when most is not 0, at most most ("" leaves n). It returns
// the message of a broken rule.
func parseBound(value, name string, most int, n *int) []string {
	if value == "" {
		return nil
	}
	v, err := strconv.Atoi(value)
	switch {
	case err != nil:
		return []string{name + " must be an integer number"}
	case v < 1:
		return []string{name + " must not be less than 1"}
	case most != 0 && v > most:
		return []string{fmt.Sprintf("%s must not be greater than %d", name, most)}
	}
	*n = v
	return nil
}

// Meta is the pagination block {page, limit, total, totalPages}.
type Meta struct {
	Page       int `json:"page"`
	Limit      int `json:"limit"`
	Total      int `json:"total"`
	TotalPages int `json:"totalPages"`
}

// MetaOf describes page p of total rows.
func MetaOf(p Page, total int) Meta {
	return Meta{Page: p.Page, Limit: p.PerPage, Total: total, TotalPages: (total + p.PerPage - 1) / p.PerPage}
}

// List is a page of items with its meta.
type List[T any] struct {
	Items []T
	Total int
	Page  Page
}

// Map returns the page l with each item turned into f's result (same total
// and page); the first error of f is returned instead.
func Map[T, U any](l *List[T], f func(T) (U, error)) (*List[U], error) {
	out := &List[U]{Items: make([]U, len(l.Items)), Total: l.Total, Page: l.Page}
	for i, item := range l.Items {
		u, err := f(item)
		if err != nil {
			return nil, err
		}
		out.Items[i] = u
	}
	return out, nil
}

// Messages of the Relay connection window (GraphQL first/last), bounded like
// per_page: between 1 and MaxPerPage, and only one of the two.
var (
	MsgFirstTooFew   = "first must not be less than 1"
	MsgFirstTooMany  = fmt.Sprintf("first must not be greater than %d", MaxPerPage)
	MsgLastTooFew    = "last must not be less than 1"
	MsgLastTooMany   = fmt.Sprintf("last must not be greater than %d", MaxPerPage)
	MsgFirstWithLast = "first and last must not be given together"
)

// Window validates the first and last arguments of a connection and returns
// the window to paginate with: first = DefaultPerPage when neither is given,
// so no connection ever reads a whole table. It returns one message per
// broken rule.
func Window(first, last *int) (*int, *int, []string) {
	var msgs []string
	bound := func(n *int, tooFew, tooMany string) {
		switch {
		case n == nil:
		case *n < 1:
			msgs = append(msgs, tooFew)
		case *n > MaxPerPage:
			msgs = append(msgs, tooMany)
		}
	}
	bound(first, MsgFirstTooFew, MsgFirstTooMany)
	bound(last, MsgLastTooFew, MsgLastTooMany)
	if first != nil && last != nil {
		msgs = append(msgs, MsgFirstWithLast)
	}
	if first == nil && last == nil {
		n := DefaultPerPage
		first = &n
	}
	return first, last, msgs
}

// WindowSize is the number of rows a window reads at most: the page size a
// query's cost is multiplied by. Values out of bounds count as the nearest
// bound (they are refused before anything is read).
func WindowSize(first, last *int) int {
	n := DefaultPerPage
	switch {
	case first != nil && last != nil:
		n = max(*first, *last)
	case first != nil:
		n = *first
	case last != nil:
		n = *last
	}
	return min(max(n, 1), MaxPerPage)
}
