// Package paging holds the page/per_page parameters of REST lists and the
// meta block of their responses ({page, limit, total, totalPages}).
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
	var msgs []string
	if page != "" {
		n, err := strconv.Atoi(page)
		switch {
		case err != nil:
			msgs = append(msgs, "page must be an integer number")
		case n < 1:
			msgs = append(msgs, "page must not be less than 1")
		default:
			p.Page = n
		}
	}
	if perPage != "" {
		n, err := strconv.Atoi(perPage)
		switch {
		case err != nil:
			msgs = append(msgs, "per_page must be an integer number")
		case n < 1:
			msgs = append(msgs, "per_page must not be less than 1")
		case n > MaxPerPage:
			msgs = append(msgs, fmt.Sprintf("per_page must not be greater than %d", MaxPerPage))
		default:
			p.PerPage = n
		}
	}
	return p, msgs
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
