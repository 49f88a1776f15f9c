package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/membership"
	"github.com/reten-io/reten/ent/refreshtoken"
	"github.com/reten-io/reten/ent/user"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// Sessions: login, rotating refresh tokens and logout.

// LoginUser is the user block of the login response.
type LoginUser struct {
	ID          uuid.UUID   `json:"id"`
	Username    string      `json:"username"`
	Email       string      `json:"email"`
	FirstName   string      `json:"firstName"`
	LastName    string      `json:"lastName"`
	Roles       []string    `json:"roles"`
	Permissions []string    `json:"permissions"`
	TenantIDs   []uuid.UUID `json:"tenantIds"`
}

// Session is the outcome of a login or refresh.
type Session struct {
	AccessToken  string
	RefreshToken string
	RefreshUntil time.Time
	User         LoginUser
}

// LoginInput is the body of POST /api/auth/login.
type LoginInput struct {
	Identifier string
	Password   string
	UserAgent  string
	IP         string
}

// Validate returns one message per broken rule.
func (in LoginInput) Validate() []string {
	var msgs []string
	if strings.TrimSpace(in.Identifier) == "" {
		msgs = append(msgs, "identifier should not be empty")
	}
	if len(in.Password) < MinPasswordLength {
		msgs = append(msgs, "password must be longer than or equal to 8 characters")
	}
	return msgs
}

// Login checks the identifier (username or email) and password and opens a session.
func (s *Service) Login(ctx context.Context, in LoginInput) (*Session, error) {
	if msgs := in.Validate(); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	sys := viewer.SystemContext(ctx)
	u, err := s.userByIdentifier(sys, in.Identifier)
	switch {
	case ent.IsNotFound(err):
		CheckPassword(dummyHash, in.Password)
		return nil, apperr.Unauthorized(MsgInvalidCredentials)
	case err != nil:
		return nil, fmt.Errorf("login: %w", err)
	}
	if !CheckPassword(u.PasswordHash, in.Password) || !u.IsActive {
		return nil, apperr.Unauthorized(MsgInvalidCredentials)
	}
	if err := u.Update().SetLastLoginAt(s.now()).Exec(sys); err != nil {
		return nil, fmt.Errorf("login: %w", err)
	}
	return s.openSession(sys, u, in.UserAgent, in.IP)
}

// userByIdentifier finds the user an identifier (email or username, trimmed,
// case-insensitive) names. An email wins over a username that happens to
// look the same.
func (s *Service) userByIdentifier(sys context.Context, identifier string) (*ent.User, error) {
	key := strings.ToLower(strings.TrimSpace(identifier))
	u, err := s.client.User.Query().Where(user.EmailKey(key)).Only(sys)
	if ent.IsNotFound(err) {
		u, err = s.client.User.Query().Where(user.UsernameKey(key)).Only(sys)
	}
	return u, err
}

// LoginAccount returns the id of the user a login identifier names, or
// uuid.Nil when it names none. Login throttling counts attempts per account
// with it, so a user's email and username share one budget.
func (s *Service) LoginAccount(ctx context.Context, identifier string) (uuid.UUID, error) {
	if strings.TrimSpace(identifier) == "" {
		return uuid.Nil, nil
	}
	u, err := s.userByIdentifier(viewer.SystemContext(ctx), identifier)
	switch {
	case ent.IsNotFound(err):
		return uuid.Nil, nil
	case err != nil:
		return uuid.Nil, fmt.Errorf("login account: %w", err)
	}
	return u.ID, nil
}

// ErrRefreshRaced marks the 401 of a refresh token that another request
// rotated moments ago (two tabs, a retry): the session is not revoked and the
// client keeps the cookie the winning request set.
var ErrRefreshRaced = errors.New("refresh token rotated by a concurrent request")

// refreshGrace is how long a just-rotated token counts as a concurrent retry
// rather than a replay.
const refreshGrace = 30 * time.Second

