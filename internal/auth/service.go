// Package auth authenticates requests: passwords, JWT access tokens, rotating
// refresh tokens and API keys; it also holds the permission catalog and the
// role -> permission map.
package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/go-chi/jwtauth/v5"
	"github.com/google/uuid"
	"github.com/lestrrat-go/jwx/v2/jwt"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/apikey"
	"github.com/reten-io/reten/ent/membership"
	"github.com/reten-io/reten/ent/refreshtoken"
	"github.com/reten-io/reten/ent/user"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// Token lifetimes (SPEC.md "Limits").
const (
	AccessTokenTTL  = 15 * time.Minute
	RefreshTokenTTL = 7 * 24 * time.Hour
	// keyUsageResolution bounds lastUsedAt writes to one per key per minute.
	keyUsageResolution = time.Minute
)

// Service authenticates users and keys.
type Service struct {
	client *ent.Client
	jwt    *jwtauth.JWTAuth
	now    func() time.Time
}

// NewService returns the authentication service; secret signs access tokens (HS256).
func NewService(client *ent.Client, secret []byte) *Service {
	return &Service{client: client, jwt: jwtauth.New(accessTokenAlg, secret, nil), now: time.Now}
}

// SetClock replaces the clock (tests).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

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
		CheckPassword(string(dummyHash), in.Password)
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

// IssueAccessToken signs a 15-minute access token for the user.
func (s *Service) IssueAccessToken(userID uuid.UUID, now time.Time) (string, error) {
	_, tok, err := s.jwt.Encode(map[string]any{
		jwt.SubjectKey:    userID.String(),
		jwt.IssuedAtKey:   now.Unix(),
		jwt.ExpirationKey: now.Add(AccessTokenTTL).Unix(),
		"typ":             "access",
	})
	return tok, err
}

// UserFromAccessToken verifies an access token and returns its user id. The
// token must be compact, name exactly HS256 in its header, verify with the
// secret and carry an exp that has not passed.
func (s *Service) UserFromAccessToken(token string) (uuid.UUID, error) {
	if !headerAlgIs(token, accessTokenAlg) {
		return uuid.Nil, apperr.Unauthorized(MsgUnauthorized)
	}
	t, err := jwtauth.VerifyToken(s.jwt, token)
	if err != nil {
		return uuid.Nil, apperr.Unauthorized(MsgUnauthorized)
	}
	// Without WithRequiredClaim a token without exp would never expire.
	if err := jwt.Validate(t, jwt.WithClock(jwt.ClockFunc(s.now)), jwt.WithRequiredClaim(jwt.ExpirationKey)); err != nil {
		return uuid.Nil, apperr.Unauthorized(MsgUnauthorized)
	}
	if typ, _ := t.PrivateClaims()["typ"].(string); typ != "access" {
		return uuid.Nil, apperr.Unauthorized(MsgUnauthorized)
	}
	id, err := uuid.Parse(t.Subject())
	if err != nil {
		return uuid.Nil, apperr.Unauthorized(MsgUnauthorized)
	}
	return id, nil
}

// UserViewer builds the viewer of a JWT request in tenant tenantID: the user
// must be active and a member of the tenant. One statement reads the user's
// is_active and their membership of the tenant (LEFT JOIN, so a non-member
// still yields the user row).
func (s *Service) UserViewer(ctx context.Context, userID, tenantID uuid.UUID) (*viewer.Viewer, error) {
	sys := viewer.SystemContext(ctx)
	var rows []struct {
		IsActive     bool          `sql:"is_active"`
		MembershipID uuid.NullUUID `sql:"membership_id"`
		Roles        []byte        `sql:"roles"`
	}
	err := s.client.User.Query().Where(user.ID(userID)).Select(user.FieldIsActive).
		Modify(func(q *sql.Selector) {
			m := sql.Table(membership.Table)
			q.LeftJoin(m).OnP(sql.And(
				sql.ColumnsEQ(m.C(membership.FieldUserID), q.C(user.FieldID)),
				sql.EQ(m.C(membership.FieldTenantID), tenantID),
			))
			q.AppendSelectAs(m.C(membership.FieldID), "membership_id").
				AppendSelectAs(m.C(membership.FieldRoles), "roles")
		}).
		Scan(sys, &rows)
	if err != nil {
		return nil, fmt.Errorf("load user: %w", err)
	}
	if len(rows) == 0 {
		return nil, apperr.Unauthorized(MsgUnauthorized)
	}
	r := rows[0]
	if !r.IsActive {
		return nil, apperr.Unauthorized(MsgUnauthorized)
	}
	if !r.MembershipID.Valid {
		return nil, apperr.Forbidden(MsgNotTenantMember)
	}
	var memberRoles []string
	if err := json.Unmarshal(r.Roles, &memberRoles); err != nil {
		return nil, fmt.Errorf("load membership: roles: %w", err)
	}
	roles := sortedUnique(memberRoles...)
	return &viewer.Viewer{UserID: userID, TenantID: tenantID, Roles: roles, Permissions: PermissionsOf(roles)}, nil
}

// keyRow is an API key with its owner's state, as KeyViewer reads it in one
// statement: owner_active is NULL when the owner row is missing, membership_id
// and owner_roles are NULL when the owner is not a member of the key's tenant.
type keyRow struct {
	ID           uuid.UUID     `sql:"id"`
	TenantID     uuid.UUID     `sql:"tenant_id"`
	UserID       uuid.UUID     `sql:"user_id"`
	ProjectID    uuid.NullUUID `sql:"project_id"`
	Permissions  []byte        `sql:"permissions"`
	IsActive     bool          `sql:"is_active"`
	ExpiresAt    sql.NullTime  `sql:"expires_at"`
	RevokedAt    sql.NullTime  `sql:"revoked_at"`
	LastUsedAt   sql.NullTime  `sql:"last_used_at"`
	OwnerActive  sql.NullBool  `sql:"owner_active"`
	MembershipID uuid.NullUUID `sql:"membership_id"`
	OwnerRoles   []byte        `sql:"owner_roles"`
}

