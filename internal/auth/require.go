package auth

import (
	"fmt"

	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/viewer"
)

// Require returns the SPEC.md 403 when the viewer lacks the permission. A
// route's own permission is applied once, by tenancy.Admit from its matrix
// line; Require serves the rules no line states: the read permission of an
// entity a GraphQL field or node() returns, and the delete permission a
// restore from the trash needs.
func Require(v *viewer.Viewer, permission string) error {
	if v.Has(permission) {
		return nil
	}
	return apperr.Forbidden(fmt.Sprintf(MsgRequiredPermissionsFm, permission))
}
