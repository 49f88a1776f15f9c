package model

import (
	"fmt"
	"slices"

	"github.com/99designs/gqlgen/graphql"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/resulttype"
)

// Enums whose GraphQL values are the strings the service stores and SPEC.md
// names (lowercase: "success", "super_admin"), bound to Go strings so that
// ent fields and service inputs need no conversion (gqlgen.yml models).

// unmarshalValue reads a value of the enum name, one of values.
func unmarshalValue(name string, values []string, v any) (string, error) {
	s, ok := v.(string)
	if !ok || !slices.Contains(values, s) {
		return "", apperr.Invalid(fmt.Sprintf("%v is not a valid %s", v, name))
	}
	return s, nil
}

// MarshalTaskResultTypeCode writes a result type code of the global catalog.
func MarshalTaskResultTypeCode(code string) graphql.Marshaler { return graphql.MarshalString(code) }

// UnmarshalTaskResultTypeCode reads a TaskResultTypeCode value.
func UnmarshalTaskResultTypeCode(v any) (string, error) {
	return unmarshalValue("TaskResultTypeCode", resulttype.Codes(), v)
}

// MarshalRole writes a role name.
func MarshalRole(role string) graphql.Marshaler { return graphql.MarshalString(role) }

// UnmarshalRole reads a Role value.
func UnmarshalRole(v any) (string, error) { return unmarshalValue("Role", auth.Hierarchy, v) }
