package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/reten-io/reten/ent/apikey"
	"github.com/reten-io/reten/ent/membership"
	entproject "github.com/reten-io/reten/ent/project"
	"github.com/reten-io/reten/ent/user"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/viewer"
)

// Credentials: the viewer of a request from its access token's user or from
// its API key.

// UserViewer builds the viewer of a JWT request in tenant tenantID: the user
// must be active and a member of the tenant. It also reports whether
// project (uuid.Nil: none asked) is a project of the tenant. A cold check
// is one statement: the user's is_active, their membership of the tenant
// and the project (LEFT JOINs, so a non-member still yields the user row);
// a check cached in the last CredentialTTL is none.
func (s *Service) UserViewer(ctx context.Context, userID, tenantID, project uuid.UUID) (*viewer.Viewer, bool, error) {
	now := s.now()
	var gen uint64
	if s.cache != nil {
		gen = s.cache.generation()
		row, ok := lookup(s.cache, s.cache.users, userKey{userID, tenantID}, now)
		if ok {
			found, err := s.projectOf(ctx, gen, tenantID, project, now)
			return userViewer(userID, tenantID, row.roles), found, err
		}
	}
	sys := viewer.SystemContext(ctx)
	var rows []struct {
		IsActive     bool          `sql:"is_active"`
		MembershipID uuid.NullUUID `sql:"membership_id"`
		Roles        []byte        `sql:"roles"`
		ProjectID    uuid.NullUUID `sql:"project_id"`
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
			joinProject(q, project, "project_id", func(p *sql.SelectTable) *sql.Predicate {
				return sql.EQ(p.C(entproject.FieldTenantID), tenantID)
			})
		}).
		Scan(sys, &rows)
	if err != nil {
		return nil, false, fmt.Errorf("load user: %w", err)
	}
	if len(rows) == 0 {
		return nil, false, apperr.Unauthorized(MsgUnauthorized)
	}
	r := rows[0]
	if !r.IsActive {
		return nil, false, apperr.Unauthorized(MsgUnauthorized)
	}
	if !r.MembershipID.Valid {
		return nil, false, apperr.Forbidden(MsgNotTenantMember)
	}
	var memberRoles []string
	if err := json.Unmarshal(r.Roles, &memberRoles); err != nil {
		return nil, false, fmt.Errorf("load membership: roles: %w", err)
	}
	roles := sortedUnique(memberRoles...)
	if s.cache != nil {
		store(s.cache, &s.cache.users, gen, userKey{userID, tenantID}, userRow{roles: roles}, now)
		if r.ProjectID.Valid {
			store(s.cache, &s.cache.projects, gen, projectKey{tenantID, project}, struct{}{}, now)
		}
	}
	return userViewer(userID, tenantID, roles), r.ProjectID.Valid, nil
}

func userViewer(userID, tenantID uuid.UUID, roles []string) *viewer.Viewer {
	return &viewer.Viewer{UserID: userID, TenantID: tenantID, Roles: roles, Permissions: PermissionsOf(roles)}
}

// joinProject adds project (when not uuid.Nil) to q as its column alias,
// NULL unless it is a project of the tenant sameTenant names.
func joinProject(q *sql.Selector, project uuid.UUID, alias string, sameTenant func(p *sql.SelectTable) *sql.Predicate) {
	if project == uuid.Nil {
		return
	}
	p := sql.Table(entproject.Table)
	q.LeftJoin(p).OnP(sql.And(sql.EQ(p.C(entproject.FieldID), project), sameTenant(p)))
	q.AppendSelectAs(p.C(entproject.FieldID), alias)
}

// projectOf reports whether project (uuid.Nil: none asked) is one of the
// tenant's, from the cache or with one statement.
func (s *Service) projectOf(ctx context.Context, gen uint64, tenantID, project uuid.UUID, now time.Time) (bool, error) {
	if project == uuid.Nil {
		return false, nil
	}
	k := projectKey{tenantID, project}
	if s.cache != nil {
		if _, ok := lookup(s.cache, s.cache.projects, k, now); ok {
			return true, nil
		}
	}
	ok, err := s.client.Project.Query().Where(entproject.ID(project), entproject.TenantID(tenantID)).Exist(viewer.SystemContext(ctx))
	if err != nil {
		return false, fmt.Errorf("resolve project: %w", err)
	}
	if ok && s.cache != nil {
		store(s.cache, &s.cache.projects, gen, k, struct{}{}, now)
	}
	return ok, nil
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
	// HeaderProject is the project a request named when it is the key's
	// tenant's (not cached: the project is the request's).
	HeaderProject uuid.NullUUID `sql:"header_project_id"`
	// effective is what the key may do, from Permissions and OwnerRoles
	// (permissions, which sets resolved): worked out once a row, kept with
	// it in the cache.
	effective []string
	resolved  bool
}

