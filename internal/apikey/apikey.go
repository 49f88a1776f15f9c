// Package apikey manages API keys: creation (the plaintext is shown once),
// listing, revocation and permission changes, all by the key's owner.
package apikey

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/apikey"
	"github.com/reten-io/reten/ent/project"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// Scopes of a key.
const (
	ScopeProject = "project"
	ScopeTenant  = "tenant"
)

// Messages of the API key rules (SPEC.md "Endpoints > API keys" where it spells them).
const (
	MsgNotFound          = "API key not found"
	MsgNotOwner          = "You do not own this API key"
	MsgNotHeldFmt        = "Cannot assign permissions you do not have: %s"
	MsgNoKeyManage       = "Cannot assign api-key:manage to an API key"
	MsgRevoked           = "Cannot update permissions of a revoked API key"
	MsgJWTOnly           = "API keys cannot manage API keys: sign in with a user session"
	MsgNameRequired      = "name should not be empty"
	MsgNameTooLong       = "name must be shorter than or equal to 255 characters"
	MsgPermsMin          = "permissions must contain at least 1 elements"
	MsgPermsUnique       = "All permissions's elements must be unique"
	MsgUnknownPermFmt    = "Unknown permission: %s"
	MsgScope             = "scope must be one of the following values: project, tenant"
	MsgProjectRequired   = "projectId is required when scope is project"
	MsgProjectForbidden  = "projectId must be empty when scope is tenant"
	MsgProjectNotInScope = "projectId must be a project of the active tenant"
	MsgExpiresPast       = "expiresAt must be in the future"
)

// Service manages the caller's API keys in the active tenant.
type Service struct {
	client *ent.Client
	now    func() time.Time
}

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client, now: time.Now} }

// CreateInput is the body of POST /api/api-keys.
type CreateInput struct {
	Name        string
	Permissions []string
	ExpiresAt   *time.Time
	Scope       string
	ProjectID   *uuid.UUID
}

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// Created is a new key with its plaintext secret (shown only once).
type Created struct {
	Key       *ent.APIKey
	Plaintext string
}

// ValidatePermissions checks a permission list: at least one, no duplicates,
// every name in the catalog.
func ValidatePermissions(perms []string) []string {
	var msgs []string
	if len(perms) == 0 {
		msgs = append(msgs, MsgPermsMin)
	}
	sorted := slices.Clone(perms)
	slices.Sort(sorted)
	if len(slices.Compact(sorted)) != len(perms) {
		msgs = append(msgs, MsgPermsUnique)
	}
	for _, p := range perms {
		if !auth.IsPermission(p) {
			msgs = append(msgs, fmt.Sprintf(MsgUnknownPermFmt, p))
		}
	}
	return msgs
}

func (in CreateInput) validate(now time.Time) []string {
	var msgs []string
	switch name := strings.TrimSpace(in.Name); {
	case name == "":
		msgs = append(msgs, MsgNameRequired)
	case utf8.RuneCountInString(name) > 255:
		msgs = append(msgs, MsgNameTooLong)
	}
	msgs = append(msgs, ValidatePermissions(in.Permissions)...)
	if in.ExpiresAt != nil && !in.ExpiresAt.After(now) {
		msgs = append(msgs, MsgExpiresPast)
	}
	switch in.Scope {
	case ScopeProject:
		if in.ProjectID == nil {
			msgs = append(msgs, MsgProjectRequired)
		}
	case ScopeTenant:
		if in.ProjectID != nil {
			msgs = append(msgs, MsgProjectForbidden)
		}
	default:
		msgs = append(msgs, MsgScope)
	}
	return msgs
}

// caller returns the principal of the access of ctx when it may manage
// keys: a user session (keys can never manage keys).
func caller(ctx context.Context) (*viewer.Viewer, error) { return tenancy.Session(ctx, MsgJWTOnly) }

