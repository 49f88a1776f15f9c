package user

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/membership"
	entuser "github.com/reten-io/reten/ent/user"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// assignableRoles are the roles that can be given through the API
// (super_admin only through bootstrap).
var assignableRoles = []string{auth.RoleAdmin, auth.RoleFDE, auth.RoleSupervisor, auth.RoleOperator, auth.RoleViewer}

// validateRoles applies the role list rules: at least one, each assignable.
func validateRoles(roles []string) []string {
	if len(roles) == 0 {
		return []string{MsgRolesRequired}
	}
	for _, r := range roles {
		if !slices.Contains(assignableRoles, r) {
			return []string{MsgRoleValues}
		}
	}
	return nil
}

// canAssign checks that every role is strictly lower than the caller's highest.
func canAssign(v *viewer.Viewer, roles []string) error {
	mine := auth.HighestRank(v.Roles)
	for _, r := range roles {
		if auth.Rank(r) <= mine {
			return apperr.Forbidden(fmt.Sprintf(MsgAssignTooHighFmt, r))
		}
	}
	return nil
}

// SetRoles replaces a user's roles in the active tenant (SPEC.md
// PUT /api/user/:id/roles, checks in the SPEC.md order).
func (s *Service) SetRoles(ctx context.Context, id uuid.UUID, roles []string) error {
	v, err := sessionCaller(ctx, "change roles")
	if err != nil {
		return err
	}
	if msgs := validateRoles(roles); len(msgs) > 0 {
		return apperr.Validation(msgs...)
	}
	if id == v.UserID {
		return apperr.Forbidden(MsgOwnRoles)
	}
	return txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		exists, err := tx.User.Query().Where(entuser.ID(id)).Exist(viewer.SystemContext(ctx))
		if err != nil {
			return err
		}
		if !exists {
			return apperr.NotFound(MsgNotFound)
		}
		m, err := tx.Membership.Query().Where(membership.UserID(id)).Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.Forbidden(MsgOutsideTenant)
		}
		if err != nil {
			return err
		}
		if auth.HighestRank(m.Roles) <= auth.HighestRank(v.Roles) {
			return apperr.Forbidden(MsgEqualOrHigher)
		}
		if err := canAssign(v, roles); err != nil {
			return err
		}
		return tx.Membership.UpdateOne(m).SetRoles(dedupe(roles)).Exec(ctx)
	})
}

func dedupe(roles []string) []string {
	out := slices.Clone(roles)
	slices.SortFunc(out, func(a, b string) int { return auth.Rank(a) - auth.Rank(b) })
	return slices.Compact(out)
}
