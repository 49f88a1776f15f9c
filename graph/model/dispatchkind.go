package model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/dispatch"
)

// MarshalDispatchProviderKind writes a provider kind (stored lowercase, for
// example "log") as its DispatchProviderKind enum value (LOG).
func MarshalDispatchProviderKind(kind string) graphql.Marshaler {
	return graphql.MarshalString(strings.ToUpper(kind))
}

// UnmarshalDispatchProviderKind reads a DispatchProviderKind enum value as
// the stored lowercase kind.
func UnmarshalDispatchProviderKind(v any) (string, error) {
	s, ok := v.(string)
	kind := strings.ToLower(s)
	if !ok || s != strings.ToUpper(kind) || !slices.Contains(dispatch.Kinds, kind) {
		return "", apperr.Invalid(fmt.Sprintf("%v is not a valid DispatchProviderKind", v))
	}
	return kind, nil
}
