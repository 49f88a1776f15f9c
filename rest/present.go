package rest

import (
	"time"

	"github.com/reten-io/reten/internal/paging"
)

// The presenters every domain shares: page envelopes in both casings, lists,
// unset values and the record stamps.

// pageOf is the {data, meta} envelope of the camelCase paginated lists.
type pageOf[T any] struct {
	Data []T         `json:"data"`
	Meta paging.Meta `json:"meta"`
}

// presentPage presents a page as {data, meta}.
func presentPage[S, T any](l *paging.List[S], present func(S) T) pageOf[T] {
	return pageOf[T]{Data: presentAll(l.Items, present), Meta: paging.MetaOf(l.Page, l.Total)}
}

// snakePageOf is the {data, pagination} envelope of the snake_case lists
// (snapshots, event filters).
type snakePageOf[T any] struct {
	Data       []T             `json:"data"`
	Pagination snakePagination `json:"pagination"`
}

// snakePagination is the snake_case pagination block.
type snakePagination struct {
	Page        int  `json:"page"`
	PerPage     int  `json:"per_page"`
	Total       int  `json:"total"`
	TotalPages  int  `json:"total_pages"`
	HasNext     bool `json:"has_next"`
	HasPrevious bool `json:"has_previous"`
}

// presentSnakePage presents page p of a list as {data, pagination}; the
// page maths are paging.MetaOf's.
func presentSnakePage[S, T any](items []S, total int, p paging.Page, present func(S) T) snakePageOf[T] {
	m := paging.MetaOf(p, total)
	return snakePageOf[T]{Data: presentAll(items, present), Pagination: snakePagination{Page: m.Page, PerPage: m.Limit,
		Total: m.Total, TotalPages: m.TotalPages, HasNext: m.Page < m.TotalPages, HasPrevious: m.Page > 1}}
}

// presentAll presents every item of a list.
func presentAll[S, T any](items []S, present func(S) T) []T {
	out := make([]T, len(items))
	for i, it := range items {
		out[i] = present(it)
	}
	return out
}

// each is the presenter of a list whose items present is the presenter of.
func each[S, T any](present func(S) T) func([]S) []T {
	return func(items []S) []T { return presentAll(items, present) }
}

// nullable presents an unset optional text ("") as null.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// stamps are the createdAt and updatedAt of a record, presented after its
// other fields.
type stamps struct {
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// orEmpty presents an unset JSON object as {}.
func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
