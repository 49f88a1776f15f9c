package commerce

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"github.com/reten-io/reten/ent"
	"github.com/reten-io/reten/ent/commercecontact"
	"github.com/reten-io/reten/ent/commerceuser"
	"github.com/reten-io/reten/ent/commerceuserrole"
	"github.com/reten-io/reten/internal/apperr"
	"github.com/reten-io/reten/internal/fields"
	"github.com/reten-io/reten/internal/paging"
	"github.com/reten-io/reten/internal/tenancy"
)

// Messages of the commerce user, role and contact rules.
const (
	MsgUserNotFound      = "Commerce user not found"
	MsgUserExternalIDFmt = `A commerce user with external_id "%s" already exists in this commerce`
	MsgRole              = "role must be one of the following values: OWNER, ORDERS, FINANCE, ATTENTION, ADMIN, COMMERCE_REP, OTHER"
	MsgRolesEach         = "each value in roles must be one of the following values: OWNER, ORDERS, FINANCE, ATTENTION, ADMIN, COMMERCE_REP, OTHER"
	MsgContactNotFound   = "Contact not found"
	MsgContactType       = "contact_type must be one of the following values: EMAIL, PHONE, WHATSAPP, OTHER"
	MsgValueRequired     = "value should not be empty"
	MsgValueEmail        = "value must be an email"
	MsgValuePhone        = "value must be a valid phone number in E.164 format"
	MsgContactNoPrimary  = "An inactive contact cannot be primary"
)

// Roles are the commerce user roles, in the order responses list them.
var Roles = []string{"OWNER", "ORDERS", "FINANCE", "ATTENTION", "ADMIN", "COMMERCE_REP", "OTHER"}

// UserInput is the body of POST /api/commerces/:cId/users.
type UserInput struct {
	Name       *string
	ExternalID *string  // blank or nil: none (NULL); unique within the commerce
	Source     *string  // RETEN (default) or INTEGRATION
	Roles      []string // duplicates are ignored
}

// UserUpdate is the body of PATCH /api/commerces/:cId/users/:uId; nil
// fields are unchanged, a blank name or external_id clears it.
type UserUpdate struct {
	Name       *string
	ExternalID *string
	IsActive   *bool
}

// ContactInput is the body of POST /api/commerces/:cId/users/:uId/contacts.
type ContactInput struct {
	ContactType string // EMAIL, PHONE, WHATSAPP or OTHER
	Value       string // an email for EMAIL, E.164 for PHONE and WHATSAPP
	Source      string // RETEN or INTEGRATION
	IsPrimary   *bool  // true: becomes the primary contact of its type
}

// ContactUpdate is the body of PATCH .../contacts/:contactId; nil fields are unchanged.
type ContactUpdate struct {
	Value    *string
	Source   *string
	IsActive *bool
}

func rolesRules(prefix string, roles []string) []string {
	for _, r := range roles {
		if !slices.Contains(Roles, r) {
			return []string{prefix + MsgRolesEach}
		}
	}
	return nil
}

// sortRoles orders roles as Roles lists them.
func sortRoles(rs []*ent.CommerceUserRole) {
	slices.SortFunc(rs, func(a, b *ent.CommerceUserRole) int {
		return slices.Index(Roles, string(a.Role)) - slices.Index(Roles, string(b.Role))
	})
}

// withChildren loads users' roles (in Roles order) and contacts (oldest first).
func withChildren(q *ent.CommerceUserQuery) *ent.CommerceUserQuery {
	return q.WithRoles().WithContacts(func(q *ent.CommerceContactQuery) {
		q.Order(commercecontact.ByCreatedAt(), commercecontact.ByID())
	})
}

// loadUser returns a commerce user with roles and contacts.
func loadUser(ctx context.Context, c *ent.Client, id uuid.UUID) (*ent.CommerceUser, error) {
	u, err := withChildren(c.CommerceUser.Query().Where(commerceuser.ID(id))).Only(ctx)
	if err != nil {
		return nil, apperr.FromEnt(err, MsgUserNotFound, "")
	}
	sortRoles(u.Edges.Roles)
	return u, nil
}

// userExternalIDFree answers 409 when another user of the commerce has externalID.
func userExternalIDFree(ctx context.Context, tx *ent.Client, commerceID uuid.UUID, externalID *string, self uuid.UUID) error {
	if externalID == nil {
		return nil
	}
	return apperr.ConflictIfExists(ctx, tx.CommerceUser.Query().Where(commerceuser.CommerceID(commerceID),
		commerceuser.ExternalID(*externalID), commerceuser.IDNEQ(self)), fmt.Sprintf(MsgUserExternalIDFmt, *externalID))
}

// CreateUser adds a user (with roles) to a commerce of the active tenant.
func (s *Service) CreateUser(ctx context.Context, commerceID uuid.UUID, in UserInput) (*ent.CommerceUser, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	in.Name, in.ExternalID = fields.Trim(in.Name), fields.BlankNil(fields.Trim(in.ExternalID))
	source := "RETEN"
	var msgs []string
	if in.Source != nil {
		source = *in.Source
		if !validSource(source) {
			msgs = append(msgs, MsgSource)
		}
	}
	msgs = append(msgs, rolesRules("", in.Roles)...)
	if len(msgs) > 0 {
		return nil, apperr.Validation(msgs...)
	}
	var out *ent.CommerceUser
	err = s.writeRetrying(ctx, func(ctx context.Context, tx *ent.Client) error {
		if _, err := lockCommerce(ctx, tx, tid, commerceID); err != nil {
			return err
		}
		if err := userExternalIDFree(ctx, tx, commerceID, in.ExternalID, uuid.Nil); err != nil {
			return err
		}
		b := tx.CommerceUser.Create().SetTenantID(tid).SetCommerceID(commerceID).
			SetNillableExternalID(in.ExternalID).SetSource(commerceuser.Source(source))
		if in.Name != nil && *in.Name != "" {
			b.SetName(*in.Name)
		}
		u, err := b.Save(ctx)
		if err != nil {
			return err
		}
		if err := addRoles(ctx, tx, tid, u.ID, in.Roles, nil); err != nil {
			return err
		}
		out, err = loadUser(ctx, tx, u.ID)
		return err
	})
	return out, err
}

