package rest

import (
	"net/http"
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
	CreatedAt   time.Time  `json:"createdAt"`
	UpdatedAt   time.Time  `json:"updatedAt"`
}

func presentUser(m *user.Member) userDTO {
	return userDTO{ID: m.ID, Username: m.Username, Email: m.Email, FirstName: m.FirstName, LastName: m.LastName,
		IsActive: m.IsActive, Roles: m.Roles, LastLoginAt: m.LastLoginAt, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt}
}

const msgRolesArray = "roles must be an array of strings"

func (a *api) register(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeBody(r, "email", "username", "password", "first_name", "last_name", "roles")
	if err != nil {
		return err
	}
	var in user.RegisterInput
	in.Email, _ = b.str("email", "email must be a string")
	in.Username, _ = b.str("username", "username must be a string")
	in.Password, _ = b.str("password", "password must be a string")
	in.FirstName, _ = b.str("first_name", "first_name must be a string")
	in.LastName, _ = b.str("last_name", "last_name must be a string")
	in.Roles, _ = b.strs("roles", msgRolesArray)
	if err := b.err(); err != nil {
		return err
	}
	m, err := a.Users.Register(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, presentUser(m))
	return nil
}

func (a *api) listUsers(w http.ResponseWriter, r *http.Request) error {
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	l, err := a.Users.List(r.Context(), p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentPage(l, presentUser))
	return nil
}

func (a *api) getUser(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	m, err := a.Users.Get(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentUser(m))
	return nil
}

func (a *api) updateUser(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "first_name", "last_name", "email", "is_active")
	if err != nil {
		return err
	}
	in := user.UpdateInput{
		FirstName: b.optStr("first_name", "first_name must be a string"),
		LastName:  b.optStr("last_name", "last_name must be a string"),
		Email:     b.optStr("email", "email must be a string"),
		IsActive:  b.boolean("is_active", "is_active must be a boolean value"),
	}
	if err := b.err(); err != nil {
		return err
	}
	m, err := a.Users.Update(r.Context(), id, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, presentUser(m))
	return nil
}

func (a *api) setUserRoles(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "id")
	if err != nil {
		return err
	}
	b, err := decodeBody(r, "roles")
	if err != nil {
		return err
	}
	roles, _ := b.strs("roles", msgRolesArray)
	if err := b.err(); err != nil {
		return err
	}
	if err := a.Users.SetRoles(r.Context(), id, roles); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": user.MsgRolesUpdated})
	return nil
}
