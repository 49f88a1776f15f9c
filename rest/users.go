package rest

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/internal/user"
)

// userDTO is a user of the active tenant with their roles there.
type userDTO struct {
	ID          uuid.UUID  `json:"id"`
	Username    string     `json:"username"`
	Email       string     `json:"email"`
	FirstName   string     `json:"firstName"`
	LastName    string     `json:"lastName"`
	IsActive    bool       `json:"isActive"`
	Roles       []string   `json:"roles"`
	LastLoginAt *time.Time `json:"lastLoginAt"`
	stamps
}

func presentUser(m *user.Member) userDTO {
	return userDTO{ID: m.ID, Username: m.Username, Email: m.Email, FirstName: m.FirstName, LastName: m.LastName,
		IsActive: m.IsActive, Roles: m.Roles, LastLoginAt: m.LastLoginAt, stamps: stamps{m.CreatedAt, m.UpdatedAt}}
}

var registerBody = bodyOf(func(b *body) user.RegisterInput {
	return user.RegisterInput{Email: b.str("email").OrZero(), Username: b.str("username").OrZero(),
		Password: b.str("password").OrZero(), FirstName: b.str("first_name").OrZero(),
		LastName: b.str("last_name").OrZero(), Roles: b.strs("roles").OrZero()}
}, "email", "username", "password", "first_name", "last_name", "roles")

var userPatchBody = bodyOf(func(b *body) user.UpdateInput {
	return user.UpdateInput{FirstName: b.str("first_name").Ptr(), LastName: b.str("last_name").Ptr(),
		Email: b.str("email").Ptr(), IsActive: b.boolean("is_active").Ptr()}
}, "first_name", "last_name", "email", "is_active")

var rolesBody = bodyOf(func(b *body) []string { return b.strs("roles").OrZero() }, "roles")

// rolesSetDTO answers PUT /api/user/:id/roles.
type rolesSetDTO struct {
	Message string `json:"message"`
}

func (a *api) setUserRoles(ctx context.Context, id uuid.UUID, roles []string) (rolesSetDTO, error) {
	return rolesSetDTO{Message: user.MsgRolesUpdated}, a.Users.SetRoles(ctx, id, roles)
}
