package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/apikey"
	"github.com/reten-io/reten/ent/membership"
	"github.com/reten-io/reten/ent/user"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/viewer"
)

// Credentials: the viewer of a request from its access token's user or from
// its API key.

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
