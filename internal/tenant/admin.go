package tenant

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // time zones without relying on the host's zoneinfo

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/membership"
	enttenant "github.com/reten-io/reten/ent/tenant"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/auth"
	projectsvc "github.com/reten-io/reten/internal/project"
	"github.com/reten-io/reten/internal/tenancy"
	"github.com/reten-io/reten/internal/txn"
	"github.com/reten-io/reten/internal/viewer"
)

// Messages of tenant administration.
const (
	MsgNotFound     = "Tenant not found"
	MsgNameRequired = "name should not be empty"
	MsgNameTooLong  = "name must be shorter than or equal to 255 characters"
	MsgTimeZone     = "time_zone must be a valid IANA time zone"
	MsgDayCutoff    = "day_cutoff must be a time of day in HH:MM format"
	MsgNameTakenFmt = `A tenant named "%s" already exists`
)

var cutoffPattern = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

// Input is the body of POST /api/tenants and PATCH /api/tenants/:id; nil
// fields keep their value (create requires Name).
type Input struct {
	Name      *string
	TimeZone  *string
	DayCutoff *string
}

func (in Input) validate(create bool) []string {
	var msgs []string
	if in.Name != nil || create {
		name := ""
		if in.Name != nil {
			name = strings.TrimSpace(*in.Name)
		}
		switch {
		case name == "":
			msgs = append(msgs, MsgNameRequired)
		case len([]rune(name)) > 255:
			msgs = append(msgs, MsgNameTooLong)
		}
	}
	if in.TimeZone != nil {
		if _, err := time.LoadLocation(*in.TimeZone); err != nil || *in.TimeZone == "" || *in.TimeZone == "Local" {
			msgs = append(msgs, MsgTimeZone)
		}
	}
	if in.DayCutoff != nil && !cutoffPattern.MatchString(*in.DayCutoff) {
		msgs = append(msgs, MsgDayCutoff)
	}
	return msgs
}

// msgAdminSession refuses an API key: administering tenants needs a user
// session.
var msgAdminSession = fmt.Sprintf(tenancy.MsgSessionOnlyFmt, "administer tenants")

// adminTenantIDs loads the caller's memberships and keeps those with super_admin.
func (s *Service) adminTenantIDs(ctx context.Context, userID uuid.UUID) ([]uuid.UUID, error) {
	ms, err := s.db(ctx).Membership.Query().Where(membership.UserID(userID)).All(viewer.SystemContext(ctx))
	if err != nil {
		return nil, err
	}
	var ids []uuid.UUID
	for _, m := range ms {
		if slices.Contains(m.Roles, auth.RoleSuperAdmin) {
			ids = append(ids, m.TenantID)
		}
	}
	return ids, nil
}

// List returns the tenants the caller administers (super_admin), by name.
func (s *Service) List(ctx context.Context) ([]*ent.Tenant, error) {
	v, err := tenancy.Session(ctx, msgAdminSession)
	if err != nil {
		return nil, err
	}
	ids, err := s.adminTenantIDs(ctx, v.UserID)
	if err != nil {
		return nil, err
	}
	return s.db(ctx).Tenant.Query().Where(enttenant.IDIn(ids...)).
		Order(enttenant.ByNameKey(), enttenant.ByID()).All(ctx)
}

// Create creates a tenant with its main project (and root audience); the
// caller becomes its super_admin.
func (s *Service) Create(ctx context.Context, in Input) (*ent.Tenant, error) {
	v, err := tenancy.Session(ctx, msgAdminSession)
	if err != nil {
		return nil, err
	}
	if msgs := in.validate(true); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	name := strings.TrimSpace(*in.Name)
	var out *ent.Tenant
	err = txn.Run(viewer.SystemContext(ctx), s.client, func(ctx context.Context, tx *ent.Client) error {
		taken, err := tx.Tenant.Query().Where(enttenant.NameKey(strings.ToLower(name))).Exist(ctx)
		if err != nil {
			return err
		}
		if taken {
			return apperr.Conflict(fmt.Sprintf(MsgNameTakenFmt, name))
		}
		t, err := tx.Tenant.Create().SetName(name).SetNameKey(strings.ToLower(name)).
			SetNillableTimeZone(in.TimeZone).SetNillableDayCutoff(in.DayCutoff).Save(ctx)
		if err != nil {
			return apperr.FromEnt(err, "", fmt.Sprintf(MsgNameTakenFmt, name))
		}
		if err := tx.Membership.Create().SetTenantID(t.ID).SetUserID(v.UserID).
			SetRoles([]string{auth.RoleSuperAdmin}).Exec(ctx); err != nil {
			return err
		}
		if _, err := projectsvc.Create(ctx, tx, t.ID, MainProjectName, true, v.UserID); err != nil {
			return err
		}
		out = t
		return nil
	})
	return out, err
}

// Update changes a tenant the caller administers; others answer 404.
func (s *Service) Update(ctx context.Context, id uuid.UUID, in Input) (*ent.Tenant, error) {
	v, err := tenancy.Session(ctx, msgAdminSession)
	if err != nil {
		return nil, err
	}
	if msgs := in.validate(false); len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	ids, err := s.adminTenantIDs(ctx, v.UserID)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(ids, id) {
		return nil, apperr.NotFound(MsgNotFound)
	}
	var out *ent.Tenant
	err = txn.Run(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		upd := tx.Tenant.UpdateOneID(id)
		if in.Name != nil {
			name := strings.TrimSpace(*in.Name)
			// Names are unique across all tenants, so the check looks beyond the caller's.
			taken, err := tx.Tenant.Query().Where(enttenant.NameKey(strings.ToLower(name)), enttenant.IDNEQ(id)).
				Exist(viewer.SystemContext(ctx))
			if err != nil {
				return err
			}
			if taken {
				return apperr.Conflict(fmt.Sprintf(MsgNameTakenFmt, name))
			}
			upd.SetName(name).SetNameKey(strings.ToLower(name))
		}
		t, err := upd.SetNillableTimeZone(in.TimeZone).SetNillableDayCutoff(in.DayCutoff).Save(ctx)
		out = t
		return apperr.FromEnt(err, MsgNotFound, fmt.Sprintf(MsgNameTakenFmt, deref(in.Name)))
	})
	return out, err
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
