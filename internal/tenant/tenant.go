// Package tenant manages tenants: the viewer's tenants and the idempotent
// bootstrap of a tenant with its main project and first super_admin.
package tenant

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/membership"
	"github.com/reten-io/reten/ent/project"
	enttenant "github.com/reten-io/reten/ent/tenant"
	"github.com/reten-io/reten/ent/user"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	projectsvc "github.com/reten-io/reten/internal/project"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// MainProjectName names the main project that bootstrap creates.
const MainProjectName = "Principal"

// Service reads tenants.
type Service struct{ client *ent.Client }

// NewService returns a Service.
func NewService(client *ent.Client) *Service { return &Service{client: client} }

// Mine lists the tenants the viewer belongs to, by name. An API key is bound
// to one tenant and sees only that one (the data layer enforces it too).
func (s *Service) Mine(ctx context.Context) ([]*ent.Tenant, error) {
	acc, err := tenancy.From(ctx)
	if err != nil {
		return nil, err
	}
	v := acc.Viewer
	q := s.db(ctx).Tenant.Query().Where(enttenant.HasMembershipsWith(membership.UserID(v.UserID)))
	if v.IsAPIKey() {
		q.Where(enttenant.ID(v.TenantID))
	}
	return q.Order(enttenant.ByNameKey(), enttenant.ByID()).All(ctx)
}

// db is the transaction client of ctx when there is one, else the pool.
func (s *Service) db(ctx context.Context) *ent.Client { return txn.Client(ctx, s.client) }

// BootstrapInput describes the tenant and first user to create.
type BootstrapInput struct {
	Tenant   string
	Email    string
	Password string
	Username string // defaults to the local part of Email
}

// BootstrapResult are the ids bootstrap prints.
type BootstrapResult struct {
	TenantID  uuid.UUID `json:"tenantId"`
	ProjectID uuid.UUID `json:"projectId"`
	UserID    uuid.UUID `json:"userId"`
}

// Validate returns the broken rules of the input.
func (in BootstrapInput) Validate() []string {
	var msgs []string
	if strings.TrimSpace(in.Tenant) == "" {
		msgs = append(msgs, "--tenant is required")
	}
	if !strings.Contains(in.Email, "@") {
		msgs = append(msgs, "--email must be an email address")
	}
	if len(in.Password) < auth.MinPasswordLength {
		msgs = append(msgs, "--password must be at least 8 characters")
	}
	return msgs
}

// Bootstrap creates, idempotently, the tenant with its main project (and root
// audience) and a super_admin user of that tenant. Running it again with the
// same tenant and email returns the same ids and changes nothing.
func Bootstrap(ctx context.Context, client *ent.Client, in BootstrapInput) (BootstrapResult, error) {
	if msgs := in.Validate(); len(msgs) > 0 {
		return BootstrapResult{}, apperr.Validation(msgs...)
	}
	if in.Username == "" {
		in.Username = in.Email[:strings.IndexByte(in.Email, '@')]
	}
	ctx = viewer.SystemContext(ctx)
	var res BootstrapResult
	err := txn.Run(ctx, client, func(ctx context.Context, tx *ent.Client) error {
		name := strings.TrimSpace(in.Tenant)
		t, err := tx.Tenant.Query().Where(enttenant.NameKey(strings.ToLower(name))).Only(ctx)
		if ent.IsNotFound(err) {
			t, err = tx.Tenant.Create().SetName(name).SetNameKey(strings.ToLower(name)).Save(ctx)
		}
		if err != nil {
			return fmt.Errorf("tenant: %w", err)
		}
		res.TenantID = t.ID

		p, err := tx.Project.Query().Where(project.TenantID(t.ID), project.IsMain(true)).Only(ctx)
		if ent.IsNotFound(err) {
			p, err = projectsvc.Create(ctx, tx, t.ID, MainProjectName, true, uuid.Nil)
		}
		if err != nil {
			return fmt.Errorf("main project: %w", err)
		}
		res.ProjectID = p.ID

		emailKey := strings.ToLower(strings.TrimSpace(in.Email))
		u, err := tx.User.Query().Where(user.EmailKey(emailKey)).Only(ctx)
		if ent.IsNotFound(err) {
			hash, herr := auth.HashPassword(in.Password)
			if herr != nil {
				return herr
			}
			u, err = tx.User.Create().SetEmail(strings.TrimSpace(in.Email)).SetEmailKey(emailKey).
				SetUsername(in.Username).SetUsernameKey(strings.ToLower(in.Username)).
				SetPasswordHash(hash).Save(ctx)
		}
		if err != nil {
			return fmt.Errorf("user: %w", err)
		}
		res.UserID = u.ID

		m, err := tx.Membership.Query().Where(membership.TenantID(t.ID), membership.UserID(u.ID)).Only(ctx)
		switch {
		case ent.IsNotFound(err):
			return tx.Membership.Create().SetTenantID(t.ID).SetUserID(u.ID).
				SetRoles([]string{auth.RoleSuperAdmin}).Exec(ctx)
		case err != nil:
			return fmt.Errorf("membership: %w", err)
		case !slices.Contains(m.Roles, auth.RoleSuperAdmin):
			return m.Update().SetRoles(append(m.Roles, auth.RoleSuperAdmin)).Exec(ctx)
		}
		return nil
	})
	return res, err
}
