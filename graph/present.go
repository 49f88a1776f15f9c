package graph

import (
	"github.com/reten-io/reten/graph/model"
	"github.com/reten-io/reten/internal/catalog"
)

// presentAll presents every item of a service's list with present; a failed
// call passes its error.
func presentAll[T, U any](items []T, err error, present func(T) U) ([]U, error) {
	if err != nil {
		return nil, err
	}
	return mapAll(items, present), nil
}

// mapAll maps every item with f; an empty (or nil) list maps to an empty
// one, which GraphQL presents as [].
func mapAll[T, U any](items []T, f func(T) U) []U {
	out := make([]U, len(items))
	for i, it := range items {
		out[i] = f(it)
	}
	return out
}

// presentReasonDefault presents a default activity reason.
func presentReasonDefault(d catalog.ReasonDefault) *model.ActivityReasonDefault {
	return &model.ActivityReasonDefault{Code: d.Code, Label: d.Label}
}