// Refresh validates a refresh token, rotates it and issues a new access token.
// Presenting a token rotated more than refreshGrace ago signals a stolen token:
// every token of its family (the login's chain) is revoked.
func (s *Service) Refresh(ctx context.Context, token, userAgent, ip string) (*Session, error) {
	sys := viewer.SystemContext(ctx)
	if token == "" {
		return nil, apperr.Unauthorized(MsgInvalidRefresh)
	}
	var (
		sess    *Session
		outcome error
	)
	err := txn.Run(sys, s.client, func(ctx context.Context, tx *ent.Client) error {
		rt, err := tx.RefreshToken.Query().Where(refreshtoken.TokenHash(HashToken(token))).Only(ctx)
		if ent.IsNotFound(err) {
			outcome = apperr.Unauthorized(MsgInvalidRefresh)
			return nil
		}
		if err != nil {
			return err
		}
		now := s.now()
		switch {
		case rt.RevokedAt != nil && rt.ReplacedBy != nil && now.Sub(*rt.RevokedAt) < refreshGrace:
			outcome = &apperr.Error{Kind: apperr.KindUnauthorized, Messages: []string{MsgInvalidRefresh}, Err: ErrRefreshRaced}
			return nil
		case rt.RevokedAt != nil && rt.ReplacedBy != nil:
			// Replay of a rotated token: cut the whole family off (committed).
			outcome = apperr.Unauthorized(MsgInvalidRefresh)
			return tx.RefreshToken.Update().
				Where(refreshtoken.FamilyID(rt.FamilyID), refreshtoken.RevokedAtIsNil()).
				SetRevokedAt(now).Exec(ctx)
		case rt.RevokedAt != nil || !rt.ExpiresAt.After(now):
			outcome = apperr.Unauthorized(MsgInvalidRefresh)
			return nil
		}
		u, err := tx.User.Get(ctx, rt.UserID)
		if err != nil || !u.IsActive {
			outcome = apperr.Unauthorized(MsgInvalidRefresh)
			return nil
		}
		// Claim the token atomically: of two concurrent refreshes, one wins.
		n, err := tx.RefreshToken.Update().Where(refreshtoken.ID(rt.ID), refreshtoken.RevokedAtIsNil()).
			SetRevokedAt(now).Save(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			outcome = &apperr.Error{Kind: apperr.KindUnauthorized, Messages: []string{MsgInvalidRefresh}, Err: ErrRefreshRaced}
			return nil
		}
		var newID uuid.UUID
		sess, newID, err = s.openSessionTx(ctx, tx, u, rt.FamilyID, userAgent, ip)
		if err != nil {
			return err
		}
		return tx.RefreshToken.UpdateOneID(rt.ID).SetReplacedBy(newID).Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	if outcome != nil {
		return nil, outcome
	}
	return sess, nil
}

// Logout revokes the refresh token (unknown or revoked tokens are ignored).
func (s *Service) Logout(ctx context.Context, token string) error {
	if token == "" {
		return nil
	}
	sys := viewer.SystemContext(ctx)
	_, err := s.client.RefreshToken.Update().
		Where(refreshtoken.TokenHash(HashToken(token)), refreshtoken.RevokedAtIsNil()).
		SetRevokedAt(s.now()).Save(sys)
	return err
}

func (s *Service) openSession(ctx context.Context, u *ent.User, ua, ip string) (*Session, error) {
	var sess *Session
	err := txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) (err error) {
		sess, _, err = s.openSessionTx(ctx, tx, u, uuid.New(), ua, ip)
		return err
	})
	return sess, err
}

// openSessionTx issues an access token and stores a new refresh token of
// family; it returns the refresh token's row id for rotation links.
func (s *Service) openSessionTx(ctx context.Context, tx *ent.Client, u *ent.User, family uuid.UUID, ua, ip string) (*Session, uuid.UUID, error) {
	now := s.now()
	access, err := s.IssueAccessToken(u.ID, now)
	if err != nil {
		return nil, uuid.Nil, err
	}
	refresh := randomToken(32)
	until := now.Add(RefreshTokenTTL)
	rt, err := tx.RefreshToken.Create().
		SetUserID(u.ID).SetTokenHash(HashToken(refresh)).SetFamilyID(family).SetExpiresAt(until).
		SetUserAgent(truncate(ua, 512)).SetIP(truncate(ip, 64)).Save(ctx)
	if err != nil {
		return nil, uuid.Nil, err
	}
	lu, err := s.loginUser(ctx, tx, u)
	if err != nil {
		return nil, uuid.Nil, err
	}
	return &Session{AccessToken: access, RefreshToken: refresh, RefreshUntil: until, User: lu}, rt.ID, nil
}

// loginUser describes u across all their tenants: roles and permissions are
// the unions over the memberships (the active tenant's own set is applied per
// request from x-tenant-id).
func (s *Service) loginUser(ctx context.Context, c *ent.Client, u *ent.User) (LoginUser, error) {
	ms, err := c.Membership.Query().Where(membership.UserID(u.ID)).Order(membership.ByCreatedAt()).All(ctx)
	if err != nil {
		return LoginUser{}, err
	}
	lu := LoginUser{ID: u.ID, Username: u.Username, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName,
		Roles: []string{}, Permissions: []string{}, TenantIDs: []uuid.UUID{}}
	for _, m := range ms {
		lu.TenantIDs = append(lu.TenantIDs, m.TenantID)
		lu.Roles = append(lu.Roles, m.Roles...)
	}
	lu.Roles = sortedUnique(lu.Roles...)
	lu.Permissions = PermissionsOf(lu.Roles)
	return lu, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