// permissions works out k.effective: the key's permissions its owner's
// roles grant, but api-keys:manage, sorted; false when either list is not
// JSON.
func (k *keyRow) permissions() bool {
	var keyPerms, roles []string
	if json.Unmarshal(k.Permissions, &keyPerms) != nil || json.Unmarshal(k.OwnerRoles, &roles) != nil {
		return false
	}
	owner := PermissionsOf(roles)
	for _, p := range sortedUnique(keyPerms...) {
		if _, ok := slices.BinarySearch(owner, p); ok && p != PermAPIKeyManage {
			k.effective = append(k.effective, p)
		}
	}
	k.effective = slices.Clip(k.effective) // shared by the requests the cache serves: an append copies
	k.resolved = true
	return true
}

// loadKey reads the key of hash with its owner's is_active and membership in
// the key's tenant: one statement (LEFT JOINs keep the key row when either is
// missing). It returns nil when no key has that hash.
func (s *Service) loadKey(ctx context.Context, hash string, project uuid.UUID) (*keyRow, error) {
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
			joinProject(q, project, "header_project_id", func(p *sql.SelectTable) *sql.Predicate {
				return sql.ColumnsEQ(p.C(entproject.FieldTenantID), q.C(apikey.FieldTenantID))
			})
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

// KeyViewer authenticates an API key (plaintext from x-api-key) and reports
// whether project (uuid.Nil: none asked) is a project of the key's tenant.
// Effective permissions are the key's list intersected with its owner's
// current ones. A cold check is one statement (the key, its owner, the
// owner's membership and the project), plus the lastUsedAt write at most
// once a minute per key; a check cached in the last CredentialTTL is none
// (the key's expiry is still checked against the clock).
func (s *Service) KeyViewer(ctx context.Context, plaintext string, project uuid.UUID) (*viewer.Viewer, bool, error) {
	sys := viewer.SystemContext(ctx)
	hash, now := HashToken(plaintext), s.now()
	var gen uint64
	var k *keyRow
	found := false
	if s.cache != nil {
		gen = s.cache.generation()
		if row, ok := lookup(s.cache, s.cache.keys, hash, now); ok {
			k = &row
			var err error
			if found, err = s.projectOf(ctx, gen, row.TenantID, project, now); err != nil {
				return nil, false, err
			}
		}
	}
	cold := k == nil
	if cold {
		var err error
		if k, err = s.loadKey(sys, hash, project); err != nil {
			return nil, false, apperr.Unauthorized(MsgKeyValidationFailed)
		}
		if k == nil {
			return nil, false, apperr.Unauthorized(MsgKeyInvalid)
		}
		found = k.HeaderProject.Valid
	}
	if !k.IsActive || k.RevokedAt.Valid || (k.ExpiresAt.Valid && !k.ExpiresAt.Time.After(now)) {
		return nil, false, apperr.Unauthorized(MsgKeyInvalid)
	}
	if !k.OwnerActive.Valid || !k.OwnerActive.Bool {
		return nil, false, apperr.Unauthorized(MsgKeyOwnerInactive)
	}
	if !k.MembershipID.Valid {
		return nil, false, apperr.Unauthorized(MsgKeyOwnerInactive)
	}
	if !k.resolved && !k.permissions() {
		return nil, false, apperr.Unauthorized(MsgKeyValidationFailed)
	}
	used := !k.LastUsedAt.Valid || now.Sub(k.LastUsedAt.Time) >= keyUsageResolution
	if used {
		// Conditional, so concurrent replicas write at most once per minute per key.
		_ = s.client.APIKey.Update().
			Where(apikey.ID(k.ID), apikey.Or(apikey.LastUsedAtIsNil(), apikey.LastUsedAtLT(now.Add(-keyUsageResolution)))).
			SetLastUsedAt(now).Exec(sys)
		k.LastUsedAt = sql.NullTime{Time: now, Valid: true}
	}
	if s.cache != nil && (cold || used) {
		row := *k
		row.HeaderProject = uuid.NullUUID{}
		store(s.cache, &s.cache.keys, gen, hash, row, now)
		if cold && found {
			store(s.cache, &s.cache.projects, gen, projectKey{k.TenantID, project}, struct{}{}, now)
		}
	}
	v := &viewer.Viewer{UserID: k.UserID, TenantID: k.TenantID, APIKeyID: k.ID, Permissions: k.effective}
	if k.ProjectID.Valid {
		v.KeyProjectID = k.ProjectID.UUID
	}
	return v, found, nil
}
