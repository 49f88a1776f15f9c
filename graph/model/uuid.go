package model

import (
	"fmt"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/apperr"
)

// MarshalUUID writes the ID and UUID scalars.
func MarshalUUID(id uuid.UUID) graphql.Marshaler { return graphql.MarshalUUID(id) }

// UnmarshalUUID reads the ID and UUID scalars; a malformed value is the
// client's mistake (400 BAD_REQUEST), never an internal error.
func UnmarshalUUID(v any) (uuid.UUID, error) {
	id, err := graphql.UnmarshalUUID(v)
	if err != nil {
		return uuid.Nil, apperr.Invalid(fmt.Sprintf("%v is not a valid UUID", v))
	}
	return id, nil
}