// grantable checks that the caller may give perms to a key.
func grantable(v *viewer.Viewer, perms []string) error {
	if slices.Contains(perms, auth.PermAPIKeyManage) {
		return apperr.Forbidden(MsgNoKeyManage)
	}
	var missing []string
	for _, p := range perms {
		if !v.Has(p) {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		return apperr.Forbidden(fmt.Sprintf(MsgNotHeldFmt, strings.Join(missing, ", ")))
	}
	return nil
}

// Create issues a key owned by the caller in the active tenant.
func (s *Service) Create(ctx context.Context, in CreateInput) (*Created, error) {
	v, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	msgs := in.validate(s.now())
	if in.Scope == ScopeProject && in.ProjectID != nil {
		ok, err := s.db(ctx).Project.Query().Where(project.ID(*in.ProjectID), project.TenantID(v.TenantID)).Exist(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			msgs = append(msgs, MsgProjectNotInScope)
		}
	}
	if len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	if err := grantable(v, in.Permissions); err != nil {
		return nil, err
	}
	plain, prefix, hash := auth.NewAPIKeySecret()
	k, err := txn.Value(ctx, s.client, func(ctx context.Context, tx *ent.Client) (*ent.APIKey, error) {
		return tx.APIKey.Create().
			SetTenantID(v.TenantID).SetUserID(v.UserID).SetName(strings.TrimSpace(in.Name)).
			SetKeyPrefix(prefix).SetKeyHash(hash).SetPermissions(in.Permissions).
			SetScope(apikey.Scope(in.Scope)).SetNillableProjectID(in.ProjectID).
			SetNillableExpiresAt(in.ExpiresAt).Save(ctx)
	})
	if err != nil {
		return nil, err
	}
	return &Created{Key: k, Plaintext: plain}, nil
}

// List returns a page of the caller's keys in the active tenant, newest first.
func (s *Service) List(ctx context.Context, p paging.Page) (*paging.List[*ent.APIKey], error) {
	v, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	q := s.db(ctx).APIKey.Query().Where(apikey.UserID(v.UserID), apikey.TenantID(v.TenantID))
	return paging.Fetch(ctx, q, paging.Desc(apikey.FieldCreatedAt, apikey.FieldID), p)
}

// Connection pages through the caller's keys in the active tenant (GraphQL).
func (s *Service) Connection(ctx context.Context, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.APIKeyOrder, where *ent.APIKeyWhereInput) (*ent.APIKeyConnection, error) {
	v, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	return s.db(ctx).APIKey.Query().Where(apikey.UserID(v.UserID), apikey.TenantID(v.TenantID)).Paginate(ctx, after, first, before, last,
		ent.WithAPIKeyOrder(orderBy), ent.WithAPIKeyFilter(where.Filter))
}

// Get returns one of the caller's keys.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*ent.APIKey, error) {
	v, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	return s.owned(ctx, v, id)
}

// owned loads key id and checks it belongs to the caller in the active
// tenant: SPEC.md answers 403 "You do not own this API key" for another
// user's or another tenant's key, 404 only when no key has that id.
func (s *Service) owned(ctx context.Context, v *viewer.Viewer, id uuid.UUID) (*ent.APIKey, error) {
	k, err := s.db(ctx).APIKey.Get(viewer.SystemContext(ctx), id)
	if err != nil {
		return nil, apperr.FromEnt(err, MsgNotFound, "")
	}
	if k.UserID != v.UserID || k.TenantID != v.TenantID {
		return nil, apperr.Forbidden(MsgNotOwner)
	}
	return k, nil
}

// Revoke deactivates one of the caller's keys; the next request with it
// answers 401. Revoking a revoked key changes nothing.
func (s *Service) Revoke(ctx context.Context, id uuid.UUID) (*ent.APIKey, error) {
	v, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	k, err := s.owned(ctx, v, id)
	if err != nil || k.RevokedAt != nil {
		return k, err
	}
	return txn.Value(ctx, s.client, func(ctx context.Context, tx *ent.Client) (*ent.APIKey, error) {
		return tx.APIKey.UpdateOne(k).SetIsActive(false).SetRevokedAt(s.now()).Save(ctx)
	})
}

// SetPermissions replaces the permission set of one of the caller's keys; the
// secret does not change and the new set applies from the next request.
func (s *Service) SetPermissions(ctx context.Context, id uuid.UUID, perms []string) (*ent.APIKey, error) {
	v, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if msgs := ValidatePermissions(perms); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	k, err := s.owned(ctx, v, id)
	if err != nil {
		return nil, err
	}
	if k.RevokedAt != nil || !k.IsActive {
		return nil, apperr.Invalid(MsgRevoked)
	}
	if err := grantable(v, perms); err != nil {
		return nil, err
	}
	return txn.Value(ctx, s.client, func(ctx context.Context, tx *ent.Client) (*ent.APIKey, error) {
		return tx.APIKey.UpdateOne(k).SetPermissions(perms).Save(ctx)
	})
}