// loadKey reads the key of hash with its owner's is_active and membership in
// the key's tenant: one statement (LEFT JOINs keep the key row when either is
// missing). It returns nil when no key has that hash.
func (s *Service) loadKey(ctx context.Context, hash string) (*keyRow, error) {
	var rows []keyRow
	err := s.client.APIKey.Query().Where(apikey.KeyHash(hash)).
		Select(apikey.FieldID, apikey.FieldTenantID, apikey.FieldUserID, apikey.FieldProjectID,
			apikey.FieldPermissions, apikey.FieldIsActive, apikey.FieldExpiresAt, apikey.FieldRevokedAt,
			apikey.FieldLastUsedAt).
		Modify(func(q *sql.Selector) {
			u := sql.Table(user.Table)
			m := sql.Table(membership.Table)
			q.LeftJoin(u).On(q.C(apikey.FieldUserID), u.C(user.FieldID))
			q.LeftJoin(m).OnP(sql.And(
				sql.ColumnsEQ(m.C(membership.FieldUserID), q.C(apikey.FieldUserID)),
				sql.ColumnsEQ(m.C(membership.FieldTenantID), q.C(apikey.FieldTenantID)),
			))
			q.AppendSelectAs(u.C(user.FieldIsActive), "owner_active").
				AppendSelectAs(m.C(membership.FieldID), "membership_id").
				AppendSelectAs(m.C(membership.FieldRoles), "owner_roles")
		}).
		Scan(ctx, &rows)
	switch {
	case err != nil:
		return nil, err
	case len(rows) == 0:
		return nil, nil
	case len(rows) > 1: // key_hash is unique; kept as ent's Only would fail
		return nil, fmt.Errorf("api key: %d rows for one hash", len(rows))
	}
	return &rows[0], nil
}

// KeyViewer authenticates an API key (plaintext from x-api-key). Effective
// permissions are the key's list intersected with its owner's current ones.
// The key, its owner and the owner's membership come from one statement (plus
// the lastUsedAt write, at most once a minute per key).
func (s *Service) KeyViewer(ctx context.Context, plaintext string) (*viewer.Viewer, error) {
	sys := viewer.SystemContext(ctx)
	k, err := s.loadKey(sys, HashToken(plaintext))
	if err != nil {
		return nil, apperr.Unauthorized(MsgKeyValidationFailed)
	}
	if k == nil {
		return nil, apperr.Unauthorized(MsgKeyInvalid)
	}
	var keyPerms []string
	if json.Unmarshal(k.Permissions, &keyPerms) != nil {
		return nil, apperr.Unauthorized(MsgKeyValidationFailed)
	}
	now := s.now()
	if !k.IsActive || k.RevokedAt.Valid || (k.ExpiresAt.Valid && !k.ExpiresAt.Time.After(now)) {
		return nil, apperr.Unauthorized(MsgKeyInvalid)
	}
	if !k.OwnerActive.Valid || !k.OwnerActive.Bool {
		return nil, apperr.Unauthorized(MsgKeyOwnerInactive)
	}
	if !k.MembershipID.Valid {
		return nil, apperr.Unauthorized(MsgKeyOwnerInactive)
	}
	var roles []string
	if json.Unmarshal(k.OwnerRoles, &roles) != nil {
		return nil, apperr.Unauthorized(MsgKeyValidationFailed)
	}
	if !k.LastUsedAt.Valid || now.Sub(k.LastUsedAt.Time) >= keyUsageResolution {
		// Conditional, so concurrent replicas write at most once per minute per key.
		_ = s.client.APIKey.Update().
			Where(apikey.ID(k.ID), apikey.Or(apikey.LastUsedAtIsNil(), apikey.LastUsedAtLT(now.Add(-keyUsageResolution)))).
			SetLastUsedAt(now).Exec(sys)
	}
	owner := PermissionsOf(roles)
	var effective []string
	for _, p := range sortedUnique(keyPerms...) {
		if _, ok := slices.BinarySearch(owner, p); ok && p != PermAPIKeyManage {
			effective = append(effective, p)
		}
	}
	v := &viewer.Viewer{UserID: k.UserID, TenantID: k.TenantID, APIKeyID: k.ID, Permissions: effective}
	if k.ProjectID.Valid {
		v.KeyProjectID = k.ProjectID.UUID
	}
	return v, nil
}

// Require returns the SPEC.md 403 when the viewer lacks the permission.
func Require(v *viewer.Viewer, permission string) error {
	if v.Has(permission) {
		return nil
	}
	return apperr.Forbidden(fmt.Sprintf(MsgRequiredPermissionsFm, permission))
}

// RequireCtx is Require for the viewer of ctx (used by services).
func RequireCtx(ctx context.Context, permission string) error {
	return Require(viewer.FromContext(ctx), permission)
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// TenantFor checks the permission and returns the viewer's tenant: the first
// line of every tenant-level service method.
func TenantFor(ctx context.Context, permission string) (uuid.UUID, error) {
	if err := RequireCtx(ctx, permission); err != nil {
		return uuid.Nil, err
	}
	return viewer.FromContext(ctx).TenantID, nil
}
