package user

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/membership"
	"github.com/reten-io/reten/ent/predicate"
	"github.com/reten-io/reten/ent/refreshtoken"
	entuser "github.com/reten-io/reten/ent/user"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/clock"
	"github.com/reten-io/reten/internal/email"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// Messages of user administration (SPEC.md "Users" where it spells them).
const (
	MsgNotFound         = "User not found"
	MsgRolesRequired    = "At least one role is required"
	MsgRoleValues       = "each value in roles must be one of the following values: admin, fde, supervisor, operator, viewer"
	MsgOwnRoles         = "Cannot modify your own roles"
	MsgOutsideTenant    = "Cannot modify roles for user outside your active tenant"
	MsgEqualOrHigher    = "Cannot modify roles for user with equal or higher role"
	MsgAssignTooHighFmt = "Cannot assign role %s - you can only assign roles lower than your own"
	MsgRolesUpdated     = "Roles updated successfully"
	MsgManageHigher     = "Cannot modify user with equal or higher role"
	MsgDeactivateSelf   = "Cannot deactivate yourself"
	MsgEmailInvalid     = "email must be an email"
	MsgUsernameInvalid  = "username must be 3 to 100 letters, digits, dots, dashes or underscores"
	MsgPasswordShort    = "password must be longer than or equal to 8 characters"
	MsgNameTooLong      = "names must be shorter than or equal to 100 characters"
	MsgEmailTakenFmt    = `A user with email "%s" already exists`
	MsgUsernameTakenFmt = `A user with username "%s" already exists`
)

var usernamePattern = regexp.MustCompile(`^[A-Za-z0-9._-]{3,100}$`)

// Member is a user with their roles in the active tenant.
type Member struct {
	*ent.User
	Roles []string
}

// sessionCaller returns the principal of the access of ctx, refusing an API
// key: what (a user administration) needs a user session.
func sessionCaller(ctx context.Context, what string) (*viewer.Viewer, error) {
	return tenancy.Session(ctx, fmt.Sprintf(tenancy.MsgSessionOnlyFmt, what))
}

// RegisterInput is the body of POST /api/auth/register.
type RegisterInput struct {
	Email, Username, Password, FirstName, LastName string
	Roles                                          []string
}

func (in RegisterInput) validate() []string {
	var msgs []string
	if !email.Valid(in.Email) {
		msgs = append(msgs, MsgEmailInvalid)
	}
	if !usernamePattern.MatchString(in.Username) {
		msgs = append(msgs, MsgUsernameInvalid)
	}
	if len(in.Password) < auth.MinPasswordLength {
		msgs = append(msgs, MsgPasswordShort)
	}
	if len([]rune(in.FirstName)) > 100 || len([]rune(in.LastName)) > 100 {
		msgs = append(msgs, MsgNameTooLong)
	}
	return append(msgs, validateRoles(in.Roles)...)
}

// Register creates a user who joins the caller's tenant with roles strictly
// lower than the caller's own.
func (s *Service) Register(ctx context.Context, in RegisterInput) (*Member, error) {
	v, err := sessionCaller(ctx, "register users")
	if err != nil {
		return nil, err
	}
	in.Email, in.Username = strings.TrimSpace(in.Email), strings.TrimSpace(in.Username)
	if msgs := in.validate(); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	if err := canAssign(v, in.Roles); err != nil {
		return nil, err
	}
	in.Roles = dedupe(in.Roles)
	hash, err := auth.HashPassword(in.Password)
	if err != nil {
		return nil, err
	}
	var out *Member
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		sys := viewer.SystemContext(ctx) // uniqueness is global: users span tenants
		if taken, err := tx.User.Query().Where(entuser.EmailKey(strings.ToLower(in.Email))).Exist(sys); err != nil || taken {
			return conflictOr(err, fmt.Sprintf(MsgEmailTakenFmt, in.Email))
		}
		if taken, err := tx.User.Query().Where(entuser.UsernameKey(strings.ToLower(in.Username))).Exist(sys); err != nil || taken {
			return conflictOr(err, fmt.Sprintf(MsgUsernameTakenFmt, in.Username))
		}
		u, err := tx.User.Create().SetEmail(in.Email).SetEmailKey(strings.ToLower(in.Email)).
			SetUsername(in.Username).SetUsernameKey(strings.ToLower(in.Username)).SetPasswordHash(hash).
			SetFirstName(strings.TrimSpace(in.FirstName)).SetLastName(strings.TrimSpace(in.LastName)).Save(sys)
		if err != nil {
			return apperr.FromEnt(err, "", fmt.Sprintf(MsgEmailTakenFmt, in.Email))
		}
		if err := tx.Membership.Create().SetTenantID(v.TenantID).SetUserID(u.ID).SetRoles(in.Roles).Exec(ctx); err != nil {
			return err
		}
		out = &Member{User: u, Roles: slices.Clone(in.Roles)}
		return nil
	})
	return out, err
}

func conflictOr(err error, msg string) error {
	if err != nil {
		return err
	}
	return apperr.Conflict(msg)
}