// addRoles gives userID the roles it does not hold yet.
func addRoles(ctx context.Context, tx *ent.Client, tid, userID uuid.UUID, roles []string, held []*ent.CommerceUserRole) error {
	var builders []*ent.CommerceUserRoleCreate
	seen := map[string]bool{}
	for _, r := range held {
		seen[string(r.Role)] = true
	}
	for _, r := range roles {
		if seen[r] {
			continue
		}
		seen[r] = true
		builders = append(builders, tx.CommerceUserRole.Create().SetTenantID(tid).SetCommerceUserID(userID).
			SetRole(commerceuserrole.Role(r)))
	}
	if len(builders) == 0 {
		return nil
	}
	return tx.CommerceUserRole.CreateBulk(builders...).Exec(ctx)
}

// UpdateUser changes a commerce user.
func (s *Service) UpdateUser(ctx context.Context, commerceID, id uuid.UUID, in UserUpdate) (*ent.CommerceUser, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	in.Name, in.ExternalID = fields.Trim(in.Name), fields.Trim(in.ExternalID)
	var out *ent.CommerceUser
	err = s.writeRetrying(ctx, func(ctx context.Context, tx *ent.Client) error {
		if _, err := lockCommerce(ctx, tx, tid, commerceID); err != nil {
			return err
		}
		u, err := tx.CommerceUser.Query().Where(commerceuser.ID(id), commerceuser.CommerceID(commerceID),
			commerceuser.TenantID(tid)).Only(ctx)
		if err != nil {
			return apperr.FromEnt(err, MsgUserNotFound, "")
		}
		if err := userExternalIDFree(ctx, tx, commerceID, fields.BlankNil(in.ExternalID), id); err != nil {
			return err
		}
		upd := tx.CommerceUser.UpdateOne(u).SetNillableIsActive(in.IsActive)
		fields.Patch(in.Name, upd.SetName, upd.ClearName)
		fields.Patch(in.ExternalID, upd.SetExternalID, upd.ClearExternalID)
		if err := upd.Exec(ctx); err != nil {
			return err
		}
		out, err = loadUser(ctx, tx, id)
		return err
	})
	return out, err
}

// AddRole gives a commerce user a role; giving a held role changes nothing.
// It returns the user with its roles and contacts.
func (s *Service) AddRole(ctx context.Context, commerceID, userID uuid.UUID, role string) (*ent.CommerceUser, error) {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(Roles, role) {
		return nil, apperr.Validation(MsgRole)
	}
	var out *ent.CommerceUser
	err = s.writeRetrying(ctx, func(ctx context.Context, tx *ent.Client) error {
		if _, err := lockUser(ctx, tx, tid, commerceID, userID); err != nil {
			return err
		}
		held, err := tx.CommerceUserRole.Query().Where(commerceuserrole.CommerceUserID(userID)).All(ctx)
		if err != nil {
			return err
		}
		if err := addRoles(ctx, tx, tid, userID, []string{role}, held); err != nil {
			return err
		}
		out, err = loadUser(ctx, tx, userID)
		return err
	})
	return out, err
}

// RemoveRole takes a role from a commerce user; removing a role the user
// does not hold changes nothing.
func (s *Service) RemoveRole(ctx context.Context, commerceID, userID uuid.UUID, role string) error {
	tid, err := tenancy.Tenant(ctx)
	if err != nil {
		return err
	}
	if !slices.Contains(Roles, role) {
		return apperr.Validation(MsgRole)
	}
	return s.writeRetrying(ctx, func(ctx context.Context, tx *ent.Client) error {
		if _, err := lockUser(ctx, tx, tid, commerceID, userID); err != nil {
			return err
		}
		_, err := tx.CommerceUserRole.Delete().Where(commerceuserrole.CommerceUserID(userID),
			commerceuserrole.RoleEQ(commerceuserrole.Role(role))).Exec(ctx)
		return err
	})
}

// ListUsers returns a page of a commerce's users (oldest first) with roles and contacts.
func (s *Service) ListUsers(ctx context.Context, commerceID uuid.UUID, p paging.Page) (*paging.List[*ent.CommerceUser], error) {
	cm, err := tenancy.Get(ctx, s.db(ctx), commerceID, liveCommerce)
	if err != nil {
		return nil, err
	}
	q := s.db(ctx).CommerceUser.Query().Where(commerceuser.CommerceID(cm.ID), commerceuser.TenantID(cm.TenantID))
	l, err := paging.Fetch(ctx, withChildren(q), paging.Asc(commerceuser.FieldCreatedAt, commerceuser.FieldID), p)
	if err != nil {
		return nil, err
	}
	for _, u := range l.Items {
		sortRoles(u.Edges.Roles)
	}
	return l, nil
}
