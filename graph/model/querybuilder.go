package model

import (
	"encoding/json"
	"errors"
	"io"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
)

var (
	errNumber     = errors.New("must be a number")
	errQueryValue = errors.New("must be a string, number, boolean or a list of them")
)

// MarshalNumber writes the Number scalar: the literal's digits as sent.
func MarshalNumber(n json.Number) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) { _, _ = io.WriteString(w, n.String()) })
}

// UnmarshalNumber reads the Number scalar: a JSON number of the variables
// (digits kept) or a number literal of the query.
func UnmarshalNumber(v any) (json.Number, error) {
	switch n := v.(type) {
	case json.Number:
		if _, err := n.Float64(); err != nil {
			return "", errNumber
		}
		return n, nil
	case int:
		return json.Number(strconv.Itoa(n)), nil
	case int64:
		return json.Number(strconv.FormatInt(n, 10)), nil
	case float64:
		return json.Number(strconv.FormatFloat(n, 'g', -1, 64)), nil
	}
	return "", errNumber
}

// MarshalQueryValue writes the QueryValue scalar (a scalar or a list).
func MarshalQueryValue(v any) graphql.Marshaler { return graphql.MarshalAny(v) }

// UnmarshalQueryValue reads the QueryValue scalar: a string, number or
// boolean, or a list of them; numbers become json.Number.
func UnmarshalQueryValue(v any) (any, error) {
	if list, ok := v.([]any); ok {
		out := make([]any, len(list))
		for i, item := range list {
			s, err := queryScalar(item)
			if err != nil {
				return nil, err
			}
			out[i] = s
		}
		return out, nil
	}
	return queryScalar(v)
}

func queryScalar(v any) (any, error) {
	switch s := v.(type) {
	case string, bool:
		return s, nil
	}
	if n, err := UnmarshalNumber(v); err == nil {
		return n, nil
	}
	return nil, errQueryValue
}