// members returns the users of ids with their roles in the active tenant.
func (s *Service) members(ctx context.Context, users []*ent.User) ([]*Member, error) {
	ids := make([]uuid.UUID, len(users))
	for i, u := range users {
		ids[i] = u.ID
	}
	ms, err := s.db(ctx).Membership.Query().Where(membership.UserIDIn(ids...)).All(ctx)
	if err != nil {
		return nil, err
	}
	roles := map[uuid.UUID][]string{}
	for _, m := range ms {
		roles[m.UserID] = m.Roles
	}
	out := make([]*Member, len(users))
	for i, u := range users {
		out[i] = &Member{User: u, Roles: orEmpty(roles[u.ID])}
	}
	return out, nil
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// inTenant filters users to the members of the active tenant.
func inTenant(tenantID uuid.UUID) predicate.User {
	return entuser.HasMembershipsWith(membership.TenantID(tenantID))
}

// List returns a page of the active tenant's users, by username.
func (s *Service) List(ctx context.Context, p paging.Page) (*paging.List[*Member], error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	q := s.db(ctx).User.Query().Where(inTenant(tid))
	l, err := paging.Fetch(ctx, q, paging.Asc(entuser.FieldUsernameKey, entuser.FieldID), p)
	if err != nil {
		return nil, err
	}
	ms, err := s.members(ctx, l.Items)
	if err != nil {
		return nil, err
	}
	return &paging.List[*Member]{Items: ms, Total: l.Total, Page: p}, nil
}

// Connection pages through the active tenant's users (GraphQL).
func (s *Service) Connection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.UserOrder, where *ent.UserWhereInput) (*ent.UserConnection, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	// The page's memberships in the tenant come with it (one query for the
	// page), so User.roles reads no row per user.
	return s.db(ctx).User.Query().Where(inTenant(tid)).
		WithMemberships(func(q *ent.MembershipQuery) { q.Where(membership.TenantID(tid)) }).
		Paginate(ctx, after, first, before, last, ent.WithUserOrder(orderBy), ent.WithUserFilter(where.Filter))
}

// RolesOf returns the roles of a user in the active tenant (GraphQL
// User.roles): from the memberships loaded with the user when there are,
// else from one query.
func (s *Service) RolesOf(ctx context.Context, u *ent.User) ([]string, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	ms, err := u.Edges.MembershipsOrErr()
	if err != nil {
		ms, err = s.db(ctx).Membership.Query().Where(membership.UserID(u.ID), membership.TenantID(tid)).All(ctx)
		if err != nil {
			return nil, err
		}
	}
	for _, m := range ms {
		if m.TenantID == tid {
			return m.Roles, nil
		}
	}
	return []string{}, nil
}

// Get returns a user of the active tenant.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*Member, error) {
	return s.member(ctx, s.client, id)
}

func (s *Service) member(ctx context.Context, c *ent.Client, id uuid.UUID) (*Member, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	u, err := c.User.Query().Where(entuser.ID(id), inTenant(tid)).Only(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, MsgNotFound, "")
	}
	ms, err := s.members(ctx, []*ent.User{u})
	if err != nil {
		return nil, err
	}
	return ms[0], nil
}

// UpdateInput is the body of PATCH /api/users/:id; nil fields are unchanged.
type UpdateInput struct {
	FirstName, LastName, Email *string
	IsActive                   *bool
}

// Update changes a user of the active tenant. Callers edit themselves
// (not their active flag) or users whose highest role, in every tenant they
// belong to, is strictly lower than the caller's: users are global
// identities, so an admin of one tenant cannot lock out or rename a user who
// ranks higher elsewhere. Deactivation applies everywhere: their keys answer
// 401 and their refresh tokens are revoked.
func (s *Service) Update(ctx context.Context, id uuid.UUID, in UpdateInput) (*Member, error) {
	v, err := sessionCaller(ctx, "update users")
	if err != nil {
		return nil, err
	}
	var msgs []string
	if in.Email != nil {
		*in.Email = strings.TrimSpace(*in.Email)
		if !email.Valid(*in.Email) {
			msgs = append(msgs, MsgEmailInvalid)
		}
	}
	if in.FirstName != nil && len([]rune(*in.FirstName)) > 100 || in.LastName != nil && len([]rune(*in.LastName)) > 100 {
		msgs = append(msgs, MsgNameTooLong)
	}
	if len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	var out *Member
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		target, err := s.member(ctx, tx, id)
		if err != nil {
			return err
		}
		if id == v.UserID {
			if in.IsActive != nil && !*in.IsActive {
				return apperr.Forbidden(MsgDeactivateSelf)
			}
		} else {
			everywhere, err := tx.Membership.Query().Where(membership.UserID(id)).All(viewer.SystemContext(ctx))
			if err != nil {
				return err
			}
			for _, m := range everywhere {
				if auth.HighestRank(m.Roles) <= auth.HighestRank(v.Roles) {
					return apperr.Forbidden(MsgManageHigher)
				}
			}
		}
		upd := tx.User.UpdateOneID(id)
		if in.FirstName != nil {
			upd.SetFirstName(strings.TrimSpace(*in.FirstName))
		}
		if in.LastName != nil {
			upd.SetLastName(strings.TrimSpace(*in.LastName))
		}
		if in.Email != nil {
			key := strings.ToLower(*in.Email)
			taken, err := tx.User.Query().Where(entuser.EmailKey(key), entuser.IDNEQ(id)).Exist(viewer.SystemContext(ctx))
			if err != nil || taken {
				return conflictOr(err, fmt.Sprintf(MsgEmailTakenFmt, *in.Email))
			}
			upd.SetEmail(*in.Email).SetEmailKey(key)
		}
		if in.IsActive != nil {
			upd.SetIsActive(*in.IsActive)
			if !*in.IsActive {
				if err := tx.RefreshToken.Update().Where(refreshtoken.UserID(id), refreshtoken.RevokedAtIsNil()).
					SetRevokedAt(clock.Now()).Exec(viewer.SystemContext(ctx)); err != nil {
					return err
				}
			}
		}
		u, err := upd.Save(ctx)
		if err != nil {
			return apperr.FromEnt(err, MsgNotFound, fmt.Sprintf(MsgEmailTakenFmt, deref(in.Email)))
		}
		out = &Member{User: u, Roles: target.Roles}
		return nil
	})
	return out, err
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
